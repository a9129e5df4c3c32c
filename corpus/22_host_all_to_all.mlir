// Host builtin all_to_all + barrier on one [W] signal: device s stages
// 2*x[s]+1 (W rows) into "send", the host moves row d of s into row s of d's
// "recv" and barriers, and device d copies its W rows to out[d]. PyPTO: an
// out-of-place host collective on `?`-row windows, dynamic per-device slices.

!X = !pl.tensor<?x32xf32>
!Block = !pl.tensor<?x32xf32>
!Win = !pld.dtensor<?x32xf32>
!Sig = !pld.dtensor<?xi32>
!R = !pl.tile<1x32xf32, vec>

func.func @main(%x: !X, %out: !X {pl.direction = #pl.direction<out>})
    attributes {pl.level = #pl.level<host>, pl.role = #pl.role<orchestrator>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %row_bytes = arith.constant 128 : i64
  %cell = arith.constant 4 : i64
  %world = pld.system.world_size : i64
  %bytes = arith.muli %world, %row_bytes : i64
  %sig_bytes = arith.muli %world, %cell : i64
  %send_buf = pld.tensor.alloc_window_buffer %bytes name "send" : i64 -> !pl.ptr
  %recv_buf = pld.tensor.alloc_window_buffer %bytes name "recv" : i64 -> !pl.ptr
  %sig_buf = pld.tensor.alloc_window_buffer %sig_bytes name "signal" : i64 -> !pl.ptr
  %send = pld.tensor.window %send_buf : !pl.ptr -> !Win
  %recv = pld.tensor.window %recv_buf : !pl.ptr -> !Win
  %sig = pld.tensor.window %sig_buf : !pl.ptr -> !Sig
  %devices = arith.index_cast %world : i64 to index
  scf.for %r = %c0 to %devices step %c1 {
    %first = arith.muli %r, %devices : index
    %block = pl.tensor.slice %x[%first, %c0] sizes(%devices) : !X -> !Block
    pld.dispatch @stage(%block, %send) on %r : (!Block, !Win) -> ()
  }
  %swapped = pld.tensor.all_to_all %send, %recv, %sig : !Win, !Win, !Sig
  %done = pld.tensor.barrier %sig : !Sig
  scf.for %r = %c0 to %devices step %c1 {
    %first = arith.muli %r, %devices : index
    %block = pl.tensor.slice %out[%first, %c0] sizes(%devices) : !X -> !Block
    pld.dispatch @collect(%swapped, %block) on %r : (!Win, !Block) -> ()
  }
  return
}

func.func @stage(%block: !Block, %send: !Win) attributes {pl.kind = #pl.kind<orchestration>} {
  pl.call @affine_rows(%block, %send) : (!Block, !Win) -> ()
  return
}

func.func @affine_rows(%block: !Block, %send: !Win {pl.direction = #pl.direction<out>}) attributes {pl.kind = #pl.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %two = arith.constant 2.0 : f32
  %one = arith.constant 1.0 : f32
  %ctx = pld.system.get_comm_ctx %send : !Win
  %n = pld.system.nranks %ctx : i32
  %rows = arith.index_cast %n : i32 to index
  scf.for %i = %c0 to %rows step %c1 {
    %t = pl.tile.load %block[%i, %c0] : !Block -> !R
    %m = pl.tile.muls %t, %two : !R, f32
    %a = pl.tile.adds %m, %one : !R, f32
    %s = pl.tile.store %a, %send[%i, %c0] : !R, !Win
  }
  return
}

func.func @collect(%recv: !Win, %block: !Block) attributes {pl.kind = #pl.kind<orchestration>} {
  pl.call @copy_out(%recv, %block) : (!Win, !Block) -> ()
  return
}

func.func @copy_out(%recv: !Win, %block: !Block {pl.direction = #pl.direction<out>}) attributes {pl.kind = #pl.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %ctx = pld.system.get_comm_ctx %recv : !Win
  %n = pld.system.nranks %ctx : i32
  %rows = arith.index_cast %n : i32 to index
  scf.for %i = %c0 to %rows step %c1 {
    %t = pl.tile.load %recv[%i, %c0] : !Win -> !R
    %s = pl.tile.store %t, %block[%i, %c0] : !R, !Block
  }
  return
}
