//===- PLArrayOps.td - small arrays of integers and task ids -*- tablegen -*-===//
//
// `!pl.array` values: made, read and updated in one function (kernel
// counters, an orchestration's task ids). Rules in
// dialects/src/verify/arrays.rs.
//
//===----------------------------------------------------------------------===//

#ifndef PTO_PL_ARRAY_OPS_TD
#define PTO_PL_ARRAY_OPS_TD

include "PLOps.td"

def PL_AnyArray : Type<CPred<"::llvm::isa<::pto::pl::ArrayType>($_self)">,
                       "pl array", "::pto::pl::ArrayType">;

def PL_ArrayCreateOp : PL_Op<"array.create", []> {
  let ptoFamily = "array";
  let summary = "A new array";
  let description = [{
    Returns an array of the result type whose every element is 0, or, for
    task ids, the invalid id (`pl.system.task_invalid`'s). Each array is
    storage of its own (its lowerings update it in place), so two creates
    are never merged; an unused one is removed. Example:

    ```mlir
    %counts = pl.array.create : !pl.array<i32, 8>
    ```
  }];
  // The allocation is the result's, so an unused create is dead.
  let results = (outs Res<PL_AnyArray, "", [MemAlloc]>:$result);
  let assemblyFormat = "attr-dict `:` qualified(type($result))";
}

def PL_ArrayGetElementOp : PL_Op<"array.get_element", [Pure]> {
  let ptoFamily = "array";
  let summary = "One element of an array";
  let description = [{
    Returns element `index` of `array` (of its element type); an index
    outside the array is an error when the program runs. Example:

    ```mlir
    %n = pl.array.get_element %counts[%i] : !pl.array<i32, 8> -> i32
    ```
  }];
  let arguments = (ins PL_AnyArray:$array, Index:$index);
  let results = (outs AnyType:$result);
  let assemblyFormat = [{
    $array `[` $index `]` attr-dict `:` qualified(type($array)) `->` type($result)
  }];
}

def PL_ArrayUpdateElementOp : PL_Op<"array.update_element", [Pure,
    AllTypesMatch<["array", "result"]>]> {
  let ptoFamily = "array";
  let summary = "An array with one element replaced";
  let description = [{
    Returns `array` with element `index` replaced by `value` (of the
    element type); an index outside the array is an error when the program
    runs. `array` itself is unchanged: the lowerings update its storage in
    place where nothing reads it afterwards, and a copy elsewhere.
    Example:

    ```mlir
    %counts2 = pl.array.update_element %counts[%i], %n1 : !pl.array<i32, 8>, i32
    ```
  }];
  let arguments = (ins PL_AnyArray:$array, Index:$index, AnyType:$value);
  let results = (outs PL_AnyArray:$result);
  let assemblyFormat = [{
    $array `[` $index `]` `,` $value attr-dict `:` qualified(type($array)) `,` type($value)
  }];
}

#endif // PTO_PL_ARRAY_OPS_TD
