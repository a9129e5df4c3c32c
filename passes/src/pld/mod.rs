//! Passes over the distributed layer.

pub mod insert_comm_fence;
pub mod specialize_nranks;
pub mod synthesize_allreduce_signals;
