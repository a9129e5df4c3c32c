// Tensor-parallel RMSNorm over column shards x[r] (16x64) of a 16x(64W)
// matrix. Kernel 1: row sums of squares + InCore mesh allreduce (sum, [NR, 1]
// signal); kernel 2: out[r] = x[r] * rsqrt(ss / (64 NR) + eps). PyPTO: a chip
// orchestration calling two kernels, composite collective, dynamic NR.

!X = !pl.tensor<?x16x64xf32>
!Slice3 = !pl.tensor<1x16x64xf32>
!Local = !pl.tensor<16x64xf32>
!SS = !pld.dtensor<16x1xf32>
!Sig = !pld.dtensor<?x1xi32>
!T = !pl.tile<16x64xf32, vec>
!C = !pl.tile<16x1xf32, vec>

func.func @main(%x: !X, %out: !X {pl.direction = #pl.direction<out>})
    attributes {pl.level = #pl.level<host>, pl.role = #pl.role<orchestrator>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %ss_bytes = arith.constant 64 : i64
  %cell = arith.constant 4 : i64
  %world = pld.system.world_size : i64
  %sig_bytes = arith.muli %world, %cell : i64
  %ss_buf = pld.tensor.alloc_window_buffer %ss_bytes name "sumsq" : i64 -> !pl.ptr
  %sig_buf = pld.tensor.alloc_window_buffer %sig_bytes name "signal" : i64 -> !pl.ptr
  %ss = pld.tensor.window %ss_buf : !pl.ptr -> !SS
  %sig = pld.tensor.window %sig_buf : !pl.ptr -> !Sig
  %devices = arith.index_cast %world : i64 to index
  scf.for %r = %c0 to %devices step %c1 {
    %xs = pl.tensor.slice %x[%r, %c0, %c0] : !X -> !Slice3
    %xr = pl.tensor.view %xs : !Slice3 -> !Local
    %os = pl.tensor.slice %out[%r, %c0, %c0] : !X -> !Slice3
    %or = pl.tensor.view %os : !Slice3 -> !Local
    pld.dispatch @chip(%xr, %or, %ss, %sig) on %r : (!Local, !Local, !SS, !Sig) -> ()
  }
  return
}

func.func @chip(%x: !Local, %out: !Local, %ss: !SS, %sig: !Sig) attributes {pl.kind = #pl.kind<orchestration>} {
  pl.call @sumsq(%x, %ss, %sig) : (!Local, !SS, !Sig) -> ()
  pl.call @normalize(%x, %ss, %out) : (!Local, !SS, !Local) -> ()
  return
}

func.func @sumsq(%x: !Local, %ss: !SS, %sig: !Sig) attributes {pl.kind = #pl.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %t = pl.tile.load %x[%c0, %c0] : !Local -> !T
  %sq = pl.tile.mul %t, %t : !T, !T -> !T
  %tmp = pl.tile.create : !T
  %rows = pl.tile.row_sum %sq, %tmp : !T, !T -> !C
  %st = pl.tile.store %rows, %ss[%c0, %c0] : !C, !SS
  %total = pld.tensor.allreduce %ss, %sig sum mesh cores 1 : !SS, !Sig
  return
}

func.func @normalize(%x: !Local, %ss: !SS, %out: !Local {pl.direction = #pl.direction<out>}) attributes {pl.kind = #pl.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %eps = arith.constant 1.0e-5 : f32
  %cols = arith.constant 64 : i32
  %ctx = pld.system.get_comm_ctx %ss : !SS
  %n = pld.system.nranks %ctx : i32
  %width = arith.muli %n, %cols : i32
  %wf = arith.sitofp %width : i32 to f32
  %one = arith.constant 1.0 : f32
  %inv = arith.divf %one, %wf : f32
  %s = pl.tile.load %ss[%c0, %c0] : !SS -> !C
  %mean = pl.tile.muls %s, %inv : !C, f32
  %shift = pl.tile.adds %mean, %eps : !C, f32
  %scale = pl.tile.rsqrt %shift : !C
  %t = pl.tile.load %x[%c0, %c0] : !Local -> !T
  %y = pl.tile.row_expand_mul %t, %scale : !T, !C -> !T
  %st = pl.tile.store %y, %out[%c0, %c0] : !T, !Local
  return
}
