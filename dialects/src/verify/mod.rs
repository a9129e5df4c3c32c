//! The semantic verifier of `pl` and `pld`.
//!
//! ODS checks structure (operand counts, type kinds, enum ranges). Every
//! rule beyond that is a Rust function here, reached from the ops' C++
//! `verify()` hooks through the single C entry [`ptoVerifyOperation`], so
//! `pto-opt`, stock `mlir-opt` with the plugin and embedders all run the same
//! rules.
//!
//! [`verify_operation`] decodes the op's kind once from the op table
//! (docs/op-table.md) and dispatches on its family, with no default: each
//! family has the module that owns its rules, and the ops that ODS alone
//! verifies are listed, each with its reason, in [`ODS_ONLY`]. A kind that
//! reaches a module without a rule there is an internal error, and
//! `tests/verifier_coverage.rs` checks every kind against [`rule_of`] and
//! the modules' `handles`.
//!
//! Rules checked today:
//! - moves (`pl.rs`): `pl.tile.move`'s memory-space pair is a legal a2a3
//!   move, shape kept, element type kept (or the bias-table conversion);
//!   `pl.tile.extract`'s pairs and windows.
//! - elementwise tile ops (`elementwise.rs`): `vec` operands, promotion and
//!   broadcasting, packed comparison masks, casts. The element types each
//!   op takes are ODS constraints (dialects/td/PLConstraints.td), shown in
//!   the operand tables of docs/dialects/pl.md.
//! - the matmul family (`matmul.rs`): memory spaces, K agreement, batch
//!   broadcasting, accumulator dtypes, valid extents, bias rows.
//! - reductions and broadcasts (`reduce.rs`): scratch tiles, result shapes,
//!   valid shapes and layouts, argmax dtypes, vector shapes.
//! - creation, transfers and views (`movement.rs`): offsets per dimension,
//!   windows inside their tensors and tiles, memory spaces, store dtypes.
//! - tensor-level ops (`tensor.rs`): sizes, windows, views, elementwise,
//!   reductions and matmul with dynamic dimensions.
//! - index sequences, sorts and gathers (`indexing.rs`): one-row
//!   sequences, 32-element sort blocks and their pairs, merges of one-row
//!   lists, gather shapes and widths, bit reinterpretation.
//! - arrays (`arrays.rs`): elements of the array's type, constant indices
//!   inside it.
//! - system ops (`system.rs`): event id ranges, distinct pipes, packed
//!   prefetched tensors.
//! - functions (`functions.rs`): kinds, levels, roles, directions, what a
//!   kernel or orchestration may hold, dispatch callees, InCore scopes.
//! - `pld.system.notify` / `pld.system.wait`: one offset per signal dimension.
//!
//! - the `pld` ops (`pld.rs`): where each may run, then its own rules.

mod arrays;
mod common;
mod cross_core;
mod elementwise;
pub(crate) mod functions;
mod indexing;
mod matmul;
mod movement;
mod pl;
mod pld;
mod reduce;
mod system;
mod tensor;

pub use cross_core::group_lanes;
pub use functions::inline_refusal;

use std::panic::{AssertUnwindSafe, catch_unwind};

use melior::ir::operation::OperationRef;
use mlir_sys::MlirLogicalResult;

use crate::{
    diag::{OpDiagnostic, Severity},
    op_table::{Dialect, Family, OpInfo, OpKind},
};

/// The outcome of one rule: the first violated rule's diagnostic.
pub type VerifyResult<'c> = Result<(), OpDiagnostic<'c>>;

/// Why ODS alone verifies a unary tensor op.
const TENSOR_UNARY: &str =
    "SameOperandsAndResultType and the element-type constraint (PL_UnaryForms)";

/// Why ODS alone verifies a task op.
const TASK: &str = "task ids and counts typed by ODS; where it may sit is the function rules' (functions::placement)";

/// Why ODS alone verifies a tensor partial op.
const TENSOR_PARTIAL: &str =
    "AllTypesMatch: one type for both operands and the result, which tensors fill wholly";

/// The ops whose rules are ODS's alone (structure, types, enum ranges), each
/// with the reason no Rust rule applies.
pub const ODS_ONLY: &[(OpKind, &str)] = &[
    (
        OpKind::PlCall,
        "its callee is checked by verifySymbolUses (functions::verify_symbol_uses)",
    ),
    (
        OpKind::PlSubmit,
        "its callee is checked by verifySymbolUses (functions::verify_symbol_uses)",
    ),
    (
        OpKind::PlYield,
        "the enclosing scope checks what its body yields",
    ),
    (
        OpKind::PldYield,
        "a terminator: ODS checks its parent and operands",
    ),
    (
        OpKind::PlSystemBarAll,
        "a barrier without operands or attributes",
    ),
    (
        OpKind::PlSystemBarM,
        "a barrier without operands or attributes",
    ),
    (
        OpKind::PlSystemBarV,
        "a barrier without operands or attributes",
    ),
    (
        OpKind::PlSystemPipeBarrier,
        "any pipe, `all` included, may be barriered",
    ),
    (
        OpKind::PlSystemCacheinvalid,
        "an optional tensor operand whose type ODS checks",
    ),
    (OpKind::PlSystemFence, "no operands or attributes"),
    (
        OpKind::PlPrefetchMakeContext,
        "no operands; its placement (a vector kernel) is the function rules'",
    ),
    (
        OpKind::PlPrefetchSession,
        "a context operand whose type ODS checks",
    ),
    (
        OpKind::PlPrefetchWait,
        "an event and a session whose types ODS checks",
    ),
    (OpKind::PlTensorNeg, TENSOR_UNARY),
    (OpKind::PlTensorExp, TENSOR_UNARY),
    (OpKind::PlTensorSqrt, TENSOR_UNARY),
    (OpKind::PlTensorRsqrt, TENSOR_UNARY),
    (OpKind::PlTensorAbs, TENSOR_UNARY),
    (OpKind::PlTensorRelu, TENSOR_UNARY),
    (OpKind::PlTensorRecip, TENSOR_UNARY),
    (OpKind::PlTensorLog, TENSOR_UNARY),
    (OpKind::PlTensorSin, TENSOR_UNARY),
    (OpKind::PlTensorCos, TENSOR_UNARY),
    (OpKind::PlTensorNot, TENSOR_UNARY),
    (
        OpKind::PlArrayCreate,
        "its type (ArrayType::verify) is the whole rule; kernels hold no task ids (functions::placement)",
    ),
    (OpKind::PlSystemTaskDummy, TASK),
    (OpKind::PlSystemTaskInvalid, TASK),
    (OpKind::PlSystemTaskIsValid, TASK),
    (OpKind::PlSystemAvailableClusterCount, TASK),
    (OpKind::PlSystemAvailableAivCount, TASK),
    (OpKind::PlTensorPartAdd, TENSOR_PARTIAL),
    (OpKind::PlTensorPartMax, TENSOR_PARTIAL),
    (OpKind::PlTensorPartMin, TENSOR_PARTIAL),
    (OpKind::PlTensorPartMul, TENSOR_PARTIAL),
    (
        OpKind::PlTileGetBlockIdx,
        "a query: an index result, no operands",
    ),
    (
        OpKind::PlTensorGetBlockIdx,
        "a query: an index result, no operands",
    ),
    (
        OpKind::PlTensorGetBlockNum,
        "a query: an index result, no operands",
    ),
    (
        OpKind::PlTensorGetSubblockIdx,
        "a query: an index result, no operands",
    ),
    (
        OpKind::PlTileGetBlockNum,
        "a query: an index result, no operands",
    ),
    (
        OpKind::PlTileGetSubblockIdx,
        "a query: an index result, no operands",
    ),
    (
        OpKind::PldSystemGetCommCtx,
        "a query valid on every execution path",
    ),
];

/// A rule module's `handles`: whether it has rules for a kind.
pub type Handles = fn(OpKind) -> bool;

/// The rule modules, by what [`rule_of`] calls them, with what each has
/// rules for.
pub const RULE_MODULES: &[(&str, Handles)] = &[
    ("elementwise", elementwise::handles),
    ("matmul", matmul::handles),
    ("movement", movement::handles),
    ("reduce", reduce::handles),
    ("tensor", tensor::handles),
    ("system", system::handles),
    ("cross_core", cross_core::handles),
    ("functions", functions::handles),
    ("pl", pl::handles),
    ("indexing", indexing::handles),
    ("arrays", arrays::handles),
    ("pld", pld::handles),
];

/// The module that owns a family's rules.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Rule {
    Elementwise,
    Matmul,
    Movement,
    Reduce,
    Tensor,
    System,
    CrossCore,
    Scope,
    Move,
    Indexing,
    Arrays,
    Pld,
}

impl Rule {
    /// The module's name in [`RULE_MODULES`].
    fn module(self) -> &'static str {
        match self {
            Rule::Elementwise => "elementwise",
            Rule::Matmul => "matmul",
            Rule::Movement => "movement",
            Rule::Reduce => "reduce",
            Rule::Tensor => "tensor",
            Rule::System => "system",
            Rule::CrossCore => "cross_core",
            Rule::Scope => "functions",
            Rule::Move => "pl",
            Rule::Indexing => "indexing",
            Rule::Arrays => "arrays",
            Rule::Pld => "pld",
        }
    }
}

/// The module whose rules `info`'s family has; `None` for a family whose
/// every op is in [`ODS_ONLY`]. The families `pl` and `pld` share (scopes,
/// calls, terminators) are owned per dialect.
fn family_rule(info: &OpInfo) -> Option<Rule> {
    Some(match info.family {
        Family::TileUnary
        | Family::TileBinary
        | Family::TileScalar
        | Family::TileCompare
        | Family::TileSelect
        | Family::TileCast
        | Family::TilePartial
        | Family::TileCarry => Rule::Elementwise,
        Family::TileMatmul => Rule::Matmul,
        Family::TileCreate
        | Family::TileTransfer
        | Family::TileView
        | Family::TileTranspose
        | Family::TileFillpad
        | Family::TileAccess
        | Family::TileAssemble
        | Family::TileConcat => Rule::Movement,
        Family::TileRowReduce
        | Family::TileColReduce
        | Family::TileRowExpand
        | Family::TileColExpand => Rule::Reduce,
        Family::TileMove => Rule::Move,
        Family::Array => Rule::Arrays,
        Family::TileGenerate
        | Family::TileSort
        | Family::TileGather
        | Family::TileGatherRow
        | Family::TileScatter
        | Family::TensorGenerate
        | Family::TensorSort
        | Family::TensorGather
        | Family::TensorGatherRow
        | Family::TensorScatter => Rule::Indexing,
        Family::TensorUnary
        | Family::TensorBinary
        | Family::TensorScalar
        | Family::TensorRowReduce
        | Family::TensorColReduce
        | Family::TensorRowExpand
        | Family::TensorColExpand
        | Family::TensorCompare
        | Family::TensorSelect
        | Family::TensorCast
        | Family::TensorMatmul
        | Family::TensorCreate
        | Family::TensorView
        | Family::TensorFillpad
        | Family::TensorAccess
        | Family::TensorAssemble => Rule::Tensor,
        // Every tensor partial op is in ODS_ONLY.
        Family::TensorPartial => return None,
        Family::Sync | Family::Prefetch => Rule::System,
        Family::CrossCore | Family::CoreBoundary => Rule::CrossCore,
        Family::Scope => match info.dialect {
            Dialect::Pl => Rule::Scope,
            Dialect::Pld => Rule::Pld,
        },
        Family::Call => match info.dialect {
            Dialect::Pl => return None,
            Dialect::Pld => Rule::Pld,
        },
        Family::Collective
        | Family::BuiltinCollective
        | Family::RankQuery
        | Family::Signal
        | Family::Window
        | Family::RemoteAccess
        | Family::RemoteTransfer => Rule::Pld,
        Family::MemoryOrder | Family::BlockQuery | Family::Terminator | Family::Task => {
            return None;
        }
    })
}

/// Why ODS alone verifies `kind`, if it does.
pub fn ods_only(kind: OpKind) -> Option<&'static str> {
    ODS_ONLY
        .iter()
        .find(|(listed, _)| *listed == kind)
        .map(|(_, reason)| *reason)
}

/// The module (in [`RULE_MODULES`]) that [`verify_operation`] sends `kind`
/// to; `None` for the kinds in [`ODS_ONLY`] (and for a kind of a family
/// without rules that is missing there, which the coverage test reports).
pub fn rule_of(kind: OpKind) -> Option<&'static str> {
    if ods_only(kind).is_some() {
        return None;
    }
    family_rule(kind.info()).map(Rule::module)
}

/// Runs the rules of `op` (by its kind in the op table).
pub fn verify_operation<'c>(op: OperationRef<'c, '_>) -> VerifyResult<'c> {
    // Not a pl or pld op: its own dialect verifies it.
    let Some(kind) = crate::op_table::kind(&op) else {
        return Ok(());
    };
    if ods_only(kind).is_some() {
        return Ok(());
    }
    let Some(rule) = family_rule(kind.info()) else {
        return Err(OpDiagnostic::new(format!(
            "internal error: no rule for {kind}: its family has no rule module and it is not in ODS_ONLY"
        )));
    };
    match rule {
        Rule::Elementwise => elementwise::verify(op, kind),
        Rule::Matmul => matmul::verify(op, kind),
        Rule::Movement => movement::verify(op, kind),
        Rule::Reduce => reduce::verify(op, kind),
        Rule::Tensor => tensor::verify(op, kind),
        Rule::System => system::verify(op, kind),
        Rule::CrossCore => cross_core::verify(op, kind),
        Rule::Scope => functions::verify_scope(op, kind),
        Rule::Move => pl::verify(op, kind),
        Rule::Indexing => indexing::verify(op, kind),
        Rule::Arrays => arrays::verify(op, kind),
        Rule::Pld => pld::verify(op, kind),
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

/// Runs `check` as a C entry: success, or the diagnostic emitted at `op`;
/// a panic becomes an internal-error diagnostic.
pub(crate) fn run_entry<'c>(
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
