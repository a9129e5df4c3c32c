//! The pl/pld passes. Each pass is a plain function over the IR in its own
//! module; [`registry`] puts them in MLIR's global pass registry.

pub mod docs;
pub mod emitc;
mod ffi;
pub mod options;
pub mod pl;
pub mod pld;
pub mod registry;
pub mod target;

pub use registry::{
    PASSES, PIPELINES, PassDefinition, PipelineDefinition, create_pass, find_pass, register_passes,
};
