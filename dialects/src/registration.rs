//! Dialect handles and registration of `pl` and `pld`.

use melior::{
    Context,
    dialect::{DialectHandle, DialectRegistry},
};

use crate::ffi;

/// Returns the handle of the `pl` dialect.
pub fn pl_handle() -> DialectHandle {
    // SAFETY: the glue returns a pointer to static registration hooks.
    unsafe { DialectHandle::from_raw(ffi::mlirGetDialectHandle__pto_glue_pl__()) }
}

/// Returns the handle of the `pld` dialect.
pub fn pld_handle() -> DialectHandle {
    // SAFETY: as for `pl_handle`.
    unsafe { DialectHandle::from_raw(ffi::mlirGetDialectHandle__pto_glue_pld__()) }
}

/// Inserts `pl` and `pld` into a dialect registry.
pub fn register_dialects(registry: &DialectRegistry) {
    pl_handle().insert_dialect(registry);
    pld_handle().insert_dialect(registry);
}

/// Creates a context with every upstream dialect registered and `pl`/`pld`
/// loaded: what the tools and the tests build IR in.
pub fn create_context() -> Context {
    let registry = DialectRegistry::new();
    melior::utility::register_all_dialects(&registry);
    register_dialects(&registry);
    let context = Context::new();
    context.append_dialect_registry(&registry);
    context.load_all_available_dialects();
    context
}
