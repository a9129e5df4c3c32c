//===- PLOps.td - pl operations ----------------------------*- tablegen -*-===//

#ifndef PTO_PL_OPS_TD
#define PTO_PL_OPS_TD

include "PLTypes.td"
include "PLConstraints.td"
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
  let hasFolder = 1;
  let assemblyFormat = "$source attr-dict `:` qualified(type($source)) `->` qualified(type($result))";
}

//===----------------------------------------------------------------------===//
// Elementwise tile ops and their tensor forms. Operands and results of the
// tile forms live in `vec` (or have no memory space yet). The element
// types an op takes are ODS constraints (PLConstraints.td); the rules that
// relate operands (promotion, broadcasting, one type) are in Rust
// (dialects/src/verify/elementwise.rs, dialects/src/verify/tensor.rs).
// Each computation with a tile and a tensor form of one structure is one
// `defm` line of a multiclass below, which defines `PL_Tile<Name>Op` and
// `PL_Tensor<Name>Op`.
//===----------------------------------------------------------------------===//

// One tile in, a tile of the same type out.
class PL_TileUnaryOp<string mnemonic, string what, string rule = "",
                     dag extraArgs = (ins), Type tile = PL_AnyTile>
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
  let arguments = !con((ins tile:$source), extraArgs);
  let results = (outs tile:$result);
  let assemblyFormat = "$source attr-dict `:` qualified(type($result))";
}

class PL_TensorUnaryOp<string mnemonic, string what, string rule = "",
                       Type tensor = PL_AnyTensor>
    : PL_Op<"tensor." # mnemonic, [PL_TensorCompute, SameOperandsAndResultType]> {
  let ptoFamily = "tensor_unary";
  let ptoCompute = mnemonic;
  let ptoTileForm = "pl.tile." # mnemonic;
  let summary = "Elementwise " # what # " of a tensor";
  let description = "Computes " # what # " of every element; the result has "
      # "the source's type. " # rule # "\n\nExample:\n\n```mlir\n%r = pl.tensor."
      # mnemonic # " %t : !pl.tensor<?x64xf32>\n```\n";
  let arguments = (ins tensor:$source);
  let results = (outs tensor:$result);
  let assemblyFormat = "$source attr-dict `:` qualified(type($result))";
}

// `pl.tile.<mnemonic>` and `pl.tensor.<mnemonic>`, with element types
// `elements` (any when empty). `rule` ends both descriptions and
// `tileNote` the tile form's; `tileArgs`, `a2a3` (ptoA2A3ElementTypes),
// `inPlace` (ptoInPlaceOperands) and `instruction` (whether a single
// pto-isa instruction implements it) are the tile form's.
multiclass PL_UnaryForms<string mnemonic, string what, list<Type> elements = [],
                         string rule = "", string tileNote = "",
                         dag tileArgs = (ins), list<string> a2a3 = [],
                         list<int> inPlace = [0], bit instruction = 1> {
  def PL_Tile#NAME#Op : PL_TileUnaryOp<mnemonic, what,
      !interleave(!filter(s, [rule, tileNote], !not(!empty(s))), " "),
      tileArgs, PL_TileWith<elements>.type> {
    let ptoA2A3ElementTypes = a2a3;
    let ptoInPlaceOperands = inPlace;
    let ptoInstruction = !if(instruction, "T" # !toupper(mnemonic), "");
  }
  def PL_Tensor#NAME#Op : PL_TensorUnaryOp<mnemonic, what, rule,
      PL_TensorWith<elements>.type>;
}

defm Neg : PL_UnaryForms<"neg", "the negation", a2a3 = ["i32", "i16", "f16", "f32"]>;
defm Exp : PL_UnaryForms<"exp", "the exponential", a2a3 = ["f16", "f32"]>;
defm Sqrt : PL_UnaryForms<"sqrt", "the square root", a2a3 = ["f16", "f32"]>;
defm Rsqrt : PL_UnaryForms<"rsqrt", "the reciprocal square root",
    a2a3 = ["f16", "f32"], inPlace = []>;
defm Abs : PL_UnaryForms<"abs", "the absolute value", a2a3 = ["f16", "f32"]>;
defm Relu : PL_UnaryForms<"relu", "max(x, 0)", a2a3 = ["f16", "f32", "i32"]>;
defm Recip : PL_UnaryForms<"recip", "the reciprocal",
    tileNote = "`high_precision` (floats only) selects the precise algorithm.",
    tileArgs = (ins UnitAttr:$high_precision),
    a2a3 = ["i32", "i16", "f16", "f32"], inPlace = []>;
defm Log : PL_UnaryForms<"log", "the natural logarithm", [F16, F32],
    rule = "The element type is f16 or f32.",
    tileNote = "`high_precision` selects the precise algorithm.",
    tileArgs = (ins UnitAttr:$high_precision), a2a3 = ["f16", "f32"]>;
defm Sin : PL_UnaryForms<"sin", "the sine", [F32], rule = "The element type is f32.",
    inPlace = [], instruction = 0>;
defm Cos : PL_UnaryForms<"cos", "the cosine", [F32], rule = "The element type is f32.",
    inPlace = [], instruction = 0>;
defm Not : PL_UnaryForms<"not", "the bitwise complement", [I16, UI16],
    rule = "The element type is i16 or ui16.">;

// Two tiles in (broadcast, promoted), a tile out.
class PL_TileBinaryOp<string mnemonic, string what, string rule = "",
                      Type tile = PL_AnyTile>
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
  let arguments = (ins tile:$lhs, tile:$rhs);
  let results = (outs tile:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs attr-dict `:` qualified(type($lhs)) `,` qualified(type($rhs))
    `->` qualified(type($result))
  }];
}

// Two tiles and a scratch tile in, a tile out.
class PL_TileBinaryScratchOp<string mnemonic, string what, string rule,
                             Type tile = PL_AnyTile>
    : PL_Op<"tile." # mnemonic, [PL_TilePure]> {
  let ptoFamily = "tile_binary";
  let ptoCompute = mnemonic;
  let ptoPipe = "v";
  let ptoInstruction = "T" # !toupper(mnemonic);
  let summary = "Elementwise " # what # " of two tiles, with a scratch tile";
  let description = "Computes " # what # " elementwise using `tmp` as scratch. "
      # rule # "\n\nExample:\n\n```mlir\n%r = pl.tile." # mnemonic
      # " %a, %b, %tmp : !pl.tile<16x64xi32, vec>, !pl.tile<16x64xi32, vec>, !pl.tile<16x64xi32, vec> -> !pl.tile<16x64xi32, vec>\n```\n";
  let arguments = (ins tile:$lhs, tile:$rhs, PL_AnyTile:$tmp);
  let results = (outs tile:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs `,` $tmp attr-dict `:` qualified(type($lhs)) `,`
    qualified(type($rhs)) `,` qualified(type($tmp)) `->` qualified(type($result))
  }];
}

class PL_TensorBinaryOp<string mnemonic, string what, string rule = "",
                        Type tensor = PL_AnyTensor>
    : PL_Op<"tensor." # mnemonic, [PL_TensorCompute]> {
  let ptoFamily = "tensor_binary";
  let ptoCompute = mnemonic;
  let ptoTileForm = "pl.tile." # mnemonic;
  let summary = "Elementwise " # what # " of two tensors";
  let description = "Computes " # what # " elementwise. " # rule
      # " Dynamic dimensions broadcast like static ones: `?` against 1 is `?`, "
      # "`?` against N is N.\n\nExample:\n\n```mlir\n%r = pl.tensor." # mnemonic
      # " %a, %b : !pl.tensor<?x64xf32>, !pl.tensor<?x1xf32> -> !pl.tensor<?x64xf32>\n```\n";
  let arguments = (ins tensor:$lhs, tensor:$rhs);
  let results = (outs tensor:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs attr-dict `:` qualified(type($lhs)) `,` qualified(type($rhs))
    `->` qualified(type($result))
  }];
}

defvar promoteRule = "The result's element type is the promotion of the "
    # "operands' (a float beats an integer, the wider type wins, at equal "
    # "width signed beats unsigned, otherwise the left one) and its shape the "
    # "right-aligned broadcast of their shapes.";
defvar tensorPromoteRule = "The result's element type is the promotion of the "
    # "operands' and its shape the right-aligned broadcast of theirs.";

// `pl.tile.<mnemonic>` and `pl.tensor.<mnemonic>` of two operands, with
// element types `tileElements` and `tensorElements` (any when empty);
// `tileRule` and `tensorRule` end the descriptions; `a2a3`
// (ptoA2A3ElementTypes) and `instruction` (ptoInstruction, when not
// T<MNEMONIC>) are the tile form's, which takes one element type on a2a3.
multiclass PL_BinaryForms<string mnemonic, string what,
                          list<Type> tileElements = [],
                          list<Type> tensorElements = tileElements,
                          string tileRule = promoteRule,
                          string tensorRule = tensorPromoteRule,
                          list<string> a2a3 = [], string instruction = ""> {
  def PL_Tile#NAME#Op : PL_TileBinaryOp<mnemonic, what, tileRule,
      PL_TileWith<tileElements>.type> {
    let ptoA2A3ElementTypes = a2a3;
    let ptoA2A3SameType = 1;
    let ptoInstruction = !if(!empty(instruction), "T" # !toupper(mnemonic), instruction);
  }
  def PL_Tensor#NAME#Op : PL_TensorBinaryOp<mnemonic, what, tensorRule,
      PL_TensorWith<tensorElements>.type>;
}

// As PL_BinaryForms, the tile form with a scratch tile, which
// pl-convert-tensor-to-tile does not make yet: the tensor form has no tile
// form (ptoTileForm).
multiclass PL_BinaryScratchForms<string mnemonic, string what,
                                 list<Type> elements = [],
                                 string tileRule = promoteRule,
                                 string tensorRule = tensorPromoteRule,
                                 list<string> a2a3 = []> {
  def PL_Tile#NAME#Op : PL_TileBinaryScratchOp<mnemonic, what, tileRule,
      PL_TileWith<elements>.type> {
    let ptoA2A3ElementTypes = a2a3;
    let ptoA2A3SameType = 1;
  }
  def PL_Tensor#NAME#Op : PL_TensorBinaryOp<mnemonic, what, tensorRule,
      PL_TensorWith<elements>.type> {
    let ptoTileForm = "";
  }
}

defvar binaryTypes = ["i32", "i16", "f16", "f32"];
defvar shiftTypes = ["i8", "ui8", "i16", "ui16", "i32", "ui32"];

defm Add : PL_BinaryForms<"add", "the sum", a2a3 = binaryTypes>;
defm Sub : PL_BinaryForms<"sub", "the difference", a2a3 = binaryTypes>;
defm Mul : PL_BinaryForms<"mul", "the product", a2a3 = binaryTypes>;
defm Maximum : PL_BinaryForms<"maximum", "the maximum", a2a3 = binaryTypes,
    instruction = "TMAX">;
defm Minimum : PL_BinaryForms<"minimum", "the minimum", a2a3 = binaryTypes,
    instruction = "TMIN">;
defm Fmod : PL_BinaryForms<"fmod",
    "the truncated remainder (the dividend's sign, C's fmod)", a2a3 = ["f32"]>;
defm Div : PL_BinaryForms<"div", "the quotient", [I16, I32, F16, F32], [],
    tileRule = "Both operands and the result have the same type, with element type "
        # "i16, i32, f16 or f32 (no promotion, no broadcast).",
    a2a3 = ["f16", "f32"]>;
defm And : PL_BinaryForms<"and", "the bitwise and", [PL_Integer],
    tileRule = !strconcat("Integer element types only. ", promoteRule),
    tensorRule = !strconcat("Integer types only. ", tensorPromoteRule)>;
defm Or : PL_BinaryForms<"or", "the bitwise or", [PL_Integer],
    tileRule = !strconcat("Integer element types only. ", promoteRule),
    tensorRule = !strconcat("Integer types only. ", tensorPromoteRule)>;
defm Shl : PL_BinaryForms<"shl", "the left shift", [PL_Integer],
    tileRule = "Integer element types only; the result has the left operand's element type.",
    tensorRule = "Integer types only; the result has the left operand's element type.",
    a2a3 = shiftTypes>;
defm Shr : PL_BinaryForms<"shr", "the right shift", [PL_Integer],
    tileRule = "Integer element types only; the result has the left operand's element type.",
    tensorRule = "Integer types only; the result has the left operand's element type.",
    a2a3 = shiftTypes>;
defm Rem : PL_BinaryScratchForms<"rem",
    "the floor remainder (the divisor's sign, Python's %)", a2a3 = ["f32", "i32"]>;
defm Xor : PL_BinaryScratchForms<"xor", "the bitwise exclusive or", [PL_Integer],
    tileRule = !strconcat("Integer element types only. ", promoteRule),
    tensorRule = !strconcat("Integer types only. ", tensorPromoteRule)>;

// A tile and a scalar in, a tile of the tile's type out.
class PL_TileScalarOp<string mnemonic, string what, string rule = "",
                      Type tile = PL_AnyTile, Type scalar = PL_Scalar>
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
  let arguments = (ins tile:$tile, scalar:$scalar);
  let results = (outs tile:$result);
  let assemblyFormat = "$tile `,` $scalar attr-dict `:` qualified(type($tile)) `,` type($scalar)";
}

// A tile, a scalar and a scratch tile in.
class PL_TileScalarScratchOp<string mnemonic, string what, string rule = "",
                             Type tile = PL_AnyTile, Type scalar = PL_Scalar>
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
  let arguments = (ins tile:$tile, scalar:$scalar, tile:$tmp);
  let results = (outs tile:$result);
  let assemblyFormat = "$tile `,` $scalar `,` $tmp attr-dict `:` qualified(type($tile)) `,` type($scalar)";
}

class PL_TensorScalarOp<string mnemonic, string what, string rule = "",
                        Type tensor = PL_AnyTensor, Type scalar = PL_Scalar>
    : PL_Op<"tensor." # mnemonic, [PL_TensorCompute, AllTypesMatch<["tensor", "result"]>]> {
  let ptoFamily = "tensor_scalar";
  let ptoCompute = !substr(mnemonic, 0, !sub(!size(mnemonic), 1));
  let ptoTileForm = "pl.tile." # mnemonic;
  let summary = "Elementwise " # what # " of a tensor and a scalar";
  let description = "Computes " # what # " of every element and `scalar`; the "
      # "result keeps the tensor's type; an `index` scalar must be cast first. "
      # rule # "\n\nExample:\n\n```mlir\n%r = pl.tensor." # mnemonic
      # " %t, %s : !pl.tensor<?x64xi32>, i32\n```\n";
  let arguments = (ins tensor:$tensor, scalar:$scalar);
  let results = (outs tensor:$result);
  let assemblyFormat = "$tensor `,` $scalar attr-dict `:` qualified(type($tensor)) `,` type($scalar)";
}

// `pl.tile.<mnemonic>` and `pl.tensor.<mnemonic>` of a tile or tensor and
// a scalar, with element types `elements` and scalar types `scalars` (any
// when empty); `rule` ends both descriptions unless `tileRule` or
// `tensorRule` replaces it; `compute` replaces the computation the
// mnemonic names; `a2a3` (ptoA2A3ElementTypes), `instruction`
// (ptoInstruction, when not T<MNEMONIC>) and `inPlace`
// (ptoInPlaceOperands) are the tile form's, which takes one element type
// on a2a3. `identity`: the tile form folds away with the scalar that
// leaves every element as it is, and of a constant-filled tile is a filled
// tile (dialects/cpp/Folds.cpp). The tensor form
// does not: its result is a tensor of its own in memory, which later ops
// may write in place, so it cannot be its operand.
multiclass PL_ScalarForms<string mnemonic, string what,
                          list<Type> elements = [], list<Type> scalars = [],
                          string rule = "", string tileRule = rule,
                          string tensorRule = rule, string compute = "",
                          list<string> a2a3 = [], string instruction = "",
                          list<int> inPlace = [0], bit identity = 0> {
  def PL_Tile#NAME#Op : PL_TileScalarOp<mnemonic, what, tileRule,
      PL_TileWith<elements>.type, PL_ScalarWith<scalars>.type> {
    let hasFolder = identity;
    let hasCanonicalizer = identity;
    let ptoA2A3ElementTypes = a2a3;
    let ptoA2A3SameType = 1;
    let ptoInstruction = !if(!empty(instruction), "T" # !toupper(mnemonic), instruction);
    let ptoInPlaceOperands = inPlace;
    let ptoCompute = !if(!empty(compute),
        !substr(mnemonic, 0, !sub(!size(mnemonic), 1)), compute);
  }
  def PL_Tensor#NAME#Op : PL_TensorScalarOp<mnemonic, what, tensorRule,
      PL_TensorWith<elements>.type, PL_ScalarWith<scalars>.type> {
    let ptoCompute = !if(!empty(compute),
        !substr(mnemonic, 0, !sub(!size(mnemonic), 1)), compute);
  }
}

// As PL_ScalarForms, the tile form with a scratch tile, which
// pl-convert-tensor-to-tile does not make yet: the tensor form has no tile
// form (ptoTileForm).
multiclass PL_ScalarScratchForms<string mnemonic, string what,
                                 list<Type> elements = [],
                                 list<Type> scalars = [], string rule = "",
                                 list<string> a2a3 = []> {
  def PL_Tile#NAME#Op : PL_TileScalarScratchOp<mnemonic, what, rule,
      PL_TileWith<elements>.type, PL_ScalarWith<scalars>.type> {
    let ptoA2A3ElementTypes = a2a3;
    let ptoA2A3SameType = 1;
  }
  def PL_Tensor#NAME#Op : PL_TensorScalarOp<mnemonic, what, rule,
      PL_TensorWith<elements>.type, PL_ScalarWith<scalars>.type> {
    let ptoTileForm = "";
  }
}

defvar subsTypes = [I8, I16, I32, F16, F32, BF16];
defvar shiftsTypes = ["i32", "i16", "ui32", "ui16"];

defm Adds : PL_ScalarForms<"adds", "the sum", a2a3 = binaryTypes,
    identity = 1>;
defm Subs : PL_ScalarForms<"subs", "the difference", subsTypes, subsTypes,
    tileRule = "Tile and scalar element types are i8, i16, i32, f16, f32 or bf16.",
    tensorRule = "Tensor and scalar element types are i8, i16, i32, f16, f32 or bf16.",
    a2a3 = binaryTypes, identity = 1>;
defm Muls : PL_ScalarForms<"muls", "the product", a2a3 = binaryTypes,
    identity = 1>;
defm Divs : PL_ScalarForms<"divs", "the quotient", a2a3 = binaryTypes,
    identity = 1>;
defm Maximums : PL_ScalarForms<"maximums", "the maximum", a2a3 = binaryTypes,
    instruction = "TMAXS">;
defm Minimums : PL_ScalarForms<"minimums", "the minimum", a2a3 = binaryTypes,
    instruction = "TMINS">;
defm Fmods : PL_ScalarForms<"fmods",
    "the truncated remainder (the dividend's sign, C's fmod)", a2a3 = ["f32"],
    inPlace = []>;
defm Ands : PL_ScalarForms<"ands", "the bitwise and",
    [PL_Integer], [PL_IntegerScalar], rule = "Integer types only.">;
defm Ors : PL_ScalarForms<"ors", "the bitwise or",
    [PL_Integer], [PL_IntegerScalar], rule = "Integer types only.">;
defm Shls : PL_ScalarForms<"shls", "the left shift",
    [PL_Integer], [PL_IntegerScalar], rule = "Integer types only.",
    a2a3 = shiftsTypes>;
defm Shrs : PL_ScalarForms<"shrs", "the right shift",
    [PL_Integer], [PL_IntegerScalar], rule = "Integer types only.",
    a2a3 = shiftsTypes>;
defm Lrelu : PL_ScalarForms<"lrelu", "the leaky relu with slope", [PL_Float],
    rule = "Float types only.", compute = "lrelu", a2a3 = ["f16", "f32"]>;
defm Rems : PL_ScalarScratchForms<"rems",
    "the floor remainder (the divisor's sign, Python's %)", a2a3 = ["f32", "i32"]>;
defm Xors : PL_ScalarScratchForms<"xors", "the bitwise exclusive or",
    [PL_Integer], [PL_IntegerScalar],
    rule = "Integer types only.">;

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

// gemv takes i8, f16, bf16 or f32 operands.
def PL_GemvOperand : PL_TileOf<[I8, F16, BF16, F32]>;

def PL_TileGemvOp : PL_Op<"tile.gemv", [PL_TilePure]> {
  let ptoFamily = "tile_matmul";
  let ptoPipe = "m";
  let ptoInstruction = "TGEMV";
  let summary = "Row-vector times matrix into an accumulator";
  let description = !strconcat("Computes `lhs x rhs`. ", gemvRule, [{

Example:

```mlir
%c = pl.tile.gemv %x, %w unspecified : !pl.tile<1x64xf16, left>, !pl.tile<64x128xf16, right> -> !pl.tile<1x128xf32, acc>
```
}]);
  let arguments = (ins PL_GemvOperand:$lhs, PL_GemvOperand:$rhs, PL_AccPhase:$phase);
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
  let description = !strconcat("Computes `acc + lhs x rhs` in place of `acc`. ", gemvRule, [{

Example:

```mlir
%c2 = pl.tile.gemv_acc %c, %x, %w final : !pl.tile<1x128xf32, acc>, !pl.tile<1x64xf16, left>, !pl.tile<64x128xf16, right>
```
}]);
  let arguments = (ins PL_AnyTile:$acc, PL_GemvOperand:$lhs, PL_GemvOperand:$rhs, PL_AccPhase:$phase);
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
  let description = !strconcat("Computes `lhs x rhs + bias`. ", gemvRule, [{

Example:

```mlir
%c = pl.tile.gemv_bias %x, %w, %bias unspecified : !pl.tile<1x64xf16, left>, !pl.tile<64x128xf16, right>, !pl.tile<1x128xf32, bias> -> !pl.tile<1x128xf32, acc>
```
}]);
  let arguments = (ins PL_GemvOperand:$lhs, PL_GemvOperand:$rhs, PL_AnyTile:$bias, PL_AccPhase:$phase);
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
  let description = !strconcat("Computes one matrix product per batch index. ", batchRule, [{

Example:

```mlir
%c = pl.tile.batch_matmul %a, %b : !pl.tile<4x16x32xf16, left>, !pl.tile<1x32x16xf16, right> -> !pl.tile<4x16x16xf32, acc>
```
}]);
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
  let description = !strconcat("Computes `acc + lhs x rhs` per batch index in place of `acc`. ", batchRule, [{

Example:

```mlir
%c2 = pl.tile.batch_matmul_acc %c, %a, %b : !pl.tile<4x16x16xf32, acc>, !pl.tile<4x16x32xf16, left>, !pl.tile<4x32x16xf16, right>
```
}]);
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
      # "(a column, col_major blocks; the `[..., 1, 1]` of a single row may "
      # "also be row_major) with valid `[..., valid_rows, 1]`. "
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
