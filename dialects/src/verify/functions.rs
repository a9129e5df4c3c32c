//! Rules of function kinds, levels, roles and parameter directions, of
//! kernel dispatch (`pl.call`, `pl.submit`) and of InCore scopes
//! (docs/pl-guide.md, "Functions: kinds, levels, roles, directions" and
//! "Dispatch and scopes").
//!
//! - `pl.kind`, `pl.level`, `pl.role` sit on func.func and hold the
//!   matching `#pl.*` attribute; a typed kind fixes level and role
//!   (orchestration: chip/orchestrator; incore: chip_die/subworker; aic,
//!   aiv: their core; group: core_group; all but orchestration subworker);
//! - kernels (incore, aic, aiv) take no tile parameters and dispatch
//!   nothing; aic kernels hold no `vec` tiles and aiv kernels no
//!   cube-side tiles; orchestrations compute no tiles outside InCore scopes;
//! - `pl.direction` sits on func.func arguments; out/inout only on tensors;
//! - `pl.call`/`pl.submit` name a kernel-like function (incore, aic, aiv,
//!   group, spmd) whose signature matches;
//! - InCore scopes do not nest and never sit in a kernel.

use crate::ops::Checked;
use melior::ir::{
    Attribute, Type, ValueLike,
    operation::{OperationLike, OperationRef, WalkOrder, WalkResult},
};

use super::{
    VerifyResult,
    common::{fail, mnemonic, no_rule},
};
use crate::ops::{enclosing_function, function_type, op_name};
use crate::{
    attrs::{self, FunctionAttr},
    enums::{FunctionKind, Level, MemorySpace, ParamDirection, Role},
    op_table::{Dialect, Family, OpKind},
    types::{ArrayType, DistributedTensorType, TensorType, TileType},
};

/// Which pl enum attribute an attribute is (1 kind, 2 level, 3 role, 4
/// direction, 5 split), with its code.
fn pl_enum(attribute: Attribute) -> Option<(i32, i32)> {
    Some(match attrs::read(attribute)? {
        FunctionAttr::Kind(kind) => (1, kind as i32),
        FunctionAttr::Level(level) => (2, level as i32),
        FunctionAttr::Role(role) => (3, role as i32),
        FunctionAttr::Direction(direction) => (4, direction as i32),
        FunctionAttr::Split(split) => (5, split as i32),
    })
}

/// The `pl.kind` of a func.func, if it has one.
pub fn function_kind(function: OperationRef) -> Option<FunctionKind> {
    let attribute = function.attribute("pl.kind").ok()?;
    match pl_enum(attribute) {
        Some((1, code)) => FunctionKind::from_code(code),
        _ => None,
    }
}

fn is_kernel(kind: Option<FunctionKind>) -> bool {
    matches!(
        kind,
        Some(FunctionKind::InCore | FunctionKind::Aic | FunctionKind::Aiv)
    )
}

/// The level and role a typed kind implies.
fn derived(kind: FunctionKind) -> (Option<Level>, Option<Role>) {
    match kind {
        FunctionKind::Orchestration | FunctionKind::Graph => {
            (Some(Level::Chip), Some(Role::Orchestrator))
        }
        FunctionKind::InCore => (Some(Level::ChipDie), Some(Role::SubWorker)),
        FunctionKind::Aic => (Some(Level::Aic), Some(Role::SubWorker)),
        FunctionKind::Aiv => (Some(Level::Aiv), Some(Role::SubWorker)),
        FunctionKind::Group => (Some(Level::CoreGroup), Some(Role::SubWorker)),
        FunctionKind::Opaque | FunctionKind::Spmd | FunctionKind::Inline => (None, None),
    }
}

/// The C entry for dialect attributes on ops (`arg` < 0) and on region
/// arguments.
pub fn verify_attribute<'c>(
    op: OperationRef<'c, '_>,
    name: &str,
    region: i64,
    arg: i64,
) -> VerifyResult<'c> {
    let is_function = op_name(op) == "func.func";
    if arg >= 0 {
        if name != "pl.direction" {
            return fail(format!("unknown pl argument attribute '{name}'"));
        }
        if !is_function || region != 0 {
            return fail("'pl.direction' applies to func.func arguments");
        }
        let Some(function_type) = function_type(op) else {
            return Ok(());
        };
        let Ok(param) = function_type.input(arg as usize) else {
            return Ok(());
        };
        let direction = crate::access::declared_direction(op, arg as usize);
        let Some(direction) = direction else {
            return fail("'pl.direction' must be a #pl.direction attribute");
        };
        let tensor_like =
            TensorType::try_from(param).is_ok() || DistributedTensorType::try_from(param).is_ok();
        if direction != ParamDirection::In && !tensor_like {
            return fail(format!(
                "argument #{arg} of type {param} cannot be '{direction}': only tensors are written"
            ));
        }
        return Ok(());
    }
    match name {
        "pl.addresses" => return verify_addresses(op),
        "pl.unroll" => return verify_unroll(op),
        "pl.buffer_set" => return verify_buffer_set(op),
        "pl.memory" => return verify_memory(op),
        "pl.split" => return verify_split(op, is_function),
        _ => {}
    }
    if !matches!(name, "pl.kind" | "pl.level" | "pl.role") {
        return fail(format!("unknown pl attribute '{name}'"));
    }
    if !is_function {
        return fail(format!("'{name}' applies to func.func"));
    }
    let expected = match name {
        "pl.kind" => 1,
        "pl.level" => 2,
        _ => 3,
    };
    let attribute = op
        .attribute(name)
        .map_err(|e| super::common::Failure::new(e.to_string()))?;
    if pl_enum(attribute).map(|(which, _)| which) != Some(expected) {
        return fail(format!(
            "'{name}' must be a #{} attribute, got {attribute}",
            &name[3..]
        ));
    }
    // The whole-function rules run once, from pl.kind (or from the level
    // and role of a function without a kind).
    if name == "pl.kind" || function_kind(op).is_none() && name == "pl.level" {
        verify_function(op)?;
    }
    Ok(())
}

/// `pl.split` asks pl-lower-auto-vector-split to share an `incore`
/// kernel's vector work between the two vector cores.
fn verify_split<'c>(op: OperationRef<'c, '_>, is_function: bool) -> VerifyResult<'c> {
    if !is_function {
        return fail("'pl.split' applies to func.func");
    }
    let attribute = op
        .attribute("pl.split")
        .map_err(|e| super::common::Failure::new(e.to_string()))?;
    if pl_enum(attribute).map(|(which, _)| which) != Some(5) {
        return fail(format!(
            "'pl.split' must be a #pl.split attribute, got {attribute}"
        ));
    }
    match function_kind(op) {
        Some(FunctionKind::InCore) => Ok(()),
        other => fail(format!(
            "'pl.split' shares an incore kernel's vector work between the vector cores; this function is {}",
            other.map_or("without pl.kind".to_string(), |k| format!("of kind {k}"))
        )),
    }
}

fn enum_attr<T>(
    function: OperationRef,
    name: &str,
    which: i32,
    from: fn(i32) -> Option<T>,
) -> Option<T> {
    match pl_enum(function.attribute(name).ok()?) {
        Some((w, code)) if w == which => from(code),
        _ => None,
    }
}

fn verify_function<'c>(function: OperationRef<'c, '_>) -> VerifyResult<'c> {
    let kind = function_kind(function);
    let level = enum_attr(function, "pl.level", 2, Level::from_code);
    let role = enum_attr(function, "pl.role", 3, Role::from_code);
    if let Some(kind) = kind {
        let (derived_level, derived_role) = derived(kind);
        if let (Some(given), Some(implied)) = (level, derived_level)
            && given != implied
        {
            return fail(format!(
                "a {kind} function is at level {implied}, not {given}"
            ));
        }
        if let (Some(given), Some(implied)) = (role, derived_role)
            && given != implied
        {
            return fail(format!("a {kind} function has role {implied}, not {given}"));
        }
    }
    if is_kernel(kind)
        && let Some(function_type) = function_type(function)
    {
        for index in 0..function_type.input_count() {
            let param = function_type.input(index).expect("index in range");
            if TileType::try_from(param).is_ok() {
                return fail(format!(
                    "a kernel takes tensors and scalars, not tiles: argument #{index} is {param}"
                ));
            }
        }
    }
    if is_kernel(kind) {
        verify_directions(function)?;
    }
    if kind == Some(FunctionKind::Group) {
        super::cross_core::verify_group(function)?;
    }
    // Arrays live in a core's registers or stack: they do not cross calls.
    if let Some(function_type) = function_type(function) {
        let escapes = (0..function_type.input_count())
            .filter_map(|i| function_type.input(i).ok().map(|t| ("parameter", i, t)))
            .chain(
                (0..function_type.result_count())
                    .filter_map(|i| function_type.result(i).ok().map(|t| ("result", i, t))),
            )
            .find(|(_, _, t)| ArrayType::try_from(*t).is_ok());
        if let Some((what, index, r#type)) = escapes {
            return fail(format!(
                "{what} #{index} is an array ({type}); arrays stay in the function that makes them"
            ));
        }
    }
    let mut error: Option<String> = None;
    function.walk(WalkOrder::PreOrder, |op| match placement(kind, op) {
        Placement::Allowed => WalkResult::Advance,
        Placement::KernelCode => WalkResult::Skip,
        Placement::Forbidden(message) => {
            error = Some(message);
            WalkResult::Interrupt
        }
    });
    match error {
        Some(message) => fail(message),
        None => Ok(()),
    }
}

/// Where an op may sit in a function of some kind (the rules of
/// [`placement`]).
enum Placement {
    Allowed,
    /// A scope of an orchestration: its body is kernel code until
    /// outlining, checked by the scope's own rules.
    KernelCode,
    Forbidden(String),
}

/// Whether `op` itself (not what it nests) may sit in a function of kind
/// `kind`: kernels dispatch nothing (a `func.call` of an inline function
/// excepted: pl-inline-functions splices it in), aic kernels hold no vec
/// tiles and aiv kernels no cube-side tiles, orchestrations compute no
/// tiles outside their scopes.
fn placement(kind: Option<FunctionKind>, op: OperationRef) -> Placement {
    let name = op_name(op);
    let info = crate::op_table::kind(&op).map(OpKind::info);
    if is_kernel(kind) {
        let dispatches = (name == "func.call" && !calls_inline_function(op))
            || info.is_some_and(|i| i.family == Family::Call && i.dialect == Dialect::Pl);
        if dispatches {
            return Placement::Forbidden(format!("a kernel dispatches nothing, found {name}"));
        }
        let task_array = (0..op.result_count())
            .filter_map(|i| op.result_opt(i))
            .filter_map(|r| ArrayType::try_from(r.r#type()).ok())
            .any(|a| a.element().to_string() == "!pl.task_id");
        if task_array {
            return Placement::Forbidden(format!(
                "a kernel holds no task ids: an array of them belongs in an orchestration, found {name}"
            ));
        }
        if info.is_some_and(|i| i.family == Family::Task) {
            return Placement::Forbidden(format!(
                "a kernel submits no tasks and sizes no launches: {name} belongs in an orchestration"
            ));
        }
        if kind == Some(FunctionKind::Aic) && info.is_some_and(|i| i.family == Family::Prefetch) {
            return Placement::Forbidden(format!(
                "a prefetch drives the SDMA engine from a vector core: {name} belongs in an aiv or InCore kernel"
            ));
        }
        let placed = (0..op.result_count())
            .filter_map(|i| op.result_opt(i))
            .filter_map(|r| TileType::try_from(r.r#type()).ok())
            .filter_map(|t| t.memory_space());
        for space in placed {
            let cube = matches!(
                space,
                MemorySpace::Mat
                    | MemorySpace::Left
                    | MemorySpace::Right
                    | MemorySpace::Acc
                    | MemorySpace::Bias
            );
            if kind == Some(FunctionKind::Aic) && space == MemorySpace::Vec {
                return Placement::Forbidden(format!(
                    "an aic (cube) kernel holds no vec tiles, found {name}"
                ));
            }
            if kind == Some(FunctionKind::Aiv) && cube {
                return Placement::Forbidden(format!(
                    "an aiv (vector) kernel holds no '{space}' tiles, found {name}"
                ));
            }
        }
    }
    if kind == Some(FunctionKind::Orchestration) {
        if info.is_some_and(|i| holds_kernel_code(i.kind)) {
            return Placement::KernelCode;
        }
        if info.is_some_and(|i| matches!(i.kind, OpKind::PlSystemSyncall | OpKind::PlSystemSetFfts))
        {
            return Placement::Forbidden(format!(
                "an orchestration is no block of a launch: {name} belongs in a kernel"
            ));
        }
        if info.is_some_and(|i| i.family == Family::Prefetch) {
            return Placement::Forbidden(format!(
                "an orchestration prefetches nothing: {name} belongs in an aiv or InCore kernel or scope"
            ));
        }
        if info.is_some_and(|i| is_tile_op(i.kind)) {
            return Placement::Forbidden(format!(
                "an orchestration computes no tiles: {name} belongs in an InCore kernel or scope"
            ));
        }
    }
    Placement::Allowed
}

/// Whether the `func.call` `op` calls a function of kind `inline`.
fn calls_inline_function(op: OperationRef) -> bool {
    op.attribute("callee")
        .ok()
        .and_then(super::common::attribute_text)
        .and_then(|callee| named_function(op, &callee))
        .and_then(function_kind)
        == Some(FunctionKind::Inline)
}

/// The func.func named `name` in the outermost op around `op`.
pub(super) fn named_function<'c, 'a>(
    op: OperationRef<'c, 'a>,
    name: &str,
) -> Option<OperationRef<'c, 'a>> {
    let mut top = op;
    while let Some(parent) = top.parent_operation() {
        top = parent;
    }
    crate::ir::find(top, |candidate| {
        op_name(candidate) == "func.func"
            && candidate
                .attribute("sym_name")
                .ok()
                .and_then(super::common::attribute_text)
                .is_some_and(|symbol| symbol == name)
    })
}

/// The inliner interface's rule: why `op`, with the ops it nests, may not
/// be spliced into a region of `dest_parent`, if it may not. The rules are
/// those of the function kind that region belongs to ([`placement`]);
/// inside a scope that holds kernel code, those of an InCore kernel, which
/// holds no scopes. Anything may go into a function without a kind or of
/// kind inline, opaque, group or spmd.
pub fn inline_refusal(op: OperationRef, dest_parent: OperationRef) -> Option<String> {
    let mut kind = None;
    let mut around = Some(dest_parent);
    while let Some(parent) = around {
        if crate::op_table::kind(&parent).is_some_and(holds_kernel_code) {
            kind = Some(FunctionKind::InCore);
            break;
        }
        if op_name(parent) == "func.func" {
            kind = function_kind(parent);
            break;
        }
        around = parent.parent_operation();
    }
    let mut refusal = None;
    op.walk(WalkOrder::PreOrder, |nested| {
        let scope = crate::op_table::kind(&nested).is_some_and(holds_kernel_code);
        match placement(kind, nested) {
            Placement::Forbidden(message) => refusal = Some(message),
            _ if scope && is_kernel(kind) => {
                refusal = Some(format!(
                    "a kernel holds no scopes, found {}",
                    op_name(nested)
                ))
            }
            Placement::KernelCode => return WalkResult::Skip,
            Placement::Allowed => {}
        }
        if refusal.is_some() {
            WalkResult::Interrupt
        } else {
            WalkResult::Advance
        }
    });
    refusal
}

/// A kernel's declared directions cover what it does with each tensor
/// (crate::access): an `in` parameter is not written; an `out` parameter
/// is not read, nor read-modify-written (atomic adds, notifies): that is
/// `inout`. Undeclared parameters are inferred by pl-convert-tensor-to-tile.
fn verify_directions<'c>(function: OperationRef<'c, '_>) -> VerifyResult<'c> {
    use melior::ir::{BlockLike, RegionLike};
    let Some(body) = function.region_opt(0).and_then(|r| r.first_block()) else {
        return Ok(());
    };
    for index in 0..body.argument_count() {
        let Some(declared) = crate::access::declared_direction(function, index) else {
            continue;
        };
        let argument: melior::ir::Value = body.argument(index).unwrap().into();
        let used = crate::access::access(function, argument);
        match (declared, used) {
            (ParamDirection::In, Some(ParamDirection::Out | ParamDirection::InOut)) => {
                return fail(format!(
                    "argument #{index} is 'in', but the kernel writes it: declare it out or inout"
                ));
            }
            (ParamDirection::Out, Some(ParamDirection::InOut | ParamDirection::In)) => {
                return fail(format!(
                    "argument #{index} is 'out', but the kernel reads it (or adds into it): declare it inout"
                ));
            }
            _ => {}
        }
    }
    Ok(())
}

/// Where an op executes, from its enclosing function (docs/pld-guide.md,
/// "Three levels": the path is a property of the function, not of the
/// operand types).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExecutionPath {
    /// A host orchestrator (`pl.level = host`, role orchestrator).
    Host,
    /// A chip orchestration.
    ChipOrchestration,
    /// An InCore kernel (incore, aic, aiv).
    InCore,
    /// A function without kind (before outlining) or outside any function.
    Unknown,
}

/// The execution path of the function enclosing `op`.
pub fn execution_path(op: OperationRef) -> ExecutionPath {
    let Some(function) = enclosing_function(op) else {
        return ExecutionPath::Unknown;
    };
    let level = enum_attr(function, "pl.level", 2, Level::from_code);
    let kind = function_kind(function);
    if level == Some(Level::Host) {
        ExecutionPath::Host
    } else if is_kernel(kind) {
        ExecutionPath::InCore
    } else if kind == Some(FunctionKind::Orchestration) {
        ExecutionPath::ChipOrchestration
    } else {
        ExecutionPath::Unknown
    }
}

/// Whether the body of a `kind` op is kernel code (until outlining): the
/// scopes that run on cores, not the runtime scope.
fn holds_kernel_code(kind: OpKind) -> bool {
    matches!(
        kind,
        OpKind::PlIncoreScope | OpKind::PlClusterScope | OpKind::PlSpmdScope
    )
}

/// Whether `kind` is a `pl.tile` op (computes on or queries tiles).
fn is_tile_op(kind: OpKind) -> bool {
    let info = kind.info();
    info.dialect == Dialect::Pl
        && match info.family {
            Family::TileUnary
            | Family::TileBinary
            | Family::TileScalar
            | Family::TileRowReduce
            | Family::TileColReduce
            | Family::TileRowExpand
            | Family::TileColExpand
            | Family::TileCompare
            | Family::TileSelect
            | Family::TileCast
            | Family::TileMatmul
            | Family::TileMove
            | Family::TileTransfer
            | Family::TileCreate
            | Family::TileView
            | Family::TileTranspose
            | Family::TileFillpad
            | Family::TileAccess
            | Family::TileAssemble
            | Family::TileGenerate
            | Family::TileSort
            | Family::TileGather
            | Family::TileGatherRow
            | Family::TileScatter
            | Family::TilePartial
            | Family::TileCarry
            | Family::TileConcat
            | Family::BlockQuery => true,
            Family::CoreBoundary => info.group == crate::op_table::Group::Tile,
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
            | Family::TensorAssemble
            | Family::TensorGenerate
            | Family::TensorSort
            | Family::TensorGather
            | Family::TensorGatherRow
            | Family::TensorScatter
            | Family::TensorPartial
            | Family::Task
            | Family::Prefetch
            | Family::CrossCore
            | Family::Array
            | Family::Sync
            | Family::MemoryOrder
            | Family::Scope
            | Family::Call
            | Family::Terminator
            | Family::Collective
            | Family::BuiltinCollective
            | Family::RankQuery
            | Family::Signal
            | Family::Window
            | Family::RemoteAccess
            | Family::RemoteTransfer => false,
        }
}

/// Whether the scope rules cover `kind`: the `pl` scopes.
pub fn handles(kind: OpKind) -> bool {
    let info = kind.info();
    info.family == Family::Scope && info.dialect == Dialect::Pl
}

/// The scopes (`pl.incore_scope`, `pl.cluster_scope`, `pl.spmd_scope`,
/// `pl.runtime_scope`): InCore scopes do not nest; no scope sits in a
/// kernel; a runtime scope sits in an orchestration.
pub fn verify_scope<'c>(op: OperationRef<'c, '_>, scope: OpKind) -> VerifyResult<'c> {
    if !handles(scope) {
        return Err(no_rule(scope, "functions"));
    }
    if scope == OpKind::PlIncoreScope {
        let mut current = op.parent_operation();
        while let Some(parent) = current {
            if crate::op_table::kind(&parent) == Some(OpKind::PlIncoreScope) {
                return fail("InCore scopes do not nest");
            }
            current = parent.parent_operation();
        }
    }
    let kind = enclosing_function(op).and_then(function_kind);
    if is_kernel(kind) {
        return fail(format!(
            "a {} sits in an opaque or orchestration function, not in a kernel",
            mnemonic(scope)
        ));
    }
    if scope == OpKind::PlRuntimeScope && kind.is_some_and(|k| k != FunctionKind::Orchestration) {
        return fail("a runtime scope sits in an orchestration");
    }
    verify_scope_yield(op)
}

/// A scope's results are what its body yields: one `pl.yield` ends the
/// body, with one operand of each result's type.
fn verify_scope_yield<'c>(op: OperationRef<'c, '_>) -> VerifyResult<'c> {
    use melior::ir::{BlockLike, RegionLike};
    let Some(body) = op.region_opt(0).and_then(|r| r.first_block()) else {
        return Ok(());
    };
    let terminator = body
        .terminator()
        .filter(|t| crate::op_table::kind(t) == Some(OpKind::PlYield));
    let yielded: Vec<Type> = terminator
        .map(|t| t.operands().map(|v| v.r#type()).collect())
        .unwrap_or_default();
    let results: Vec<Type> = op.results().map(|r| r.r#type()).collect();
    if terminator.is_none() && !results.is_empty() {
        return fail(format!(
            "the body must end in a pl.yield of the {} result(s)",
            results.len()
        ));
    }
    if yielded != results {
        let show = |types: &[Type]| {
            types
                .iter()
                .map(|t| t.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        };
        return fail(format!(
            "the body yields ({}), but the scope's results are ({})",
            show(&yielded),
            show(&results)
        ));
    }
    Ok(())
}

/// `pl.call` / `pl.submit`: the callee exists, is kernel-like and matches
/// (in a group: is one of its two halves); `pl.system.import_peer_buffer`:
/// the peer reserves the buffer.
pub fn verify_symbol_uses<'c>(op: OperationRef<'c, '_>) -> VerifyResult<'c> {
    if crate::op_table::kind(&op) == Some(OpKind::PlSystemImportPeerBuffer) {
        return super::cross_core::verify_peer(op);
    }
    if crate::op_table::kind(&op) == Some(OpKind::PlCall)
        && enclosing_function(op).and_then(function_kind) == Some(FunctionKind::Group)
    {
        super::cross_core::verify_group_call(op)?;
    }
    let callee_attr = op
        .attribute("callee")
        .map_err(|e| super::common::Failure::new(e.to_string()))?;
    let callee = super::common::attribute_text(callee_attr).unwrap_or_default();
    let candidate = named_function(op, &callee);
    let Some((callee_type, kind)) =
        candidate.and_then(|c| function_type(c).map(|t| (t, function_kind(c))))
    else {
        return fail(format!("'@{callee}' does not name a function"));
    };
    let caller = crate::op_table::kind(&op);
    let is_dispatch = caller == Some(OpKind::PldDispatch);
    if is_dispatch && kind != Some(FunctionKind::Orchestration) {
        return fail(format!(
            "runs chip orchestrations, but '@{callee}' is {}",
            kind.map_or("a function without pl.kind".to_string(), |k| format!("{k}"))
        ));
    }
    if !is_dispatch
        && !matches!(
            kind,
            Some(
                FunctionKind::InCore
                    | FunctionKind::Aic
                    | FunctionKind::Aiv
                    | FunctionKind::Group
                    | FunctionKind::Spmd
            )
        )
    {
        return fail(format!(
            "dispatches kernels (incore, aic, aiv, group, spmd), but '@{callee}' is {}",
            kind.map_or("a function without pl.kind".to_string(), |k| format!("{k}"))
        ));
    }
    let is_submit = caller == Some(OpKind::PlSubmit);
    let args: Vec<Type> = if is_submit {
        let segments = super::common::operand_segments(op);
        let (start, len) = segments.first().copied().unwrap_or((0, 0));
        (start..start + len)
            .filter_map(|i| op.operand_opt(i))
            .map(|v| v.r#type())
            .collect()
    } else {
        // pld.dispatch: the device index is the last operand.
        let count = op.operand_count() - usize::from(is_dispatch);
        (0..count)
            .filter_map(|i| op.operand_opt(i))
            .map(|v| v.r#type())
            .collect()
    };
    let result_count = op.result_count() - usize::from(is_submit);
    let results: Vec<Type> = (0..result_count)
        .filter_map(|i| op.result_opt(i))
        .map(|r| r.r#type())
        .collect();
    let expected_args: Vec<Type> = (0..callee_type.input_count())
        .filter_map(|i| callee_type.input(i).ok())
        .collect();
    let expected_results: Vec<Type> = (0..callee_type.result_count())
        .filter_map(|i| callee_type.result(i).ok())
        .collect();
    if args != expected_args || results != expected_results {
        return fail(format!(
            "operand and result types must match '@{callee}' : {callee_type}"
        ));
    }
    Ok(())
}

/// `pl.addresses` (set by pl-plan-memory): one byte address per result,
/// -1 for a result that is not an on-chip tile.
/// `pl.unroll` marks an `scf.for` that pl-unroll-loops expands (a unit
/// attribute; that its bounds are constants is pl-unroll-loops' rule, as
/// folding decides it).
fn verify_unroll<'c>(op: OperationRef<'c, '_>) -> VerifyResult<'c> {
    if op_name(op) != "scf.for" {
        return fail("'pl.unroll' applies to scf.for");
    }
    let unit = op
        .attribute("pl.unroll")
        .is_ok_and(|a| melior::ir::attribute::AttributeLike::is_unit(&a));
    if !unit {
        return fail("'pl.unroll' is a unit attribute");
    }
    Ok(())
}

/// `pl.buffer_set` (set by pl-double-buffer, consumed by pl-plan-memory)
/// marks the ops of copy k of an unrolled loop body: an integer k >= 0.
fn verify_buffer_set<'c>(op: OperationRef<'c, '_>) -> VerifyResult<'c> {
    let set = op
        .attribute("pl.buffer_set")
        .ok()
        .and_then(|a| melior::ir::attribute::IntegerAttribute::try_from(a).ok());
    if set.is_none_or(|set| set.value() < 0) {
        return fail("'pl.buffer_set' must be a non-negative integer");
    }
    Ok(())
}

fn verify_addresses<'c>(op: OperationRef<'c, '_>) -> VerifyResult<'c> {
    use melior::ir::attribute::DenseI64ArrayAttribute;
    let attribute = op
        .attribute("pl.addresses")
        .map_err(|e| super::common::Failure::new(e.to_string()))?;
    let Ok(addresses) = DenseI64ArrayAttribute::try_from(attribute) else {
        return fail(format!(
            "'pl.addresses' must be an array<i64>, got {attribute}"
        ));
    };
    if addresses.len() != op.result_count() {
        return fail(format!(
            "'pl.addresses' has {} entries for {} results",
            addresses.len(),
            op.result_count()
        ));
    }
    for i in 0..addresses.len() {
        let address = addresses.element(i).unwrap_or(-1);
        let result_type = op
            .result(i)
            .map_err(|e| super::common::Failure::new(e.to_string()))?
            .r#type();
        let on_chip = TileType::try_from(result_type)
            .is_ok_and(|t| t.memory_space().is_some_and(|s| s != MemorySpace::Ddr));
        if address < -1 || (address >= 0 && !on_chip) || (address == -1 && on_chip) {
            return fail(format!(
                "'pl.addresses' entry {i} is {address} for a result of type {result_type}: on-chip tiles take an address >= 0, other results -1"
            ));
        }
    }
    Ok(())
}

/// `pl.memory` (set by pl-plan-memory on a function): bytes per memory
/// space.
fn verify_memory<'c>(op: OperationRef<'c, '_>) -> VerifyResult<'c> {
    use melior::ir::attribute::{DictionaryAttribute, IntegerAttribute};
    if op_name(op) != "func.func" {
        return fail("'pl.memory' applies to func.func");
    }
    let attribute = op
        .attribute("pl.memory")
        .map_err(|e| super::common::Failure::new(e.to_string()))?;
    let Ok(dictionary) = DictionaryAttribute::try_from(attribute) else {
        return fail(format!(
            "'pl.memory' must be a dictionary of memory space to bytes, got {attribute}"
        ));
    };
    for i in 0..dictionary.len() {
        let (name, value) = dictionary
            .element(i)
            .map_err(|e| super::common::Failure::new(e.to_string()))?;
        let key = name
            .as_string_ref()
            .as_str()
            .unwrap_or_default()
            .to_string();
        let bytes = IntegerAttribute::try_from(value)
            .map(|v| v.value())
            .unwrap_or(-1);
        if MemorySpace::from_keyword(&key).is_none() || bytes < 0 {
            return fail(format!(
                "'pl.memory' entry '{key}' must name a memory space with a byte count >= 0"
            ));
        }
    }
    Ok(())
}
