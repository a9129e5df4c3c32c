//! The C entries the dialects' C++ hooks call: the ODS `verify()` hooks,
//! `SymbolUserOpInterface::verifySymbolUses` and the attribute verifiers.
//! Each turns MLIR's raw handles into safe ones and runs the verifier
//! (`crate::verify`), which turns a panic into a diagnostic.

use melior::ir::operation::OperationRef;
use mlir_sys::{MlirLogicalResult, MlirOperation, MlirStringRef};

use crate::verify::{self, functions};

/// The C entry the ODS `verify()` hooks call.
#[unsafe(no_mangle)]
pub extern "C" fn ptoVerifyOperation(raw: MlirOperation) -> MlirLogicalResult {
    // SAFETY: MLIR calls the hook with the live operation being verified.
    let op = unsafe { OperationRef::from_raw(raw) };
    verify::run_entry(op, || verify::verify_operation(op))
}

/// The C entry of `SymbolUserOpInterface::verifySymbolUses` (callees).
#[unsafe(no_mangle)]
pub extern "C" fn ptoVerifySymbolUses(raw: MlirOperation) -> MlirLogicalResult {
    // SAFETY: MLIR calls the hook with the live operation being verified.
    let op = unsafe { OperationRef::from_raw(raw) };
    verify::run_entry(op, || functions::verify_symbol_uses(op))
}

/// The C entry of the dialect's attribute verification hooks.
///
/// # Safety
/// `name` describes a valid string; `raw` is a live operation.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ptoVerifyAttribute(
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
#[unsafe(no_mangle)]
pub extern "C" fn ptoIsLegalToInline(raw: MlirOperation, dest_parent: MlirOperation) -> bool {
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
