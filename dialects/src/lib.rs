//! The `pl` and `pld` MLIR dialects: registration, typed wrappers over their
//! types, generated op builders, and the Rust verifier the ops' `verify()`
//! hooks call.

pub mod access;
pub mod attrs;
pub mod builtins;
pub mod casts;
pub mod composite;
pub mod diag;
pub mod dtype;
pub mod enums;
pub mod ir;
pub mod op_table;
pub mod ops;
pub mod registration;
pub mod scratch;
pub mod source;
pub mod types;
pub mod verify;

pub use ir::capi;
pub use registration::{create_context, pl_handle, pld_handle, register_dialects};
