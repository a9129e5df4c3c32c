//! Passes over the distributed layer.

pub mod specialize_nranks;
pub mod synthesize_allreduce_signals;
