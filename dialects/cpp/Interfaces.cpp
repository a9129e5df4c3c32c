//===- Interfaces.cpp - op interfaces of pl and pld ops -------------------===//
//
// The interface methods ODS declares per op (DeclareOpInterfaceMethods).
// Those every op of a kind shares as written are traits in Dialects.h.
//
//===----------------------------------------------------------------------===//

#include "Dialects.h"

using namespace mlir;

namespace {

/// A scope's body runs once: from the parent into the body (which takes no
/// block arguments), from the body back to the parent with the yielded
/// values as the scope's results.
void scopeSuccessors(Operation *scope, RegionBranchPoint point,
                     SmallVectorImpl<RegionSuccessor> &regions) {
  Region &body = scope->getRegion(0);
  if (point.isParent())
    regions.push_back(RegionSuccessor(&body, body.getArguments()));
  else
    regions.push_back(RegionSuccessor(scope, scope->getResults()));
}

} // namespace

#define PTO_SCOPE_SUCCESSORS(Op)                                               \
  void Op::getSuccessorRegions(RegionBranchPoint point,                        \
                               SmallVectorImpl<RegionSuccessor> &regions) {    \
    scopeSuccessors(*this, point, regions);                                    \
  }

PTO_SCOPE_SUCCESSORS(pto::pl::InCoreScopeOp)
PTO_SCOPE_SUCCESSORS(pto::pl::ClusterScopeOp)
PTO_SCOPE_SUCCESSORS(pto::pl::SpmdScopeOp)
PTO_SCOPE_SUCCESSORS(pto::pl::RuntimeScopeOp)
PTO_SCOPE_SUCCESSORS(pto::pld::CommDomainOp)

#undef PTO_SCOPE_SUCCESSORS
