//! pto-translate's library: CCE C++ on the pto-isa API from pl programs.
//!
//! Each InCore kernel is lowered on its own (a module holding a clone of
//! it) through `convert-pl-to-emitc` and the upstream arith/scf-to-EmitC
//! conversions, and printed by MLIR's C++ emitter. For the `a2a3sim`
//! target a host driver (also EmitC, also printed by the emitter) runs the
//! kernel on the CPU simulation in `sim/`.

pub mod cce;
pub mod driver;
mod ffi;
pub mod host_python;

pub use cce::{Diagnosed, OutputFile, Target, translate, translate_with};
pub use ffi::{DiagnosticVerifier, Timer, parse_mlir_options, parse_module, timing_report};
