//! The semantic verifier of `pl` and `pld`.
//!
//! ODS checks structure (operand counts, type kinds, enum ranges). Every
//! rule beyond that is a Rust function here, reached from the ops' C++
//! `verify()` hooks through the single C entry [`ptoVerifyOperation`], so
//! `pto-opt`, stock `mlir-opt` with the plugin and embedders all run the same
//! rules.
//!
//! Rules checked today:
//! - `pl.tile.move`: the memory-space pair is a legal a2a3 move; shape kept;
//!   element type kept (or the bias-table conversion).
//! - elementwise tile ops (`elementwise.rs`): `vec` operands, promotion and
//!   broadcasting, dtype sets per op, packed comparison masks, casts.
//! - the matmul family (`matmul.rs`): memory spaces, K agreement, batch
//!   broadcasting, accumulator dtypes, valid extents, bias rows.
//! - reductions and broadcasts (`reduce.rs`): scratch tiles, result shapes,
//!   valid shapes and layouts, argmax dtypes, vector shapes.
//! - creation, transfers and views (`movement.rs`): offsets per dimension,
//!   windows inside their tensors and tiles, memory spaces, store dtypes.
//! - tensor-level ops (`tensor.rs`): sizes, windows, views, elementwise,
//!   reductions and matmul with dynamic dimensions.
//! - system ops (`system.rs`): event id ranges, distinct pipes.
//! - functions (`functions.rs`): kinds, levels, roles, directions, what a
//!   kernel or orchestration may hold, dispatch callees, InCore scopes.
//! - `pld.system.notify` / `pld.system.wait`: one offset per signal dimension.
//!
//! Other `pl.tile` ops have only their ODS checks; the rules of the `pld`
//! ops are in `pld.rs`.

mod common;
mod elementwise;
pub(crate) mod functions;
mod matmul;
mod movement;
mod pl;
mod pld;
mod reduce;
mod system;
mod tensor;

use std::panic::{AssertUnwindSafe, catch_unwind};

use melior::ir::operation::{OperationLike, OperationRef};
use mlir_sys::{MlirLogicalResult, MlirOperation};

use crate::diag::{OpDiagnostic, Severity};

/// The outcome of one rule: the first violated rule's diagnostic.
pub type VerifyResult<'c> = Result<(), OpDiagnostic<'c>>;

/// Runs the rules of `op` (by op name).
pub fn verify_operation<'c>(op: OperationRef<'c, '_>) -> VerifyResult<'c> {
    let name = op.name();
    let name = name.as_string_ref().as_str().unwrap_or_default();
    if let Some(mnemonic) = name.strip_prefix("pl.tile.")
        && elementwise::handles(mnemonic)
    {
        return elementwise::verify(op, mnemonic);
    }
    if let Some(mnemonic) = name.strip_prefix("pl.tile.")
        && matmul::MNEMONICS.contains(&mnemonic)
    {
        return matmul::verify(op, mnemonic);
    }
    if let Some(mnemonic) = name.strip_prefix("pl.tile.")
        && movement::MNEMONICS.contains(&mnemonic)
    {
        return movement::verify(op, mnemonic);
    }
    if let Some(mnemonic) = name.strip_prefix("pl.tile.")
        && reduce::handles(mnemonic)
    {
        return reduce::verify(op, mnemonic);
    }
    if let Some(mnemonic) = name.strip_prefix("pl.tensor.") {
        return tensor::verify(op, mnemonic);
    }
    if let Some(mnemonic) = name.strip_prefix("pl.system.") {
        return system::verify(op, mnemonic);
    }
    match name {
        "pl.incore_scope" | "pl.cluster_scope" | "pl.spmd_scope" | "pl.runtime_scope" => {
            functions::verify_scope(op)
        }
        "pl.tile.move" => pl::verify_tile_move(op),
        n if n.starts_with("pld.") => pld::verify(op),
        _ => Ok(()),
    }
}

/// The rules of `op` that constant operands decide (a window that provably
/// leaves its tensor, a negative size, valid extents that disagree with
/// their operands): the verifier sees no constant operands, so that IR
/// stays valid when folding makes an operand constant;
/// `pl-verify-constants` runs the rules again with them. Call only on an
/// op that verifies.
pub fn verify_constant_operands<'c>(op: OperationRef<'c, '_>) -> VerifyResult<'c> {
    common::with_constants(|| {
        catch_unwind(AssertUnwindSafe(|| verify_operation(op)))
            .unwrap_or_else(|_| Err(OpDiagnostic::new("internal error in the verifier")))
    })
}

/// The C entry the ODS `verify()` hooks call.
///
/// A panic in a rule is a bug in the verifier; it becomes an error
/// diagnostic instead of unwinding into C++.
#[unsafe(no_mangle)]
pub extern "C" fn ptoVerifyOperation(raw: MlirOperation) -> MlirLogicalResult {
    // SAFETY: MLIR calls the hook with the live operation being verified.
    let op = unsafe { OperationRef::from_raw(raw) };
    run_entry(op, || verify_operation(op))
}

/// Runs `check` as a C entry: success, or the diagnostic emitted at `op`;
/// a panic becomes an internal-error diagnostic.
fn run_entry<'c>(
    op: OperationRef<'c, '_>,
    check: impl FnOnce() -> VerifyResult<'c>,
) -> MlirLogicalResult {
    let outcome = catch_unwind(AssertUnwindSafe(check)).unwrap_or_else(|panic| {
        let reason = panic
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| panic.downcast_ref::<String>().cloned())
            .unwrap_or_default();
        Err(OpDiagnostic::new(format!(
            "internal error in the verifier: {reason}"
        )))
    });
    match outcome {
        Ok(()) => MlirLogicalResult { value: 1 },
        Err(diagnostic) => {
            diagnostic.emit(op, Severity::Error);
            MlirLogicalResult { value: 0 }
        }
    }
}

/// The C entry of `SymbolUserOpInterface::verifySymbolUses` (callees).
#[unsafe(no_mangle)]
pub extern "C" fn ptoVerifySymbolUses(raw: MlirOperation) -> MlirLogicalResult {
    // SAFETY: MLIR calls the hook with the live operation being verified.
    let op = unsafe { OperationRef::from_raw(raw) };
    run_entry(op, || functions::verify_symbol_uses(op))
}

/// The C entry of the dialect's attribute verification hooks.
///
/// # Safety
/// `name` describes a valid string; `raw` is a live operation.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ptoVerifyAttribute(
    raw: MlirOperation,
    name: mlir_sys::MlirStringRef,
    region: i64,
    arg: i64,
) -> MlirLogicalResult {
    // SAFETY: guaranteed by the caller.
    let op = unsafe { OperationRef::from_raw(raw) };
    // SAFETY: `name` points to `length` bytes of an attribute name.
    let name = unsafe { std::slice::from_raw_parts(name.data.cast::<u8>(), name.length) };
    let name = String::from_utf8_lossy(name).into_owned();
    run_entry(op, || functions::verify_attribute(op, &name, region, arg))
}
