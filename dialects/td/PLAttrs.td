//===- PLAttrs.td - pl enums and attributes ----------------*- tablegen -*-===//

#ifndef PTO_PL_ATTRS_TD
#define PTO_PL_ATTRS_TD

include "PLDialect.td"
include "mlir/IR/EnumAttr.td"

// The values are PyPTO's `pl.MemorySpace` codes (spec pl.md §1.6).
def PL_MemorySpace : I32EnumAttr<"MemorySpace", "memory space of a tile", [
    I32EnumAttrCase<"DDR", 0, "ddr">,
    I32EnumAttrCase<"Vec", 1, "vec">,
    I32EnumAttrCase<"Mat", 2, "mat">,
    I32EnumAttrCase<"Left", 3, "left">,
    I32EnumAttrCase<"Right", 4, "right">,
    I32EnumAttrCase<"Acc", 5, "acc">,
    I32EnumAttrCase<"Bias", 6, "bias">,
    I32EnumAttrCase<"ScalarLocal", 7, "scalar_local">,
    I32EnumAttrCase<"LeftScale", 8, "left_scale">,
    I32EnumAttrCase<"RightScale", 9, "right_scale">
  ]> {
  let cppNamespace = "::pto::pl";
}

#endif // PTO_PL_ATTRS_TD
