//! Lowering to the EmitC dialect: the pto-isa C++ API the translator
//! prints (docs/translate.md).

pub mod build;
pub mod convert_pl_to_emitc;
pub mod cpp_types;
pub mod kernel_entry;
pub mod orchestration;
pub mod program;
