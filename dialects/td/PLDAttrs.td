//===- PLDAttrs.td - pld enums and attributes --------------*- tablegen -*-===//

#ifndef PTO_PLD_ATTRS_TD
#define PTO_PLD_ATTRS_TD

include "PLDDialect.td"
include "mlir/IR/EnumAttr.td"

// ABI enums: the values are part of the runtime ABI (NotifyKind is the
// runtime's NotifyOp) and only ever grow.
def PLD_NotifyKind : I32EnumAttr<"NotifyKind", "how notify updates the peer's cell", [
    I32EnumAttrCase<"AtomicAdd", 0, "atomic_add">,
    I32EnumAttrCase<"Set", 1, "set">
  ]> {
  let cppNamespace = "::pto::pld";
}

def PLD_WaitCmp : I32EnumAttr<"WaitCmp", "how wait compares the local cell", [
    I32EnumAttrCase<"Eq", 0, "eq">,
    I32EnumAttrCase<"Ge", 1, "ge">
  ]> {
  let cppNamespace = "::pto::pld";
}

def PLD_AtomicType : I32EnumAttr<"AtomicType", "how a transfer writes the destination", [
    I32EnumAttrCase<"None", 0, "none">,
    I32EnumAttrCase<"Add", 1, "add">
  ]> {
  let cppNamespace = "::pto::pld";
}

def PLD_ReduceOp : I32EnumAttr<"ReduceOp", "reduction of a collective", [
    I32EnumAttrCase<"Sum", 0, "sum">,
    I32EnumAttrCase<"Max", 1, "max">,
    I32EnumAttrCase<"Min", 2, "min">,
    I32EnumAttrCase<"Prod", 3, "prod">
  ]> {
  let cppNamespace = "::pto::pld";
}

def PLD_AllreduceMode : I32EnumAttr<"AllreduceMode", "allreduce algorithm", [
    I32EnumAttrCase<"Mesh", 0, "mesh">,
    I32EnumAttrCase<"Ring", 1, "ring">
  ]> {
  let cppNamespace = "::pto::pld";
}

#endif // PTO_PLD_ATTRS_TD
