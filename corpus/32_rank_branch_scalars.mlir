// Kernel control flow on pld.system.rank with host scalars: even ranks compute
// relu(x[r]) * alpha, odd ranks beta - x[r] * alpha, rank (lead mod NR) adds 1;
// each writes out[r] and an InCore mesh allreduce sums them. PyPTO:
// pl.Scalar parameters (f32, f32, i32) passed through pld.dispatch.

!X = !pl.tensor<?x16x32xf32>
!Slice3 = !pl.tensor<1x16x32xf32>
!Local = !pl.tensor<16x32xf32>
!Acc = !pld.dtensor<16x32xf32>
!Sig = !pld.dtensor<?x1xi32>
!T = !pl.tile<16x32xf32, vec>

func.func @main(%x: !X, %alpha: f32, %beta: f32, %lead: i32, %out: !X {pl.direction = #pl.direction<out>})
    attributes {pl.level = #pl.level<host>, pl.role = #pl.role<orchestrator>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %bytes = arith.constant 2048 : i64
  %cell = arith.constant 4 : i64
  %world = pld.system.world_size : i64
  %sig_bytes = arith.muli %world, %cell : i64
  %acc_buf = pld.tensor.alloc_window_buffer %bytes name "acc" : i64 -> !pl.ptr
  %sig_buf = pld.tensor.alloc_window_buffer %sig_bytes name "signal" : i64 -> !pl.ptr
  %acc = pld.tensor.window %acc_buf : !pl.ptr -> !Acc
  %sig = pld.tensor.window %sig_buf : !pl.ptr -> !Sig
  %devices = arith.index_cast %world : i64 to index
  scf.for %r = %c0 to %devices step %c1 {
    %xs = pl.tensor.slice %x[%r, %c0, %c0] : !X -> !Slice3
    %xr = pl.tensor.view %xs : !Slice3 -> !Local
    %os = pl.tensor.slice %out[%r, %c0, %c0] : !X -> !Slice3
    %or = pl.tensor.view %os : !Slice3 -> !Local
    pld.dispatch @chip(%xr, %alpha, %beta, %lead, %or, %acc, %sig) on %r : (!Local, f32, f32, i32, !Local, !Acc, !Sig) -> ()
  }
  return
}

func.func @chip(%x: !Local, %alpha: f32, %beta: f32, %lead: i32, %out: !Local, %acc: !Acc, %sig: !Sig)
    attributes {pl.kind = #pl.kind<orchestration>} {
  pl.call @by_role(%x, %alpha, %beta, %lead, %out, %acc, %sig) : (!Local, f32, f32, i32, !Local, !Acc, !Sig) -> ()
  return
}

func.func @by_role(%x: !Local, %alpha: f32, %beta: f32, %lead: i32, %out: !Local {pl.direction = #pl.direction<out>},
                   %acc: !Acc, %sig: !Sig) attributes {pl.kind = #pl.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0 : i32
  %two = arith.constant 2 : i32
  %onef = arith.constant 1.0 : f32
  %zerof = arith.constant 0.0 : f32
  %ctx = pld.system.get_comm_ctx %acc : !Acc
  %me = pld.system.rank %ctx : i32
  %n = pld.system.nranks %ctx : i32
  %t = pl.tile.load %x[%c0, %c0] : !Local -> !T
  %parity = arith.remsi %me, %two : i32
  %even = arith.cmpi eq, %parity, %zero : i32
  %y = scf.if %even -> (!T) {
    %r = pl.tile.maximums %t, %zerof : !T, f32
    %s = pl.tile.muls %r, %alpha : !T, f32
    scf.yield %s : !T
  } else {
    %neg = arith.negf %alpha : f32
    %s = pl.tile.muls %t, %neg : !T, f32
    %b = pl.tile.adds %s, %beta : !T, f32
    scf.yield %b : !T
  }
  %chosen = arith.remsi %lead, %n : i32
  %is_lead = arith.cmpi eq, %me, %chosen : i32
  %y2 = scf.if %is_lead -> (!T) {
    %p = pl.tile.adds %y, %onef : !T, f32
    scf.yield %p : !T
  } else {
    scf.yield %y : !T
  }
  %o = pl.tile.store %y2, %out[%c0, %c0] : !T, !Local
  %a = pl.tile.store %y2, %acc[%c0, %c0] : !T, !Acc
  %sum = pld.tensor.allreduce %acc, %sig sum mesh cores 1 : !Acc, !Sig
  return
}
