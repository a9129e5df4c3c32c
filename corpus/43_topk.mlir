// Top-64 of 256 scores, as PyPTO's routers select experts: an index
// sequence (pl.tensor.ci), 32-element block sorts into (value, index)
// pairs (sort32), two four-way merges of runs (mrgsort_format1) and a
// merge of the two halves cut to 64 pairs (mrgsort_format2), then the
// values and the indices picked out of the pairs (gather_mask), the
// indices' bits read as i32.
!S = !pl.tensor<1x256xf32>
!U = !pl.tensor<1x256xui32>
!P = !pl.tensor<1x512xf32>
!H = !pl.tensor<1x256xf32>
!K = !pl.tensor<1x128xf32>

func.func @topk(%scores: !S) -> (!pl.tensor<1x64xf32>, !pl.tensor<1x64xi32>) attributes {pl.kind = #pl.kind<incore>} {
  %c0 = arith.constant 0 : i32
  %c64 = arith.constant 64 : i32
  %i0 = arith.constant 0 : index
  %i256 = arith.constant 256 : index
  %idx = pl.tensor.ci %c0 : i32 -> !U
  %pairs = pl.tensor.sort32 %scores, %idx : !S, !U -> !P
  %runs = pl.tensor.mrgsort_format1 %pairs, %c64 : !P, i32
  %lo = pl.tensor.slice %runs[%i0, %i0] : !P -> !H
  %hi = pl.tensor.slice %runs[%i0, %i256] : !P -> !H
  %top = pl.tensor.mrgsort_format2 %lo, %hi : !H, !H -> !K
  %values = pl.tensor.gather_mask %top p0101 : !K -> !pl.tensor<1x64xf32>
  %indices = pl.tensor.gather_mask %top p1010 : !K -> !pl.tensor<1x64xi32>
  return %values, %indices : !pl.tensor<1x64xf32>, !pl.tensor<1x64xi32>
}

func.func @main(%scores: !S) -> (!pl.tensor<1x64xf32>, !pl.tensor<1x64xi32>) attributes {pl.kind = #pl.kind<orchestration>} {
  %v, %i, %task = pl.submit @topk(%scores) : (!S) -> (!pl.tensor<1x64xf32>, !pl.tensor<1x64xi32>)
  return %v, %i : !pl.tensor<1x64xf32>, !pl.tensor<1x64xi32>
}
