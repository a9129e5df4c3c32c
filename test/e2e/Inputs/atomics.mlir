// Atomic transfers into one rank's windows: every rank adds its input row to
// rank 0's `sums` (an atomic remote store) and to rank 0's `puts` (an atomic
// tile put through a staging tile); the adds of concurrent ranks must all
// land. A barrier before the adds keeps rank 0's zeroing first.
!Acc = !pld.dtensor<1x256xf32>
!Sig = !pld.dtensor<?x1xi32>
!Row = !pl.tile<1x256xf32, vec>

func.func @main(%input: !pl.tensor<?x256xf32>) attributes {pl.level = #pl.level<host>, pl.role = #pl.role<orchestrator>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %row_bytes = arith.constant 1024 : i64
  %i32_bytes = arith.constant 4 : i64
  %world = pld.system.world_size : i64
  %sig_bytes = arith.muli %world, %i32_bytes : i64
  %sums_buf = pld.tensor.alloc_window_buffer %row_bytes name "sums" : i64 -> !pl.ptr
  %puts_buf = pld.tensor.alloc_window_buffer %row_bytes name "puts" : i64 -> !pl.ptr
  %sig_buf = pld.tensor.alloc_window_buffer %sig_bytes name "signal" : i64 -> !pl.ptr
  %sums = pld.tensor.window %sums_buf : !pl.ptr -> !Acc
  %puts = pld.tensor.window %puts_buf : !pl.ptr -> !Acc
  %sig = pld.tensor.window %sig_buf : !pl.ptr -> !Sig
  %devices = arith.index_cast %world : i64 to index
  scf.for %device = %c0 to %devices step %c1 {
    pld.dispatch @chip(%input, %sums, %puts, %sig) on %device : (!pl.tensor<?x256xf32>, !Acc, !Acc, !Sig) -> ()
  }
  return
}

func.func @chip(%input: !pl.tensor<?x256xf32>, %sums: !Acc, %puts: !Acc, %sig: !Sig) attributes {pl.kind = #pl.kind<orchestration>} {
  pl.call @accumulate(%input, %sums, %puts, %sig) : (!pl.tensor<?x256xf32>, !Acc, !Acc, !Sig) -> ()
  return
}

func.func @accumulate(%input: !pl.tensor<?x256xf32>, %sums: !Acc, %puts: !Acc, %sig: !Sig) attributes {pl.kind = #pl.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c256 = arith.constant 256 : index
  %zero = arith.constant 0.0 : f32
  %root = arith.constant 0 : i32
  %ctx = pld.system.get_comm_ctx %sums : !Acc
  %me = pld.system.rank %ctx : i32
  %row = arith.index_cast %me : i32 to index
  %is_root = arith.cmpi eq, %me, %root : i32
  scf.if %is_root {
    %z = pl.tile.full %zero : f32 -> !Row
    pld.tile.remote_store %z, %sums[%c0, %c0] to %root none : !Row, !Acc
    pld.tile.remote_store %z, %puts[%c0, %c0] to %root none : !Row, !Acc
  }
  %s = pld.tensor.barrier %sig : !Sig
  %mine = pl.tile.load %input[%row, %c0] : !pl.tensor<?x256xf32> -> !Row
  pld.tile.remote_store %mine, %sums[%c0, %c0] to %root add : !Row, !Acc
  %stage = pl.tile.create : !Row
  pld.tile.put %puts to %root from %input stage %stage region [%c0, %c0] [%row, %c0] [%c1, %c256] add : !Acc, !pl.tensor<?x256xf32>, !Row
  return
}
