//===- PL.td - the pl dialect (umbrella) -------------------*- tablegen -*-===//

#ifndef PTO_PL_TD
#define PTO_PL_TD

include "PLDialect.td"
include "PLAttrs.td"
include "PLTypes.td"
include "PLConstraints.td"
include "PLOps.td"
include "PLSystemOps.td"
include "PLMovementOps.td"
include "PLOrchestrationOps.td"
include "PLTensorOps.td"
include "PLIndexOps.td"
include "PLPartialOps.td"
include "PLArrayOps.td"
include "PLPrefetchOps.td"
include "PLCrossCoreOps.td"

#endif // PTO_PL_TD
