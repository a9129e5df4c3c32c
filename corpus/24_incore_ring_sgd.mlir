// Data-parallel SGD step: one kernel stages gradient g[r] in a window, runs an
// InCore ring allreduce (sum, [2(NR-1), NR] signal typed ?x?) and writes
// out[r] = w[r] - lr * sum / NR. PyPTO: a scalar f32 host parameter passed
// through pld.dispatch and pl.call; ring mode; dynamic rank count.

!X = !pl.tensor<?x4x64xf32>
!Slice3 = !pl.tensor<1x4x64xf32>
!Local = !pl.tensor<4x64xf32>
!Grad = !pld.dtensor<4x64xf32>
!Ring = !pld.dtensor<?x?xi32>
!T = !pl.tile<4x64xf32, vec>

func.func @main(%w: !X, %g: !X, %lr: f32, %out: !X {pl.direction = #pl.direction<out>})
    attributes {pl.level = #pl.level<host>, pl.role = #pl.role<orchestrator>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %grad_bytes = arith.constant 1024 : i64
  %c1_i64 = arith.constant 1 : i64
  %c8_i64 = arith.constant 8 : i64
  %c2_i64 = arith.constant 2 : i64
  %world = pld.system.world_size : i64
  %grad_buf = pld.tensor.alloc_window_buffer %grad_bytes name "grad" : i64 -> !pl.ptr
  %grad = pld.tensor.window %grad_buf : !pl.ptr -> !Grad
  %others = arith.subi %world, %c1_i64 : i64
  %cells = arith.muli %others, %world : i64
  %ring_bytes = arith.muli %cells, %c8_i64 : i64
  %ring_buf = pld.tensor.alloc_window_buffer %ring_bytes name "ring_signal" : i64 -> !pl.ptr
  %rows = arith.muli %others, %c2_i64 : i64
  %rows_index = arith.index_cast %rows : i64 to index
  %devices = arith.index_cast %world : i64 to index
  %ring = pld.tensor.window %ring_buf sizes(%rows_index, %devices) : !pl.ptr -> !Ring
  scf.for %r = %c0 to %devices step %c1 {
    %ws = pl.tensor.slice %w[%r, %c0, %c0] : !X -> !Slice3
    %wr = pl.tensor.view %ws : !Slice3 -> !Local
    %gs = pl.tensor.slice %g[%r, %c0, %c0] : !X -> !Slice3
    %gr = pl.tensor.view %gs : !Slice3 -> !Local
    %os = pl.tensor.slice %out[%r, %c0, %c0] : !X -> !Slice3
    %or = pl.tensor.view %os : !Slice3 -> !Local
    pld.dispatch @chip(%wr, %gr, %lr, %or, %grad, %ring) on %r : (!Local, !Local, f32, !Local, !Grad, !Ring) -> ()
  }
  return
}

func.func @chip(%w: !Local, %g: !Local, %lr: f32, %out: !Local, %grad: !Grad, %ring: !Ring)
    attributes {pl.kind = #pl.kind<orchestration>} {
  pl.call @sgd_step(%w, %g, %lr, %out, %grad, %ring) : (!Local, !Local, f32, !Local, !Grad, !Ring) -> ()
  return
}

func.func @sgd_step(%w: !Local, %g: !Local, %lr: f32, %out: !Local {pl.direction = #pl.direction<out>},
                    %grad: !Grad, %ring: !Ring) attributes {pl.kind = #pl.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %gt = pl.tile.load %g[%c0, %c0] : !Local -> !T
  %st = pl.tile.store %gt, %grad[%c0, %c0] : !T, !Grad
  %sum = pld.tensor.allreduce %grad, %ring sum ring cores 1 : !Grad, !Ring
  %ctx = pld.system.get_comm_ctx %grad : !Grad
  %n = pld.system.nranks %ctx : i32
  %nf = arith.sitofp %n : i32 to f32
  %step = arith.divf %lr, %nf : f32
  %s = pl.tile.load %sum[%c0, %c0] : !Grad -> !T
  %scaled = pl.tile.muls %s, %step : !T, f32
  %wt = pl.tile.load %w[%c0, %c0] : !Local -> !T
  %new = pl.tile.sub %wt, %scaled : !T, !T -> !T
  %o = pl.tile.store %new, %out[%c0, %c0] : !T, !Local
  return
}
