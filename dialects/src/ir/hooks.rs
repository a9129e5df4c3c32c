//! The functions the dialects' C++ hooks call: the ODS `verify()` hooks,
//! `SymbolUserOpInterface::verifySymbolUses`, the attribute verifiers and
//! the inliner interface. Each turns MLIR's raw handles into safe ones and
//! runs the verifier (`crate::verify`), which turns a panic into a
//! diagnostic. They reach the glue as a table of function pointers
//! ([`install`]), not as exported symbols: libpto_mlir.so exports only the
//! public C API.

use melior::ir::operation::OperationRef;
use mlir_sys::{MlirLogicalResult, MlirOperation, MlirStringRef};

use crate::verify::{self, functions};

/// The C entry the ODS `verify()` hooks call.
extern "C" fn verify_operation_hook(raw: MlirOperation) -> MlirLogicalResult {
    // SAFETY: MLIR calls the hook with the live operation being verified.
    let op = unsafe { OperationRef::from_raw(raw) };
    verify::run_entry(op, || verify::verify_operation(op))
}

/// The C entry of `SymbolUserOpInterface::verifySymbolUses` (callees).
extern "C" fn verify_symbol_uses_hook(raw: MlirOperation) -> MlirLogicalResult {
    // SAFETY: MLIR calls the hook with the live operation being verified.
    let op = unsafe { OperationRef::from_raw(raw) };
    verify::run_entry(op, || functions::verify_symbol_uses(op))
}

/// The C entry of the dialect's attribute verification hooks.
///
/// # Safety
/// `name` describes a valid string; `raw` is a live operation.
unsafe extern "C" fn verify_attribute_hook(
    raw: MlirOperation,
    name: MlirStringRef,
    region: i64,
    arg: i64,
) -> MlirLogicalResult {
    // SAFETY: guaranteed by the caller.
    let op = unsafe { OperationRef::from_raw(raw) };
    let name = if name.length == 0 || name.data.is_null() {
        String::new()
    } else {
        // SAFETY: `name` points to `length` bytes of an attribute name.
        let bytes = unsafe { std::slice::from_raw_parts(name.data.cast::<u8>(), name.length) };
        String::from_utf8_lossy(bytes).into_owned()
    };
    verify::run_entry(op, || functions::verify_attribute(op, &name, region, arg))
}

/// The C entry of the dialects' inliner interface: whether `op` (with the
/// ops it nests) may be spliced into a region of `dest_parent`.
extern "C" fn is_legal_to_inline_hook(raw: MlirOperation, dest_parent: MlirOperation) -> bool {
    // SAFETY: MLIR calls the hook with the live op being inlined and the
    // live op whose region receives it.
    let (op, parent) = unsafe {
        (
            OperationRef::from_raw(raw),
            OperationRef::from_raw(dest_parent),
        )
    };
    std::panic::catch_unwind(|| functions::inline_refusal(op, parent).is_none()).unwrap_or(false)
}

/// Hands the glue the functions above (`PtoDialectHooks` in
/// cpp/Dialects.h). Every way to the dialects' registration passes here
/// first (`crate::ir::glue::pl_dialect_handle`, `pld_dialect_handle`).
pub(crate) fn install() {
    static INSTALL: std::sync::Once = std::sync::Once::new();
    INSTALL.call_once(|| {
        let hooks = super::glue_raw::PtoDialectHooks {
            verify_operation: verify_operation_hook,
            verify_symbol_uses: verify_symbol_uses_hook,
            verify_attribute: verify_attribute_hook,
            is_legal_to_inline: is_legal_to_inline_hook,
        };
        // SAFETY: the glue copies the table; the functions are 'static.
        unsafe { super::glue_raw::ptoGlue_setDialectHooks(&hooks) };
    });
}
