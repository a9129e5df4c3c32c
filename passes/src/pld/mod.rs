//! Passes over the distributed layer.

pub mod comm_stats;
pub mod insert_comm_fence;
pub(crate) mod ir;
pub use ir::is_host;
pub mod lower_composite_ops;
pub mod lower_distributed;
pub mod lower_host_collectives;
pub mod materialize_comm_domains;
pub mod materialize_dist_tensor_ctx;
pub mod rank_execution;
pub mod specialize_nranks;
pub mod synthesize_allreduce_signals;
