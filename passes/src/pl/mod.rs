//! Passes over the tile language: lowering for a2a3.

pub mod linear;
pub mod plan_memory;
