//===- PLDDialect.td - the pld dialect record --------------*- tablegen -*-===//

#ifndef PTO_PLD_DIALECT_TD
#define PTO_PLD_DIALECT_TD

include "mlir/IR/OpBase.td"
include "PTOOpInfo.td"

def PLD_Dialect : Dialect {
  let name = "pld";
  let summary = "The PyPTO distributed layer: ranks, windows, signals, collectives";
  let description = [{
    `pld` models programs that run on P ranks (devices) sharing symmetric
    window memory. A `!pld.dtensor` is a window-bound tensor: every rank of a
    comm domain holds a copy at the same offset, so a rank can address a
    peer's copy. Signals are i32 distributed tensors used as counters:
    `pld.system.notify` writes a peer's cell, `pld.system.wait` polls a local
    cell. Rank ids are domain-local and come from a `!pld.comm_ctx`.
  }];
  let cppNamespace = "::pto::pld";
  let useDefaultTypePrinterParser = 1;
}

// Every op's semantic rules run in Rust (dialects/src/verify/) through this
// trait, after ODS has checked operand and attribute kinds.
def PLD_RustVerified : NativeOpTrait<"RustVerified"> {
  let cppNamespace = "::pto";
}

class PLD_Op<string mnemonic, list<Trait> traits = []>
    : Op<PLD_Dialect, mnemonic, !listconcat(traits, [PLD_RustVerified])>, PTO_OpInfo;

#endif // PTO_PLD_DIALECT_TD
