//===- PLTensorOps.td - pl tensor-level ops ----------------*- tablegen -*-===//
//
// Ops on tensors in global memory. They appear in orchestration
// (creation, views, scalar access) and in InCore kernels before
// tensor-to-tile conversion (compute). Compute ops are
// values; creation allocates, and scalar writes and assembles write memory.
// Rules in dialects/src/verify/tensor.rs.
//
//===----------------------------------------------------------------------===//

#ifndef PTO_PL_TENSOR_OPS_TD
#define PTO_PL_TENSOR_OPS_TD

include "PLOps.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

//===----------------------------------------------------------------------===//
// Creation, views and scalar access
//===----------------------------------------------------------------------===//

def PL_TensorCreateOp : PL_Op<"tensor.create"> {
  let ptoFamily = "tensor_create";
  let summary = "A new tensor in global memory";
  let description = [{
    Allocates a tensor of the result type with undefined contents; one
    `index` operand per dynamic dimension, in order. Example:

    ```mlir
    %t = pl.tensor.create(%m) : !pl.tensor<?x128xf16>
    ```
  }];
  let arguments = (ins Variadic<Index>:$sizes);
  // The allocation is the result's, so an unused create is dead.
  let results = (outs Res<PL_AnyTensor, "", [MemAlloc]>:$result);
  let assemblyFormat = "`(` $sizes `)` attr-dict `:` qualified(type($result))";
}

def PL_TensorCreateL1Op : PL_Op<"tensor.create_l1"> {
  let ptoFamily = "tensor_create";
  let summary = "A new tensor in the cube core's L1";
  let description = [{
    In a kernel: a 2-D tensor of the result type (static shape) with
    undefined contents that lives in the cube core's L1 (`mat`), not in
    global memory, built up there (rows gathered into it with
    `pl.tensor.gather_row`, say) as a matmul operand. pl-convert-tensor-to-tile
    makes it a `mat` tile. Example:

    ```mlir
    %kv = pl.tensor.create_l1 : !pl.tensor<64x128xf16>
    ```
  }];
  // The allocation is the result's, so an unused create is dead.
  let results = (outs Res<PL_AnyTensor, "", [MemAlloc]>:$result);
  let assemblyFormat = "attr-dict `:` qualified(type($result))";
}

def PL_TensorFullOp : PL_Op<"tensor.full"> {
  let ptoFamily = "tensor_create";
  let summary = "A tensor filled with a value";
  let description = [{
    Returns a tensor of the result type whose every element is `value` (of
    the element type); one `index` operand per dynamic dimension. Example:

    ```mlir
    %z = pl.tensor.full %zero(%m) : f32 -> !pl.tensor<?x64xf32>
    ```
  }];
  let arguments = (ins PL_Scalar:$value, Variadic<Index>:$sizes);
  // A tensor of its own in memory (later ops may write it in place): CSE
  // must not merge two fills nor LICM hoist one out of a loop; an unused
  // one is dead.
  let results = (outs Res<PL_AnyTensor, "", [MemAlloc]>:$result);
  let assemblyFormat = "$value `(` $sizes `)` attr-dict `:` type($value) `->` qualified(type($result))";
}

def PL_TensorDimOp : PL_Op<"tensor.dim", [Pure]> {
  let ptoFamily = "tensor_access";
  let summary = "The extent of one dimension of a tensor";
  let description = [{
    Returns dimension `axis` of `tensor` (negative axes count from the
    end). Example:

    ```mlir
    %m = pl.tensor.dim %t, 0 : !pl.tensor<?x128xf16>
    ```
  }];
  let arguments = (ins PL_AnyTensor:$tensor, I64Attr:$axis);
  let results = (outs Index:$result);
  let hasFolder = 1;
  let assemblyFormat = "$tensor `,` $axis attr-dict `:` qualified(type($tensor))";
}

def PL_TensorViewOp : PL_Op<"tensor.view", [Pure, PL_View]> {
  let ptoFamily = "tensor_view";
  let summary = "Reinterpret a tensor's shape or layout";
  let description = [{
    Views `source` with the result's shape, layout, strides and valid shape:
    metadata only, same element type and (when static) element count. A
    window (`!pld.dtensor`) views as a window, a tensor as a tensor.
    Example:

    ```mlir
    %v = pl.tensor.view %t : !pl.tensor<128x64xf16> -> !pl.tensor<64x128xf16, dn>
    ```
  }];
  let arguments = (ins PL_TensorLike:$source);
  let results = (outs PL_TensorLike:$result);
  let hasFolder = 1;
  let assemblyFormat = "$source attr-dict `:` qualified(type($source)) `->` qualified(type($result))";
}

def PL_TensorReshapeOp : PL_Op<"tensor.reshape", [Pure, PL_View]> {
  let ptoFamily = "tensor_view";
  let summary = "A tensor with another shape";
  let description = [{
    Returns `source` with the result's shape: same element type and, when
    static, element count. Example:

    ```mlir
    %r = pl.tensor.reshape %t : !pl.tensor<4x16x32xf16> -> !pl.tensor<64x32xf16>
    ```
  }];
  let arguments = (ins PL_AnyTensor:$source);
  let results = (outs PL_AnyTensor:$result);
  let hasFolder = 1;
  let assemblyFormat = "$source attr-dict `:` qualified(type($source)) `->` qualified(type($result))";
}

def PL_TensorSliceOp : PL_Op<"tensor.slice", [AttrSizedOperandSegments, Pure, PL_View]> {
  let ptoFamily = "tensor_view";
  let summary = "A window of a tensor";
  let description = [{
    Views the window of `source` at `offsets` (one per dimension) with the
    result's shape; `sizes(...)` gives its dynamic extents. A constant
    window lies inside the source unless `clamp` narrows it. Example:

    ```mlir
    %s = pl.tensor.slice %t[%i, %c0] : !pl.tensor<?x128xf16> -> !pl.tensor<64x128xf16>
    ```
  }];
  let arguments = (ins PL_AnyTensor:$source, Variadic<Index>:$offsets,
                       Variadic<Index>:$sizes, UnitAttr:$clamp);
  let results = (outs PL_AnyTensor:$result);
  let assemblyFormat = [{
    $source `[` $offsets `]` (`sizes` `(` $sizes^ `)`)? (`clamp` $clamp^)? attr-dict
    `:` qualified(type($source)) `->` qualified(type($result))
  }];
}

def PL_TensorTransposeOp : PL_Op<"tensor.transpose", [Pure]> {
  let ptoFamily = "tensor_view";
  let summary = "Swap two axes of a tensor";
  let description = [{
    Returns `source` with axes `axis1` and `axis2` (distinct, in range)
    swapped. Example:

    ```mlir
    %t2 = pl.tensor.transpose %t axes 0, 1 : !pl.tensor<16x64xf32> -> !pl.tensor<64x16xf32>
    ```
  }];
  let arguments = (ins PL_AnyTensor:$source, I64Attr:$axis1, I64Attr:$axis2);
  let results = (outs PL_AnyTensor:$result);
  let assemblyFormat = [{
    $source `axes` $axis1 `,` $axis2 attr-dict `:` qualified(type($source)) `->` qualified(type($result))
  }];
}

def PL_TensorConcatOp : PL_Op<"tensor.concat", [PL_TensorCompute]> {
  let ptoFamily = "tensor_assemble";
  let summary = "Join tensors along an axis";
  let description = [{
    Joins `inputs` (two or more, one rank and element type, equal outside
    `axis`) along `axis`; the result's extent on `axis` is their sum.
    Example:

    ```mlir
    %c = pl.tensor.concat %a, %b axis 1 : !pl.tensor<16x32xf32>, !pl.tensor<16x64xf32> -> !pl.tensor<16x96xf32>
    ```
  }];
  let arguments = (ins Variadic<PL_AnyTensor>:$inputs, I64Attr:$axis);
  let results = (outs PL_AnyTensor:$result);
  let assemblyFormat = [{
    $inputs `axis` $axis attr-dict `:` qualified(type($inputs)) `->` qualified(type($result))
  }];
}

def PL_TensorCastOp : PL_Op<"tensor.cast", [PL_TensorCompute]> {
  let ptoFamily = "tensor_cast";
  let ptoTileForm = "pl.tile.cast";
  let summary = "Convert the element type of a tensor";
  let description = [{
    Converts every element to the result's element type with the given
    rounding; the shape is kept and a cast to the same type is rejected.
    Example:

    ```mlir
    %h = pl.tensor.cast %t round : !pl.tensor<?x64xf32> -> !pl.tensor<?x64xf16>
    ```
  }];
  let arguments = (ins PL_AnyTensor:$source, PL_RoundMode:$mode);
  let results = (outs PL_AnyTensor:$result);
  let assemblyFormat = "$source $mode attr-dict `:` qualified(type($source)) `->` qualified(type($result))";
}

def PL_TensorFillpadOp : PL_Op<"tensor.fillpad", [PL_TensorCompute]> {
  let ptoFamily = "tensor_fillpad";
  let ptoTileForm = "pl.tile.fillpad";
  let summary = "Fill the invalid region of a tensor";
  let description = [{
    Fills the elements outside the valid region with `pad` (`zero`, `max`
    or `min`); the result is fully valid. Example:

    ```mlir
    %f = pl.tensor.fillpad %t zero : !pl.tensor<16x64xf32, valid = 16x?> -> !pl.tensor<16x64xf32, pad = zero>
    ```
  }];
  let arguments = (ins PL_AnyTensor:$source, PL_PadValue:$pad);
  let results = (outs PL_AnyTensor:$result);
  let assemblyFormat = "$source $pad attr-dict `:` qualified(type($source)) `->` qualified(type($result))";
}

def PL_TensorFillpadExpandOp : PL_Op<"tensor.fillpad_expand", [PL_TensorCompute]> {
  let ptoFamily = "tensor_fillpad";
  let ptoTileForm = "pl.tile.fillpad_expand";
  let summary = "A larger tensor: a tensor's valid region in its corner, padding around it";
  let description = [{
    Returns a tensor of the result's static shape (at least the source's
    in every dimension, one rank and element type) holding the valid
    region of `source` at its origin and `pad` (`zero`, `max` or `min`)
    everywhere else: fully valid, the pad recorded in its type. Example:

    ```mlir
    %e = pl.tensor.fillpad_expand %t min : !pl.tensor<8x32xf32, valid = 8x8> -> !pl.tensor<16x32xf32, pad = min>
    ```
  }];
  let arguments = (ins PL_AnyTensor:$source, PL_PadValue:$pad);
  let results = (outs PL_AnyTensor:$result);
  let assemblyFormat = "$source $pad attr-dict `:` qualified(type($source)) `->` qualified(type($result))";
}

def PL_TensorSetValidShapeOp : PL_Op<"tensor.set_validshape", [Pure]> {
  let ptoFamily = "tensor_view";
  let ptoTileForm = "pl.tile.set_validshape";
  let summary = "Change the valid extents of a 2-D tensor";
  let description = [{
    Returns `source` (2-D) with valid extents (`rows`, `cols`), at most its
    shape; metadata only: the elements outside them keep their values, and
    what pads or stores the result sees only the new valid region. The
    result type has the source's shape, element type and layout, and its
    valid extents are `?` or the constants given. Example:

    ```mlir
    %v = pl.tensor.set_validshape %t, %c16, %n : !pl.tensor<16x64xf32> -> !pl.tensor<16x64xf32, valid = 16x?>
    ```
  }];
  let arguments = (ins PL_AnyTensor:$source, Index:$rows, Index:$cols);
  let results = (outs PL_AnyTensor:$result);
  let assemblyFormat = [{
    $source `,` $rows `,` $cols attr-dict `:` qualified(type($source)) `->` qualified(type($result))
  }];
}

def PL_TensorReadOp : PL_Op<"tensor.read", [MemoryEffects<[MemRead]>]> {
  let ptoFamily = "tensor_access";
  let ptoPipe = "s";
  let summary = "Read one element of a tensor";
  let description = [{
    Returns the element at `indices` (one per dimension). Example:

    ```mlir
    %x = pl.tensor.read %t[%i, %j] : !pl.tensor<?x64xf32> -> f32
    ```
  }];
  let arguments = (ins PL_TensorLike:$tensor, Variadic<Index>:$indices);
  let results = (outs PL_Scalar:$result);
  let assemblyFormat = "$tensor `[` $indices `]` attr-dict `:` qualified(type($tensor)) `->` type($result)";
}

def PL_TensorWriteOp : PL_Op<"tensor.write", [AllTypesMatch<["tensor", "result"]>,
                                              MemoryEffects<[MemRead, MemWrite]>]> {
  let ptoTiedOperand = 0;
  let ptoFamily = "tensor_access";
  let ptoPipe = "s";
  let summary = "Write one element of a tensor";
  let description = [{
    Stores `value` (of the element type) at `indices` (one per dimension)
    through the data cache and returns the tensor. A kernel does not mix
    these scalar stores with tile stores to one tensor. Example:

    ```mlir
    %t2 = pl.tensor.write %t[%i, %j], %x : !pl.tensor<?x64xf32>, f32
    ```
  }];
  let arguments = (ins PL_TensorLike:$tensor, Variadic<Index>:$indices, PL_Scalar:$value);
  let results = (outs PL_TensorLike:$result);
  let assemblyFormat = [{
    $tensor `[` $indices `]` `,` $value attr-dict `:` qualified(type($tensor)) `,` type($value)
  }];
}

def PL_TensorAssembleOp : PL_Op<"tensor.assemble", [AllTypesMatch<["target", "result"]>,
                                                    MemoryEffects<[MemRead, MemWrite]>]> {
  let ptoTiedOperand = 1;
  let ptoFamily = "tensor_assemble";
  let summary = "Write a tensor into a window of another";
  let description = [{
    Writes `source` into `target` at `offsets` (one per dimension; same
    rank and element type; a constant window stays inside) and returns the
    target; `atomic_add` adds instead. Example:

    ```mlir
    %t2 = pl.tensor.assemble %s into %t[%i, %c0] : !pl.tensor<16x64xf32>, !pl.tensor<?x64xf32>
    ```
  }];
  let arguments = (ins PL_AnyTensor:$source, PL_AnyTensor:$target,
                       Variadic<Index>:$offsets, UnitAttr:$atomic_add);
  let results = (outs PL_AnyTensor:$result);
  let assemblyFormat = [{
    $source `into` $target `[` $offsets `]` (`atomic_add` $atomic_add^)? attr-dict
    `:` qualified(type($source)) `,` qualified(type($target))
  }];
}

def PL_TensorExpandCloneOp : PL_Op<"tensor.expand_clone", [AllTypesMatch<["target", "result"]>,
                                                           MemoryEffects<[MemRead, MemWrite]>]> {
  let ptoTiedOperand = 1;
  let ptoFamily = "tensor_assemble";
  let summary = "Broadcast a tensor into a larger one";
  let description = [{
    Writes `source` broadcast to the shape of `target` into `target` and
    returns it: both rank 3, one element type, each dimension of `source`
    the target's or 1, at most one of them 1 where the target's is not
    (PyPTO's `expand_clone`). Example:

    ```mlir
    %y2 = pl.tensor.expand_clone %x into %y : !pl.tensor<8x1x32xf32>, !pl.tensor<8x16x32xf32>
    ```
  }];
  let arguments = (ins PL_AnyTensor:$source, PL_AnyTensor:$target);
  let results = (outs PL_AnyTensor:$result);
  let assemblyFormat = [{
    $source `into` $target attr-dict `:` qualified(type($source)) `,` qualified(type($target))
  }];
}

//===----------------------------------------------------------------------===//
// Compute on tensors (before tensor-to-tile conversion)
//===----------------------------------------------------------------------===//

// The elementwise unary, binary and tensor-scalar ops whose tile form has
// the same structure are defined with it (PLOps.td, PL_UnaryForms,
// PL_BinaryForms, PL_ScalarForms).

def PL_TensorPreluOp : PL_TensorBinaryOp<"prelu", "the parametric relu, x or slope * x",
    !strconcat("`rhs` holds the slopes. ", tensorPromoteRule)> {
  // Needs a scratch tile pl-convert-tensor-to-tile does not make yet.
  let ptoTileForm = "";
}

def PL_TensorExpandsOp : PL_TensorScalarOp<"expands", "the broadcast (every element becomes the scalar)"> {
  // A fill has no computation to convert: it stays a tensor op.
  let ptoTileForm = "";
  let ptoFamily = "tensor_scalar";
  let ptoCompute = "broadcast";
}

def PL_TensorCmpOp : PL_Op<"tensor.cmp", [PL_TensorCompute]> {
  let ptoFamily = "tensor_compare";
  let summary = "Elementwise comparison of two tensors";
  let description = [{
    Compares `lhs` and `rhs` (one shape and element type) elementwise into
    an `i1` tensor of their shape (conversion packs it into a bit mask).
    Example:

    ```mlir
    %m = pl.tensor.cmp %a, %b lt : !pl.tensor<?x64xf32>, !pl.tensor<?x64xf32> -> !pl.tensor<?x64xi1>
    ```
  }];
  let arguments = (ins PL_AnyTensor:$lhs, PL_AnyTensor:$rhs, PL_CmpMode:$cmp);
  let results = (outs PL_AnyTensor:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs $cmp attr-dict `:` qualified(type($lhs)) `,` qualified(type($rhs)) `->` qualified(type($result))
  }];
}

def PL_TensorCmpsOp : PL_Op<"tensor.cmps", [PL_TensorCompute]> {
  let ptoFamily = "tensor_compare";
  let summary = "Elementwise comparison of a tensor with a scalar";
  let description = [{
    As `pl.tensor.cmp`, comparing every element with `scalar`. Example:

    ```mlir
    %m = pl.tensor.cmps %a, %s ge : !pl.tensor<?x64xf32>, f32 -> !pl.tensor<?x64xi1>
    ```
  }];
  let arguments = (ins PL_AnyTensor:$lhs, PL_Scalar:$scalar, PL_CmpMode:$cmp);
  let results = (outs PL_AnyTensor:$result);
  let assemblyFormat = [{
    $lhs `,` $scalar $cmp attr-dict `:` qualified(type($lhs)) `,` type($scalar) `->` qualified(type($result))
  }];
}

def PL_TensorSelOp : PL_Op<"tensor.sel", [PL_TensorCompute, AllTypesMatch<["lhs", "rhs", "result"]>]> {
  let ptoFamily = "tensor_select";
  let summary = "Select between two tensors by a mask";
  let description = [{
    Element i is `lhs[i]` where `mask[i]` (an `i1` tensor of the same
    shape) is set, else `rhs[i]`. Example:

    ```mlir
    %r = pl.tensor.sel %m, %a, %b : !pl.tensor<?x64xi1>, !pl.tensor<?x64xf32>
    ```
  }];
  let arguments = (ins PL_AnyTensor:$mask, PL_AnyTensor:$lhs, PL_AnyTensor:$rhs);
  let results = (outs PL_AnyTensor:$result);
  let assemblyFormat = "$mask `,` $lhs `,` $rhs attr-dict `:` qualified(type($mask)) `,` qualified(type($result))";
}

def PL_TensorSelsOp : PL_Op<"tensor.sels", [PL_TensorCompute, AllTypesMatch<["lhs", "result"]>]> {
  let ptoFamily = "tensor_select";
  let summary = "Select between a tensor and a scalar by a mask";
  let description = [{
    Element i is `lhs[i]` where `mask[i]` is set, else `scalar` (of the
    element type). Example:

    ```mlir
    %r = pl.tensor.sels %m, %a, %zero : !pl.tensor<?x64xi1>, !pl.tensor<?x64xf32>, f32
    ```
  }];
  let arguments = (ins PL_AnyTensor:$mask, PL_AnyTensor:$lhs, PL_Scalar:$scalar);
  let results = (outs PL_AnyTensor:$result);
  let assemblyFormat = "$mask `,` $lhs `,` $scalar attr-dict `:` qualified(type($mask)) `,` qualified(type($result)) `,` type($scalar)";
}

class PL_TensorReduceOp<string mnemonic, string axis, string what, string resultRule>
    : PL_Op<"tensor." # mnemonic, [PL_TensorCompute]> {
  let ptoFamily = "tensor_" # !substr(mnemonic, 0, 3) # "_reduce";
  let ptoCompute = !substr(mnemonic, 4);
  let ptoTileForm = "pl.tile." # mnemonic;
  let summary = "Reduce every " # axis # " of a tensor to its " # what;
  let description = "Reduces the " # !if(!eq(axis, "row"), "last", "second-to-last")
      # " axis to extent 1 (rank 2 or more). " # resultRule # "\n\nExample:\n\n```mlir\n%r = pl.tensor."
      # mnemonic # " %t : !pl.tensor<?x64xf32> -> "
      # !if(!eq(axis, "row"), "!pl.tensor<?x1xf32>", "!pl.tensor<1x64xf32>") # "\n```\n";
  let arguments = (ins PL_AnyTensor:$source);
  let results = (outs PL_AnyTensor:$result);
  let assemblyFormat = "$source attr-dict `:` qualified(type($source)) `->` qualified(type($result))";
}

def PL_TensorRowSumOp : PL_TensorReduceOp<"row_sum", "row", "sum", "The element type is kept.">;
def PL_TensorRowMaxOp : PL_TensorReduceOp<"row_max", "row", "maximum", "The element type is kept.">;
def PL_TensorRowMinOp : PL_TensorReduceOp<"row_min", "row", "minimum", "The element type is kept.">;
def PL_TensorRowProdOp : PL_TensorReduceOp<"row_prod", "row", "product", "The element type is kept.">;
def PL_TensorRowArgmaxOp : PL_TensorReduceOp<"row_argmax", "row", "index of the maximum", "The result is i32.">;
def PL_TensorRowArgminOp : PL_TensorReduceOp<"row_argmin", "row", "index of the minimum", "The result is i32.">;
def PL_TensorColSumOp : PL_TensorReduceOp<"col_sum", "column", "sum", "The element type is kept.">;
def PL_TensorColMaxOp : PL_TensorReduceOp<"col_max", "column", "maximum", "The element type is kept.">;
def PL_TensorColMinOp : PL_TensorReduceOp<"col_min", "column", "minimum", "The element type is kept.">;
def PL_TensorColProdOp : PL_TensorReduceOp<"col_prod", "column", "product", "The element type is kept.">;
def PL_TensorColArgmaxOp : PL_TensorReduceOp<"col_argmax", "column", "index of the maximum", "The result is i32.">;
def PL_TensorColArgminOp : PL_TensorReduceOp<"col_argmin", "column", "index of the minimum", "The result is i32.">;

class PL_TensorExpandOp<string mnemonic, string axis, string what>
    : PL_Op<"tensor." # mnemonic, [PL_TensorCompute]> {
  let ptoFamily = "tensor_" # !substr(mnemonic, 0, 3) # "_expand";
  let ptoCompute = !if(!eq(!size(mnemonic), 10), "broadcast", !substr(mnemonic, 11));
  let ptoTileForm = "pl.tile." # mnemonic;
  let summary = "Broadcast a " # axis # " vector across a tensor" # what;
  let description = !if(!eq(axis, "row"),
      "`vector` is `[..., rows, 1]` (one value per row), ",
      "`vector` is `[..., 1, cols]` (one value per column), ")
      # "broadcast along the other axis" # what # ". The result has `tensor`'s "
      # "shape and the promoted element type.\n\nExample:\n\n```mlir\n%r = pl.tensor."
      # mnemonic # " %t, %v : !pl.tensor<?x64xf32>, "
      # !if(!eq(axis, "row"), "!pl.tensor<?x1xf32>", "!pl.tensor<1x64xf32>")
      # " -> !pl.tensor<?x64xf32>\n```\n";
  let arguments = (ins PL_AnyTensor:$tensor, PL_AnyTensor:$vector);
  let results = (outs PL_AnyTensor:$result);
  let assemblyFormat = [{
    $tensor `,` $vector attr-dict `:` qualified(type($tensor)) `,` qualified(type($vector))
    `->` qualified(type($result))
  }];
}

def PL_TensorRowExpandOp : PL_TensorExpandOp<"row_expand", "row", "">;
def PL_TensorRowExpandAddOp : PL_TensorExpandOp<"row_expand_add", "row", ", added">;
def PL_TensorRowExpandSubOp : PL_TensorExpandOp<"row_expand_sub", "row", ", subtracted">;
def PL_TensorRowExpandMulOp : PL_TensorExpandOp<"row_expand_mul", "row", ", multiplied">;
def PL_TensorRowExpandDivOp : PL_TensorExpandOp<"row_expand_div", "row", ", dividing">;
def PL_TensorRowExpandMaxOp : PL_TensorExpandOp<"row_expand_max", "row", ", maximum">;
def PL_TensorRowExpandMinOp : PL_TensorExpandOp<"row_expand_min", "row", ", minimum">;
def PL_TensorRowExpandExpdifOp : PL_TensorExpandOp<"row_expand_expdif", "row", ", exp(tensor - vector)">;
def PL_TensorColExpandOp : PL_TensorExpandOp<"col_expand", "column", "">;
def PL_TensorColExpandAddOp : PL_TensorExpandOp<"col_expand_add", "column", ", added">;
def PL_TensorColExpandSubOp : PL_TensorExpandOp<"col_expand_sub", "column", ", subtracted">;
def PL_TensorColExpandMulOp : PL_TensorExpandOp<"col_expand_mul", "column", ", multiplied">;
def PL_TensorColExpandDivOp : PL_TensorExpandOp<"col_expand_div", "column", ", dividing">;
def PL_TensorColExpandMaxOp : PL_TensorExpandOp<"col_expand_max", "column", ", maximum">;
def PL_TensorColExpandMinOp : PL_TensorExpandOp<"col_expand_min", "column", ", minimum">;
def PL_TensorColExpandExpdifOp : PL_TensorExpandOp<"col_expand_expdif", "column", ", exp(tensor - vector)">;

def PL_TensorMatmulAccOp : PL_Op<"tensor.matmul_acc", [PL_TensorCompute, AllTypesMatch<["acc", "result"]>]> {
  let ptoFamily = "tensor_matmul";
  let summary = "Accumulate a matrix product of two tensors";
  let description = [{
    Computes `acc + lhs x rhs` (2-D operands; `acc` MxN) and returns the
    accumulator; with `init` true the accumulator is overwritten instead.
    Example:

    ```mlir
    %c2 = pl.tensor.matmul_acc %c, %a, %b : !pl.tensor<?x128xf32>, !pl.tensor<?x64xf16>, !pl.tensor<64x128xf16>
    ```
  }];
  let arguments = (ins PL_AnyTensor:$acc, PL_AnyTensor:$lhs, PL_AnyTensor:$rhs, Optional<I1>:$init);
  let results = (outs PL_AnyTensor:$result);
  let assemblyFormat = [{
    $acc `,` $lhs `,` $rhs (`init` $init^)? attr-dict `:` qualified(type($acc)) `,`
    qualified(type($lhs)) `,` qualified(type($rhs))
  }];
}

def PL_TensorMatmulOp : PL_Op<"tensor.matmul", [PL_TensorCompute]> {
  let ptoFamily = "tensor_matmul";
  let ptoTileForm = "pl.tile.matmul";
  let summary = "Matrix product of two tensors";
  let description = [{
    Multiplies `lhs` and `rhs` (one element type): 2-D x 2-D gives MxN,
    2-D x 1-D gives M, 1-D x 2-D gives N, 1-D x 1-D a rank-0 scalar, and
    rank > 2 operands multiply batch-wise with broadcast batch dimensions.
    `a_trans` / `b_trans` (rank 2 or more) transpose the last two axes of an
    operand first. Constant K extents agree. The result's element type is
    free (`out_dtype`): the promotion by default. Example:

    ```mlir
    %c = pl.tensor.matmul %a, %b : !pl.tensor<?x64xf16>, !pl.tensor<64x128xf16> -> !pl.tensor<?x128xf32>
    %d = pl.tensor.matmul %a, %bt {b_trans} : !pl.tensor<?x64xf16>, !pl.tensor<128x64xf16> -> !pl.tensor<?x128xf32>
    ```
  }];
  let arguments = (ins PL_AnyTensor:$lhs, PL_AnyTensor:$rhs, UnitAttr:$a_trans, UnitAttr:$b_trans);
  let results = (outs PL_AnyTensor:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs attr-dict `:` qualified(type($lhs)) `,` qualified(type($rhs)) `->` qualified(type($result))
  }];
}

#endif // PTO_PL_TENSOR_OPS_TD
