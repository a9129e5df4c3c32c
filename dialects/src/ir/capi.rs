//! The public C API (`include/pto-c/Dialects.h`), exported from every
//! shared library that links this crate.

use mlir_sys::{MlirContext, MlirDialectHandle, MlirDialectRegistry, MlirType};

use super::glue_raw as ffi;

/// Returns the `pl` dialect handle.
#[unsafe(no_mangle)]
pub extern "C" fn mlirGetDialectHandle__pl__() -> MlirDialectHandle {
    // SAFETY: returns a pointer to static hooks.
    unsafe { ffi::mlirGetDialectHandle__pto_glue_pl__() }
}

/// Returns the `pld` dialect handle.
#[unsafe(no_mangle)]
pub extern "C" fn mlirGetDialectHandle__pld__() -> MlirDialectHandle {
    // SAFETY: returns a pointer to static hooks.
    unsafe { ffi::mlirGetDialectHandle__pto_glue_pld__() }
}

/// Inserts `pl` and `pld` into `registry`.
#[unsafe(no_mangle)]
pub extern "C" fn ptoRegisterDialects(registry: MlirDialectRegistry) {
    // SAFETY: the caller passes a live registry.
    unsafe {
        mlir_sys::mlirDialectHandleInsertDialect(mlirGetDialectHandle__pl__(), registry);
        mlir_sys::mlirDialectHandleInsertDialect(mlirGetDialectHandle__pld__(), registry);
    }
}

/// Returns `!pl.tile<shape x element, space>`; `memory_space` < 0 means none.
///
/// # Safety
/// `shape` points to `rank` integers; `context` and `element` are live.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn plTileTypeGet(
    context: MlirContext,
    rank: isize,
    shape: *const i64,
    element: MlirType,
    memory_space: i32,
) -> MlirType {
    // SAFETY: forwarded under the caller's guarantees.
    unsafe { ffi::ptoGlue_plTileTypeGet(context, rank, shape, element, memory_space) }
}

/// Whether `type` is a `!pl.tile`.
#[unsafe(no_mangle)]
pub extern "C" fn plTypeIsATile(r#type: MlirType) -> bool {
    // SAFETY: the caller passes a live type.
    unsafe { ffi::ptoGlue_plTypeIsATile(r#type) }
}

/// Returns the memory space code of a `!pl.tile`, or -1 when it has none.
#[unsafe(no_mangle)]
pub extern "C" fn plTileTypeGetMemorySpace(r#type: MlirType) -> i32 {
    // SAFETY: the caller passes a live tile type.
    unsafe { ffi::ptoGlue_plTileTypeGetMemorySpace(r#type) }
}

/// Returns `!pl.tensor<shape x element>` (dynamic dims as `INT64_MIN`).
///
/// # Safety
/// `shape` points to `rank` integers; `context` and `element` are live.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn plTensorTypeGet(
    context: MlirContext,
    rank: isize,
    shape: *const i64,
    element: MlirType,
) -> MlirType {
    // SAFETY: forwarded under the caller's guarantees.
    unsafe { ffi::ptoGlue_plTensorTypeGet(context, rank, shape, element) }
}

/// Returns `!pld.dtensor<shape x element>` (dynamic dims as `INT64_MIN`).
///
/// # Safety
/// `shape` points to `rank` integers; `context` and `element` are live.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pldDistributedTensorTypeGet(
    context: MlirContext,
    rank: isize,
    shape: *const i64,
    element: MlirType,
) -> MlirType {
    // SAFETY: forwarded under the caller's guarantees.
    unsafe { ffi::ptoGlue_pldDistributedTensorTypeGet(context, rank, shape, element) }
}

/// Returns `!pld.comm_ctx`.
#[unsafe(no_mangle)]
pub extern "C" fn pldCommCtxTypeGet(context: MlirContext) -> MlirType {
    // SAFETY: the caller passes a live context.
    unsafe { ffi::ptoGlue_pldCommCtxTypeGet(context) }
}
