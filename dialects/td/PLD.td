//===- PLD.td - the pld dialect (umbrella) -----------------*- tablegen -*-===//

#ifndef PTO_PLD_TD
#define PTO_PLD_TD

include "PLDDialect.td"
include "PLDAttrs.td"
include "PLDTypes.td"
include "PLDOps.td"

#endif // PTO_PLD_TD
