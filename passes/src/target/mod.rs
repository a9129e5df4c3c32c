//! What the planner, the pipe model and the emitter know about the target
//! NPU's on-chip memories (docs/a2a3-lowering.md, "Memory").

pub mod a2a3;
pub mod a2a3_costs;
pub mod a2a3_forms;
