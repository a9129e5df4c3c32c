//! Lowering to the EmitC dialect: the pto-isa C++ API the translator
//! prints (docs/translate.md).

pub mod branches;
pub mod buffers;
pub mod build;
pub mod carried;
pub mod convert_pl_to_emitc;
pub mod cpp_types;
pub mod dense;
pub mod kernel_entry;
pub mod orchestration;
pub mod program;
pub mod signed_index;
pub mod spmd;
pub mod while_index;

/// The dialects the EmitC conversions create ops of.
pub fn dependent_dialects() -> Vec<melior::dialect::DialectHandle> {
    vec![
        melior::dialect::DialectHandle::arith(),
        melior::dialect::DialectHandle::scf(),
        pto_dialects::ir::glue::emitc_dialect_handle(),
        pto_dialects::pl_handle(),
    ]
}
