//===- PLPartialOps.td - partial and carrying arithmetic ---*- tablegen -*-===//
//
// Elementwise arithmetic of tiles whose valid regions differ (`part_*`:
// where only the first operand holds data, it passes through) and of three
// operands (`addc`, `subc`, `addsc`, `subsc`: a difference or sum with a
// third tile added). Rules in dialects/src/verify/elementwise.rs.
//
//===----------------------------------------------------------------------===//

#ifndef PTO_PL_PARTIAL_OPS_TD
#define PTO_PL_PARTIAL_OPS_TD

include "PLOps.td"

defvar partialElements = [I16, I32, F16, F32];

class PL_TilePartialOp<string mnemonic, string compute, string what>
    : PL_Op<"tile." # mnemonic, [PL_TilePure, AllTypesMatch<["lhs", "result"]>]> {
  let ptoFamily = "tile_partial";
  let ptoCompute = compute;
  let ptoPipe = "v";
  let ptoInPlaceOperands = [0, 1];
  let ptoInstruction = "T" # !toupper(!subst("_", "", mnemonic));
  let ptoA2A3ElementTypes = ["i16", "i32", "f16", "f32"];
  let ptoA2A3SameType = 1;
  let summary = "Elementwise " # what # " over the union of two valid regions";
  let description = "Computes " # what # " of `lhs` and `rhs` where both "
      # "hold data and passes `lhs` through where only it does: the result "
      # "has `lhs`'s type (its valid region), and `rhs` (of the same shape "
      # "and element type) has a valid region inside `lhs`'s, checked when "
      # "the extents are constants and when the program runs.\n\nExample:"
      # "\n\n```mlir\n%r = pl.tile." # mnemonic # " %a, %b : "
      # "!pl.tile<16x64xf32, vec>, !pl.tile<16x64xf32, vec, valid = ?x64>\n```\n";
  let arguments = (ins PL_TileOf<partialElements>:$lhs, PL_TileOf<partialElements>:$rhs);
  let results = (outs PL_TileOf<partialElements>:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs attr-dict `:` qualified(type($lhs)) `,` qualified(type($rhs))
  }];
}

class PL_TensorPartialOp<string mnemonic, string compute, string what>
    : PL_Op<"tensor." # mnemonic, [PL_TensorCompute, AllTypesMatch<["lhs", "rhs", "result"]>]> {
  let ptoFamily = "tensor_partial";
  let ptoCompute = compute;
  let ptoTileForm = "pl.tile." # mnemonic;
  let summary = "Elementwise " # what # " of two tensors";
  let description = "The tensor form of `pl.tile." # mnemonic # "`: tensors "
      # "hold data everywhere, so it computes " # what # " of `lhs` and "
      # "`rhs` (of one type) elementwise.\n\nExample:\n\n```mlir\n%r = "
      # "pl.tensor." # mnemonic # " %a, %b : !pl.tensor<16x64xf32>\n```\n";
  let arguments = (ins PL_TensorOf<partialElements>:$lhs, PL_TensorOf<partialElements>:$rhs);
  let results = (outs PL_TensorOf<partialElements>:$result);
  let assemblyFormat = "$lhs `,` $rhs attr-dict `:` qualified(type($result))";
}

multiclass PL_PartialForms<string mnemonic, string compute, string what> {
  def PL_Tile#NAME#Op : PL_TilePartialOp<mnemonic, compute, what>;
  def PL_Tensor#NAME#Op : PL_TensorPartialOp<mnemonic, compute, what>;
}

defm PartAdd : PL_PartialForms<"part_add", "add", "the sum">;
defm PartMax : PL_PartialForms<"part_max", "max", "the maximum">;
defm PartMin : PL_PartialForms<"part_min", "min", "the minimum">;
defm PartMul : PL_PartialForms<"part_mul", "mul", "the product">;

// `lhs op rhs + carry`, rhs a tile or a scalar.
class PL_TileCarryOp<string mnemonic, string compute, string what, bit scalar>
    : PL_Op<"tile." # mnemonic, [PL_TilePure, AllTypesMatch<["lhs", "carry", "result"]>]> {
  let ptoFamily = "tile_carry";
  let ptoCompute = compute;
  let ptoPipe = "v";
  let summary = "Elementwise " # what # " of two operands, plus a third tile";
  let description = "Computes `(lhs " # !if(!eq(compute, "add"), "+", "-")
      # " rhs) + carry` elementwise, rounding after each step: the three "
      # "tiles (and the result) have one type, element type i16, i32, f16 or "
      # "f32" # !if(scalar, ", and `rhs` is a scalar of that element type", "") # ". a2a3 has no instruction for it: "
      # "pl-lower-math-ops (pto-a2a3-pipeline) makes it the two it "
      # "stands for.\n\nExample:\n\n```mlir\n%r = pl.tile." # mnemonic
      # " %a, %b, %c : !pl.tile<16x64xf32, vec>, "
      # !if(scalar, "f32", "!pl.tile<16x64xf32, vec>") # "\n```\n";
  let arguments = (ins PL_TileOf<partialElements>:$lhs,
                       !if(scalar, PL_Scalar, PL_TileOf<partialElements>):$rhs,
                       PL_TileOf<partialElements>:$carry);
  let results = (outs PL_TileOf<partialElements>:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs `,` $carry attr-dict `:` qualified(type($lhs)) `,` qualified(type($rhs))
  }];
}

def PL_TileAddcOp : PL_TileCarryOp<"addc", "add", "sum", 0>;
def PL_TileSubcOp : PL_TileCarryOp<"subc", "sub", "difference", 0>;
def PL_TileAddscOp : PL_TileCarryOp<"addsc", "add", "sum", 1>;
def PL_TileSubscOp : PL_TileCarryOp<"subsc", "sub", "difference", 1>;

#endif // PTO_PL_PARTIAL_OPS_TD
