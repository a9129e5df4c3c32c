// An SPMD scope written inline in the orchestration, as PyPTO's
// `for b in pl.spmd(4, sync_start=True):` body: pl-outline-incore-scopes
// makes its body a kernel launched on 4 blocks (pl.submit ... blocks).
// Block b takes rows [16b, 16b + 16) of x: their exponential, less the
// block count (pl.tensor.get_block_num).
!X = !pl.tensor<64x64xf32>
!W = !pl.tensor<16x64xf32>

func.func @main(%x: !X) -> !X attributes {pl.kind = #pl.kind<orchestration>} {
  %c4 = arith.constant 4 : index
  %o = pl.tensor.create() : !X
  %r = pl.spmd_scope blocks %c4 sync_start -> !X {
    %c0 = arith.constant 0 : index
    %c16 = arith.constant 16 : index
    %b = pl.tensor.get_block_idx
    %n = pl.tensor.get_block_num
    %ni = arith.index_cast %n : index to i32
    %nf = arith.sitofp %ni : i32 to f32
    %row = arith.muli %b, %c16 : index
    %w = pl.tensor.slice %x[%row, %c0] : !X -> !W
    %e = pl.tensor.exp %w : !W
    %y = pl.tensor.subs %e, %nf : !W, f32
    %s = pl.tensor.assemble %y into %o[%row, %c0] : !W, !X
    pl.yield %s : !X
  }
  return %r : !X
}
