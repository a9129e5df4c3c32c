//===- PLMovementOps.td - pl data movement and allocation --*- tablegen -*-===//
//
// Tile creation, GM <-> tile transfers and tile views. Loads
// read global memory, stores write it; tiles are values. Rules in
// dialects/src/verify/movement.rs.
//
//===----------------------------------------------------------------------===//

#ifndef PTO_PL_MOVEMENT_OPS_TD
#define PTO_PL_MOVEMENT_OPS_TD

include "PLTypes.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "PLTraits.td"

// A load is a DMA on the MTE2 pipe that other cores and ranks may race
// with: it declares a write as well as a read, so no generic pass merges,
// reorders or drops one.
def PL_TileLoadOp : PL_Op<"tile.load", [AttrSizedOperandSegments, PL_TileMemory<3>]> {
  let ptoFamily = "tile_transfer";
  let ptoPipe = "mte2";
  let ptoInstruction = "TLOAD";
  let summary = "Load a window of a tensor into a tile";
  let description = [{
    Copies the window of `source` (a tensor, or the local copy of a
    distributed tensor) at `offsets` (one per dimension) with the result
    tile's shape into a tile in `vec` or `mat`. The tile's valid
    extents say how much of the window holds data; `valid(...)` gives the
    dynamic ones, in order. A window that provably leaves the tensor is an
    error unless `clamp` narrows it to the tensor's edge.

    The tile has the layout a load yields: in `mat` the NZ layout
    (col_major blocks, row_major boxes), swapped (row_major blocks,
    col_major boxes) from a `dn` tensor, and flat (row_major, none_box) for
    a single row; elsewhere the implicit layout of its space (col_major
    blocks for an `[R, 1]` column).

    `partition` loads a window of a tensor of rank 3 or more into a 2-D
    tile: the window has the partition's shape (one extent per tensor
    dimension) and its rows, in row-major order of the leading
    dimensions, become the tile's rows (`[prod(leading), last]`); a
    window of a vector (rank 1) becomes a tile of one row, `[1, N]`. This
    is the form pl-flatten-tile-nd-to-2d produces; the last extent may be
    partly valid, the leading ones are whole. Example:

    ```mlir
    %t = pl.tile.load %a[%i, %c0] : !pl.tensor<?x128xf16> -> !pl.tile<64x128xf16, vec>
    %u = pl.tile.load %a[%i, %c0] valid(%rows) clamp : !pl.tensor<?x128xf16> -> !pl.tile<64x128xf16, mat, valid = ?x128>
    %v = pl.tile.load %x[%b, %c0, %c0] partition [2, 16, 64] : !pl.tensor<8x16x64xf32> -> !pl.tile<32x64xf32, vec>
    ```
  }];
  let arguments = (ins PL_TensorLike:$source, Variadic<Index>:$offsets,
                       Variadic<Index>:$valid_sizes, UnitAttr:$clamp,
                       OptionalAttr<DenseI64ArrayAttr>:$partition);
  let results = (outs PL_AnyTile:$result);
  let assemblyFormat = [{
    $source `[` $offsets `]` (`valid` `(` $valid_sizes^ `)`)? (`clamp` $clamp^)?
    (`partition` $partition^)? attr-dict
    `:` qualified(type($source)) `->` qualified(type($result))
  }];
}

def PL_TileStoreOp : PL_Op<"tile.store",
    [AllTypesMatch<["destination", "result"]>, PL_TileMemory<3>]> {
  let ptoFamily = "tile_transfer";
  let ptoPipe = "source:mte3";
  let ptoTiedOperand = 1;
  let ptoInstruction = "TSTORE";
  let summary = "Store a tile into a window of a tensor";
  let description = [{
    Writes `tile` into `destination` (a tensor, or the local copy of a
    distributed tensor) at `offsets` (one per dimension) and returns the
    destination (the same tensor, now written). The tile lives
    in `vec`, or in `acc` (a fix-pipe store, which may narrow f32 to f16 or
    bf16 and targets i32, f32, f16 or bf16). `atomic_add` adds into the
    destination instead (f32, bf16, f16, i32, i16 or i8). `partition`
    stores a 2-D tile into a window of that shape of a tensor of rank 3 or
    more (or a one-row tile into a vector's), as for `pl.tile.load`. Example:

    ```mlir
    %o2 = pl.tile.store %t, %o[%i, %c0] : !pl.tile<64x128xf16, vec>, !pl.tensor<?x128xf16>
    %o3 = pl.tile.store %acc, %o[%i, %c0] atomic_add : !pl.tile<64x128xf32, acc>, !pl.tensor<?x128xf32>
    %o4 = pl.tile.store %v, %y[%b, %c0, %c0] partition [2, 16, 64] : !pl.tile<32x64xf32, vec>, !pl.tensor<8x16x64xf32>
    ```
  }];
  let arguments = (ins PL_AnyTile:$tile, PL_TensorLike:$destination,
                       Variadic<Index>:$offsets, UnitAttr:$atomic_add,
                       OptionalAttr<DenseI64ArrayAttr>:$partition);
  let results = (outs PL_TensorLike:$result);
  let assemblyFormat = [{
    $tile `,` $destination `[` $offsets `]` (`atomic_add` $atomic_add^)? (`partition` $partition^)? attr-dict
    `:` qualified(type($tile)) `,` qualified(type($destination))
  }];
}

def PL_TileCreateOp : PL_Op<"tile.create"> {
  let ptoFamily = "tile_create";
  let summary = "A new tile with undefined contents";
  let description = [{
    Allocates a tile of the result type (its memory space and layout
    included) without initialising it: scratch space and accumulators.
    Each create is a distinct buffer (CSE never merges two). Not in the
    A5-only scale spaces. Example:

    ```mlir
    %tmp = pl.tile.create : !pl.tile<16x128xf32, vec>
    ```
  }];
  // The allocation is the result's, so an unused create is dead.
  let results = (outs Res<PL_AnyTile, "", [MemAlloc]>:$result);
  let assemblyFormat = "attr-dict `:` qualified(type($result))";
}

def PL_TileAllocOp : PL_Op<"tile.alloc", [MemoryEffects<[MemAlloc]>]> {
  let ptoFamily = "tile_create";
  let summary = "An on-chip allocation";
  let description = [{
    Allocates `size` bytes (positive) in on-chip memory space `space`;
    memory planning inserts these for the tiles of a kernel and assigns
    their addresses. `pinned` buffers are excluded from reuse. Example:

    ```mlir
    %buf = pl.tile.alloc vec, 32768 : !pl.ptr
    ```
  }];
  let arguments = (ins PL_MemorySpace:$space, I64Attr:$size, UnitAttr:$pinned);
  let results = (outs PL_PtrType:$result);
  let assemblyFormat = "$space `,` $size (`pinned` $pinned^)? attr-dict `:` qualified(type($result))";
}

def PL_TileFullOp : PL_Op<"tile.full", [PL_TilePure]> {
  let ptoA2A3ElementTypes = ["ui8", "i8", "ui16", "i16", "ui32", "i32", "f16", "bf16", "f32"];
  let ptoFamily = "tile_create";
  let ptoPipe = "v";
  let ptoInstruction = "TEXPANDS";
  let summary = "A tile filled with a constant";
  let description = [{
    Returns a tile in `vec` whose every element is `value`, which is an
    `arith.constant` of the tile's element type. Example:

    ```mlir
    %zero = arith.constant 0.0 : f32
    %z = pl.tile.full %zero : f32 -> !pl.tile<16x64xf32, vec>
    ```
  }];
  let arguments = (ins PL_Scalar:$value);
  let results = (outs PL_AnyTile:$result);
  let assemblyFormat = "$value attr-dict `:` type($value) `->` qualified(type($result))";
}

def PL_TileSliceOp : PL_Op<"tile.slice", [AttrSizedOperandSegments, PL_TilePure]> {
  let ptoFamily = "tile_view";
  let ptoPipe = "v";
  let ptoInstruction = "TEXTRACT";
  let summary = "A zero-copy window of a tile";
  let description = [{
    Views the window of `source` at `offsets` with the result's shape, in
    the same buffer: same memory space, element type, layout and padding.
    The window lies inside the source; the result's valid extents do not
    exceed the source's valid region past the offset. `valid(...)` gives
    dynamic valid extents. Example:

    ```mlir
    %w = pl.tile.slice %t[%c0, %c64] : !pl.tile<64x128xf16, vec> -> !pl.tile<64x64xf16, vec>
    ```
  }];
  let arguments = (ins PL_AnyTile:$source, Variadic<Index>:$offsets,
                       Variadic<Index>:$valid_sizes);
  let results = (outs PL_AnyTile:$result);
  let assemblyFormat = [{
    $source `[` $offsets `]` (`valid` `(` $valid_sizes^ `)`)? attr-dict
    `:` qualified(type($source)) `->` qualified(type($result))
  }];
}

def PL_TileReshapeOp : PL_Op<"tile.reshape", [PL_TilePure]> {
  let ptoFamily = "tile_view";
  let summary = "View a tile with another shape";
  let description = [{
    Reinterprets `source` with the result's shape: same element count,
    element type and memory space, no data movement. Example:

    ```mlir
    %r = pl.tile.reshape %t : !pl.tile<4x16x32xf16, vec> -> !pl.tile<64x32xf16, vec>
    ```
  }];
  let arguments = (ins PL_AnyTile:$source);
  let results = (outs PL_AnyTile:$result);
  let hasFolder = 1;
  let assemblyFormat = "$source attr-dict `:` qualified(type($source)) `->` qualified(type($result))";
}

def PL_TileTransposeOp : PL_Op<"tile.transpose", [PL_TilePure]> {
  let ptoFamily = "tile_transpose";
  let ptoPipe = "v";
  let ptoInstruction = "TTRANS";
  let summary = "Swap two axes of a tile";
  let description = [{
    Returns `source` with axes `axis1` and `axis2` (distinct, in range,
    rank 2 or more) swapped, in a new buffer of the same memory space.
    `tmp` is the scratch TTRANS transposes into: a 2-D tile of the
    source's element type with at least the result's rows and its columns
    rounded up to a multiple of 16 (32 for 1-byte elements). Without one,
    pl-flatten-tile-nd-to-2d adds it. Example:

    ```mlir
    %t2 = pl.tile.transpose %t axes 0, 1 : !pl.tile<16x64xf32, vec> -> !pl.tile<64x16xf32, vec>
    %t3 = pl.tile.transpose %t axes 0, 1, %tmp : !pl.tile<16x64xf32, vec>, !pl.tile<64x16xf32, vec> -> !pl.tile<64x16xf32, vec>
    ```
  }];
  let arguments = (ins PL_AnyTile:$source, I64Attr:$axis1, I64Attr:$axis2, Optional<PL_AnyTile>:$tmp);
  let results = (outs PL_AnyTile:$result);
  let assemblyFormat = [{
    $source `axes` $axis1 `,` $axis2 (`,` $tmp^)? attr-dict `:` qualified(type($source))
    (`,` qualified(type($tmp))^)? `->` qualified(type($result))
  }];
}

def PL_TileTransposeViewOp : PL_Op<"tile.transpose_view", [PL_TilePure]> {
  let ptoFamily = "tile_view";
  let summary = "View a tile with its last two axes swapped";
  let description = [{
    Returns `source` (rank 2 or more) read with its last two axes swapped,
    in the same buffer: no data moves. The result's extents and valid
    extents are the source's with the last two swapped, and the major
    order of its block and scatter layouts is flipped, so an `nz` L1 tile
    (`mat`: col_major blocks of row_major boxes) is read as `zn` (row_major
    blocks of col_major boxes) and a row-major `nd` tile as column-major
    `dn`; element type, fractal, pad and memory space are kept. It is how
    a cube kernel feeds a transposed operand to the matmul: keys loaded
    as they lie in global memory (`[n, k]`) become the `[k, n]` right
    operand of Q·Kᵀ, and the move to L0 transposes them. Example:

    ```mlir
    %kt = pl.tile.transpose_view %k : !pl.tile<32x64xf16, mat> -> !pl.tile<64x32xf16, mat, blayout = row_major, slayout = col_major>
    ```
  }];
  let arguments = (ins PL_AnyTile:$source);
  let results = (outs PL_AnyTile:$result);
  let assemblyFormat = "$source attr-dict `:` qualified(type($source)) `->` qualified(type($result))";
}

def PL_TileExtractOp : PL_Op<"tile.extract", [PL_TilePure]> {
  let ptoFamily = "tile_move";
  let ptoPipe = "source:v";
  let ptoInstruction = "TEXTRACT";
  let summary = "Copy a 2-D window of a tile into another buffer";
  let description = [{
    Copies the window of the 2-D `source` at (`row`, `col`) with the
    result's 2-D shape into a new tile: L1 to L0A/L0B (`mat` to `left` or
    `right`), `acc` to `mat`, or within `vec`. The window lies inside the
    source when the offsets are constants. Example:

    ```mlir
    %a = pl.tile.extract %m[%c0, %k] : !pl.tile<64x256xf16, mat> -> !pl.tile<64x64xf16, left>
    ```
  }];
  let arguments = (ins PL_AnyTile:$source, Index:$row, Index:$col);
  let results = (outs PL_AnyTile:$result);
  let assemblyFormat = [{
    $source `[` $row `,` $col `]` attr-dict `:` qualified(type($source)) `->` qualified(type($result))
  }];
}

def PL_TileFillpadOp : PL_Op<"tile.fillpad", [PL_TilePure]> {
  let ptoFamily = "tile_fillpad";
  let ptoPipe = "v";
  let summary = "Fill the invalid region of a tile";
  let description = [{
    Fills the elements outside the valid region of `source` with `pad`
    (`zero`, `max` or `min`). The result is fully valid and records the
    pad value. Example:

    ```mlir
    %f = pl.tile.fillpad %t zero : !pl.tile<16x64xf32, vec, valid = ?x50> -> !pl.tile<16x64xf32, vec, pad = zero>
    ```
  }];
  let arguments = (ins PL_AnyTile:$source, PL_PadValue:$pad);
  let results = (outs PL_AnyTile:$result);
  let assemblyFormat = "$source $pad attr-dict `:` qualified(type($source)) `->` qualified(type($result))";
}

def PL_TileFillpadInplaceOp : PL_Op<"tile.fillpad_inplace", [PL_TilePure]> {
  let ptoFamily = "tile_fillpad";
  let ptoPipe = "v";
  let ptoTiedOperand = 0;
  let ptoInstruction = "TFILLPAD_INPLACE";
  let summary = "Fill the invalid region of a tile in its own buffer";
  let description = [{
    As `pl.tile.fillpad`, in `source`'s buffer: the result is `source`
    fully valid with the elements outside its valid region set to `pad`
    (`zero`, `max` or `min`), which the result's type records. Example:

    ```mlir
    %f = pl.tile.fillpad_inplace %t zero : !pl.tile<16x64xf32, vec, valid = ?x50> -> !pl.tile<16x64xf32, vec, pad = zero>
    ```
  }];
  let arguments = (ins PL_AnyTile:$source, PL_PadValue:$pad);
  let results = (outs PL_AnyTile:$result);
  let assemblyFormat = "$source $pad attr-dict `:` qualified(type($source)) `->` qualified(type($result))";
}

def PL_TileFillpadExpandOp : PL_Op<"tile.fillpad_expand", [PL_TilePure]> {
  let ptoFamily = "tile_fillpad";
  let ptoPipe = "v";
  let ptoInstruction = "TFILLPAD_EXPAND";
  let summary = "A larger tile: a tile in its corner, padding around it";
  let description = [{
    Returns a tile of the result's shape (at least the source's in every
    dimension, one rank and element type) holding the valid region of
    `source` at its origin and `pad` (`zero`, `max` or `min`) everywhere
    else: fully valid, the pad recorded in its type. Example:

    ```mlir
    %e = pl.tile.fillpad_expand %t min : !pl.tile<48x64xf32, vec> -> !pl.tile<64x64xf32, vec, pad = min>
    ```
  }];
  let arguments = (ins PL_AnyTile:$source, PL_PadValue:$pad);
  let results = (outs PL_AnyTile:$result);
  let assemblyFormat = "$source $pad attr-dict `:` qualified(type($source)) `->` qualified(type($result))";
}

def PL_TileConcatOp : PL_Op<"tile.concat", [PL_TilePure]> {
  let ptoFamily = "tile_concat";
  let ptoPipe = "v";
  let ptoInstruction = "TCONCAT";
  let ptoA2A3ElementTypes = ["i8", "i16", "i32", "ui8", "ui16", "ui32", "f16", "bf16", "f32"];
  let ptoA2A3SameType = 1;
  let summary = "Join two 2-D tiles side by side";
  let description = [{
    Returns the rows of `lhs` followed by the rows of `rhs`: 2-D tiles of
    one element type and number of rows, each with its columns wholly
    valid and one number of valid rows; the result has the sum of their
    columns and their valid rows. Example:

    ```mlir
    %q = pl.tile.concat %lo, %hi : !pl.tile<4x64xf32, vec>, !pl.tile<4x32xf32, vec> -> !pl.tile<4x96xf32, vec>
    ```
  }];
  let arguments = (ins PL_AnyTile:$lhs, PL_AnyTile:$rhs);
  let results = (outs PL_AnyTile:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs attr-dict `:` qualified(type($lhs)) `,` qualified(type($rhs)) `->` qualified(type($result))
  }];
}

def PL_TileReadOp : PL_Op<"tile.read", [PL_TilePure]> {
  let ptoFamily = "tile_access";
  let ptoPipe = "s";
  let summary = "Read one element of a tile";
  let description = [{
    Returns the element of a `vec` tile at `indices` (one per dimension),
    on the scalar pipe. Example:

    ```mlir
    %x = pl.tile.read %t[%i, %j] : !pl.tile<16x64xf32, vec> -> f32
    ```
  }];
  let arguments = (ins PL_AnyTile:$tile, Variadic<Index>:$indices);
  let results = (outs PL_Scalar:$result);
  let assemblyFormat = "$tile `[` $indices `]` attr-dict `:` qualified(type($tile)) `->` type($result)";
}

def PL_TileWriteOp : PL_Op<"tile.write", [PL_TilePure, AllTypesMatch<["tile", "result"]>]> {
  let ptoFamily = "tile_access";
  let ptoPipe = "s";
  let ptoTiedOperand = 0;
  let summary = "Write one element of a tile";
  let description = [{
    Returns `tile` with the element at `indices` (one per dimension)
    replaced by `value` (of the element type), on the scalar pipe; the tile
    lives in `vec`. Example:

    ```mlir
    %t2 = pl.tile.write %t[%i, %j], %x : !pl.tile<16x64xf32, vec>, f32
    ```
  }];
  let arguments = (ins PL_AnyTile:$tile, Variadic<Index>:$indices, PL_Scalar:$value);
  let results = (outs PL_AnyTile:$result);
  let assemblyFormat = [{
    $tile `[` $indices `]` `,` $value attr-dict `:` qualified(type($tile)) `,` type($value)
  }];
}

def PL_TileSetValidShapeOp : PL_Op<"tile.set_validshape", [PL_TilePure]> {
  let ptoFamily = "tile_view";
  let summary = "Change the valid extents of a 2-D tile";
  let description = [{
    Returns `source` (2-D) with valid extents (`rows`, `cols`); metadata
    only. The result type has the source's shape, element type, memory
    space and layout, and its valid extents are `?` or the constants given.
    Example:

    ```mlir
    %v = pl.tile.set_validshape %t, %rows, %c64 : !pl.tile<16x64xf32, vec> -> !pl.tile<16x64xf32, vec, valid = ?x64>
    ```
  }];
  let arguments = (ins PL_AnyTile:$source, Index:$rows, Index:$cols);
  let results = (outs PL_AnyTile:$result);
  let assemblyFormat = [{
    $source `,` $rows `,` $cols attr-dict `:` qualified(type($source)) `->` qualified(type($result))
  }];
}

def PL_TileAssembleOp : PL_Op<"tile.assemble", [PL_TilePure, AllTypesMatch<["target", "result"]>]> {
  let ptoFamily = "tile_assemble";
  let ptoPipe = "v";
  let ptoTiedOperand = 1;
  let summary = "Write a tile into a window of another tile";
  let description = [{
    Returns `target` with the window at `offsets` (one per dimension)
    replaced by `source`: same element type and rank, and the window lies
    inside the target when the offsets are constants. Example:

    ```mlir
    %t2 = pl.tile.assemble %s into %t[%c0, %c64] : !pl.tile<16x64xf32, vec>, !pl.tile<16x128xf32, vec>
    ```
  }];
  let arguments = (ins PL_AnyTile:$source, PL_AnyTile:$target, Variadic<Index>:$offsets);
  let results = (outs PL_AnyTile:$result);
  let assemblyFormat = [{
    $source `into` $target `[` $offsets `]` attr-dict `:` qualified(type($source)) `,` qualified(type($target))
  }];
}

#endif // PTO_PL_MOVEMENT_OPS_TD
