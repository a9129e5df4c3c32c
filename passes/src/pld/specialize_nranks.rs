//! `pld-specialize-nranks`: fix the rank count of a program at compile time.
//!
//! Programs read the rank count at run time (`pld.system.nranks`), so one
//! binary serves any P. A tile shape that depends on P needs a literal, and
//! a known P lets canonicalisation fold loop bounds and peer arithmetic. This
//! pass replaces every `pld.system.nranks` with `arith.constant P : i32`:
//!
//! ```mlir
//! // before                                  // after (nranks=4)
//! %n = pld.system.nranks %ctx : i32          %n = arith.constant 4 : i32
//! ```
//!
//! Every comm domain of the program is assumed to have P ranks.

use melior::{
    IrRewriter,
    dialect::{DialectHandle, arith},
    ir::{
        Value,
        attribute::IntegerAttribute,
        operation::{OperationLike, OperationRef, WalkOrder, WalkResult},
        r#type::IntegerType,
    },
};
use mlir_sys::MlirOperation;

use crate::{
    options::{OptionKind, OptionSpec, OptionValues},
    registry::{PassDefinition, PassFailed},
};

/// The registry entry.
pub static PASS: PassDefinition = PassDefinition {
    argument: "pld-specialize-nranks",
    class_name: "SpecializeNRanks",
    summary: "Replace pld.system.nranks with a fixed rank count",
    anchor: None,
    options: &[OptionSpec {
        name: "nranks",
        kind: OptionKind::Int { min: 1 },
        description: "The rank count P of every comm domain (required, >= 1)",
        default: "0",
    }],
    dependent_dialects: || vec![DialectHandle::arith()],
    run,
};

fn run(root: OperationRef, options: &OptionValues) -> Result<(), PassFailed> {
    specialize_nranks(root, options.int("nranks"));
    Ok(())
}

/// Replaces every `pld.system.nranks` under `root` with the constant
/// `nranks`; returns how many were replaced.
pub fn specialize_nranks(root: OperationRef, nranks: i64) -> usize {
    let mut targets: Vec<MlirOperation> = Vec::new();
    root.walk(WalkOrder::PostOrder, |op| {
        if op.name().as_string_ref().as_str() == Ok("pld.system.nranks") {
            targets.push(op.to_raw());
        }
        WalkResult::Advance
    });
    // SAFETY: the pass runs with exclusive access to `root`'s context.
    let context = unsafe { root.context().to_ref() };
    let ir_rewriter = IrRewriter::new(context);
    let rewriter = ir_rewriter.as_rewriter_base();
    let i32_type = IntegerType::new(context, 32);
    for raw in &targets {
        // SAFETY: collected above from live ops that nothing has erased.
        let op = unsafe { OperationRef::from_raw(*raw) };
        rewriter.set_insertion_point_before(op);
        let constant = rewriter.insert(arith::constant(
            context,
            IntegerAttribute::new(i32_type.into(), nranks).into(),
            op.location(),
        ));
        let value: Value = constant.result(0).expect("arith.constant has a result").into();
        rewriter.replace_op_with_values(op, &[value]);
    }
    targets.len()
}
