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

// Where a tile lives (docs/pl-guide.md, "Memory spaces").
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

// Block / scatter layout of a tile.
def PL_TileLayout : I32EnumAttr<"TileLayout", "tile block or scatter layout", [
    I32EnumAttrCase<"NoneBox", 0, "none_box">,
    I32EnumAttrCase<"RowMajor", 1, "row_major">,
    I32EnumAttrCase<"ColMajor", 2, "col_major">
  ]> {
  let cppNamespace = "::pto::pl";
}

// Layout of a tensor view.
def PL_TensorLayout : I32EnumAttr<"TensorLayout", "tensor layout", [
    I32EnumAttrCase<"ND", 0, "nd">,
    I32EnumAttrCase<"DN", 1, "dn">,
    I32EnumAttrCase<"NZ", 2, "nz">,
    I32EnumAttrCase<"MxAZz", 3, "mx_a_zz">,
    I32EnumAttrCase<"MxBNn", 4, "mx_b_nn">
  ]> {
  let cppNamespace = "::pto::pl";
}

// What fills the invalid region of a tile or tensor.
def PL_PadValue : I32EnumAttr<"PadValue", "pad value", [
    I32EnumAttrCase<"Null", 0, "null">,
    I32EnumAttrCase<"Zero", 1, "zero">,
    I32EnumAttrCase<"Max", 2, "max">,
    I32EnumAttrCase<"Min", 3, "min">
  ]> {
  let cppNamespace = "::pto::pl";
}

// Hardware pipes (docs/a2a3-lowering.md, "The machine the passes model").
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

// Comparison of tile.cmp / tile.cmps.
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

// Rounding of tile.cast.
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

// Which elements of each row a masked gather keeps (pto-isa's
// MaskPattern): element `i` of a row is kept when bit `i mod 4` (read from
// the right) of the pattern is set; p1111 keeps every element.
def PL_MaskPattern : I32EnumAttr<"MaskPattern", "mask pattern", [
    I32EnumAttrCase<"P0101", 1, "p0101">,
    I32EnumAttrCase<"P1010", 2, "p1010">,
    I32EnumAttrCase<"P0001", 3, "p0001">,
    I32EnumAttrCase<"P0010", 4, "p0010">,
    I32EnumAttrCase<"P0100", 5, "p0100">,
    I32EnumAttrCase<"P1000", 6, "p1000">,
    I32EnumAttrCase<"P1111", 7, "p1111">
  ]> {
  let cppNamespace = "::pto::pl";
}

// How an indexed gather from global memory reads its table (pto-isa's
// Coalesce): whole rows by row index, or single elements by flat index.
def PL_GatherMode : I32EnumAttr<"GatherMode", "gather mode", [
    I32EnumAttrCase<"Row", 0, "row">,
    I32EnumAttrCase<"Elem", 1, "elem">
  ]> {
  let cppNamespace = "::pto::pl";
}

// What an indexed gather from global memory does with an index past its
// table (pto-isa's GatherOOB): undefined on the device (an error in
// pto-run), the last row or element, the index modulo the table, or zeros.
def PL_GatherOob : I32EnumAttr<"GatherOob", "out-of-bounds gather", [
    I32EnumAttrCase<"Undefined", 0, "undefined">,
    I32EnumAttrCase<"Clamp", 1, "clamp">,
    I32EnumAttrCase<"Wrap", 2, "wrap">,
    I32EnumAttrCase<"Zero", 3, "zero">
  ]> {
  let cppNamespace = "::pto::pl";
}

// What an indexed scatter to global memory does with an index past its
// table (pto-isa's ScatterOOB): undefined on the device (an error in
// pto-run), nothing written, the last row or element, or the index
// modulo the table.
def PL_ScatterOob : I32EnumAttr<"ScatterOob", "out-of-bounds scatter", [
    I32EnumAttrCase<"Undefined", 0, "undefined">,
    I32EnumAttrCase<"Skip", 1, "skip">,
    I32EnumAttrCase<"Clamp", 2, "clamp">,
    I32EnumAttrCase<"Wrap", 3, "wrap">
  ]> {
  let cppNamespace = "::pto::pl";
}

// How pl.system.syncall waits: on the cores' hardware event (hard; the
// launch fills its cores and starts them together) or by polling a
// counter in global memory (soft).
def PL_SyncAllMode : I32EnumAttr<"SyncAllMode", "cross-block barrier mode", [
    I32EnumAttrCase<"Hard", 0, "hard">,
    I32EnumAttrCase<"Soft", 1, "soft">
  ]> {
  let cppNamespace = "::pto::pl";
}

// Which cores a pl.system.syncall waits for: the vector cores, the cube
// cores, or both of a mixed launch.
def PL_SyncCoreType : I32EnumAttr<"SyncCoreType", "cross-block barrier participants", [
    I32EnumAttrCase<"AivOnly", 0, "aiv_only">,
    I32EnumAttrCase<"AicOnly", 1, "aic_only">,
    I32EnumAttrCase<"Mix", 2, "mix">
  ]> {
  let cppNamespace = "::pto::pl";
}

// How a tile crosses between the cube core and the two vector cores of a
// core group: whole to each vector core, or halved by rows (`up_down`: the
// upper half to vector core 0) or by columns (`left_right`).
def PL_CoreSplit : I32EnumAttr<"CoreSplit", "cross-core split", [
    I32EnumAttrCase<"None", 0, "none">,
    I32EnumAttrCase<"UpDown", 1, "up_down">,
    I32EnumAttrCase<"LeftRight", 2, "left_right">
  ]> {
  let cppNamespace = "::pto::pl";
}
// `pl.split` on an incore kernel: how pl-lower-auto-vector-split shares its
// vector work between the two vector cores (`#pl.split<up_down>`).
def PL_CoreSplitAttr : EnumAttr<PL_Dialect, PL_CoreSplit, "split"> {
  // The ops keep the enum's own attribute (`split up_down`) under the
  // enum's class name; this is the one a function carries.
  let cppClassName = "KernelSplitAttr";
  let assemblyFormat = "`<` $value `>`";
}

// Which ways a cross-core pipe carries tiles: cube to vector, vector to
// cube, or both (pto-isa's Direction codes).
def PL_PipeDirections : I32EnumAttr<"PipeDirections", "cross-core pipe directions", [
    I32EnumAttrCase<"C2V", 1, "c2v">,
    I32EnumAttrCase<"V2C", 2, "v2c">,
    I32EnumAttrCase<"Both", 3, "both">
  ]> {
  let cppNamespace = "::pto::pl";
}

// Accumulation phase of the gemv family.
def PL_AccPhase : I32EnumAttr<"AccPhase", "accumulation phase", [
    I32EnumAttrCase<"Unspecified", 0, "unspecified">,
    I32EnumAttrCase<"Partial", 1, "partial">,
    I32EnumAttrCase<"Final", 2, "final">
  ]> {
  let cppNamespace = "::pto::pl";
}

//===----------------------------------------------------------------------===//
// Function kinds, levels, roles and parameter directions (docs/pl-guide.md):
// dialect attributes on func.func and its arguments, e.g.
//   func.func @k(%o: !pl.tensor<64xf32> {pl.direction = #pl.direction<out>})
//       attributes {pl.kind = #pl.kind<incore>}
//===----------------------------------------------------------------------===//

def PL_FunctionKind : I32EnumAttr<"FunctionKind", "kind of a function", [
    I32EnumAttrCase<"Opaque", 0, "opaque">,
    I32EnumAttrCase<"Orchestration", 1, "orchestration">,
    I32EnumAttrCase<"InCore", 2, "incore">,
    I32EnumAttrCase<"AIC", 3, "aic">,
    I32EnumAttrCase<"AIV", 4, "aiv">,
    I32EnumAttrCase<"Group", 5, "group">,
    I32EnumAttrCase<"Spmd", 6, "spmd">,
    I32EnumAttrCase<"Inline", 7, "inline">,
    I32EnumAttrCase<"Graph", 8, "graph">
  ]> {
  let cppNamespace = "::pto::pl";
  let genSpecializedAttr = 0;
}
def PL_FunctionKindAttr : EnumAttr<PL_Dialect, PL_FunctionKind, "kind"> {
  let assemblyFormat = "`<` $value `>`";
}

def PL_Level : I32EnumAttr<"Level", "hierarchy level of a function", [
    I32EnumAttrCase<"AIV", 0, "aiv">,
    I32EnumAttrCase<"AIC", 1, "aic">,
    I32EnumAttrCase<"CoreGroup", 2, "core_group">,
    I32EnumAttrCase<"ChipDie", 3, "chip_die">,
    I32EnumAttrCase<"Chip", 4, "chip">,
    I32EnumAttrCase<"Host", 5, "host">,
    I32EnumAttrCase<"Cluster0", 6, "cluster0">,
    I32EnumAttrCase<"Cluster1", 7, "cluster1">,
    I32EnumAttrCase<"Cluster2", 8, "cluster2">,
    I32EnumAttrCase<"Global", 9, "global">
  ]> {
  let cppNamespace = "::pto::pl";
  let genSpecializedAttr = 0;
}
def PL_LevelAttr : EnumAttr<PL_Dialect, PL_Level, "level"> {
  let assemblyFormat = "`<` $value `>`";
}

def PL_Role : I32EnumAttr<"Role", "role of a function", [
    I32EnumAttrCase<"Orchestrator", 0, "orchestrator">,
    I32EnumAttrCase<"SubWorker", 1, "subworker">
  ]> {
  let cppNamespace = "::pto::pl";
  let genSpecializedAttr = 0;
}
def PL_RoleAttr : EnumAttr<PL_Dialect, PL_Role, "role"> {
  let assemblyFormat = "`<` $value `>`";
}

def PL_ParamDirection : I32EnumAttr<"ParamDirection", "direction of a parameter", [
    I32EnumAttrCase<"In", 0, "in">,
    I32EnumAttrCase<"Out", 1, "out">,
    I32EnumAttrCase<"InOut", 2, "inout">
  ]> {
  let cppNamespace = "::pto::pl";
  let genSpecializedAttr = 0;
}
def PL_ParamDirectionAttr : EnumAttr<PL_Dialect, PL_ParamDirection, "direction"> {
  let assemblyFormat = "`<` $value `>`";
}

#endif // PTO_PL_ATTRS_TD
