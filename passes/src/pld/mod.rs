//! Passes over the distributed layer.

pub mod specialize_nranks;
