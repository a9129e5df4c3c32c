// Host builtin allreduces of two kinds on one staged slice: a max (mesh, the
// signal synthesized) and a sum (ring, on a [2(W-1)+1, W] signal sized from
// the world size). Each device then writes out[r] = (x[r] - max) + 0.5 * sum.
// PyPTO: host collectives on windows between dispatch rounds, x[r] slices.

!X = !pl.tensor<?x8x64xf32>
!Slice3 = !pl.tensor<1x8x64xf32>
!Local = !pl.tensor<8x64xf32>
!Win = !pld.dtensor<8x64xf32>
!Ring = !pld.dtensor<?x?xi32>
!T = !pl.tile<8x64xf32, vec>

func.func @main(%x: !X, %out: !X {pl.direction = #pl.direction<out>})
    attributes {pl.level = #pl.level<host>, pl.role = #pl.role<orchestrator>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %bytes = arith.constant 2048 : i64
  %c1_i64 = arith.constant 1 : i64
  %c2_i64 = arith.constant 2 : i64
  %c4_i64 = arith.constant 4 : i64
  %world = pld.system.world_size : i64
  %peak_buf = pld.tensor.alloc_window_buffer %bytes name "peak" : i64 -> !pl.ptr
  %total_buf = pld.tensor.alloc_window_buffer %bytes name "total" : i64 -> !pl.ptr
  %peak = pld.tensor.window %peak_buf : !pl.ptr -> !Win
  %total = pld.tensor.window %total_buf : !pl.ptr -> !Win
  // Ring signal: 2(W-1)+1 rows of W i32 cells.
  %others = arith.subi %world, %c1_i64 : i64
  %twice = arith.muli %others, %c2_i64 : i64
  %rows = arith.addi %twice, %c1_i64 : i64
  %cells = arith.muli %rows, %world : i64
  %ring_bytes = arith.muli %cells, %c4_i64 : i64
  %ring_buf = pld.tensor.alloc_window_buffer %ring_bytes name "ring_signal" : i64 -> !pl.ptr
  %rows_index = arith.index_cast %rows : i64 to index
  %world_index = arith.index_cast %world : i64 to index
  %ring = pld.tensor.window %ring_buf sizes(%rows_index, %world_index) : !pl.ptr -> !Ring
  scf.for %r = %c0 to %world_index step %c1 {
    %xs = pl.tensor.slice %x[%r, %c0, %c0] : !X -> !Slice3
    %xr = pl.tensor.view %xs : !Slice3 -> !Local
    pld.dispatch @stage(%xr, %peak, %total) on %r : (!Local, !Win, !Win) -> ()
  }
  %peak2 = pld.tensor.allreduce %peak max mesh cores 1 : !Win
  %total2 = pld.tensor.allreduce %total, %ring sum ring cores 1 : !Win, !Ring
  scf.for %r = %c0 to %world_index step %c1 {
    %xs = pl.tensor.slice %x[%r, %c0, %c0] : !X -> !Slice3
    %xr = pl.tensor.view %xs : !Slice3 -> !Local
    %os = pl.tensor.slice %out[%r, %c0, %c0] : !X -> !Slice3
    %or = pl.tensor.view %os : !Slice3 -> !Local
    pld.dispatch @finish(%xr, %peak2, %total2, %or) on %r : (!Local, !Win, !Win, !Local) -> ()
  }
  return
}

func.func @stage(%x: !Local, %peak: !Win, %total: !Win) attributes {pl.kind = #pl.kind<orchestration>} {
  pl.call @copy_in(%x, %peak, %total) : (!Local, !Win, !Win) -> ()
  return
}

func.func @copy_in(%x: !Local, %peak: !Win {pl.direction = #pl.direction<out>}, %total: !Win {pl.direction = #pl.direction<out>})
    attributes {pl.kind = #pl.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %t = pl.tile.load %x[%c0, %c0] : !Local -> !T
  %a = pl.tile.store %t, %peak[%c0, %c0] : !T, !Win
  %b = pl.tile.store %t, %total[%c0, %c0] : !T, !Win
  return
}

func.func @finish(%x: !Local, %peak: !Win, %total: !Win, %out: !Local) attributes {pl.kind = #pl.kind<orchestration>} {
  pl.call @combine(%x, %peak, %total, %out) : (!Local, !Win, !Win, !Local) -> ()
  return
}

func.func @combine(%x: !Local, %peak: !Win, %total: !Win, %out: !Local {pl.direction = #pl.direction<out>})
    attributes {pl.kind = #pl.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %half = arith.constant 0.5 : f32
  %mine = pl.tile.load %x[%c0, %c0] : !Local -> !T
  %m = pl.tile.load %peak[%c0, %c0] : !Win -> !T
  %s = pl.tile.load %total[%c0, %c0] : !Win -> !T
  %d = pl.tile.sub %mine, %m : !T, !T -> !T
  %h = pl.tile.muls %s, %half : !T, f32
  %o = pl.tile.add %d, %h : !T, !T -> !T
  %st = pl.tile.store %o, %out[%c0, %c0] : !T, !Local
  return
}
