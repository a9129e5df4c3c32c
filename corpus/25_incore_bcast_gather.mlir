// InCore broadcast then allgather on one shared [NR, 1] signal: each rank
// stages bias b[r], a broadcast from root 0 makes every copy b[0], rank r
// computes m[r] = col_max(x[r] + b[0]), and an allgather pushes m[r] into row r
// of every rank's "table". PyPTO: back-to-back composites, self-clearing signal.

!X = !pl.tensor<?x8x64xf32>
!Slice3 = !pl.tensor<1x8x64xf32>
!Local = !pl.tensor<8x64xf32>
!B = !pl.tensor<?x64xf32>
!BRow = !pl.tensor<1x64xf32>
!Bias = !pld.dtensor<1x64xf32>
!Table = !pld.dtensor<?x64xf32>
!Sig = !pld.dtensor<?x1xi32>
!T = !pl.tile<8x64xf32, vec>
!R = !pl.tile<1x64xf32, vec>

func.func @main(%x: !X, %b: !B, %m: !B {pl.direction = #pl.direction<out>})
    attributes {pl.level = #pl.level<host>, pl.role = #pl.role<orchestrator>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %row_bytes = arith.constant 256 : i64
  %cell = arith.constant 4 : i64
  %world = pld.system.world_size : i64
  %table_bytes = arith.muli %world, %row_bytes : i64
  %sig_bytes = arith.muli %world, %cell : i64
  %bias_buf = pld.tensor.alloc_window_buffer %row_bytes name "bias" : i64 -> !pl.ptr
  %table_buf = pld.tensor.alloc_window_buffer %table_bytes name "table" : i64 -> !pl.ptr
  %sig_buf = pld.tensor.alloc_window_buffer %sig_bytes name "signal" : i64 -> !pl.ptr
  %bias = pld.tensor.window %bias_buf : !pl.ptr -> !Bias
  %table = pld.tensor.window %table_buf : !pl.ptr -> !Table
  %sig = pld.tensor.window %sig_buf : !pl.ptr -> !Sig
  %devices = arith.index_cast %world : i64 to index
  scf.for %r = %c0 to %devices step %c1 {
    %xs = pl.tensor.slice %x[%r, %c0, %c0] : !X -> !Slice3
    %xr = pl.tensor.view %xs : !Slice3 -> !Local
    %br = pl.tensor.slice %b[%r, %c0] : !B -> !BRow
    %mr = pl.tensor.slice %m[%r, %c0] : !B -> !BRow
    pld.dispatch @chip(%xr, %br, %mr, %bias, %table, %sig) on %r : (!Local, !BRow, !BRow, !Bias, !Table, !Sig) -> ()
  }
  return
}

func.func @chip(%x: !Local, %b: !BRow, %m: !BRow, %bias: !Bias, %table: !Table, %sig: !Sig)
    attributes {pl.kind = #pl.kind<orchestration>} {
  pl.call @shift_max_share(%x, %b, %m, %bias, %table, %sig) : (!Local, !BRow, !BRow, !Bias, !Table, !Sig) -> ()
  return
}

func.func @shift_max_share(%x: !Local, %b: !BRow, %m: !BRow {pl.direction = #pl.direction<inout>},
                           %bias: !Bias, %table: !Table, %sig: !Sig) attributes {pl.kind = #pl.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %mine = pl.tile.load %b[%c0, %c0] : !BRow -> !R
  %staged = pl.tile.store %mine, %bias[%c0, %c0] : !R, !Bias
  %shared = pld.tensor.broadcast %bias, %sig root 0 : !Bias, !Sig
  %bt = pl.tile.load %shared[%c0, %c0] : !Bias -> !R
  %xt = pl.tile.load %x[%c0, %c0] : !Local -> !T
  %shifted = pl.tile.col_expand_add %xt, %bt : !T, !R -> !T
  %peak = pl.tile.col_max %shifted : !T -> !R
  %st = pl.tile.store %peak, %m[%c0, %c0] : !R, !BRow
  %all = pld.tensor.allgather %m, %table, %sig : !BRow, !Table, !Sig
  return
}
