// Tensor-parallel row softmax over column shards x[r] (16x64): three kernels
// from one chip orchestration, row max + InCore allreduce max, exp row sums +
// allreduce sum (same [NR, 1] signal), then out[r] = exp(x[r] - max) / sum.
// PyPTO: multi-kernel orchestration, `?`-sized signal, dynamic rank count.

!X = !pl.tensor<?x16x64xf32>
!Slice3 = !pl.tensor<1x16x64xf32>
!Local = !pl.tensor<16x64xf32>
!Col = !pld.dtensor<16x1xf32>
!Sig = !pld.dtensor<?x1xi32>
!T = !pl.tile<16x64xf32, vec>
!C = !pl.tile<16x1xf32, vec>

func.func @main(%x: !X, %out: !X {pl.direction = #pl.direction<out>})
    attributes {pl.level = #pl.level<host>, pl.role = #pl.role<orchestrator>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %col_bytes = arith.constant 64 : i64
  %cell = arith.constant 4 : i64
  %world = pld.system.world_size : i64
  %sig_bytes = arith.muli %world, %cell : i64
  %max_buf = pld.tensor.alloc_window_buffer %col_bytes name "row_max" : i64 -> !pl.ptr
  %sum_buf = pld.tensor.alloc_window_buffer %col_bytes name "row_sum" : i64 -> !pl.ptr
  %sig_buf = pld.tensor.alloc_window_buffer %sig_bytes name "signal" : i64 -> !pl.ptr
  %mx = pld.tensor.window %max_buf : !pl.ptr -> !Col
  %sm = pld.tensor.window %sum_buf : !pl.ptr -> !Col
  %sig = pld.tensor.window %sig_buf : !pl.ptr -> !Sig
  %devices = arith.index_cast %world : i64 to index
  scf.for %r = %c0 to %devices step %c1 {
    %xs = pl.tensor.slice %x[%r, %c0, %c0] : !X -> !Slice3
    %xr = pl.tensor.view %xs : !Slice3 -> !Local
    %os = pl.tensor.slice %out[%r, %c0, %c0] : !X -> !Slice3
    %or = pl.tensor.view %os : !Slice3 -> !Local
    pld.dispatch @chip(%xr, %or, %mx, %sm, %sig) on %r : (!Local, !Local, !Col, !Col, !Sig) -> ()
  }
  return
}

func.func @chip(%x: !Local, %out: !Local, %mx: !Col, %sm: !Col, %sig: !Sig) attributes {pl.kind = #pl.kind<orchestration>} {
  pl.call @global_max(%x, %mx, %sig) : (!Local, !Col, !Sig) -> ()
  pl.call @global_sum(%x, %mx, %sm, %sig) : (!Local, !Col, !Col, !Sig) -> ()
  pl.call @normalize(%x, %mx, %sm, %out) : (!Local, !Col, !Col, !Local) -> ()
  return
}

func.func @global_max(%x: !Local, %mx: !Col, %sig: !Sig) attributes {pl.kind = #pl.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %t = pl.tile.load %x[%c0, %c0] : !Local -> !T
  %tmp = pl.tile.create : !T
  %m = pl.tile.row_max %t, %tmp : !T, !T -> !C
  %st = pl.tile.store %m, %mx[%c0, %c0] : !C, !Col
  %r = pld.tensor.allreduce %mx, %sig max mesh cores 1 : !Col, !Sig
  return
}

func.func @global_sum(%x: !Local, %mx: !Col, %sm: !Col, %sig: !Sig) attributes {pl.kind = #pl.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %t = pl.tile.load %x[%c0, %c0] : !Local -> !T
  %m = pl.tile.load %mx[%c0, %c0] : !Col -> !C
  %d = pl.tile.row_expand_sub %t, %m : !T, !C -> !T
  %e = pl.tile.exp %d : !T
  %tmp = pl.tile.create : !T
  %s = pl.tile.row_sum %e, %tmp : !T, !T -> !C
  %st = pl.tile.store %s, %sm[%c0, %c0] : !C, !Col
  %r = pld.tensor.allreduce %sm, %sig sum mesh cores 1 : !Col, !Sig
  return
}

func.func @normalize(%x: !Local, %mx: !Col, %sm: !Col, %out: !Local {pl.direction = #pl.direction<out>})
    attributes {pl.kind = #pl.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %t = pl.tile.load %x[%c0, %c0] : !Local -> !T
  %m = pl.tile.load %mx[%c0, %c0] : !Col -> !C
  %s = pl.tile.load %sm[%c0, %c0] : !Col -> !C
  %d = pl.tile.row_expand_sub %t, %m : !T, !C -> !T
  %e = pl.tile.exp %d : !T
  %y = pl.tile.row_expand_div %e, %s : !T, !C -> !T
  %st = pl.tile.store %y, %out[%c0, %c0] : !T, !Local
  return
}
