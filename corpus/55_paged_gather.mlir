// Rows gathered from global memory into on-chip tiles: a paged cache's
// rows through a block table (pl.tensor.paged_gather: logical positions
// -> pages of 16 rows -> physical rows, one row gather each, as attention
// reads a paged KV cache) and a window of rows gathered into a block of
// zeros (pl.tensor.gather_row, its valid rows a runtime count), then
// scaled. Both kernels convert to loops of window loads assembled into a
// vector tile.
!Cache = !pl.tensor<256x128xf16>
!Idx = !pl.tensor<1x16xi32>
!K = !pl.tensor<16x128xf16>
!W = !pl.tensor<8x64xf16>

func.func @paged(%cache: !Cache, %idx: !Idx, %table: !Idx) -> !K attributes {pl.kind = #pl.kind<incore>} {
  %k = pl.tensor.paged_gather %cache, %idx, %table block_size 16 : !Cache, !Idx, !Idx -> !K
  return %k : !K
}

func.func @rows(%cache: !Cache, %start: i32, %count: i32, %scale: f16) -> !W attributes {pl.kind = #pl.kind<incore>} {
  %c2 = arith.constant 2 : index
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %zero = arith.constant 0.0 : f16
  %row = arith.index_cast %start : i32 to index
  %n = arith.index_cast %count : i32 to index
  %z = pl.tensor.full %zero() : f16 -> !W
  %w = pl.tensor.gather_row %cache[%row, %c32] into %z[%c2, %c0] shape [5, 64] valid(%n, %c64) : !Cache, !W
  %s = pl.tensor.muls %w, %scale : !W, f16
  return %s : !W
}

func.func @main(%cache: !Cache, %idx: !Idx, %table: !Idx, %start: i32, %count: i32, %scale: f16) -> (!K, !W) attributes {pl.kind = #pl.kind<orchestration>} {
  %k, %t0 = pl.submit @paged(%cache, %idx, %table) : (!Cache, !Idx, !Idx) -> !K
  %w, %t1 = pl.submit @rows(%cache, %start, %count, %scale) : (!Cache, i32, i32, f16) -> !W
  return %k, %w : !K, !W
}
