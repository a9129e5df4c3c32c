//===- PTOOpInfo.td - op-table metadata of pl and pld ops --*- tablegen -*-===//
//
// Facts about an op that every layer needs and that ODS's own fields do not
// say. The build reads them, with the ops' operands, results, attributes and
// regions, into the Rust op table (`pto_dialects::op_table`,
// docs/op-table.md) that the verifier, the passes, pto-run and the emitter
// match on, so that no layer re-derives an op's kind from its name.
//
//===----------------------------------------------------------------------===//

#ifndef PTO_OP_INFO_TD
#define PTO_OP_INFO_TD

class PTO_OpInfo {
  // How the layers group the op (docs/op-table.md, "Families"). Every op
  // names one; the build fails on an op without.
  string ptoFamily = "";
  // What an elementwise, scalar, reduction or expansion op computes
  // ("add", "max", ...), the same for its tile and tensor forms.
  string ptoCompute = "";
  // The a2a3 pipe the op's instruction occupies: a `pl.pipe` keyword;
  // "source:<pipe>" when the space of operand 0 decides (fix from acc, mte1
  // from mat, else <pipe>); "staged" for a transfer through a staging tile
  // (an mte2 read, then an mte3 write); "" when the op issues no
  // instruction.
  string ptoPipe = "";
  // The operands whose buffer the result may overwrite while the op reads
  // them, when they have the result's type (pl-plan-memory's in-place
  // reuse).
  list<int> ptoInPlaceOperands = [];
  // The operand whose buffer the result is (an op that updates its operand:
  // `matmul_acc` accumulates into operand 0), or -1.
  int ptoTiedOperand = -1;
  // The pto-isa instruction the a2a3 lowering emits ("" none or several).
  string ptoInstruction = "";
  // The element types the a2a3 instruction takes for its destination, as
  // `pl` element type spellings ([] when the verifier's rule is the whole
  // story; docs/translate.md, "What pto-isa takes").
  list<string> ptoA2A3ElementTypes = [];
  // The element types it takes for its first tile source, where the
  // instruction restricts the source rather than the destination.
  list<string> ptoA2A3SourceTypes = [];
  // Whether the instruction takes one element type for its destination and
  // every tile source (pl promotes; pto-isa converts nothing).
  bit ptoA2A3SameType = 0;
  // For a `pl.tensor` op: the `pl.tile` op pl-convert-tensor-to-tile turns
  // it into ("" when it has no single tile form).
  string ptoTileForm = "";
}

#endif // PTO_OP_INFO_TD
