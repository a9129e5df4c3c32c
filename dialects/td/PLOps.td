//===- PLOps.td - pl operations ----------------------------*- tablegen -*-===//

#ifndef PTO_PL_OPS_TD
#define PTO_PL_OPS_TD

include "PLTypes.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "PLTraits.td"

//===----------------------------------------------------------------------===//
// Data movement
//===----------------------------------------------------------------------===//

def PL_TileMoveOp : PL_Op<"tile.move", [PL_TilePure]> {
  let ptoFamily = "tile_move";
  let ptoPipe = "source:v";
  let ptoInstruction = "TMOV";
  let summary = "Copy a tile between on-chip buffers";
  let description = [{
    Copies `source` into a new tile of the same shape in another on-chip
    memory space. The result must have a memory space; a source without
    one (not yet inferred) is accepted. On a2a3 the legal single-core pairs
    are `mat -> left`, `mat -> right`, `mat -> bias`, `acc -> mat` and
    `vec -> vec`; `vec -> mat` and `acc -> vec` cross between the vector
    and the cube core and are legal until mixed-kernel expansion turns them
    into pushes and pops. A move into `bias` takes i32 to i32 or f32/f16 to
    f32; every other move keeps the element type. Example:

    ```mlir
    %a = pl.tile.move %m : !pl.tile<64x64xf16, mat> -> !pl.tile<64x64xf16, left>
    ```
  }];
  let arguments = (ins PL_AnyTile:$source);
  let results = (outs PL_AnyTile:$result);
  let assemblyFormat = "$source attr-dict `:` qualified(type($source)) `->` qualified(type($result))";
}

//===----------------------------------------------------------------------===//
// Elementwise tile ops. Operands and results live in `vec` (or
// have no memory space yet); the dtype and shape rules are in Rust
// (dialects/src/verify/elementwise.rs).
//===----------------------------------------------------------------------===//

// One tile in, a tile of the same type out.
class PL_TileUnaryOp<string mnemonic, string what, string rule = "",
                     dag extraArgs = (ins)>
    : PL_Op<"tile." # mnemonic, [PL_TilePure, SameOperandsAndResultType]> {
  let ptoFamily = "tile_unary";
  let ptoCompute = mnemonic;
  let ptoPipe = "v";
  let ptoInPlaceOperands = [0];
  let ptoInstruction = "T" # !toupper(mnemonic);
  let summary = "Elementwise " # what # " of a tile";
  let description = "Computes " # what # " of every element of `source`; "
      # "the result has the source's type (shape, element type, valid shape "
      # "and layout). " # rule # "\n\nExample:\n\n```mlir\n%r = pl.tile."
      # mnemonic # " %t : !pl.tile<16x64xf32, vec>\n```\n";
  let arguments = !con((ins PL_AnyTile:$source), extraArgs);
  let results = (outs PL_AnyTile:$result);
  let assemblyFormat = "$source attr-dict `:` qualified(type($result))";
}

def PL_TileNegOp : PL_TileUnaryOp<"neg", "the negation"> {
  let ptoA2A3ElementTypes = ["i32", "i16", "f16", "f32"];
}
def PL_TileExpOp : PL_TileUnaryOp<"exp", "the exponential"> {
  let ptoA2A3ElementTypes = ["f16", "f32"];
}
def PL_TileSqrtOp : PL_TileUnaryOp<"sqrt", "the square root"> {
  let ptoA2A3ElementTypes = ["f16", "f32"];
}
def PL_TileRsqrtOp : PL_TileUnaryOp<"rsqrt", "the reciprocal square root"> {
  let ptoA2A3ElementTypes = ["f16", "f32"];
  let ptoInPlaceOperands = [];
}
def PL_TileAbsOp : PL_TileUnaryOp<"abs", "the absolute value"> {
  let ptoA2A3ElementTypes = ["f16", "f32"];
}
def PL_TileReluOp : PL_TileUnaryOp<"relu", "max(x, 0)"> {
  let ptoA2A3ElementTypes = ["f16", "f32", "i32"];
}
def PL_TileRecipOp : PL_TileUnaryOp<"recip", "the reciprocal",
    "`high_precision` (floats only) selects the precise algorithm.",
    (ins UnitAttr:$high_precision)> {
  let ptoA2A3ElementTypes = ["i32", "i16", "f16", "f32"];
  let ptoInPlaceOperands = [];
}
def PL_TileLogOp : PL_TileUnaryOp<"log", "the natural logarithm",
    "The element type is f16 or f32. `high_precision` selects the precise algorithm.",
    (ins UnitAttr:$high_precision)> {
  let ptoA2A3ElementTypes = ["f16", "f32"];
}
def PL_TileSinOp : PL_TileUnaryOp<"sin", "the sine", "The element type is f32."> {
  let ptoInPlaceOperands = [];
  let ptoInstruction = "";
}
def PL_TileCosOp : PL_TileUnaryOp<"cos", "the cosine", "The element type is f32."> {
  let ptoInPlaceOperands = [];
  let ptoInstruction = "";
}
def PL_TileNotOp : PL_TileUnaryOp<"not", "the bitwise complement",
    "The element type is i16 or ui16.">;

// Two tiles in (broadcast, promoted), a tile out.
class PL_TileBinaryOp<string mnemonic, string what, string rule = "">
    : PL_Op<"tile." # mnemonic, [PL_TilePure]> {
  let ptoFamily = "tile_binary";
  let ptoCompute = mnemonic;
  let ptoPipe = "v";
  let ptoInPlaceOperands = [0, 1];
  let ptoInstruction = "T" # !toupper(mnemonic);
  let summary = "Elementwise " # what # " of two tiles";
  let description = "Computes " # what # " elementwise. " # rule
      # "\n\nExample:\n\n```mlir\n%r = pl.tile." # mnemonic
      # " %a, %b : !pl.tile<16x64xi32, vec>, !pl.tile<16x64xi32, vec> -> !pl.tile<16x64xi32, vec>\n```\n";
  let arguments = (ins PL_AnyTile:$lhs, PL_AnyTile:$rhs);
  let results = (outs PL_AnyTile:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs attr-dict `:` qualified(type($lhs)) `,` qualified(type($rhs))
    `->` qualified(type($result))
  }];
}

defvar promoteRule = "The result's element type is the promotion of the "
    # "operands' (a float beats an integer, the wider type wins, at equal "
    # "width signed beats unsigned, otherwise the left one) and its shape the "
    # "right-aligned broadcast of their shapes.";

def PL_TileAddOp : PL_TileBinaryOp<"add", "the sum", promoteRule> {
  let ptoA2A3ElementTypes = ["i32", "i16", "f16", "f32"];
  let ptoA2A3SameType = 1;
}
def PL_TileSubOp : PL_TileBinaryOp<"sub", "the difference", promoteRule> {
  let ptoA2A3ElementTypes = ["i32", "i16", "f16", "f32"];
  let ptoA2A3SameType = 1;
}
def PL_TileMulOp : PL_TileBinaryOp<"mul", "the product", promoteRule> {
  let ptoA2A3ElementTypes = ["i32", "i16", "f16", "f32"];
  let ptoA2A3SameType = 1;
}
def PL_TileMaximumOp : PL_TileBinaryOp<"maximum", "the maximum", promoteRule> {
  let ptoA2A3ElementTypes = ["i32", "i16", "f16", "f32"];
  let ptoA2A3SameType = 1;
  let ptoInstruction = "TMAX";
}
def PL_TileMinimumOp : PL_TileBinaryOp<"minimum", "the minimum", promoteRule> {
  let ptoA2A3ElementTypes = ["i32", "i16", "f16", "f32"];
  let ptoA2A3SameType = 1;
  let ptoInstruction = "TMIN";
}
def PL_TileFmodOp : PL_TileBinaryOp<"fmod", "the truncated remainder (the dividend's sign, C's fmod)", promoteRule> {
  let ptoA2A3ElementTypes = ["f32"];
  let ptoA2A3SameType = 1;
}
def PL_TileDivOp : PL_TileBinaryOp<"div", "the quotient",
    "Both operands and the result have the same type, with element type "
    # "i16, i32, f16 or f32 (no promotion, no broadcast)."> {
  let ptoA2A3ElementTypes = ["f16", "f32"];
  let ptoA2A3SameType = 1;
}
def PL_TileAndOp : PL_TileBinaryOp<"and", "the bitwise and",
    "Integer element types only. " # promoteRule> {
  let ptoA2A3SameType = 1;
}
def PL_TileOrOp : PL_TileBinaryOp<"or", "the bitwise or",
    "Integer element types only. " # promoteRule> {
  let ptoA2A3SameType = 1;
}
def PL_TileShlOp : PL_TileBinaryOp<"shl", "the left shift",
    "Integer element types only; the result has the left operand's element type."> {
  let ptoA2A3ElementTypes = ["i8", "ui8", "i16", "ui16", "i32", "ui32"];
  let ptoA2A3SameType = 1;
}
def PL_TileShrOp : PL_TileBinaryOp<"shr", "the right shift",
    "Integer element types only; the result has the left operand's element type."> {
  let ptoA2A3ElementTypes = ["i8", "ui8", "i16", "ui16", "i32", "ui32"];
  let ptoA2A3SameType = 1;
}

// Two tiles and a scratch tile in, a tile out.
class PL_TileBinaryScratchOp<string mnemonic, string what, string rule>
    : PL_Op<"tile." # mnemonic, [PL_TilePure]> {
  let ptoFamily = "tile_binary";
  let ptoCompute = mnemonic;
  let ptoPipe = "v";
  let ptoInstruction = "T" # !toupper(mnemonic);
  let summary = "Elementwise " # what # " of two tiles, with a scratch tile";
  let description = "Computes " # what # " elementwise using `tmp` as scratch. "
      # rule # "\n\nExample:\n\n```mlir\n%r = pl.tile." # mnemonic
      # " %a, %b, %tmp : !pl.tile<16x64xi32, vec>, !pl.tile<16x64xi32, vec>, !pl.tile<16x64xi32, vec> -> !pl.tile<16x64xi32, vec>\n```\n";
  let arguments = (ins PL_AnyTile:$lhs, PL_AnyTile:$rhs, PL_AnyTile:$tmp);
  let results = (outs PL_AnyTile:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs `,` $tmp attr-dict `:` qualified(type($lhs)) `,`
    qualified(type($rhs)) `,` qualified(type($tmp)) `->` qualified(type($result))
  }];
}

def PL_TilePreluOp : PL_Op<"tile.prelu", [PL_TilePure]> {
  let ptoA2A3ElementTypes = ["f16", "f32"];
  let ptoA2A3SameType = 1;
  let ptoFamily = "tile_binary";
  let ptoCompute = "prelu";
  let ptoPipe = "v";
  let ptoInstruction = "TPRELU";
  let summary = "Elementwise parametric relu of two tiles, x or slope * x";
  let description = [{
    Computes `lhs` where it is not negative, else `lhs * rhs`: `rhs` holds
    the slopes. The result's element type is the promotion of the
    operands' and its shape the right-aligned broadcast of their shapes.
    `tmp` is the scratch TPRELU writes its sign mask into: a `ui8` tile
    with more rows than the result (the last row is the select's own
    scratch) and at least the packed mask's columns (`ceil(cols / 8)`
    rounded up to 32). Without one, pl-flatten-tile-nd-to-2d adds it.
    Example:

    ```mlir
    %r = pl.tile.prelu %x, %slopes, %tmp : !pl.tile<16x64xf32, vec>, !pl.tile<16x64xf32, vec>, !pl.tile<17x32xui8, vec> -> !pl.tile<16x64xf32, vec>
    ```
  }];
  let arguments = (ins PL_AnyTile:$lhs, PL_AnyTile:$rhs, Optional<PL_AnyTile>:$tmp);
  let results = (outs PL_AnyTile:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs (`,` $tmp^)? attr-dict `:` qualified(type($lhs)) `,`
    qualified(type($rhs)) (`,` qualified(type($tmp))^)? `->` qualified(type($result))
  }];
}

def PL_TileRemOp : PL_TileBinaryScratchOp<"rem", "the floor remainder (the divisor's sign, Python's %)", promoteRule> {
  let ptoA2A3ElementTypes = ["f32", "i32"];
  let ptoA2A3SameType = 1;
}
def PL_TileXorOp : PL_TileBinaryScratchOp<"xor", "the bitwise exclusive or",
    "Integer element types only. " # promoteRule> {
  let ptoA2A3SameType = 1;
}

// A tile and a scalar in, a tile of the tile's type out.
class PL_TileScalarOp<string mnemonic, string what, string rule = "">
    : PL_Op<"tile." # mnemonic, [PL_TilePure, AllTypesMatch<["tile", "result"]>]> {
  let ptoFamily = "tile_scalar";
  let ptoCompute = !substr(mnemonic, 0, !sub(!size(mnemonic), 1));
  let ptoPipe = "v";
  let ptoInPlaceOperands = [0];
  let ptoInstruction = "T" # !toupper(mnemonic);
  let summary = "Elementwise " # what # " of a tile and a scalar";
  let description = "Computes " # what # " of every element and `scalar`. "
      # "The result keeps the tile's type (the hardware narrows the scalar); "
      # "an `index` scalar must be cast first. " # rule
      # "\n\nExample:\n\n```mlir\n%r = pl.tile." # mnemonic
      # " %t, %s : !pl.tile<16x64xi32, vec>, i32\n```\n";
  let arguments = (ins PL_AnyTile:$tile, PL_Scalar:$scalar);
  let results = (outs PL_AnyTile:$result);
  let assemblyFormat = "$tile `,` $scalar attr-dict `:` qualified(type($tile)) `,` type($scalar)";
}

def PL_TileAddsOp : PL_TileScalarOp<"adds", "the sum"> {
  let ptoA2A3ElementTypes = ["i32", "i16", "f16", "f32"];
  let ptoA2A3SameType = 1;
}
def PL_TileSubsOp : PL_TileScalarOp<"subs", "the difference",
    "Tile and scalar element types are i8, i16, i32, f16, f32 or bf16."> {
  let ptoA2A3ElementTypes = ["i32", "i16", "f16", "f32"];
  let ptoA2A3SameType = 1;
}
def PL_TileMulsOp : PL_TileScalarOp<"muls", "the product"> {
  let ptoA2A3ElementTypes = ["i32", "i16", "f16", "f32"];
  let ptoA2A3SameType = 1;
}
def PL_TileDivsOp : PL_TileScalarOp<"divs", "the quotient"> {
  let ptoA2A3ElementTypes = ["i32", "i16", "f16", "f32"];
  let ptoA2A3SameType = 1;
}
def PL_TileMaximumsOp : PL_TileScalarOp<"maximums", "the maximum"> {
  let ptoA2A3ElementTypes = ["i32", "i16", "f16", "f32"];
  let ptoA2A3SameType = 1;
  let ptoInstruction = "TMAXS";
}
def PL_TileMinimumsOp : PL_TileScalarOp<"minimums", "the minimum"> {
  let ptoA2A3ElementTypes = ["i32", "i16", "f16", "f32"];
  let ptoA2A3SameType = 1;
  let ptoInstruction = "TMINS";
}
def PL_TileFmodsOp : PL_TileScalarOp<"fmods", "the truncated remainder (the dividend's sign, C's fmod)"> {
  let ptoA2A3ElementTypes = ["f32"];
  let ptoA2A3SameType = 1;
  let ptoInPlaceOperands = [];
}
def PL_TileAndsOp : PL_TileScalarOp<"ands", "the bitwise and", "Integer types only."> {
  let ptoA2A3SameType = 1;
}
def PL_TileOrsOp : PL_TileScalarOp<"ors", "the bitwise or", "Integer types only."> {
  let ptoA2A3SameType = 1;
}
def PL_TileShlsOp : PL_TileScalarOp<"shls", "the left shift", "Integer types only."> {
  let ptoA2A3ElementTypes = ["i32", "i16", "ui32", "ui16"];
  let ptoA2A3SameType = 1;
}
def PL_TileShrsOp : PL_TileScalarOp<"shrs", "the right shift", "Integer types only."> {
  let ptoA2A3ElementTypes = ["i32", "i16", "ui32", "ui16"];
  let ptoA2A3SameType = 1;
}
def PL_TileLreluOp : PL_TileScalarOp<"lrelu", "the leaky relu with slope",
    "Float types only."> {
  let ptoA2A3ElementTypes = ["f16", "f32"];
  let ptoA2A3SameType = 1;
  let ptoCompute = "lrelu";
}

// A tile, a scalar and a scratch tile in.
class PL_TileScalarScratchOp<string mnemonic, string what, string rule = "">
    : PL_Op<"tile." # mnemonic, [PL_TilePure, AllTypesMatch<["tile", "tmp", "result"]>]> {
  let ptoFamily = "tile_scalar";
  let ptoCompute = !substr(mnemonic, 0, !sub(!size(mnemonic), 1));
  let ptoPipe = "v";
  let ptoInstruction = "T" # !toupper(mnemonic);
  let summary = "Elementwise " # what # " of a tile and a scalar, with a scratch tile";
  let description = "Computes " # what # " of every element and `scalar`, "
      # "using `tmp` (of the tile's type) as scratch. " # rule
      # "\n\nExample:\n\n```mlir\n%r = pl.tile." # mnemonic
      # " %t, %s, %tmp : !pl.tile<16x64xi32, vec>, i32\n```\n";
  let arguments = (ins PL_AnyTile:$tile, PL_Scalar:$scalar, PL_AnyTile:$tmp);
  let results = (outs PL_AnyTile:$result);
  let assemblyFormat = "$tile `,` $scalar `,` $tmp attr-dict `:` qualified(type($tile)) `,` type($scalar)";
}

def PL_TileRemsOp : PL_TileScalarScratchOp<"rems", "the floor remainder (the divisor's sign, Python's %)"> {
  let ptoA2A3ElementTypes = ["f32", "i32"];
  let ptoA2A3SameType = 1;
}
def PL_TileXorsOp : PL_TileScalarScratchOp<"xors", "the bitwise exclusive or", "Integer types only."> {
  let ptoA2A3SameType = 1;
}

def PL_TileExpandsOp : PL_Op<"tile.expands", [PL_TilePure, AllTypesMatch<["target", "result"]>]> {
  let ptoA2A3ElementTypes = ["ui8", "i8", "ui16", "i16", "ui32", "i32", "f16", "bf16", "f32"];
  let ptoFamily = "tile_scalar";
  let ptoPipe = "v";
  let ptoInstruction = "TEXPANDS";
  let ptoCompute = "broadcast";
  let ptoTiedOperand = 0;
  let summary = "Broadcast a scalar into a tile";
  let description = [{
    Returns a tile of `target`'s type whose every element is `scalar`.
    Example:

    ```mlir
    %r = pl.tile.expands %t, %zero : !pl.tile<16x64xf32, vec>, f32
    ```
  }];
  let arguments = (ins PL_AnyTile:$target, PL_Scalar:$scalar);
  let results = (outs PL_AnyTile:$result);
  let assemblyFormat = "$target `,` $scalar attr-dict `:` qualified(type($target)) `,` type($scalar)";
}

def PL_TileCmpOp : PL_Op<"tile.cmp", [PL_TilePure]> {
  let ptoA2A3SourceTypes = ["i32", "f16", "f32"];
  let ptoFamily = "tile_compare";
  let ptoPipe = "v";
  let ptoInstruction = "TCMP";
  let summary = "Elementwise comparison of two tiles into a packed mask";
  let description = [{
    Compares `lhs` and `rhs` (same type) elementwise and packs the outcomes
    into a bit mask: a `ui8` tile whose last dimension is the number of
    mask bytes, `ceil(cols / 8)`, rounded up to 32, with valid extent
    `ceil(valid_cols / 8)`. Example:

    ```mlir
    %m = pl.tile.cmp %a, %b lt : !pl.tile<16x64xf32, vec>, !pl.tile<16x64xf32, vec> -> !pl.tile<16x32xui8, vec, valid = 16x8>
    ```
  }];
  let arguments = (ins PL_AnyTile:$lhs, PL_AnyTile:$rhs, PL_CmpMode:$cmp);
  let results = (outs PL_AnyTile:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs $cmp attr-dict `:` qualified(type($lhs)) `,` qualified(type($rhs))
    `->` qualified(type($result))
  }];
}

def PL_TileCmpsOp : PL_Op<"tile.cmps", [PL_TilePure]> {
  let ptoA2A3SourceTypes = ["i32", "f32", "f16", "ui16", "i16"];
  let ptoFamily = "tile_compare";
  let ptoPipe = "v";
  let ptoInstruction = "TCMPS";
  let summary = "Elementwise comparison of a tile with a scalar into a packed mask";
  let description = [{
    As `pl.tile.cmp`, comparing every element with `scalar`. Example:

    ```mlir
    %m = pl.tile.cmps %a, %s ge : !pl.tile<16x64xf32, vec>, f32 -> !pl.tile<16x32xui8, vec, valid = 16x8>
    ```
  }];
  let arguments = (ins PL_AnyTile:$lhs, PL_Scalar:$scalar, PL_CmpMode:$cmp);
  let results = (outs PL_AnyTile:$result);
  let assemblyFormat = [{
    $lhs `,` $scalar $cmp attr-dict `:` qualified(type($lhs)) `,` type($scalar)
    `->` qualified(type($result))
  }];
}

def PL_TileSelOp : PL_Op<"tile.sel", [PL_TilePure, AllTypesMatch<["lhs", "rhs", "tmp", "result"]>]> {
  let ptoA2A3ElementTypes = ["i16", "ui16", "f16", "bf16", "i32", "ui32", "f32"];
  let ptoFamily = "tile_select";
  let ptoPipe = "v";
  let ptoInstruction = "TSEL";
  let summary = "Select between two tiles by a packed mask";
  let description = [{
    Element i of the result is `lhs[i]` where bit i of `mask` is set, else
    `rhs[i]`. `lhs`, `rhs`, `tmp` and the result have one type; `mask` is
    the packed `ui8` mask `pl.tile.cmp` makes for that type. Example:

    ```mlir
    %r = pl.tile.sel %m, %a, %b, %tmp : !pl.tile<16x32xui8, vec, valid = 16x8>, !pl.tile<16x64xf32, vec>
    ```
  }];
  let arguments = (ins PL_AnyTile:$mask, PL_AnyTile:$lhs, PL_AnyTile:$rhs, PL_AnyTile:$tmp);
  let results = (outs PL_AnyTile:$result);
  let assemblyFormat = [{
    $mask `,` $lhs `,` $rhs `,` $tmp attr-dict `:` qualified(type($mask)) `,` qualified(type($result))
  }];
}

def PL_TileSelsOp : PL_Op<"tile.sels", [PL_TilePure, AllTypesMatch<["lhs", "tmp", "result"]>]> {
  let ptoA2A3ElementTypes = ["i16", "ui16", "f16", "bf16", "i32", "ui32", "f32"];
  let ptoFamily = "tile_select";
  let ptoPipe = "v";
  let ptoInstruction = "TSELS";
  let summary = "Select between a tile and a scalar by a packed mask";
  let description = [{
    Element i of the result is `lhs[i]` where bit i of `mask` is set, else
    `scalar`. `mask` is the packed `ui8` mask `pl.tile.cmp` makes for
    `lhs`'s type; `tmp` is scratch of that type. Example:

    ```mlir
    %r = pl.tile.sels %m, %a, %zero, %tmp : !pl.tile<16x32xui8, vec, valid = 16x8>, !pl.tile<16x64xf32, vec>, f32
    ```
  }];
  let arguments = (ins PL_AnyTile:$mask, PL_AnyTile:$lhs, PL_Scalar:$scalar, PL_AnyTile:$tmp);
  let results = (outs PL_AnyTile:$result);
  let assemblyFormat = [{
    $mask `,` $lhs `,` $scalar `,` $tmp attr-dict `:` qualified(type($mask)) `,` qualified(type($result)) `,` type($scalar)
  }];
}

def PL_TileCastOp : PL_Op<"tile.cast", [PL_TilePure]> {
  let ptoFamily = "tile_cast";
  let ptoPipe = "v";
  let ptoInstruction = "TCVT";
  let summary = "Convert the element type of a tile";
  let description = [{
    Converts every element to the result's element type with the given
    rounding. Shape, valid shape and layout are kept; casting to the same
    element type is rejected. Example:

    ```mlir
    %h = pl.tile.cast %t round : !pl.tile<16x64xf32, vec> -> !pl.tile<16x64xf16, vec>
    ```
  }];
  let arguments = (ins PL_AnyTile:$source, PL_RoundMode:$mode);
  let results = (outs PL_AnyTile:$result);
  let assemblyFormat = [{
    $source $mode attr-dict `:` qualified(type($source)) `->` qualified(type($result))
  }];
}

//===----------------------------------------------------------------------===//
// The matmul family (cube). Operands come from L0A (`left`)
// and L0B (`right`), the product lands in L0C (`acc`). Before memory-space
// inference operands may still be in L1 (`mat`): inference inserts the
// moves. Rules in dialects/src/verify/matmul.rs.
//===----------------------------------------------------------------------===//

defvar matmulRule = "Both operands are 2-D with equal K (`lhs` is MxK, `rhs` "
    # "KxN) and one element type; the product is MxN in `acc`, f32 for float "
    # "operands and i32 for integer ones, with valid extents (lhs valid M, "
    # "rhs valid N). The valid K of `rhs` must cover that of `lhs`.";

def PL_TileMatmulOp : PL_Op<"tile.matmul", [PL_TilePure]> {
  let ptoFamily = "tile_matmul";
  let ptoPipe = "m";
  let ptoInstruction = "TMATMUL";
  let summary = "Matrix product of two tiles into an accumulator";
  let description = "Computes `lhs x rhs`. " # matmulRule # [{

Example:

```mlir
%c = pl.tile.matmul %a, %b : !pl.tile<64x32xf16, left>, !pl.tile<32x128xf16, right> -> !pl.tile<64x128xf32, acc>
```
}];
  let arguments = (ins PL_AnyTile:$lhs, PL_AnyTile:$rhs);
  let results = (outs PL_AnyTile:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs attr-dict `:` qualified(type($lhs)) `,` qualified(type($rhs))
    `->` qualified(type($result))
  }];
}

def PL_TileMatmulAccOp : PL_Op<"tile.matmul_acc", [PL_TilePure, AllTypesMatch<["acc", "result"]>]> {
  let ptoFamily = "tile_matmul";
  let ptoPipe = "m";
  let ptoInstruction = "TMATMUL_ACC";
  let ptoTiedOperand = 0;
  let summary = "Accumulate a matrix product into an accumulator";
  let description = "Computes `acc + lhs x rhs` in place of `acc` (the "
      # "result is `acc`'s buffer). " # matmulRule # " `acc` has the "
      # "product's shape and element type and valid extents covering the "
      # "product's. With `init` true the accumulator is overwritten instead. " # [{

Example:

```mlir
%c2 = pl.tile.matmul_acc %c, %a, %b : !pl.tile<64x128xf32, acc>, !pl.tile<64x32xf16, left>, !pl.tile<32x128xf16, right>
%c3 = pl.tile.matmul_acc %c, %a, %b init %first : !pl.tile<64x128xf32, acc>, !pl.tile<64x32xf16, left>, !pl.tile<32x128xf16, right>
```
}];
  let arguments = (ins PL_AnyTile:$acc, PL_AnyTile:$lhs, PL_AnyTile:$rhs, Optional<I1>:$init);
  let results = (outs PL_AnyTile:$result);
  let assemblyFormat = [{
    $acc `,` $lhs `,` $rhs (`init` $init^)? attr-dict `:` qualified(type($acc)) `,`
    qualified(type($lhs)) `,` qualified(type($rhs))
  }];
}

def PL_TileMatmulBiasOp : PL_Op<"tile.matmul_bias", [PL_TilePure]> {
  let ptoFamily = "tile_matmul";
  let ptoPipe = "m";
  let ptoInstruction = "TMATMUL_BIAS";
  let summary = "Matrix product plus a bias row";
  let description = "Computes `lhs x rhs + bias`, `bias` a 1xN row in the "
      # "bias table with the product's element type. " # matmulRule # [{

Example:

```mlir
%c = pl.tile.matmul_bias %a, %b, %bias : !pl.tile<64x32xf16, left>, !pl.tile<32x128xf16, right>, !pl.tile<1x128xf32, bias> -> !pl.tile<64x128xf32, acc>
```
}];
  let arguments = (ins PL_AnyTile:$lhs, PL_AnyTile:$rhs, PL_AnyTile:$bias);
  let results = (outs PL_AnyTile:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs `,` $bias attr-dict `:` qualified(type($lhs)) `,` qualified(type($rhs))
    `,` qualified(type($bias)) `->` qualified(type($result))
  }];
}

defvar gemvRule = "`lhs` is a 1xK row and `rhs` KxN; element types map i8 "
    # "to an i32 product and f16, bf16, f32 to an f32 product. `phase` "
    # "(unspecified, partial, final) tells a split-K accumulation which part "
    # "this is.";

def PL_TileGemvOp : PL_Op<"tile.gemv", [PL_TilePure]> {
  let ptoFamily = "tile_matmul";
  let ptoPipe = "m";
  let ptoInstruction = "TGEMV";
  let summary = "Row-vector times matrix into an accumulator";
  let description = "Computes `lhs x rhs`. " # gemvRule # [{

Example:

```mlir
%c = pl.tile.gemv %x, %w unspecified : !pl.tile<1x64xf16, left>, !pl.tile<64x128xf16, right> -> !pl.tile<1x128xf32, acc>
```
}];
  let arguments = (ins PL_AnyTile:$lhs, PL_AnyTile:$rhs, PL_AccPhase:$phase);
  let results = (outs PL_AnyTile:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs $phase attr-dict `:` qualified(type($lhs)) `,` qualified(type($rhs))
    `->` qualified(type($result))
  }];
}

def PL_TileGemvAccOp : PL_Op<"tile.gemv_acc", [PL_TilePure, AllTypesMatch<["acc", "result"]>]> {
  let ptoFamily = "tile_matmul";
  let ptoPipe = "m";
  let ptoInstruction = "TGEMV_ACC";
  let ptoTiedOperand = 0;
  let summary = "Accumulate a row-vector times matrix product";
  let description = "Computes `acc + lhs x rhs` in place of `acc`. " # gemvRule # [{

Example:

```mlir
%c2 = pl.tile.gemv_acc %c, %x, %w final : !pl.tile<1x128xf32, acc>, !pl.tile<1x64xf16, left>, !pl.tile<64x128xf16, right>
```
}];
  let arguments = (ins PL_AnyTile:$acc, PL_AnyTile:$lhs, PL_AnyTile:$rhs, PL_AccPhase:$phase);
  let results = (outs PL_AnyTile:$result);
  let assemblyFormat = [{
    $acc `,` $lhs `,` $rhs $phase attr-dict `:` qualified(type($acc)) `,`
    qualified(type($lhs)) `,` qualified(type($rhs))
  }];
}

def PL_TileGemvBiasOp : PL_Op<"tile.gemv_bias", [PL_TilePure]> {
  let ptoFamily = "tile_matmul";
  let ptoPipe = "m";
  let ptoInstruction = "TGEMV_BIAS";
  let summary = "Row-vector times matrix plus a bias row";
  let description = "Computes `lhs x rhs + bias`. " # gemvRule # [{

Example:

```mlir
%c = pl.tile.gemv_bias %x, %w, %bias unspecified : !pl.tile<1x64xf16, left>, !pl.tile<64x128xf16, right>, !pl.tile<1x128xf32, bias> -> !pl.tile<1x128xf32, acc>
```
}];
  let arguments = (ins PL_AnyTile:$lhs, PL_AnyTile:$rhs, PL_AnyTile:$bias, PL_AccPhase:$phase);
  let results = (outs PL_AnyTile:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs `,` $bias $phase attr-dict `:` qualified(type($lhs)) `,`
    qualified(type($rhs)) `,` qualified(type($bias)) `->` qualified(type($result))
  }];
}

defvar batchRule = "Operands have rank 2 or more; the leading (batch) "
    # "dimensions broadcast right-aligned and the last two multiply as in "
    # "`pl.tile.matmul`. It is unrolled into 2-D matmuls before code "
    # "generation.";

def PL_TileBatchMatmulOp : PL_Op<"tile.batch_matmul", [PL_TilePure]> {
  let ptoFamily = "tile_matmul";
  let ptoPipe = "m";
  let summary = "Batched matrix product";
  let description = "Computes one matrix product per batch index. " # batchRule # [{

Example:

```mlir
%c = pl.tile.batch_matmul %a, %b : !pl.tile<4x16x32xf16, left>, !pl.tile<1x32x16xf16, right> -> !pl.tile<4x16x16xf32, acc>
```
}];
  let arguments = (ins PL_AnyTile:$lhs, PL_AnyTile:$rhs);
  let results = (outs PL_AnyTile:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs attr-dict `:` qualified(type($lhs)) `,` qualified(type($rhs))
    `->` qualified(type($result))
  }];
}

def PL_TileBatchMatmulAccOp : PL_Op<"tile.batch_matmul_acc", [PL_TilePure, AllTypesMatch<["acc", "result"]>]> {
  let ptoFamily = "tile_matmul";
  let ptoPipe = "m";
  let ptoTiedOperand = 0;
  let summary = "Accumulate a batched matrix product";
  let description = "Computes `acc + lhs x rhs` per batch index in place of `acc`. " # batchRule # [{

Example:

```mlir
%c2 = pl.tile.batch_matmul_acc %c, %a, %b : !pl.tile<4x16x16xf32, acc>, !pl.tile<4x16x32xf16, left>, !pl.tile<4x32x16xf16, right>
```
}];
  let arguments = (ins PL_AnyTile:$acc, PL_AnyTile:$lhs, PL_AnyTile:$rhs);
  let results = (outs PL_AnyTile:$result);
  let assemblyFormat = [{
    $acc `,` $lhs `,` $rhs attr-dict `:` qualified(type($acc)) `,`
    qualified(type($lhs)) `,` qualified(type($rhs))
  }];
}

//===----------------------------------------------------------------------===//
// Reductions and broadcasts, on `vec` tiles. Rules in
// dialects/src/verify/reduce.rs.
//===----------------------------------------------------------------------===//

class PL_TileRowReduceOp<string mnemonic, string what, string resultRule>
    : PL_Op<"tile." # mnemonic, [PL_TilePure]> {
  let ptoFamily = "tile_row_reduce";
  let ptoCompute = !substr(mnemonic, 4);
  let ptoPipe = "v";
  let ptoInstruction = "TROW" # !toupper(!substr(mnemonic, 4));
  let summary = "Reduce every row of a tile to its " # what;
  let description = "Reduces the last axis: the result is `[..., rows, 1]` "
      # "(a column, col_major blocks) with valid `[..., valid_rows, 1]`. "
      # "`tmp` is a scratch tile of the input's rank and element type whose "
      # "dimensions are at least the input's. " # resultRule # [{

Example:

```mlir
%r = pl.tile.}] # mnemonic # [{ %t, %tmp : !pl.tile<16x64xf32, vec>, !pl.tile<16x128xf32, vec> -> !pl.tile<16x1xf32, vec>
```
}];
  let arguments = (ins PL_AnyTile:$source, PL_AnyTile:$tmp);
  let results = (outs PL_AnyTile:$result);
  let assemblyFormat = [{
    $source `,` $tmp attr-dict `:` qualified(type($source)) `,` qualified(type($tmp))
    `->` qualified(type($result))
  }];
}

def PL_TileRowSumOp : PL_TileRowReduceOp<"row_sum", "sum", "The result keeps the element type."> {
  let ptoA2A3ElementTypes = ["i32", "i16", "f16", "f32"];
  let ptoA2A3SameType = 1;
}
def PL_TileRowMaxOp : PL_TileRowReduceOp<"row_max", "maximum", "The result keeps the element type."> {
  let ptoA2A3ElementTypes = ["i32", "i16", "f16", "f32"];
  let ptoA2A3SameType = 1;
}
def PL_TileRowMinOp : PL_TileRowReduceOp<"row_min", "minimum",
    "The result keeps the element type; the input is row_major without inner boxes."> {
  let ptoA2A3ElementTypes = ["i32", "i16", "f16", "f32"];
  let ptoA2A3SameType = 1;
}
def PL_TileRowProdOp : PL_TileRowReduceOp<"row_prod", "product", "The result keeps the element type."> {
  let ptoA2A3ElementTypes = ["i32", "i16", "f16", "f32"];
  let ptoA2A3SameType = 1;
}
def PL_TileRowArgmaxOp : PL_TileRowReduceOp<"row_argmax", "index of the maximum",
    "The result is i32; `tmp` has exactly the input's dimensions."> {
  let ptoA2A3SourceTypes = ["i32", "i16", "f16", "f32"];
}
def PL_TileRowArgminOp : PL_TileRowReduceOp<"row_argmin", "index of the minimum",
    "The result is i32; `tmp` has exactly the input's dimensions."> {
  let ptoA2A3SourceTypes = ["i32", "i16", "f16", "f32"];
}

class PL_TileColReduceOp<string mnemonic, string what, string resultRule>
    : PL_Op<"tile." # mnemonic, [PL_TilePure]> {
  let ptoFamily = "tile_col_reduce";
  let ptoCompute = !substr(mnemonic, 4);
  let ptoPipe = "v";
  let ptoInstruction = "TCOL" # !toupper(!substr(mnemonic, 4));
  let summary = "Reduce every column of a tile to its " # what;
  let description = "Reduces the second-to-last axis: the result is "
      # "`[..., 1, cols]` (a row) with valid `[..., 1, valid_cols]`. " # resultRule # [{

Example:

```mlir
%r = pl.tile.}] # mnemonic # [{ %t : !pl.tile<16x64xf32, vec> -> !pl.tile<1x64xf32, vec>
```
}];
  let arguments = (ins PL_AnyTile:$source, Optional<PL_AnyTile>:$tmp);
  let results = (outs PL_AnyTile:$result);
  let assemblyFormat = [{
    $source (`,` $tmp^)? attr-dict `:` qualified(type($source)) (`,` qualified(type($tmp))^)?
    `->` qualified(type($result))
  }];
}

def PL_TileColSumOp : PL_TileColReduceOp<"col_sum", "sum",
    "The result keeps the element type; `tmp` (optional) is a scratch tile."> {
  let ptoA2A3ElementTypes = ["f16", "f32"];
  let ptoA2A3SameType = 1;
}
def PL_TileColMaxOp : PL_TileColReduceOp<"col_max", "maximum", "The result keeps the element type."> {
  let ptoA2A3ElementTypes = ["f16", "f32"];
  let ptoA2A3SameType = 1;
}
def PL_TileColMinOp : PL_TileColReduceOp<"col_min", "minimum", "The result keeps the element type."> {
  let ptoA2A3ElementTypes = ["i32", "i16", "f16", "f32"];
  let ptoA2A3SameType = 1;
}
def PL_TileColProdOp : PL_TileColReduceOp<"col_prod", "product", "The result keeps the element type."> {
  let ptoA2A3ElementTypes = ["i32", "i16", "f16", "f32"];
  let ptoA2A3SameType = 1;
}
def PL_TileColArgmaxOp : PL_TileColReduceOp<"col_argmax", "index of the maximum",
    "The result is i32; `tmp` is required, with the input's dimensions."> {
  let ptoA2A3SourceTypes = ["f16", "f32", "ui16", "ui32"];
}
def PL_TileColArgminOp : PL_TileColReduceOp<"col_argmin", "index of the minimum",
    "The result is i32; `tmp` is required, with the input's dimensions."> {
  let ptoA2A3SourceTypes = ["f16", "f32", "ui16", "ui32"];
}

class PL_TileExpandOp<string mnemonic, string axis, string what>
    : PL_Op<"tile." # mnemonic, [PL_TilePure]> {
  let ptoFamily = "tile_" # !substr(mnemonic, 0, 3) # "_expand";
  let ptoCompute = !if(!eq(!size(mnemonic), 10), "broadcast", !substr(mnemonic, 11));
  let ptoPipe = "v";
  let ptoInPlaceOperands = !if(!eq(!size(mnemonic), 10), [], [0]);
  let ptoInstruction = "T" # !toupper(!subst("_", "", mnemonic));
  let summary = "Broadcast a " # axis # " vector across a tile" # what;
  let description = !if(!eq(axis, "row"),
      "`vector` is `[..., rows, 1]` (one value per row of `tile`), ",
      "`vector` is `[..., 1, cols]` (one value per column of `tile`), ")
      # "broadcast along the other axis" # what # ". The result has `tile`'s "
      # "shape, valid shape and layout and the promoted element type; it "
      # "must not share a buffer with `vector`." # [{

Example:

```mlir
%r = pl.tile.}] # mnemonic # [{ %t, %v : !pl.tile<16x64xf32, vec>, }]
      # !if(!eq(axis, "row"), "!pl.tile<16x1xf32, vec>", "!pl.tile<1x64xf32, vec>")
      # [{ -> !pl.tile<16x64xf32, vec>
```
}];
  let arguments = (ins PL_AnyTile:$tile, PL_AnyTile:$vector);
  let results = (outs PL_AnyTile:$result);
  let assemblyFormat = [{
    $tile `,` $vector attr-dict `:` qualified(type($tile)) `,` qualified(type($vector))
    `->` qualified(type($result))
  }];
}

def PL_TileRowExpandOp : PL_TileExpandOp<"row_expand", "row", "">;
def PL_TileRowExpandAddOp : PL_TileExpandOp<"row_expand_add", "row", ", added to the tile"> {
  let ptoA2A3ElementTypes = ["i32", "i16", "f16", "f32"];
}
def PL_TileRowExpandSubOp : PL_TileExpandOp<"row_expand_sub", "row", ", subtracted from the tile"> {
  let ptoA2A3ElementTypes = ["i32", "i16", "f16", "f32"];
}
def PL_TileRowExpandMulOp : PL_TileExpandOp<"row_expand_mul", "row", ", multiplied with the tile"> {
  let ptoA2A3ElementTypes = ["i32", "i16", "f16", "f32"];
}
def PL_TileRowExpandDivOp : PL_TileExpandOp<"row_expand_div", "row", ", dividing the tile"> {
  let ptoA2A3ElementTypes = ["f16", "f32"];
}
def PL_TileRowExpandMaxOp : PL_TileExpandOp<"row_expand_max", "row", ", maximum with the tile"> {
  let ptoA2A3ElementTypes = ["i32", "i16", "f16", "f32"];
}
def PL_TileRowExpandMinOp : PL_TileExpandOp<"row_expand_min", "row", ", minimum with the tile"> {
  let ptoA2A3ElementTypes = ["i32", "i16", "f16", "f32"];
}
def PL_TileRowExpandExpdifOp : PL_TileExpandOp<"row_expand_expdif", "row", ", exp(tile - vector) (softmax)"> {
  let ptoA2A3ElementTypes = ["f16", "f32"];
}
def PL_TileColExpandOp : PL_TileExpandOp<"col_expand", "column", "">;
def PL_TileColExpandAddOp : PL_TileExpandOp<"col_expand_add", "column", ", added to the tile"> {
  let ptoA2A3ElementTypes = ["i32", "i16", "f16", "f32"];
}
def PL_TileColExpandSubOp : PL_TileExpandOp<"col_expand_sub", "column", ", subtracted from the tile"> {
  let ptoA2A3ElementTypes = ["i32", "i16", "f16", "f32"];
}
def PL_TileColExpandMulOp : PL_TileExpandOp<"col_expand_mul", "column", ", multiplied with the tile"> {
  let ptoA2A3ElementTypes = ["i32", "i16", "f16", "f32"];
}
def PL_TileColExpandDivOp : PL_TileExpandOp<"col_expand_div", "column", ", dividing the tile"> {
  let ptoA2A3ElementTypes = ["f16", "f32"];
}
def PL_TileColExpandMaxOp : PL_TileExpandOp<"col_expand_max", "column", ", maximum with the tile"> {
  let ptoA2A3ElementTypes = ["i32", "i16", "f16", "f32"];
}
def PL_TileColExpandMinOp : PL_TileExpandOp<"col_expand_min", "column", ", minimum with the tile"> {
  let ptoA2A3ElementTypes = ["i32", "i16", "f16", "f32"];
}
def PL_TileColExpandExpdifOp : PL_TileExpandOp<"col_expand_expdif", "column", ", exp(tile - vector)"> {
  let ptoA2A3ElementTypes = ["f16", "f32"];
}

#endif // PTO_PL_OPS_TD
