//===- PLAttrs.td - pl enums and attributes ----------------*- tablegen -*-===//
//
// Enums are I32EnumAttrs: in op assembly they print as bare keywords
// (`pl.tile.cmp ... lt`), in generic form as their PyPTO integer code, and
// ODS checks the code is in range.
//
//===----------------------------------------------------------------------===//

#ifndef PTO_PL_ATTRS_TD
#define PTO_PL_ATTRS_TD

include "PLDialect.td"
include "mlir/IR/EnumAttr.td"

// pl.md §1.6.
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

// Block / scatter layout of a tile (pl.md §1.5).
def PL_TileLayout : I32EnumAttr<"TileLayout", "tile block or scatter layout", [
    I32EnumAttrCase<"NoneBox", 0, "none_box">,
    I32EnumAttrCase<"RowMajor", 1, "row_major">,
    I32EnumAttrCase<"ColMajor", 2, "col_major">
  ]> {
  let cppNamespace = "::pto::pl";
}

// Layout of a tensor view (pl.md §1.4).
def PL_TensorLayout : I32EnumAttr<"TensorLayout", "tensor layout", [
    I32EnumAttrCase<"ND", 0, "nd">,
    I32EnumAttrCase<"DN", 1, "dn">,
    I32EnumAttrCase<"NZ", 2, "nz">,
    I32EnumAttrCase<"MxAZZ", 3, "mx_a_zz">,
    I32EnumAttrCase<"MxBNN", 4, "mx_b_nn">
  ]> {
  let cppNamespace = "::pto::pl";
}

// What fills the invalid region of a tile or tensor (pl.md §1.4, §1.5).
def PL_PadValue : I32EnumAttr<"PadValue", "pad value", [
    I32EnumAttrCase<"Null", 0, "null">,
    I32EnumAttrCase<"Zero", 1, "zero">,
    I32EnumAttrCase<"Max", 2, "max">,
    I32EnumAttrCase<"Min", 3, "min">
  ]> {
  let cppNamespace = "::pto::pl";
}

// Hardware pipes (pl.md §1.8).
def PL_Pipe : I32EnumAttr<"Pipe", "hardware pipe", [
    I32EnumAttrCase<"MTE1", 0, "mte1">,
    I32EnumAttrCase<"MTE2", 1, "mte2">,
    I32EnumAttrCase<"MTE3", 2, "mte3">,
    I32EnumAttrCase<"M", 3, "m">,
    I32EnumAttrCase<"V", 4, "v">,
    I32EnumAttrCase<"S", 5, "s">,
    I32EnumAttrCase<"FIX", 6, "fix">,
    I32EnumAttrCase<"ALL", 7, "all">
  ]> {
  let cppNamespace = "::pto::pl";
}

// Comparison of tile.cmp / tile.cmps (pl.md §4.4).
def PL_CmpMode : I32EnumAttr<"CmpMode", "comparison", [
    I32EnumAttrCase<"EQ", 0, "eq">,
    I32EnumAttrCase<"NE", 1, "ne">,
    I32EnumAttrCase<"LT", 2, "lt">,
    I32EnumAttrCase<"LE", 3, "le">,
    I32EnumAttrCase<"GT", 4, "gt">,
    I32EnumAttrCase<"GE", 5, "ge">
  ]> {
  let cppNamespace = "::pto::pl";
}

// Rounding of tile.cast (pl.md §4.4).
def PL_RoundMode : I32EnumAttr<"RoundMode", "rounding mode", [
    I32EnumAttrCase<"None", 0, "none">,
    I32EnumAttrCase<"Rint", 1, "rint">,
    I32EnumAttrCase<"Round", 2, "round">,
    I32EnumAttrCase<"Floor", 3, "floor">,
    I32EnumAttrCase<"Ceil", 4, "ceil">,
    I32EnumAttrCase<"Trunc", 5, "trunc">,
    I32EnumAttrCase<"Odd", 6, "odd">
  ]> {
  let cppNamespace = "::pto::pl";
}

// Accumulation phase of the gemv family (pl.md §4.6).
def PL_AccPhase : I32EnumAttr<"AccPhase", "accumulation phase", [
    I32EnumAttrCase<"Unspecified", 0, "unspecified">,
    I32EnumAttrCase<"Partial", 1, "partial">,
    I32EnumAttrCase<"Final", 2, "final">
  ]> {
  let cppNamespace = "::pto::pl";
}

#endif // PTO_PL_ATTRS_TD
