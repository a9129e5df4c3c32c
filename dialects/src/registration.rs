//! Dialect handles and registration of `pl` and `pld`.

use melior::{
    Context,
    dialect::{DialectHandle, DialectRegistry},
};

/// Returns the handle of the `pl` dialect.
pub fn pl_handle() -> DialectHandle {
    crate::ir::glue::pl_dialect_handle()
}

/// Returns the handle of the `pld` dialect.
pub fn pld_handle() -> DialectHandle {
    crate::ir::glue::pld_dialect_handle()
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
