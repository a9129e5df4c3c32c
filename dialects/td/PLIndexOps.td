//===- PLIndexOps.td - index sequences, sorts and gathers --*- tablegen -*-===//
//
// Ops that compute with positions: index sequences, the block sort and
// merge of (value, index) pairs that top-k selection is built from, and
// gathers by index or by mask. Each has a tile form (an a2a3 vector
// instruction) and a tensor form that pl-convert-tensor-to-tile turns into
// it. Rules in dialects/src/verify/indexing.rs.
//
//===----------------------------------------------------------------------===//

#ifndef PTO_PL_INDEX_OPS_TD
#define PTO_PL_INDEX_OPS_TD

include "PLOps.td"

// The element types of an index sequence.
defvar ciElements = [I16, I32, UI16, UI32];
// The element types of sorted values.
defvar sortElements = [F16, F32];

//===----------------------------------------------------------------------===//
// Index sequences
//===----------------------------------------------------------------------===//

def PL_TileCiOp : PL_Op<"tile.ci", [PL_TilePure]> {
  let ptoFamily = "tile_generate";
  let ptoPipe = "s";
  let ptoInstruction = "TCI";
  let ptoA2A3ElementTypes = ["i16", "i32", "ui16", "ui32"];
  let summary = "An index sequence in a one-row tile";
  let description = [{
    Returns a tile whose element `j` is `start + j` (`start - j` with
    `descending`), in the element type's arithmetic (wrapping). The tile
    has one row: every dimension but the last is 1, and the last is not 1.
    `start` is an integer of the element type's width. On a2a3 it is TCI,
    a loop of scalar stores. Example:

    ```mlir
    %i = pl.tile.ci %c0 : i32 -> !pl.tile<1x256xi32, vec>
    %d = pl.tile.ci %c9 descending : i32 -> !pl.tile<1x16xui32, vec>
    ```
  }];
  let arguments = (ins AnySignlessInteger:$start, UnitAttr:$descending);
  let results = (outs PL_TileOf<ciElements>:$result);
  let assemblyFormat = [{
    $start (`descending` $descending^)? attr-dict `:` type($start) `->` qualified(type($result))
  }];
}

def PL_TensorCiOp : PL_Op<"tensor.ci", [PL_TensorCompute]> {
  let ptoFamily = "tensor_generate";
  let ptoTileForm = "pl.tile.ci";
  let summary = "An index sequence in a one-row tensor";
  let description = [{
    Returns a tensor whose element `j` is `start + j` (`start - j` with
    `descending`), as `pl.tile.ci`: a static shape whose dimensions but the
    last are 1. Example:

    ```mlir
    %i = pl.tensor.ci %c0 : i32 -> !pl.tensor<1x256xui32>
    ```
  }];
  let arguments = (ins AnySignlessInteger:$start, UnitAttr:$descending);
  let results = (outs PL_TensorOf<ciElements>:$result);
  let assemblyFormat = [{
    $start (`descending` $descending^)? attr-dict `:` type($start) `->` qualified(type($result))
  }];
}

def PL_TileTriOp : PL_Op<"tile.tri", [PL_TilePure]> {
  let ptoFamily = "tile_generate";
  let ptoPipe = "v";
  let ptoInstruction = "TTRI";
  let ptoA2A3ElementTypes = ["i16", "i32", "ui16", "ui32", "f16", "f32"];
  let summary = "A triangular mask of ones and zeros";
  let description = [{
    Returns a 2-D tile whose element `(r, c)` of the valid region is 1
    where `c <= r + diagonal` (the lower triangle) or, with `upper`, where
    `c >= r + diagonal`, and 0 elsewhere; outside the valid region it is
    undefined. Example:

    ```mlir
    %causal = pl.tile.tri %c0 : i32 -> !pl.tile<16x16xf32, vec>
    %upper = pl.tile.tri %c1 upper : i32 -> !pl.tile<16x32xi32, vec>
    ```
  }];
  let arguments = (ins I32:$diagonal, UnitAttr:$upper);
  let results = (outs PL_TileOf<[I8, UI8, I16, I32, UI16, UI32, F16, BF16, F32]>:$result);
  let assemblyFormat = [{
    $diagonal (`upper` $upper^)? attr-dict `:` type($diagonal) `->` qualified(type($result))
  }];
}

def PL_TileRandomOp : PL_Op<"tile.random", [PL_TilePure]> {
  let ptoFamily = "tile_generate";
  let summary = "Counter-based random bits (Philox-4x32)";
  let description = [{
    Returns a 2-D tile of random 32-bit integers from a key
    (`key0`, `key1`) and a 128-bit counter (`counter0` its lowest word to
    `counter3`), as pto-isa's TRANDOM computes them. With `cols` the
    tile's columns rounded up to a multiple of 8 (its row's storage), `vc`
    its valid columns and `G = ceil(vc / 256)`, element `(r, c)` of the
    valid region is word `(c mod 256) / 64` of Philox-4x32 of the counter
    plus `(r * G + c / 256) * cols / 4 + c mod 64` (modulo 2^128) under
    the key, `rounds` rounds (10, or 7): a round maps words
    `(n0, n1, n2, n3)` to `(hi(n2 * 0xCD9E8D57) ^ n1 ^ k0, lo(n2 *
    0xCD9E8D57), hi(n0 * 0xD2511F53) ^ n3 ^ k1, lo(n0 * 0xD2511F53))` and
    then adds 0x9E3779B9 to `k0` and 0xBB67AE85 to `k1`. The elements past
    the valid region are undefined. The seeds are `i32`; their bits are
    read unsigned. a2a3 has no TRANDOM (pto-isa implements it for a5):
    `pl-lower-math-ops` computes each element with scalar arithmetic.
    Example:

    ```mlir
    %r = pl.tile.random key(%k0, %k1) counter(%c0, %c1, %c2, %c3) : !pl.tile<4x256xui32, vec>
    %s = pl.tile.random key(%k0, %k1) counter(%c0, %c1, %c2, %c3) rounds 7 : !pl.tile<8x64xi32, vec, valid = 8x40>
    ```
  }];
  let arguments = (ins I32:$key0, I32:$key1, I32:$counter0, I32:$counter1, I32:$counter2,
                       I32:$counter3, DefaultValuedAttr<I32Attr, "10">:$rounds);
  let results = (outs PL_TileOf<[I32, UI32]>:$result);
  let assemblyFormat = [{
    `key` `(` $key0 `,` $key1 `)` `counter` `(` $counter0 `,` $counter1 `,` $counter2 `,`
    $counter3 `)` (`rounds` $rounds^)? attr-dict `:` qualified(type($result))
  }];
}

def PL_TensorRandomOp : PL_Op<"tensor.random", [PL_TensorCompute]> {
  let ptoFamily = "tensor_generate";
  let ptoTileForm = "pl.tile.random";
  let summary = "Counter-based random bits (Philox-4x32)";
  let description = [{
    The tensor form of `pl.tile.random`: a 2-D tensor of static shape of
    random 32-bit integers, element `(r, c)` computed as the tile form
    computes it for a tile of the tensor's shape. Example:

    ```mlir
    %r = pl.tensor.random key(%k0, %k1) counter(%c0, %c1, %c2, %c3) : !pl.tensor<4x256xui32>
    ```
  }];
  let arguments = (ins I32:$key0, I32:$key1, I32:$counter0, I32:$counter1, I32:$counter2,
                       I32:$counter3, DefaultValuedAttr<I32Attr, "10">:$rounds);
  let results = (outs PL_TensorOf<[I32, UI32]>:$result);
  let assemblyFormat = [{
    `key` `(` $key0 `,` $key1 `)` `counter` `(` $counter0 `,` $counter1 `,` $counter2 `,`
    $counter3 `)` (`rounds` $rounds^)? attr-dict `:` qualified(type($result))
  }];
}

//===----------------------------------------------------------------------===//
// Sorting (value, index) pairs
//===----------------------------------------------------------------------===//

def PL_TileSort32Op : PL_Op<"tile.sort32", [PL_TilePure]> {
  let ptoFamily = "tile_sort";
  let ptoPipe = "v";
  let ptoInstruction = "TSORT32";
  let ptoA2A3ElementTypes = ["f16", "f32"];
  let summary = "Sort each block of 32 values, descending, with their indices";
  let description = [{
    Sorts every block of 32 consecutive elements of each row of `source`
    in descending order and writes each element as an 8-byte pair of its
    value and its entry of `indices` (a `ui32` tile of the source's shape):
    for f32 values a pair is two elements, the value and the index's bits;
    for f16 four, the value, a zero and the index's two halves. The
    result has the source's rows and 8 bytes per source element (twice
    the columns for f32, four times for f16); among equal values the
    smaller index comes first. The source's columns are a multiple
    of 32 and wholly valid (pad a partial row with `pl.tile.fillpad` min
    first); its valid rows are the result's. `tmp`, when given, is the
    scratch a2a3's TSORT32 may use. Example:

    ```mlir
    %p = pl.tile.sort32 %scores, %idx : !pl.tile<1x256xf32, vec>, !pl.tile<1x256xui32, vec> -> !pl.tile<1x512xf32, vec>
    ```
  }];
  let arguments = (ins PL_TileOf<sortElements>:$source, PL_TileOf<[UI32]>:$indices,
                       Optional<PL_AnyTile>:$tmp);
  let results = (outs PL_TileOf<sortElements>:$result);
  let assemblyFormat = [{
    $source `,` $indices (`,` $tmp^)? attr-dict `:` qualified(type($source)) `,`
    qualified(type($indices)) (`,` qualified(type($tmp))^)? `->` qualified(type($result))
  }];
}

def PL_TensorSort32Op : PL_Op<"tensor.sort32", [PL_TensorCompute]> {
  let ptoFamily = "tensor_sort";
  let ptoTileForm = "pl.tile.sort32";
  let summary = "Sort each block of 32 values, descending, with their indices";
  let description = [{
    The tensor form of `pl.tile.sort32`: sorts every block of 32
    consecutive elements of each row of `source` descending into (value,
    index) pairs, the indices taken from `indices` (`ui32`, the source's
    shape). The last dimension is static and a multiple of 32. Example:

    ```mlir
    %p = pl.tensor.sort32 %scores, %idx : !pl.tensor<1x256xf32>, !pl.tensor<1x256xui32> -> !pl.tensor<1x512xf32>
    ```
  }];
  let arguments = (ins PL_TensorOf<sortElements>:$source, PL_TensorOf<[UI32]>:$indices);
  let results = (outs PL_TensorOf<sortElements>:$result);
  let assemblyFormat = [{
    $source `,` $indices attr-dict `:` qualified(type($source)) `,` qualified(type($indices))
    `->` qualified(type($result))
  }];
}

def PL_TileMrgsortFormat1Op : PL_Op<"tile.mrgsort_format1", [PL_TilePure,
    AllTypesMatch<["source", "result"]>]> {
  let ptoFamily = "tile_sort";
  let ptoPipe = "v";
  let ptoInstruction = "TMRGSORT";
  let ptoA2A3ElementTypes = ["f16", "f32"];
  let summary = "Merge each group of four sorted runs of one row";
  let description = [{
    `source` is one row of (value, index) pairs (as `pl.tile.sort32` makes
    them) in sorted runs of `block_len` elements each (a pair is 2 f32 or
    4 f16 elements); every group of four consecutive runs is merged into
    one run, descending by value, ties to the earlier run. `block_len` is a
    positive multiple of 64 and the row's length a multiple of
    `4 * block_len` (checked with constant operands, else when it runs).
    The result has the source's type and is wholly valid; so is the
    source. Example:

    ```mlir
    %m = pl.tile.mrgsort_format1 %p, %c64 : !pl.tile<1x512xf32, vec>, i32
    ```
  }];
  let arguments = (ins PL_TileOf<sortElements>:$source, AnySignlessIntegerOrIndex:$block_len);
  let results = (outs PL_TileOf<sortElements>:$result);
  let assemblyFormat = [{
    $source `,` $block_len attr-dict `:` qualified(type($source)) `,` type($block_len)
  }];
}

def PL_TensorMrgsortFormat1Op : PL_Op<"tensor.mrgsort_format1", [PL_TensorCompute, AllTypesMatch<["source", "result"]>]> {
  let ptoFamily = "tensor_sort";
  let ptoTileForm = "pl.tile.mrgsort_format1";
  let summary = "Merge each group of four sorted runs of one row";
  let description = [{
    The tensor form of `pl.tile.mrgsort_format1`: a one-row tensor of
    (value, index) pairs in sorted runs of `block_len` elements, each group
    of four runs merged. Example:

    ```mlir
    %m = pl.tensor.mrgsort_format1 %p, %c64 : !pl.tensor<1x512xf32>, i32
    ```
  }];
  let arguments = (ins PL_TensorOf<sortElements>:$source, AnySignlessIntegerOrIndex:$block_len);
  let results = (outs PL_TensorOf<sortElements>:$result);
  let assemblyFormat = [{
    $source `,` $block_len attr-dict `:` qualified(type($source)) `,` type($block_len)
  }];
}

def PL_TileMrgsortFormat2Op : PL_Op<"tile.mrgsort_format2", [PL_TilePure]> {
  let ptoFamily = "tile_sort";
  let ptoPipe = "v";
  let ptoInstruction = "TMRGSORT";
  let ptoA2A3ElementTypes = ["f16", "f32"];
  let summary = "Merge two to four sorted lists of (value, index) pairs";
  let description = [{
    Merges `sources` (two to four one-row tiles of sorted (value, index)
    pairs of one element type, each wholly valid) into one list, descending
    by value, ties to the earlier source, until the result's row is full;
    with `exhausted` it stops as soon as any source runs out, and the
    rest of the result is undefined. `tmp` is the scratch a2a3's TMRGSORT
    merges into: one row of the element type with at least as many
    elements as the sources together. The result is one row of at most
    that many elements, a whole number of pairs. Example:

    ```mlir
    %m = pl.tile.mrgsort_format2 %a, %b tmp %t : (!pl.tile<1x256xf32, vec>, !pl.tile<1x256xf32, vec>), !pl.tile<1x512xf32, vec> -> !pl.tile<1x512xf32, vec>
    ```
  }];
  let arguments = (ins Variadic<PL_TileOf<sortElements>>:$sources, PL_AnyTile:$tmp,
                       UnitAttr:$exhausted);
  let results = (outs PL_TileOf<sortElements>:$result);
  let assemblyFormat = [{
    $sources `tmp` $tmp (`exhausted` $exhausted^)? attr-dict `:` `(` qualified(type($sources)) `)`
    `,` qualified(type($tmp)) `->` qualified(type($result))
  }];
}

def PL_TensorMrgsortFormat2Op : PL_Op<"tensor.mrgsort_format2", [PL_TensorCompute]> {
  let ptoFamily = "tensor_sort";
  let ptoTileForm = "pl.tile.mrgsort_format2";
  let summary = "Merge two to four sorted lists of (value, index) pairs";
  let description = [{
    The tensor form of `pl.tile.mrgsort_format2`, without a scratch
    operand: pl-convert-tensor-to-tile creates it. `sources` are two to
    four one-row tensors of sorted pairs of one element type; the result
    is one row of at most their total length. Example:

    ```mlir
    %m = pl.tensor.mrgsort_format2 %a, %b : !pl.tensor<1x256xf32>, !pl.tensor<1x256xf32> -> !pl.tensor<1x512xf32>
    ```
  }];
  let arguments = (ins Variadic<PL_TensorOf<sortElements>>:$sources, UnitAttr:$exhausted);
  let results = (outs PL_TensorOf<sortElements>:$result);
  let assemblyFormat = [{
    $sources (`exhausted` $exhausted^)? attr-dict `:` qualified(type($sources)) `->` qualified(type($result))
  }];
}

//===----------------------------------------------------------------------===//
// Gathers
//===----------------------------------------------------------------------===//

def PL_TileGatherOp : PL_Op<"tile.gather", [PL_TilePure]> {
  let ptoFamily = "tile_gather";
  let ptoPipe = "v";
  let ptoInstruction = "TGATHER";
  let ptoA2A3ElementTypes = ["f16", "f32", "i16", "i32"];
  let summary = "Gather elements of a tile by flat index";
  let description = [{
    Returns a tile of the shape and valid extents of `indices` (`i32`)
    whose element at each position is the element of `source` at the
    row-major flat index given there: `result[i, j] = source.flat[indices[i, j]]`.
    An index outside the source is an error when the program runs. `tmp`
    is the scratch a2a3's TGATHER computes offsets into: an `i32` tile of
    the indices' shape. Example:

    ```mlir
    %g = pl.tile.gather %x, %idx, %tmp : !pl.tile<1x64xf32, vec>, !pl.tile<1x64xi32, vec>, !pl.tile<1x64xi32, vec> -> !pl.tile<1x64xf32, vec>
    ```
  }];
  let arguments = (ins PL_TileOf<[F16, F32, I16, I32]>:$source, PL_TileOf<[I32]>:$indices,
                       PL_TileOf<[I32]>:$tmp);
  let results = (outs PL_TileOf<[F16, F32, I16, I32]>:$result);
  let assemblyFormat = [{
    $source `,` $indices `,` $tmp attr-dict `:` qualified(type($source)) `,`
    qualified(type($indices)) `,` qualified(type($tmp)) `->` qualified(type($result))
  }];
}

def PL_TileGatherbOp : PL_Op<"tile.gatherb", [PL_TilePure]> {
  let ptoFamily = "tile_gather";
  let ptoPipe = "v";
  let ptoInstruction = "TGATHERB";
  let summary = "Gather 32-byte blocks of a tile by byte offset";
  let description = [{
    Each offset (`ui32`) of `offsets` is a byte offset into `source`'s
    storage (row-major, its rows a whole number of 32 bytes); the 32 bytes
    there become one block of the result: block `b` of result row `r`
    (elements `b * 32 / w` to `(b + 1) * 32 / w - 1`, `w` the result
    element's bytes) holds the bytes at `offsets[r, b]`. The result has
    the offsets' rows and their columns times `32 / w` (its valid extents
    likewise); its element type (of 1, 2 or 4 bytes) is any, the bytes
    kept. The offsets' columns are a multiple of 8 (a2a3's TGATHERB
    gathers 8 blocks at a time). An offset whose block leaves the source is
    an error when the program runs. Example:

    ```mlir
    %g = pl.tile.gatherb %table, %offsets : !pl.tile<16x64xf32, vec>, !pl.tile<4x8xui32, vec> -> !pl.tile<4x64xf32, vec>
    ```
  }];
  let arguments = (ins PL_AnyTile:$source, PL_TileOf<[UI32]>:$offsets);
  let results = (outs PL_AnyTile:$result);
  let assemblyFormat = [{
    $source `,` $offsets attr-dict `:` qualified(type($source)) `,`
    qualified(type($offsets)) `->` qualified(type($result))
  }];
}

def PL_TensorGatherOp : PL_Op<"tensor.gather", [PL_TensorCompute]> {
  let ptoFamily = "tensor_gather";
  let summary = "Gather a tensor's elements along one axis by index";
  let description = [{
    Returns a tensor of the shape of `index` (`i32`, of `input`'s rank, 2
    or more) whose element at each position is the element of `input` at
    that position with its coordinate on axis `dim` replaced by the index
    there: for rank 2 and `dim` 1, `result[i, j] = input[i, index[i, j]]`
    (each row picks its own columns: a mixture-of-experts gate's scores of
    each token's chosen experts). On the other axes the index's extents
    are at most the input's. An index outside the input's extent on `dim`
    is an error when the program runs. `pl-convert-tensor-to-tile` makes
    a gather on the last axis one `pl.tile.gather` per row. Example:

    ```mlir
    %g = pl.tensor.gather %scores, %experts dim 1 : !pl.tensor<16x64xf32>, !pl.tensor<16x8xi32> -> !pl.tensor<16x8xf32>
    ```
  }];
  let arguments = (ins PL_TensorOf<[F16, F32, I16, I32]>:$input, PL_TensorOf<[I32]>:$index,
                       I64Attr:$dim);
  let results = (outs PL_TensorOf<[F16, F32, I16, I32]>:$result);
  let assemblyFormat = [{
    $input `,` $index `dim` $dim attr-dict `:` qualified(type($input)) `,`
    qualified(type($index)) `->` qualified(type($result))
  }];
}

def PL_TileGatherMaskOp : PL_Op<"tile.gather_mask", [PL_TilePure]> {
  let ptoFamily = "tile_gather";
  let ptoPipe = "v";
  let ptoInstruction = "TGATHER";
  let summary = "Keep the elements of each row a mask pattern selects";
  let description = [{
    Returns, row by row, the elements of the 2-D `source` whose column the
    pattern selects (`p0101`: even columns, `p1010`: odd ones, `p0001` to
    `p1000`: one column in four, `p1111`: all), in order: the result has
    the source's rows and its columns divided by the pattern's stride (2,
    4 or 1). Its element type has the source's width and may differ from
    it: the bits are kept (the indices of `pl.tile.sort32`'s pairs are
    read as `i32` or `ui32` this way). The source's columns are wholly
    valid; its valid rows are the result's. Example:

    ```mlir
    %v = pl.tile.gather_mask %pairs p0101 : !pl.tile<1x512xf32, vec> -> !pl.tile<1x256xf32, vec>
    %i = pl.tile.gather_mask %pairs p1010 : !pl.tile<1x512xf32, vec> -> !pl.tile<1x256xi32, vec>
    ```
  }];
  let arguments = (ins PL_TileOf<[F16, F32, I16, I32, UI16, UI32]>:$source,
                       PL_MaskPattern:$pattern);
  let results = (outs PL_TileOf<[F16, F32, I16, I32, UI16, UI32]>:$result);
  let assemblyFormat = [{
    $source $pattern attr-dict `:` qualified(type($source)) `->` qualified(type($result))
  }];
}

def PL_TensorGatherMaskOp : PL_Op<"tensor.gather_mask", [PL_TensorCompute]> {
  let ptoFamily = "tensor_gather";
  let ptoTileForm = "pl.tile.gather_mask";
  let summary = "Keep the elements of each row a mask pattern selects";
  let description = [{
    The tensor form of `pl.tile.gather_mask`: the elements of each row of
    the 2-D `source` that the pattern selects, their bits read as the
    result's element type (of the source's width). Example:

    ```mlir
    %i = pl.tensor.gather_mask %pairs p1010 : !pl.tensor<1x512xf32> -> !pl.tensor<1x256xi32>
    ```
  }];
  let arguments = (ins PL_TensorOf<[F16, F32, I16, I32, UI16, UI32]>:$source,
                       PL_MaskPattern:$pattern);
  let results = (outs PL_TensorOf<[F16, F32, I16, I32, UI16, UI32]>:$result);
  let assemblyFormat = [{
    $source $pattern attr-dict `:` qualified(type($source)) `->` qualified(type($result))
  }];
}

def PL_TileGatherCompareOp : PL_Op<"tile.gather_compare", [PL_TilePure]> {
  let ptoFamily = "tile_gather";
  let summary = "The columns of each row whose element compares true with a scalar";
  let description = [{
    For each valid row `r` of the 2-D `source` (f16, f32, i16 or i32), row
    `r` of `result` (`i32`, `[rows, n]`) lists in increasing order
    `c + offset` for every valid column `c` where
    `source[r, c] <cmp> kvalue` holds (`eq`, `ne`, `lt`, `le`, `gt`, `ge`;
    floats compare as C++ does: only `ne` holds for a NaN); its columns
    past the matches are 0. Element `r` of `counts` (`[1, rows]`, `i32` or
    `ui32`) is the row's number of matches; a row with more than `n` keeps
    its first `n` and counts them all. The result's and the counts' valid
    extents follow the source's valid rows. `tmp`, the `ui8` scratch of
    PyPTO's form, is accepted and not read. a2a3's TGATHER compare form
    takes only `eq` and `gt` and a tile of integer keys, so
    `pl-lower-math-ops` makes the op a loop of scalar reads, comparisons
    and writes. Example:

    ```mlir
    %idx, %n = pl.tile.gather_compare %scores, %k gt offset 64 : !pl.tile<16x64xf32, vec>, f32 -> !pl.tile<16x8xi32, vec>, !pl.tile<1x16xi32, vec>
    ```
  }];
  let arguments = (ins PL_TileOf<[F16, F32, I16, I32]>:$source, PL_Scalar:$kvalue,
                       Optional<PL_TileOf<[UI8]>>:$tmp, PL_CmpMode:$cmp,
                       DefaultValuedAttr<I32Attr, "0">:$offset);
  let results = (outs PL_TileOf<[I32]>:$result, PL_TileOf<[I32, UI32]>:$counts);
  let assemblyFormat = [{
    $source `,` $kvalue (`,` $tmp^)? $cmp (`offset` $offset^)? attr-dict `:`
    qualified(type($source)) `,` type($kvalue) (`,` qualified(type($tmp))^)? `->`
    qualified(type($result)) `,` qualified(type($counts))
  }];
}

def PL_TensorGatherCompareOp : PL_Op<"tensor.gather_compare", [PL_TensorCompute]> {
  let ptoFamily = "tensor_gather";
  let ptoTileForm = "pl.tile.gather_compare";
  let summary = "The columns of each row whose element compares true with a scalar";
  let description = [{
    The tensor form of `pl.tile.gather_compare`: row `r` of `result`
    (`i32`, `[rows, n]`) lists `c + offset` for every column `c` where
    `source[r, c] <cmp> kvalue`, zeros after them, and element `r` of
    `counts` (`[1, rows]`) how many there were. Example:

    ```mlir
    %idx, %n = pl.tensor.gather_compare %scores, %k eq : !pl.tensor<8x64xi32>, i32 -> !pl.tensor<8x16xi32>, !pl.tensor<1x8xui32>
    ```
  }];
  let arguments = (ins PL_TensorOf<[F16, F32, I16, I32]>:$source, PL_Scalar:$kvalue,
                       PL_CmpMode:$cmp, DefaultValuedAttr<I32Attr, "0">:$offset);
  let results = (outs PL_TensorOf<[I32]>:$result, PL_TensorOf<[I32, UI32]>:$counts);
  let assemblyFormat = [{
    $source `,` $kvalue $cmp (`offset` $offset^)? attr-dict `:`
    qualified(type($source)) `,` type($kvalue) `->` qualified(type($result)) `,`
    qualified(type($counts))
  }];
}

//===----------------------------------------------------------------------===//
// Rows gathered from global memory
//===----------------------------------------------------------------------===//

def PL_TileMgatherOp : PL_Op<"tile.mgather", [PL_TileMemory<1>]> {
  let ptoFamily = "tile_gather_row";
  let ptoPipe = "v";
  let ptoInstruction = "MGATHER";
  let summary = "Gather rows or elements of a tensor in global memory by index";
  let description = [{
    Reads `table` (a tensor in global memory) at the positions `indices`
    (`i32` or `ui32`, a tile in `vec`) gives, into a tile in `vec` of its
    element type. `row`: row `r` of the result is row `indices[0, r]` of
    the 2-D table (`indices` is `[1, R]`, the result `[R, C]` of the
    table's `C` columns). `elem`: `result[r, c]` is the table's element at
    row-major flat index `indices[r, c]` (`indices` has the result's
    shape). An index past the table (a row past its rows, a flat index
    past its elements; a negative `i32` is read as a large unsigned one) is
    undefined on the device and an error in pto-run, unless `oob` says
    otherwise: `clamp` (the last row or element), `wrap` (the index
    modulo the table's rows or elements) or `zero` (zeros). Valid extents
    follow the indices'. a2a3's MGATHER (a DMA per row, or scalar reads
    per element). Example:

    ```mlir
    %k = pl.tile.mgather %cache[%idx] row : !pl.tensor<256x128xf16>, !pl.tile<1x16xi32, vec> -> !pl.tile<16x128xf16, vec>
    %e = pl.tile.mgather %flat[%pos] elem oob wrap : !pl.tensor<1x1024xf32>, !pl.tile<8x32xi32, vec> -> !pl.tile<8x32xf32, vec>
    ```
  }];
  let arguments = (ins PL_TensorOf<[I8, UI8, I16, UI16, I32, UI32, F16, BF16, F32]>:$table,
                       PL_TileOf<[I32, UI32]>:$indices, PL_GatherMode:$mode,
                       DefaultValuedAttr<PL_GatherOob, "::pto::pl::GatherOob::Undefined">:$oob);
  let results = (outs PL_TileOf<[I8, UI8, I16, UI16, I32, UI32, F16, BF16, F32]>:$result);
  let assemblyFormat = [{
    $table `[` $indices `]` $mode (`oob` $oob^)? attr-dict `:` qualified(type($table)) `,`
    qualified(type($indices)) `->` qualified(type($result))
  }];
}

def PL_TileGatherRowOp : PL_Op<"tile.gather_row", [AttrSizedOperandSegments,
    AllTypesMatch<["target", "result"]>, PL_TileMemory<1>]> {
  let ptoFamily = "tile_gather_row";
  let summary = "Load a window of a tensor into a window of a tile";
  let description = [{
    Returns `target` (a 2-D tile) with the window of static `shape` at
    `target_offsets` (row, column) replaced by the window of `source` (a
    rank-2 tensor in global memory) at `source_offsets`: of it, the
    `valid(rows, cols)` corner when given (the rest of the window keeps the
    target's elements), else all of it. The window lies inside the target
    and the read inside the source; a read leaving the source is an error
    when the program runs. PyPTO gathers the rows of a paged cache this way,
    one `[1, d]` window per row. `pl-lower-math-ops` makes it a
    `pl.tile.load` of the window and a `pl.tile.assemble` into the target
    (a tile in `vec`). Example:

    ```mlir
    %t2 = pl.tile.gather_row %cache[%slot, %c0] into %t[%i, %c0] shape [1, 128] : !pl.tensor<256x128xf16>, !pl.tile<16x128xf16, vec>
    ```
  }];
  let arguments = (ins PL_AnyTensor:$source, PL_AnyTile:$target,
                       Variadic<Index>:$source_offsets, Variadic<Index>:$target_offsets,
                       Variadic<Index>:$valid_sizes, DenseI64ArrayAttr:$shape);
  let results = (outs PL_AnyTile:$result);
  let assemblyFormat = [{
    $source `[` $source_offsets `]` `into` $target `[` $target_offsets `]` `shape` $shape
    (`valid` `(` $valid_sizes^ `)`)? attr-dict `:` qualified(type($source)) `,` qualified(type($target))
  }];
}

def PL_TensorGatherRowOp : PL_Op<"tensor.gather_row", [AttrSizedOperandSegments,
    AllTypesMatch<["target", "result"]>, PL_TensorCompute]> {
  let ptoFamily = "tensor_gather_row";
  let ptoTileForm = "pl.tile.gather_row";
  let summary = "A tensor with a window replaced by a window of another";
  let description = [{
    The tensor form of `pl.tile.gather_row`: `target` with the window of
    static `shape` at `target_offsets` replaced by `source`'s window at
    `source_offsets` (its `valid(rows, cols)` corner when given). Example:

    ```mlir
    %k2 = pl.tensor.gather_row %cache[%slot, %c0] into %k[%i, %c0] shape [1, 128] : !pl.tensor<256x128xf16>, !pl.tensor<16x128xf16>
    ```
  }];
  let arguments = (ins PL_AnyTensor:$source, PL_AnyTensor:$target,
                       Variadic<Index>:$source_offsets, Variadic<Index>:$target_offsets,
                       Variadic<Index>:$valid_sizes, DenseI64ArrayAttr:$shape);
  let results = (outs PL_AnyTensor:$result);
  let assemblyFormat = [{
    $source `[` $source_offsets `]` `into` $target `[` $target_offsets `]` `shape` $shape
    (`valid` `(` $valid_sizes^ `)`)? attr-dict `:` qualified(type($source)) `,` qualified(type($target))
  }];
}

def PL_TensorPagedGatherOp : PL_Op<"tensor.paged_gather", [PL_TensorCompute]> {
  let ptoFamily = "tensor_gather_row";
  let summary = "Rows of a paged cache gathered through a block table";
  let description = [{
    Row `i` of the result (`[max_indices, size]`) is row `p` of `source`
    (`[rows, d]`, its columns `col_off` to `col_off + size - 1`), where
    `p = table[j / block_size] * block_size + j % block_size` for the
    logical position `j = indices[i]`: the cache's pages are
    `block_size` rows each, `table` (`i32`) maps logical pages to physical
    ones. `indices` (`i32`, `[n]` or `[1, n]`, `n <= max_indices`) and
    `table` (`[m]` or `[1, m]`) are read element by element; rows from `n`
    on are undefined. A position or page outside its tensor is an error
    when the program runs. `pl-convert-tensor-to-tile` makes it a loop of
    `pl.tile.gather_row`s into a `vec` tile. Example:

    ```mlir
    %k = pl.tensor.paged_gather %cache, %idx, %table block_size 16 : !pl.tensor<256x128xf16>, !pl.tensor<1x16xi32>, !pl.tensor<1x16xi32> -> !pl.tensor<16x128xf16>
    ```
  }];
  let arguments = (ins PL_AnyTensor:$source, PL_TensorOf<[I32]>:$indices,
                       PL_TensorOf<[I32]>:$table, I64Attr:$block_size,
                       DefaultValuedAttr<I64Attr, "0">:$col_off);
  let results = (outs PL_AnyTensor:$result);
  let assemblyFormat = [{
    $source `,` $indices `,` $table `block_size` $block_size (`col_off` $col_off^)? attr-dict
    `:` qualified(type($source)) `,` qualified(type($indices)) `,` qualified(type($table))
    `->` qualified(type($result))
  }];
}

//===----------------------------------------------------------------------===//
// Scatters
//===----------------------------------------------------------------------===//

def PL_TileScatterOp : PL_Op<"tile.scatter", [PL_TilePure]> {
  let ptoFamily = "tile_scatter";
  let ptoPipe = "v";
  let ptoInstruction = "TSCATTER";
  let summary = "Scatter a tile's elements to flat indices of a zeroed tile";
  let description = [{
    Returns a tile of the result type, wholly valid, whose elements are
    zero except where `indexes` points: for each valid position `(i, j)`
    of `indexes`, `result.flat[indexes[i, j]] = source[i, j]` (the
    row-major flat index; when two positions point at one element, the
    later one in row-major order wins). `indexes` has the source's shape
    and valid extents; it is `i32` for 4-byte elements and `i16` for
    narrower ones. An index outside the result is an error when the
    program runs. a2a3's TSCATTER zeroes its destination first, which is
    why the other elements are zero (`pl.tensor.scatter` keeps its
    input's). Example:

    ```mlir
    %s = pl.tile.scatter %x, %idx : !pl.tile<2x8xf32, vec>, !pl.tile<2x8xi32, vec> -> !pl.tile<4x8xf32, vec>
    ```
  }];
  let arguments = (ins PL_TileOf<[I8, I16, I32, F16, BF16, F32]>:$source,
                       PL_TileOf<[I16, I32]>:$indexes);
  let results = (outs PL_TileOf<[I8, I16, I32, F16, BF16, F32]>:$result);
  let assemblyFormat = [{
    $source `,` $indexes attr-dict `:` qualified(type($source)) `,`
    qualified(type($indexes)) `->` qualified(type($result))
  }];
}

def PL_TileMscatterOp : PL_Op<"tile.mscatter", [AllTypesMatch<["table", "result"]>,
    PL_TileMemory<3>]> {
  let ptoFamily = "tile_scatter";
  let ptoTiedOperand = 2;
  let summary = "Scatter rows or elements of a tile into a tensor in global memory by index";
  let description = [{
    Writes `source` (a tile in `vec`) into `table` (a tensor in global
    memory of its element type) at the positions `indices` (`i32` or
    `ui32`, a tile in `vec`) gives, and returns the table (the same tensor,
    now written). `row`: the source's valid row `r` is written to row
    `indices[0, r]` of the 2-D table (`indices` is `[1, R]` for a source of
    `R` rows, valid along the source's valid rows; the table has the
    source's columns). `elem`: `source[r, c]` is written to the table's
    element at row-major flat index `indices[r, c]` (`indices` has the
    source's shape and valid extents). Positions are written in row-major
    order, so of two writes to one place the later wins; `atomic_add` adds
    into the table instead (f32, f16, bf16, i32, i16 or i8). An index past
    the table (a negative `i32` read as a large unsigned one) is undefined
    on the device and an error in pto-run, unless `oob` says otherwise:
    `skip` (nothing written), `clamp` (the last row or element) or `wrap`
    (the index modulo the table's rows or elements). a2a3's MSCATTER
    writes rows by DMA but elements through the scalar cache, which its
    DMAs do not see, and pto-isa spells it without its mode (which its CPU
    backend reads as the other mode), so `pl-lower-math-ops` makes the op
    stores: one `pl.tile.store` per row or element. Example:

    ```mlir
    %c2 = pl.tile.mscatter %rows, %slots into %cache row : !pl.tile<16x128xf16, vec>, !pl.tile<1x16xi32, vec>, !pl.tensor<256x128xf16>
    %h2 = pl.tile.mscatter %ones, %bins into %hist elem oob skip atomic_add : !pl.tile<4x16xf32, vec>, !pl.tile<4x16xi32, vec>, !pl.tensor<1x64xf32>
    ```
  }];
  let arguments = (ins PL_TileOf<[I8, UI8, I16, UI16, I32, UI32, F16, BF16, F32]>:$source,
                       PL_TileOf<[I32, UI32]>:$indices,
                       PL_TensorOf<[I8, UI8, I16, UI16, I32, UI32, F16, BF16, F32]>:$table,
                       PL_GatherMode:$mode,
                       DefaultValuedAttr<PL_ScatterOob, "::pto::pl::ScatterOob::Undefined">:$oob,
                       UnitAttr:$atomic_add);
  let results = (outs PL_TensorOf<[I8, UI8, I16, UI16, I32, UI32, F16, BF16, F32]>:$result);
  let assemblyFormat = [{
    $source `,` $indices `into` $table $mode (`oob` $oob^)? (`atomic_add` $atomic_add^)? attr-dict
    `:` qualified(type($source)) `,` qualified(type($indices)) `,` qualified(type($table))
  }];
}

def PL_TensorScatterOp : PL_Op<"tensor.scatter", [PL_TensorCompute,
    AllTypesMatch<["input", "result"]>]> {
  let ptoFamily = "tensor_scatter";
  let summary = "A tensor with elements replaced along one axis by index";
  let description = [{
    Returns `input` with, for each position of `index` (`i32`, of the
    input's rank, 2 or more), the element of `input` at that position with
    its coordinate on axis `dim` replaced by the index there set to
    `source`'s element at the position (`source` has the index's shape):
    for rank 2 and `dim` 1, `result[i, index[i, j]] = source[i, j]`. When
    two positions point at one element, the later one in row-major order
    wins. On the other axes the index's extents are at most the input's.
    An index outside the input's extent on `dim` is an error when the
    program runs. `pl-convert-tensor-to-tile` writes a scatter on the last
    axis element by element into a copy of the input's tile. Example:

    ```mlir
    %r = pl.tensor.scatter %base, %slots, %values dim 1 : !pl.tensor<8x16xf32>, !pl.tensor<8x4xi32>, !pl.tensor<8x4xf32>
    ```
  }];
  let arguments = (ins PL_TensorOf<[I8, I16, I32, F16, BF16, F32]>:$input, PL_TensorOf<[I32]>:$index,
                       PL_TensorOf<[I8, I16, I32, F16, BF16, F32]>:$source, I64Attr:$dim);
  let results = (outs PL_TensorOf<[I8, I16, I32, F16, BF16, F32]>:$result);
  let assemblyFormat = [{
    $input `,` $index `,` $source `dim` $dim attr-dict `:` qualified(type($input)) `,`
    qualified(type($index)) `,` qualified(type($source))
  }];
}

def PL_TileScatterUpdateOp : PL_Op<"tile.scatter_update", [PL_TilePure,
    AllTypesMatch<["input", "result"]>]> {
  let ptoFamily = "tile_scatter";
  let summary = "A tile with rows replaced by index";
  let description = [{
    Returns `input` (`[rows, d]`) with, for each position `p` of the 2-D
    `index` (`[b, s]`, `i32`) in row-major order, row `index.flat[p]` set
    to row `p` of `source` (`[b * s, d]`, of the input's element type): a
    paged cache's slots updated with new rows. When two positions name one
    row, the later one wins. An index outside the input's rows is an error
    when the program runs. a2a3 has no instruction for it:
    `pl-lower-math-ops` makes it a loop of row copies (`pl.tile.read` of
    the index, `pl.tile.slice` of the source's row, `pl.tile.assemble`
    into the input). Example:

    ```mlir
    %c = pl.tile.scatter_update %cache, %slots, %rows : !pl.tile<32x64xf16, vec>, !pl.tile<2x8xi32, vec>, !pl.tile<16x64xf16, vec>
    ```
  }];
  let arguments = (ins PL_AnyTile:$input, PL_TileOf<[I32]>:$index, PL_AnyTile:$source);
  let results = (outs PL_AnyTile:$result);
  let assemblyFormat = [{
    $input `,` $index `,` $source attr-dict `:` qualified(type($input)) `,`
    qualified(type($index)) `,` qualified(type($source))
  }];
}

def PL_TensorScatterUpdateOp : PL_Op<"tensor.scatter_update", [PL_TensorCompute,
    AllTypesMatch<["input", "result"]>]> {
  let ptoFamily = "tensor_scatter";
  let ptoTileForm = "pl.tile.scatter_update";
  let summary = "A tensor with rows replaced by index";
  let description = [{
    The tensor form of `pl.tile.scatter_update`: `input` (`[rows, d]`) with
    row `index.flat[p]` set to row `p` of `source` (`[b * s, d]`) for each
    position `p` of `index` (`[b, s]`, `i32`), later positions winning.
    PyPTO's 4-D cache form `[blocks, block_size, 1, d]` is this on the
    cache reshaped to `[blocks * block_size, d]`. Example:

    ```mlir
    %c = pl.tensor.scatter_update %cache, %slots, %rows : !pl.tensor<32x64xf16>, !pl.tensor<2x8xi32>, !pl.tensor<16x64xf16>
    ```
  }];
  let arguments = (ins PL_AnyTensor:$input, PL_TensorOf<[I32]>:$index, PL_AnyTensor:$source);
  let results = (outs PL_AnyTensor:$result);
  let assemblyFormat = [{
    $input `,` $index `,` $source attr-dict `:` qualified(type($input)) `,`
    qualified(type($index)) `,` qualified(type($source))
  }];
}

def PL_TileScatterMaskOp : PL_Op<"tile.scatter_mask", [PL_TilePure]> {
  let ptoFamily = "tile_scatter";
  let ptoPipe = "v";
  let ptoInstruction = "TSCATTER";
  let summary = "Spread each row over the columns a mask pattern selects";
  let description = [{
    The inverse of `pl.tile.gather_mask`: returns a tile of `source`'s rows
    and its columns times the pattern's stride (2 for `p0101`/`p1010`, 4
    for `p0001` to `p1000`, 1 for `p1111`) whose columns the pattern
    selects hold the source row's elements in order and whose other columns
    are zero (a2a3's TSCATTER zeroes them). Both tiles are wholly valid.
    Example:

    ```mlir
    %d = pl.tile.scatter_mask %x p0101 : !pl.tile<4x16xf32, vec> -> !pl.tile<4x32xf32, vec>
    ```
  }];
  let arguments = (ins PL_TileOf<[I16, I32, F16, BF16, F32]>:$source, PL_MaskPattern:$pattern);
  let results = (outs PL_TileOf<[I16, I32, F16, BF16, F32]>:$result);
  let assemblyFormat = [{
    $source $pattern attr-dict `:` qualified(type($source)) `->` qualified(type($result))
  }];
}

def PL_TensorScatterMaskOp : PL_Op<"tensor.scatter_mask", [PL_TensorCompute,
    AllTypesMatch<["target", "result"]>]> {
  let ptoFamily = "tensor_scatter";
  let summary = "A tensor with the columns a mask pattern selects replaced";
  let description = [{
    Returns `target` with, in each row, the columns the pattern selects set
    to `source`'s row in order (`source` has the target's rows and its
    columns divided by the pattern's stride); the other columns keep the
    target's values (PyPTO's `pl.tensor.scatter(x, mask_pattern=p,
    dst=d)`, which duplicates rotary cosines into even columns this way).
    `pl-convert-tensor-to-tile` writes it element by element into a copy of
    the target's tile. Example:

    ```mlir
    %r = pl.tensor.scatter_mask %x into %d p0101 : !pl.tensor<4x16xf32>, !pl.tensor<4x32xf32>
    ```
  }];
  let arguments = (ins PL_TensorOf<[I16, I32, F16, BF16, F32]>:$source,
                       PL_TensorOf<[I16, I32, F16, BF16, F32]>:$target, PL_MaskPattern:$pattern);
  let results = (outs PL_TensorOf<[I16, I32, F16, BF16, F32]>:$result);
  let assemblyFormat = [{
    $source `into` $target $pattern attr-dict `:` qualified(type($source)) `,` qualified(type($target))
  }];
}

//===----------------------------------------------------------------------===//
// Reinterpreting bits
//===----------------------------------------------------------------------===//

def PL_TileReinterpretViewOp : PL_Op<"tile.reinterpret_view", [PL_TilePure]> {
  let ptoFamily = "tile_view";
  let summary = "View a tile's bytes as another element type";
  let description = [{
    Returns `source`'s buffer read as the result's element type, which
    differs from the source's: the same bytes and memory space, no data
    movement. The result has the source's rank; its last dimension is
    scaled by the ratio of the element widths (`[8, 16]` f32 as i16 is
    `[8, 32]`) and the others are kept, and so are its valid extents
    (a valid last extent scaled too). Example:

    ```mlir
    %u = pl.tile.reinterpret_view %i : !pl.tile<1x256xi32, vec> -> !pl.tile<1x256xui32, vec>
    ```
  }];
  let arguments = (ins PL_AnyTile:$source);
  let results = (outs PL_AnyTile:$result);
  let assemblyFormat = "$source attr-dict `:` qualified(type($source)) `->` qualified(type($result))";
}

def PL_TensorReinterpretViewOp : PL_Op<"tensor.reinterpret_view", [Pure, PL_View]> {
  let ptoFamily = "tensor_view";
  let ptoTileForm = "pl.tile.reinterpret_view";
  let summary = "View a tensor's bytes as another element type";
  let description = [{
    Returns `source` read as the result's element type (of another width
    or kind): the last dimension scaled by the ratio of the element
    widths, the others kept. The source is packed row-major (no strides,
    `nd`). Example:

    ```mlir
    %b = pl.tensor.reinterpret_view %x : !pl.tensor<8x16xf32> -> !pl.tensor<8x16xi32>
    ```
  }];
  let arguments = (ins PL_AnyTensor:$source);
  let results = (outs PL_AnyTensor:$result);
  let assemblyFormat = "$source attr-dict `:` qualified(type($source)) `->` qualified(type($result))";
}

#endif // PTO_PL_INDEX_OPS_TD
