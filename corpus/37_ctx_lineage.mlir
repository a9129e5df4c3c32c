// Communication contexts followed through a program's aliases: a kernel
// returns the window it posted into (a call result), an scf.if picks that
// window or a view of it, and the reading kernel asks for the context of a
// view of its parameter. Rank r puts x[r] into its right neighbour's inbox,
// barriers, then writes out[r] = inbox + (rank + 1) * x[r]. PyPTO: tensors
// passed on through calls, branches and views keep their domain.

!X = !pl.tensor<?x4x64xf32>
!Slice3 = !pl.tensor<1x4x64xf32>
!Local = !pl.tensor<4x64xf32>
!Win = !pld.dtensor<4x64xf32>
!Flat = !pld.dtensor<1x256xf32>
!Sig = !pld.dtensor<?x1xi32>
!T = !pl.tile<4x64xf32, vec>

func.func @main(%x: !X, %out: !X {pl.direction = #pl.direction<out>})
    attributes {pl.level = #pl.level<host>, pl.role = #pl.role<orchestrator>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %bytes = arith.constant 1024 : i64
  %cell = arith.constant 4 : i64
  %world = pld.system.world_size : i64
  %sig_bytes = arith.muli %world, %cell : i64
  %inbox_buf = pld.tensor.alloc_window_buffer %bytes name "inbox" : i64 -> !pl.ptr
  %sig_buf = pld.tensor.alloc_window_buffer %sig_bytes name "signal" : i64 -> !pl.ptr
  %inbox = pld.tensor.window %inbox_buf : !pl.ptr -> !Win
  %sig = pld.tensor.window %sig_buf : !pl.ptr -> !Sig
  %devices = arith.index_cast %world : i64 to index
  scf.for %r = %c0 to %devices step %c1 {
    %xs = pl.tensor.slice %x[%r, %c0, %c0] : !X -> !Slice3
    %xr = pl.tensor.view %xs : !Slice3 -> !Local
    %os = pl.tensor.slice %out[%r, %c0, %c0] : !X -> !Slice3
    %or = pl.tensor.view %os : !Slice3 -> !Local
    pld.dispatch @chip(%xr, %or, %inbox, %sig, %r) on %r : (!Local, !Local, !Win, !Sig, index) -> ()
  }
  return
}

func.func @chip(%x: !Local, %out: !Local, %inbox: !Win, %sig: !Sig, %r: index) attributes {pl.kind = #pl.kind<orchestration>} {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %posted = pl.call @publish(%x, %inbox, %sig) : (!Local, !Win, !Sig) -> !Win
  %parity = arith.remsi %r, %c2 : index
  %odd = arith.cmpi eq, %parity, %c1 : index
  %either = scf.if %odd -> !Win {
    scf.yield %posted : !Win
  } else {
    %flat = pl.tensor.view %posted : !Win -> !Flat
    %back = pl.tensor.view %flat : !Flat -> !Win
    scf.yield %back : !Win
  }
  pl.call @collect(%either, %x, %out) : (!Win, !Local, !Local) -> ()
  return
}

func.func @publish(%x: !Local, %inbox: !Win, %sig: !Sig) -> !Win attributes {pl.kind = #pl.kind<aiv>} {
  %one = arith.constant 1 : i32
  %ctx = pld.system.get_comm_ctx %inbox : !Win
  %me = pld.system.rank %ctx : i32
  %n = pld.system.nranks %ctx : i32
  %next = arith.addi %me, %one : i32
  %right = arith.remsi %next, %n : i32
  pld.tensor.put %inbox to %right from %x none chunk 0, 0 : !Win, !Local
  %s1 = pld.tensor.barrier %sig : !Sig
  return %inbox : !Win
}

func.func @collect(%inbox: !Win, %x: !Local, %out: !Local {pl.direction = #pl.direction<out>})
    attributes {pl.kind = #pl.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1 : i32
  %flat = pl.tensor.view %inbox : !Win -> !Flat
  %ctx = pld.system.get_comm_ctx %flat : !Flat
  %me = pld.system.rank %ctx : i32
  %plus = arith.addi %me, %one : i32
  %scale = arith.sitofp %plus : i32 to f32
  %got = pl.tile.load %inbox[%c0, %c0] : !Win -> !T
  %mine = pl.tile.load %x[%c0, %c0] : !Local -> !T
  %scaled = pl.tile.muls %mine, %scale : !T, f32
  %sum = pl.tile.add %got, %scaled : !T, !T -> !T
  %st = pl.tile.store %sum, %out[%c0, %c0] : !T, !Local
  return
}
