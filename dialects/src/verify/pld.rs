//! Rules of the `pld` ops (their pages in docs/dialects/pld.md).
//!
//! The execution path of an op is its enclosing function's
//! (`functions::execution_path`): host orchestrator, chip orchestration,
//! InCore kernel, or unknown (not yet outlined). Rules per path:
//! - host only: world_size, alloc_window_buffer, comm_domain; never in a
//!   host orchestrator: rank, nranks, notify, wait, defer_wait, remote
//!   access;
//! - signals are i32; InCore collectives need a mesh signal `[NR, 1]` (ring
//!   allreduce `[2*(NR-1), NR]`), host builtins a rank-1 signal (allgather,
//!   all_to_all also `[W, 1]`); host collectives move f32 only;
//! - allreduce: f16/f32, cores > 0 (1 outside the host), a signal outside
//!   the host and for ring; reduce_scatter: sum only; broadcast root >= 0;
//!   allgather / all_to_all: distinct input and target, `[1, SIZE]` /
//!   `[NR, SIZE]` shapes, one element type, signal rows = ranks;
//! - notify / wait / defer_wait: one offset per signal dimension;
//!   defer_wait: i32 signal, `ge`, expected >= 0;
//! - remote load / store: one offset per target dimension, element types
//!   agree, constant windows inside the target; stores push a 2-D extent
//!   (leading dims 1) into a target of rank >= 2; atomic add on f32, bf16,
//!   f16, i32, i16, i8;
//! - window buffers: a non-empty name unique in the program, a positive
//!   constant size; comm domains: sorted distinct devices, named slots.

use crate::ops::Checked;
use melior::ir::{
    Type, Value, ValueLike,
    attribute::{ArrayAttribute, DenseI64ArrayAttribute},
    operation::{OperationLike, OperationRef, WalkOrder, WalkResult},
    r#type::ShapedTypeLike,
};

use super::{
    VerifyResult,
    common::{
        Failure, attribute_text, constant_operands, deciding_constant, fail, no_rule,
        operand_segments, operand_type, render_dims, require_dtype, result_type, window_leaves,
    },
    functions::{ExecutionPath, execution_path},
    system::int_attr,
};
use crate::ops::op_name;
use crate::{
    dtype::Dtype,
    enums::{AllreduceMode, AtomicType, EnumAttr, ReduceOp, WaitCmp},
    op_table::{Family, OpKind},
    types::{DistributedTensorType, MemorySpace, TensorType, TileType},
};

fn dtensor<'c>(r#type: Type<'c>) -> Result<DistributedTensorType<'c>, Failure<'c>> {
    DistributedTensorType::try_from(r#type).map_err(|e| Failure::new(e.to_string()))
}

fn dtype_of(r#type: Type) -> Dtype {
    Dtype::of(r#type).unwrap_or(Dtype::Bool)
}

/// Where a pld op may run.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Placement {
    /// Only in a host orchestrator.
    Host,
    /// Anywhere but a host orchestrator (InCore operations).
    NotHost,
    /// Anywhere.
    Anywhere,
}

fn placement(kind: OpKind) -> Placement {
    match kind {
        OpKind::PldSystemWorldSize
        | OpKind::PldTensorAllocWindowBuffer
        | OpKind::PldCommDomain
        | OpKind::PldDispatch => Placement::Host,
        OpKind::PldSystemRank | OpKind::PldSystemNranks => Placement::NotHost,
        _ => match kind.family() {
            Family::BuiltinCollective => Placement::Host,
            Family::Signal | Family::RemoteAccess | Family::RemoteTransfer => Placement::NotHost,
            _ => Placement::Anywhere,
        },
    }
}

/// The rules of one pld kind, given the op's execution path.
type PldCheck = for<'c, 'a> fn(OperationRef<'c, 'a>, OpKind, ExecutionPath) -> VerifyResult<'c>;

fn rule(kind: OpKind) -> Option<PldCheck> {
    if kind.family() == Family::BuiltinCollective {
        let check: PldCheck = |op, kind, _| verify_builtin(op, kind);
        return Some(check);
    }
    let check: PldCheck = match kind {
        // Where they run is their whole rule.
        OpKind::PldSystemWorldSize
        | OpKind::PldSystemRank
        | OpKind::PldSystemNranks
        | OpKind::PldDispatch => |_, _, _| Ok(()),
        OpKind::PldSystemNotify => |op, _, _| verify_signal_offsets(op, "target", 2),
        OpKind::PldSystemWait => |op, _, _| verify_signal_offsets(op, "signal", 1),
        OpKind::PldSystemDeferWait => |op, _, _| verify_defer_wait(op),
        OpKind::PldTensorAllocWindowBuffer => |op, _, _| verify_alloc(op),
        OpKind::PldTensorWindow => |op, _, _| verify_window(op),
        OpKind::PldTileRemoteLoad => |op, _, _| verify_remote_load(op),
        OpKind::PldTileRemoteStore | OpKind::PldTensorRemoteStore => {
            |op, kind, _| verify_remote_store(op, kind == OpKind::PldTileRemoteStore)
        }
        OpKind::PldTensorAllreduce => |op, _, path| verify_allreduce(op, path),
        OpKind::PldTensorBarrier => verify_barrier,
        OpKind::PldTensorBroadcast => verify_broadcast,
        OpKind::PldTensorAllgather | OpKind::PldTensorAllToAll => {
            |op, kind, path| verify_exchange(op, kind == OpKind::PldTensorAllgather, path)
        }
        OpKind::PldTensorReduceScatter => verify_reduce_scatter,
        OpKind::PldCommDomain => |op, _, _| verify_comm_domain(op),
        OpKind::PldTensorPut | OpKind::PldTensorGet => |op, kind, _| {
            verify_transfer(op, kind == OpKind::PldTensorPut, TransferForm::Tensor).map(|_| ())
        },
        OpKind::PldTilePut | OpKind::PldTileGet => {
            |op, kind, _| verify_tile_transfer(op, kind == OpKind::PldTilePut)
        }
        OpKind::PldTensorAllToAllV => |op, _, path| {
            if path == ExecutionPath::Host && inside_loop(op) {
                return fail("is not allowed inside a host loop");
            }
            verify_all_to_all_v(op, path)
        },
        _ => return None,
    };
    Some(check)
}

/// Whether the pld rules cover `kind`.
pub fn handles(kind: OpKind) -> bool {
    rule(kind).is_some()
}

/// Runs the rules of a pld op: where it may run, then its own.
pub fn verify<'c>(op: OperationRef<'c, '_>, kind: OpKind) -> VerifyResult<'c> {
    let Some(check) = rule(kind) else {
        return Err(no_rule(kind, "pld"));
    };
    let path = execution_path(op);
    match placement(kind) {
        Placement::Host if path != ExecutionPath::Host => {
            return fail("can only be used in a host orchestrator (pl.level = #pl.level<host>)");
        }
        Placement::NotHost if path == ExecutionPath::Host => {
            return fail("is an InCore operation; a host orchestrator cannot use it");
        }
        _ => {}
    }
    check(op, kind, path)
}

fn verify_barrier<'c>(
    op: OperationRef<'c, '_>,
    _kind: OpKind,
    path: ExecutionPath,
) -> VerifyResult<'c> {
    let signal = dtensor(operand_type(op, 0)?)?;
    require_signal(signal, path, HostSignal::RankOne)
}

fn verify_broadcast<'c>(
    op: OperationRef<'c, '_>,
    _kind: OpKind,
    path: ExecutionPath,
) -> VerifyResult<'c> {
    let target = dtensor(operand_type(op, 0)?)?;
    let signal = dtensor(operand_type(op, 1)?)?;
    let root = int_attr(op, "root").unwrap_or(-1);
    if root < 0 {
        return fail("root must be >= 0");
    }
    // A mesh signal [NR, 1] with a static NR fixes the rank count.
    if path != ExecutionPath::Host
        && let Some(&Some(ranks)) = signal.shape().first()
        && root >= ranks
    {
        return fail(format!(
            "root {root} is not a rank: the signal {signal} has {ranks}"
        ));
    }
    require_host_f32(target, path)?;
    require_signal(signal, path, HostSignal::RankOne)
}

fn verify_reduce_scatter<'c>(
    op: OperationRef<'c, '_>,
    _kind: OpKind,
    path: ExecutionPath,
) -> VerifyResult<'c> {
    let target = dtensor(operand_type(op, 0)?)?;
    let signal = dtensor(operand_type(op, 1)?)?;
    if target.rank() != 2 {
        return fail(format!("target must be [NR, SIZE], got {target}"));
    }
    if op.enum_attr::<ReduceOp>("op") != Some(ReduceOp::Sum) {
        return fail("only sum is supported (max, min and prod lowerings are not implemented)");
    }
    require_host_f32(target, path)?;
    require_signal(signal, path, HostSignal::RankOne)
}

/// `pld.system.notify` / `pld.system.wait`: one offset per dimension of the
/// signal ("offsets rank (k) must match target tensor rank (n)").
fn verify_signal_offsets<'c>(
    op: OperationRef<'c, '_>,
    what: &str,
    scalars: usize,
) -> VerifyResult<'c> {
    let signal = dtensor(operand_type(op, 0)?)?;
    let offsets = op.operand_count() - 1 - scalars;
    if offsets != signal.rank() {
        return fail(format!(
            "offsets rank ({offsets}) must match {what} tensor rank ({})",
            signal.rank()
        ));
    }
    Ok(())
}

fn verify_defer_wait<'c>(op: OperationRef<'c, '_>) -> VerifyResult<'c> {
    verify_signal_offsets(op, "signal", 1)?;
    let signal = dtensor(operand_type(op, 0)?)?;
    if dtype_of(signal.element()) != Dtype::I32 {
        return fail(format!(
            "signal dtype must be i32, got {}",
            signal.element()
        ));
    }
    if op.enum_attr::<WaitCmp>("cmp") != Some(WaitCmp::Ge) {
        return fail("only supports ge");
    }
    let expected = op
        .operand(op.operand_count() - 1)
        .ok()
        .and_then(deciding_constant);
    if let Some(value) = expected
        && value < 0
    {
        return fail(format!(
            "a constant expected value must be in [0, 2^31), got {value}"
        ));
    }
    Ok(())
}

fn verify_alloc<'c>(op: OperationRef<'c, '_>) -> VerifyResult<'c> {
    let name = op
        .attribute("name")
        .ok()
        .and_then(attribute_text)
        .unwrap_or_default();
    if name.is_empty() {
        return fail("requires a non-empty name");
    }
    if let Some(size) = op.operand_opt(0).and_then(deciding_constant)
        && size <= 0
    {
        return fail(format!("size must be positive, got {size}"));
    }
    let mut top = op;
    while let Some(parent) = top.parent_operation() {
        top = parent;
    }
    // Report the second declaration: look for the name before reaching `op`.
    let me = op.to_raw().ptr;
    let mut duplicate = false;
    top.walk(WalkOrder::PreOrder, |other| {
        if other.to_raw().ptr == me {
            return WalkResult::Interrupt;
        }
        if crate::op_table::kind(&other) == Some(OpKind::PldTensorAllocWindowBuffer)
            && other
                .attribute("name")
                .ok()
                .and_then(attribute_text)
                .is_some_and(|other_name| other_name == name)
        {
            duplicate = true;
            return WalkResult::Interrupt;
        }
        WalkResult::Advance
    });
    if duplicate {
        return fail(format!(
            "window buffer name '{name}' is already declared in the program"
        ));
    }
    Ok(())
}

fn verify_window<'c>(op: OperationRef<'c, '_>) -> VerifyResult<'c> {
    let view = dtensor(result_type(op, 0)?)?;
    let dynamic = view.shape().iter().filter(|d| d.is_none()).count();
    let sizes = op.operand_count() - 1;
    if sizes == 0 && dynamic > 1 {
        return fail(format!(
            "a view with {dynamic} dynamic dimensions needs sizes(...) for them (only one can be inferred from the buffer)"
        ));
    }
    if sizes > 0 && sizes != dynamic {
        return fail(format!(
            "sizes(...) must give one value per dynamic dimension ({dynamic}), got {sizes}"
        ));
    }
    Ok(())
}

fn verify_remote_load<'c>(op: OperationRef<'c, '_>) -> VerifyResult<'c> {
    let target = dtensor(operand_type(op, 0)?)?;
    let tile = TileType::try_from(result_type(op, 0)?).map_err(|e| Failure::new(e.to_string()))?;
    let segments = operand_segments(op);
    let (start, offsets) = segments.get(1).copied().unwrap_or((1, 0));
    let valid_count = segments.get(3).map_or(0, |s| s.1);
    if offsets != target.rank() || tile.rank() != target.rank() {
        return fail(format!(
            "needs the target's rank ({}) of offsets and tile dimensions",
            target.rank()
        ));
    }
    if tile.element() != target.element() {
        return fail(format!(
            "the tile must have the target's element type {}, got {}",
            target.element(),
            tile.element()
        ));
    }
    if matches!(
        dtype_of(target.element()),
        Dtype::Bool | Dtype::I4 | Dtype::U4 | Dtype::F4 | Dtype::Hf4
    ) {
        return fail(format!(
            "only byte-sized element types can be read remotely, got {}",
            target.element()
        ));
    }
    let valid = tile.effective_view().valid_shape;
    let dynamic = valid.iter().filter(|d| d.is_none()).count();
    if valid_count != dynamic {
        return fail(format!(
            "needs one valid(...) operand per dynamic valid extent ({dynamic}), got {valid_count}"
        ));
    }
    let mut bounds = target.shape();
    if op.attribute("tail_padding").is_ok() {
        let full: Vec<Option<i64>> = tile.shape().iter().map(|d| Some(*d)).collect();
        if dtype_of(target.element()) != Dtype::F16 || target.rank() != 2 || valid == full {
            return fail("tail_padding needs an f16, rank-2 target and explicit valid extents");
        }
        // The 32-byte slot rounding leaves up to 15 f16 elements of room.
        if let Some(width) = bounds[1].as_mut() {
            *width += 15;
        }
    }
    let offsets = constant_operands(op, start, offsets);
    if let Some(i) = window_leaves(&offsets, &valid, &bounds) {
        return fail(format!(
            "the read leaves the target in dimension {i} (reads do not clamp; pass a smaller valid shape)"
        ));
    }
    Ok(())
}

fn verify_remote_store<'c>(op: OperationRef<'c, '_>, tile_form: bool) -> VerifyResult<'c> {
    let source_type = operand_type(op, 0)?;
    let target = dtensor(operand_type(op, 1)?)?;
    let (element, extent): (Type, Vec<Option<i64>>) = if tile_form {
        let tile = TileType::try_from(source_type).map_err(|e| Failure::new(e.to_string()))?;
        if let Some(space) = tile.memory_space()
            && !matches!(space, MemorySpace::Vec | MemorySpace::Acc)
        {
            return fail(format!(
                "the source tile must be in 'vec' or 'acc', got '{space}'"
            ));
        }
        (tile.element(), tile.effective_view().valid_shape)
    } else {
        let tensor = TensorType::try_from(source_type).map_err(|e| Failure::new(e.to_string()))?;
        (tensor.element(), tensor.shape())
    };
    if element != target.element() {
        return fail(format!(
            "source and target element types differ: {element} and {}",
            target.element()
        ));
    }
    if target.rank() < 2 {
        return fail("target rank must be >= 2 to hold a 2-D push");
    }
    if extent.len() < 2 {
        return fail("the pushed extent must have rank 2 or more");
    }
    if let Some(i) = extent[..extent.len() - 2]
        .iter()
        .position(|d| matches!(d, Some(d) if *d != 1))
    {
        return fail(format!("source leading dimension {i} must be 1"));
    }
    let offsets = constant_operands(op, 2, op.operand_count() - 3);
    if offsets.len() != target.rank() {
        return fail(format!(
            "offsets rank ({}) must match target tensor rank ({})",
            offsets.len(),
            target.rank()
        ));
    }
    // Leading dims push one slab; the last two push the 2-D extent.
    let mut pushed = vec![Some(1); target.rank()];
    let n = target.rank();
    pushed[n - 2] = extent[extent.len() - 2];
    pushed[n - 1] = extent[extent.len() - 1];
    if let Some(i) = window_leaves(&offsets, &pushed, &target.shape()) {
        return fail(format!(
            "push exceeds the peer's target region in dimension {i}"
        ));
    }
    if op.enum_attr::<AtomicType>("atomic") == Some(AtomicType::Add) {
        require_dtype(
            "an atomic add: the source",
            dtype_of(element),
            super::common::ATOMIC_ADD_DTYPES,
        )?;
    }
    Ok(())
}

/// The signal shape a host builtin accepts.
#[derive(Clone, Copy, PartialEq, Eq)]
enum HostSignal {
    /// `[W]` only.
    RankOne,
    /// `[W]` or `[W, 1]`.
    RankOneOrColumn,
}

/// An i32 signal of the path's shape: `[NR, 1]` on the InCore path, the
/// builtin's shape in a host orchestrator.
fn require_signal<'c>(
    signal: DistributedTensorType,
    path: ExecutionPath,
    host: HostSignal,
) -> VerifyResult<'c> {
    if dtype_of(signal.element()) != Dtype::I32 {
        return fail(format!("signal must be i32, got {}", signal.element()));
    }
    let shape = signal.shape();
    if path == ExecutionPath::Host {
        let ok = shape.len() == 1
            || (host == HostSignal::RankOneOrColumn && shape.len() == 2 && shape[1] == Some(1));
        if !ok {
            let wanted = if host == HostSignal::RankOne {
                "rank-1 [W]"
            } else {
                "[W] or [W, 1]"
            };
            return fail(format!(
                "a host builtin signal must be {wanted}, got {signal}"
            ));
        }
        return Ok(());
    }
    require_mesh_signal(signal)
}

fn require_mesh_signal<'c>(signal: DistributedTensorType) -> VerifyResult<'c> {
    let shape = signal.shape();
    if shape.len() != 2 {
        return fail(format!("signal must be 2D [NR, 1], got {signal}"));
    }
    if shape[1] != Some(1) {
        return fail(format!(
            "signal dim 1 must be the constant 1, got {signal} (a mesh signal; a ring-shaped signal cannot be shared with mesh collectives)"
        ));
    }
    Ok(())
}

fn require_host_f32<'c>(target: DistributedTensorType, path: ExecutionPath) -> VerifyResult<'c> {
    if path == ExecutionPath::Host && dtype_of(target.element()) != Dtype::F32 {
        return fail(format!(
            "host builtin collectives support f32 only, got {}",
            target.element()
        ));
    }
    Ok(())
}

fn verify_allreduce<'c>(op: OperationRef<'c, '_>, path: ExecutionPath) -> VerifyResult<'c> {
    let target = dtensor(operand_type(op, 0)?)?;
    if !matches!(dtype_of(target.element()), Dtype::F16 | Dtype::F32) {
        return fail(format!(
            "target dtype must be f16 or f32, got {}",
            target.element()
        ));
    }
    let cores = int_attr(op, "cores").unwrap_or(0);
    if cores <= 0 {
        return fail(format!("cores must be > 0, got {cores}"));
    }
    let ring = op.enum_attr::<AllreduceMode>("mode") == Some(AllreduceMode::Ring);
    let signal = if op.operand_count() > 1 {
        Some(dtensor(operand_type(op, 1)?)?)
    } else {
        None
    };
    if path != ExecutionPath::Host {
        if signal.is_none() {
            return fail("requires an explicit signal outside host orchestrator functions");
        }
        if cores != 1 {
            return fail("cores > 1 is supported only in a host orchestrator; use pl.spmd_scope");
        }
    } else if signal.is_none() && ring {
        return fail(
            "ring mode requires an explicit signal; host signal synthesis only supports mesh",
        );
    }
    let Some(signal) = signal else { return Ok(()) };
    if dtype_of(signal.element()) != Dtype::I32 {
        return fail(format!("signal must be i32, got {}", signal.element()));
    }
    let shape = signal.shape();
    if path == ExecutionPath::Host {
        if !ring && shape.len() == 1 && cores != 1 {
            return fail("a rank-1 host signal serves cores 1 only; use [W, cores]");
        }
        if !ring && shape.len() == 2 && matches!(shape[1], Some(lanes) if lanes < cores) {
            return fail(format!(
                "a host signal [W, lanes] needs lanes >= cores ({cores}), got {signal}"
            ));
        }
        return Ok(());
    }
    if ring {
        if shape.len() != 2 {
            return fail(format!(
                "a ring signal must be 2D [2*(NR-1), NR], got {signal}"
            ));
        }
        if shape[1] == Some(1) {
            return fail(format!(
                "a ring signal must be [2*(NR-1), NR] for NR >= 2, got {signal} (a [NR, 1] signal is a mesh signal)"
            ));
        }
        if let (Some(rows), Some(ranks)) = (shape[0], shape[1])
            && Some(rows) != ranks.checked_sub(1).and_then(|r| r.checked_mul(2))
        {
            return fail(format!(
                "a ring signal must be [2*(NR-1), NR], got {}",
                render_dims(&shape)
            ));
        }
        return Ok(());
    }
    require_mesh_signal(signal)
}

/// `allgather` (`input` [1, SIZE]) and `all_to_all` (`input` [NR, SIZE]).
fn verify_exchange<'c>(
    op: OperationRef<'c, '_>,
    gather: bool,
    path: ExecutionPath,
) -> VerifyResult<'c> {
    let input: Value = op.operand(0).map_err(|e| Failure::new(e.to_string()))?;
    let target_value: Value = op.operand(1).map_err(|e| Failure::new(e.to_string()))?;
    if input == target_value {
        return fail("input and target must be different buffers");
    }
    let input_type = input.r#type();
    let input_is_window = DistributedTensorType::try_from(input_type).is_ok();
    let input_shape = match (
        TensorType::try_from(input_type),
        DistributedTensorType::try_from(input_type),
    ) {
        (Ok(t), _) => t.shape(),
        (_, Ok(t)) => t.shape(),
        _ => return fail("input must be a tensor"),
    };
    let target = dtensor(target_value.r#type())?;
    let signal = dtensor(operand_type(op, 2)?)?;
    let target_shape = target.shape();
    if input_shape.len() != 2 || target_shape.len() != 2 {
        return fail(format!(
            "input and target must be 2-D, got {input_type} and {target}"
        ));
    }
    if gather && matches!(input_shape[0], Some(d) if d != 1) {
        return fail(format!(
            "input must be [1, SIZE] (this rank's single chunk), got {input_type}"
        ));
    }
    if !gather && matches!((input_shape[0], target_shape[0]), (Some(a), Some(b)) if a != b) {
        return fail(format!(
            "input and target must have one row count, got {input_type} and {target}"
        ));
    }
    if matches!((input_shape[1], target_shape[1]), (Some(a), Some(b)) if a != b) {
        return fail(format!(
            "input and target must have one row size, got {input_type} and {target}"
        ));
    }
    let input_element = TensorType::try_from(input_type)
        .map(|t| t.element())
        .or_else(|_| DistributedTensorType::try_from(input_type).map(|t| t.element()))
        .map_err(|e| Failure::new(e.to_string()))?;
    if input_element != target.element() {
        return fail(format!(
            "input and target must have one element type, got {input_element} and {}",
            target.element()
        ));
    }
    let rows = if gather {
        target_shape[0]
    } else {
        input_shape[0]
    };
    if matches!((signal.shape()[0], rows), (Some(a), Some(b)) if a != b) {
        return fail(format!(
            "signal rows must equal the rank count, got {signal}"
        ));
    }
    match path {
        ExecutionPath::Host => {
            if !input_is_window {
                return fail("input must be a window-bound pld.dtensor in a host orchestrator");
            }
            require_host_f32(target, path)?;
            require_signal(signal, path, HostSignal::RankOneOrColumn)
        }
        _ => {
            if input_is_window {
                return fail("input must be a plain pl.tensor on the InCore path");
            }
            require_signal(signal, path, HostSignal::RankOneOrColumn)
        }
    }
}

fn verify_comm_domain<'c>(op: OperationRef<'c, '_>) -> VerifyResult<'c> {
    let devices = op
        .attribute("devices")
        .ok()
        .and_then(|a| DenseI64ArrayAttribute::try_from(a).ok());
    if let Some(devices) = devices {
        let values: Vec<i64> = (0..devices.len())
            .filter_map(|i| devices.element(i).ok())
            .collect();
        if values.iter().any(|d| *d < 0) || values.windows(2).any(|w| w[0] >= w[1]) {
            return fail(format!(
                "devices must be sorted, distinct worker indices, got {values:?}"
            ));
        }
    }
    if let Some(slots) = op
        .attribute("slots")
        .ok()
        .and_then(|a| ArrayAttribute::try_from(a).ok())
    {
        for i in 0..slots.len() {
            let name = slots.element(i).ok().and_then(attribute_text);
            if name.is_none_or(|n| n.is_empty()) {
                return fail("slots must be the names of window buffers");
            }
        }
    }
    Ok(())
}

/// The shape of a tensor-like type (`pl.tensor` or `pld.dtensor`).
fn tensor_like_shape(r#type: Type) -> Option<(Vec<Option<i64>>, Type)> {
    if let Ok(t) = TensorType::try_from(r#type) {
        return Some((t.shape(), t.element()));
    }
    DistributedTensorType::try_from(r#type)
        .ok()
        .map(|t| (t.shape(), t.element()))
}

/// Which form of put/get: where its region operands start, and whether the
/// chunk attributes apply (the tile form chunks by its stage tiles).
#[derive(Clone, Copy, PartialEq, Eq)]
enum TransferForm {
    Tensor,
    Tile,
}

/// Checks a put/get and returns its transfer shape.
fn verify_transfer<'c>(
    op: OperationRef<'c, '_>,
    put: bool,
    form: TransferForm,
) -> Result<Vec<Option<i64>>, Failure<'c>> {
    let (dst_shape, dst_element) = tensor_like_shape(operand_type(op, 0)?)
        .ok_or_else(|| Failure::new("dst must be a tensor"))?;
    let (src_shape, src_element) = tensor_like_shape(operand_type(op, 2)?)
        .ok_or_else(|| Failure::new("src must be a tensor"))?;
    if dst_element != src_element {
        return fail(format!(
            "dst and src element types differ: {dst_element} and {src_element}"
        ));
    }
    if dst_shape.is_empty() || src_shape.is_empty() {
        return fail("transfers need tensors of rank >= 1");
    }
    let segments = operand_segments(op);
    let segment = |i: usize| segments.get(i).copied().unwrap_or((0, 0));
    let base = if form == TransferForm::Tile { 5 } else { 3 };
    let (dst_offsets, src_offsets, shape) = (segment(base), segment(base + 1), segment(base + 2));
    let transfer: Vec<Option<i64>> = if dst_offsets.1 == 0 && src_offsets.1 == 0 && shape.1 == 0 {
        // Full slice: one shape on both sides.
        if dst_shape.len() != src_shape.len() {
            return fail("full-slice dst and src must have the same rank");
        }
        for (i, (d, s)) in dst_shape.iter().zip(&src_shape).enumerate() {
            if let (Some(d), Some(s)) = (d, s)
                && d != s
            {
                return fail(format!(
                    "full-slice dst and src must have the same shape; dimension {i} is {d} and {s}"
                ));
            }
        }
        dst_shape.clone()
    } else {
        // One transfer shape applies to both sides.
        if dst_shape.len() != src_shape.len() {
            return fail(format!(
                "a region transfer needs dst and src of one rank, got {} and {}",
                dst_shape.len(),
                src_shape.len()
            ));
        }
        if dst_offsets.1 != dst_shape.len()
            || shape.1 != dst_shape.len()
            || src_offsets.1 != src_shape.len()
        {
            return fail(format!(
                "region needs {} dst offsets, {} src offsets and {} extents, got {}, {} and {}",
                dst_shape.len(),
                src_shape.len(),
                dst_shape.len(),
                dst_offsets.1,
                src_offsets.1,
                shape.1
            ));
        }
        let extents = constant_operands(op, shape.0, shape.1);
        if let Some(i) = extents
            .iter()
            .position(|e| matches!(e, Some(e) if *e <= 0))
            .filter(|_| super::common::constants_decide())
        {
            return fail(format!("transfer extent {i} must be positive"));
        }
        let dst_off = constant_operands(op, dst_offsets.0, dst_offsets.1);
        if let Some(i) = window_leaves(&dst_off, &extents, &dst_shape) {
            return fail(format!("dst subregion dimension {i} exceeds dst shape"));
        }
        if src_shape.len() == dst_shape.len() {
            let src_off = constant_operands(op, src_offsets.0, src_offsets.1);
            if let Some(i) = window_leaves(&src_off, &extents, &src_shape) {
                return fail(format!("src subregion dimension {i} exceeds src shape"));
            }
        }
        extents
    };
    if put && op.enum_attr::<AtomicType>("atomic") == Some(AtomicType::Add) {
        require_dtype(
            "an atomic add",
            dtype_of(dst_element),
            super::common::ATOMIC_ADD_DTYPES,
        )?;
    }
    if form == TransferForm::Tile {
        return Ok(transfer);
    }
    let (rows, cols) = (
        int_attr(op, "chunk_rows").unwrap_or(0),
        int_attr(op, "chunk_cols").unwrap_or(0),
    );
    if rows < 0 || cols < 0 {
        return fail("chunk_rows and chunk_cols must be non-negative (0 = full)");
    }
    if op.attribute("pipeline").is_ok() && (rows == 0 || cols == 0) {
        return fail("pipeline requires both chunk_rows > 0 and chunk_cols > 0");
    }
    let last = transfer.len() - 1;
    if transfer[..last].iter().any(Option::is_none) && rows == 0 {
        return fail("a dynamic leading transfer dim needs a static chunk_rows");
    }
    if transfer[last].is_none() && cols == 0 {
        return fail("a dynamic innermost transfer dim needs a static chunk_cols");
    }
    Ok(transfer)
}

/// The tile form: the transfer rules plus the stage tiles'.
fn verify_tile_transfer<'c>(op: OperationRef<'c, '_>, put: bool) -> VerifyResult<'c> {
    let transfer = verify_transfer(op, put, TransferForm::Tile)?;
    let segments = operand_segments(op);
    let stage =
        TileType::try_from(operand_type(op, 3)?).map_err(|e| Failure::new(e.to_string()))?;
    let (_, dst_element) = tensor_like_shape(operand_type(op, 0)?)
        .ok_or_else(|| Failure::new("dst must be a tensor"))?;
    if stage.rank() != 2 || stage.element() != dst_element {
        return fail(format!(
            "stage must be a 2-D tile of the destination's element type {dst_element}, got {stage}"
        ));
    }
    if segments.get(4).is_some_and(|s| s.1 == 1) {
        let second =
            TileType::try_from(operand_type(op, 4)?).map_err(|e| Failure::new(e.to_string()))?;
        if second.shape() != stage.shape() || second.element() != stage.element() {
            return fail(format!(
                "the second stage must match the first, got {stage} and {second}"
            ));
        }
    }
    // Flatten the transfer to [rows, cols].
    let last = transfer.len() - 1;
    let rows = transfer[..last]
        .iter()
        .copied()
        .try_fold(1i64, |acc, d| d.and_then(|d| acc.checked_mul(d)));
    let stage_shape = stage.shape();
    // The transfer's extents are operands: constants decide these.
    if !super::common::constants_decide() {
        return Ok(());
    }
    if let Some(rows) = rows
        && stage_shape[0] > rows
    {
        return fail(format!(
            "stage rows ({}) exceed the transfer rows ({rows})",
            stage_shape[0]
        ));
    }
    if let Some(cols) = transfer[last]
        && stage_shape[1] > cols
    {
        return fail(format!(
            "stage cols ({}) exceed the transfer cols ({cols})",
            stage_shape[1]
        ));
    }
    Ok(())
}

/// Whether `op` sits in an scf loop other than the `scf.for` whose
/// induction variable is its device operand (the last one).
fn inside_loop_beyond_device(op: OperationRef) -> bool {
    let device = op.operand(op.operand_count().saturating_sub(1)).ok();
    let mut current = op.parent_operation();
    while let Some(parent) = current {
        if matches!(op_name(parent), "scf.for" | "scf.while" | "scf.parallel") {
            use melior::ir::{BlockLike, RegionLike};
            let is_device_loop = op_name(parent) == "scf.for"
                && parent
                    .region_opt(0)
                    .and_then(|r| r.first_block())
                    .and_then(|b| {
                        (b.argument_count() > 0).then(|| b.argument(0).expect("in range"))
                    })
                    .is_some_and(|iv| device.is_some_and(|d| d == Value::from(iv)));
            if !is_device_loop {
                return true;
            }
        }
        current = parent.parent_operation();
    }
    false
}

/// Whether `op` sits in an scf loop.
fn inside_loop(op: OperationRef) -> bool {
    let mut current = op.parent_operation();
    while let Some(parent) = current {
        if matches!(op_name(parent), "scf.for" | "scf.while" | "scf.parallel") {
            return true;
        }
        current = parent.parent_operation();
    }
    false
}

/// The host builtin collectives (`pld.builtin.*`).
fn verify_builtin<'c>(op: OperationRef<'c, '_>, kind: OpKind) -> VerifyResult<'c> {
    // allgather and the all-to-alls take their data as operand 1 (after the
    // input) and their signal as operand 2.
    let exchanges = matches!(
        kind,
        OpKind::PldBuiltinAllgather | OpKind::PldBuiltinAllToAll | OpKind::PldBuiltinAllToAllV
    );
    if kind == OpKind::PldBuiltinAllToAllV {
        // Its own loop over the devices (the one pld-lower-distributed
        // builds, whose induction variable is the device) is not a host
        // loop; any loop around that is.
        if inside_loop_beyond_device(op) {
            return fail("is not allowed inside a host loop");
        }
        let values: Vec<Value> = (0..5.min(op.operand_count()))
            .filter_map(|i| op.operand_opt(i))
            .collect();
        for i in 0..values.len() {
            for j in i + 1..values.len() {
                if values[i] == values[j] {
                    return fail("the five windows must be pairwise distinct");
                }
            }
        }
        verify_all_to_all_v(op, ExecutionPath::Host)?;
    }
    use melior::ir::attribute::TypeAttribute;
    let tensors = op.operand_count() - 1;
    let directions = op
        .attribute("directions")
        .ok()
        .and_then(|a| ArrayAttribute::try_from(a).ok());
    let all_directions = directions.is_some_and(|d| {
        d.len() == tensors
            && (0..d.len()).all(|i| {
                d.element(i)
                    .ok()
                    .and_then(crate::attrs::read)
                    .is_some_and(|a| matches!(a, crate::attrs::FunctionAttr::Direction(_)))
            })
    });
    if !all_directions {
        return fail(format!(
            "directions must list one #pl.direction per tensor operand ({tensors})"
        ));
    }
    let first = dtensor(operand_type(op, 0)?)?;
    if let Some(dtype) = op
        .attribute("dtype")
        .ok()
        .and_then(|a| TypeAttribute::try_from(a).ok())
    {
        let data = if exchanges {
            dtensor(operand_type(op, 1)?)?
        } else {
            first
        };
        if dtype.value() != data.element() {
            return fail(format!(
                "dtype {} must be the data's element type {}",
                dtype.value(),
                data.element()
            ));
        }
    }
    let signal_index = if kind == OpKind::PldBuiltinBarrier {
        0
    } else if exchanges {
        2
    } else {
        1
    };
    let signal = dtensor(operand_type(op, signal_index)?)?;
    if dtype_of(signal.element()) != Dtype::I32 {
        return fail(format!("signal must be i32, got {}", signal.element()));
    }
    let shape = signal.shape();
    let sum_f32 = |data: DistributedTensorType| -> VerifyResult<'c> {
        if op
            .enum_attr::<ReduceOp>("op")
            .is_some_and(|o| o != ReduceOp::Sum)
        {
            return fail("supports sum only");
        }
        if dtype_of(data.element()) != Dtype::F32 {
            return fail(format!("supports f32 only, got {}", data.element()));
        }
        Ok(())
    };
    match kind {
        OpKind::PldBuiltinAllreduce => {
            if !matches!(dtype_of(first.element()), Dtype::F16 | Dtype::F32) {
                return fail(format!("src must be f16 or f32, got {}", first.element()));
            }
            let cores = int_attr(op, "cores").unwrap_or(0);
            match shape.len() {
                1 if cores != 1 => fail("a rank-1 signal serves cores 1 only"),
                1 => Ok(()),
                2 => match shape[1] {
                    Some(lanes) if lanes >= cores => Ok(()),
                    _ => fail(format!(
                        "a [W, lanes] signal needs constant lanes >= cores ({cores}), got {signal}"
                    )),
                },
                _ => fail(format!("signal must have rank 1 or 2, got {signal}")),
            }
        }
        OpKind::PldBuiltinAllreduceRing => {
            sum_f32(first)?;
            if shape.len() != 2 {
                return fail(format!(
                    "a ring signal must be [2*(NR-1)+1, NR], got {signal}"
                ));
            }
            if matches!(shape[1], Some(ranks) if ranks > 16) {
                return fail("a ring spans at most 16 ranks");
            }
            if let (Some(rows), Some(ranks)) = (shape[0], shape[1])
                && rows != 2 * (ranks - 1) + 1
            {
                return fail(format!(
                    "a ring signal must be [2*(NR-1)+1, NR], got {}",
                    render_dims(&shape)
                ));
            }
            if let Some(ranks) = shape[1] {
                let count = first
                    .shape()
                    .iter()
                    .copied()
                    .try_fold(1i64, |acc, d| d.and_then(|d| acc.checked_mul(d)));
                match count {
                    Some(count) if count % ranks == 0 => {}
                    _ => {
                        return fail(format!(
                            "src must be static with an element count divisible by {ranks}"
                        ));
                    }
                }
            }
            Ok(())
        }
        OpKind::PldBuiltinBarrier
        | OpKind::PldBuiltinBroadcast
        | OpKind::PldBuiltinReduceScatter => {
            if shape.len() != 1 {
                return fail(format!("signal must be rank-1 [W], got {signal}"));
            }
            match kind {
                OpKind::PldBuiltinBroadcast => {
                    if int_attr(op, "root").unwrap_or(-1) < 0 {
                        return fail("root must be >= 0");
                    }
                    sum_f32(first)
                }
                OpKind::PldBuiltinReduceScatter => {
                    if first.rank() != 2 {
                        return fail(format!("target must be [NR, SIZE], got {first}"));
                    }
                    sum_f32(first)
                }
                // The barrier's signal is its whole rule.
                _ => Ok(()),
            }
        }
        OpKind::PldBuiltinAllToAllV => Ok(()),
        OpKind::PldBuiltinAllgather | OpKind::PldBuiltinAllToAll => {
            if !(shape.len() == 1 || (shape.len() == 2 && shape[1] == Some(1))) {
                return fail(format!("signal must be [W] or [W, 1], got {signal}"));
            }
            let input_value = op.operand(0).map_err(|e| Failure::new(e.to_string()))?;
            let target_value = op.operand(1).map_err(|e| Failure::new(e.to_string()))?;
            if input_value == target_value {
                return fail("input and target must be different windows");
            }
            let target = dtensor(target_value.r#type())?;
            let (input_shape, target_shape) = (first.shape(), target.shape());
            if input_shape.len() != 2 || target_shape.len() != 2 {
                return fail("input and target must be 2-D");
            }
            if kind == OpKind::PldBuiltinAllgather && matches!(input_shape[0], Some(d) if d != 1) {
                return fail(format!("input must be [1, SIZE], got {first}"));
            }
            if matches!((input_shape[1], target_shape[1]), (Some(a), Some(b)) if a != b) {
                return fail("input and target must have one row size");
            }
            sum_f32(target)
        }
        _ => Err(no_rule(kind, "pld")),
    }
}

fn verify_all_to_all_v<'c>(op: OperationRef<'c, '_>, path: ExecutionPath) -> VerifyResult<'c> {
    let (input_shape, input_element) = tensor_like_shape(operand_type(op, 0)?)
        .ok_or_else(|| Failure::new("input must be a tensor"))?;
    let target = dtensor(operand_type(op, 1)?)?;
    let signal = dtensor(operand_type(op, 2)?)?;
    let (send_shape, send_element) = tensor_like_shape(operand_type(op, 3)?)
        .ok_or_else(|| Failure::new("send_counts must be a tensor"))?;
    let recv = dtensor(operand_type(op, 4)?)?;
    let target_shape = target.shape();
    if input_shape.len() != 2 || target_shape.len() != 2 {
        return fail("input and target must be 2-D");
    }
    if input_element != target.element() {
        return fail(format!(
            "input and target must have one element type, got {input_element} and {}",
            target.element()
        ));
    }
    if matches!((input_shape[1], target_shape[1]), (Some(a), Some(b)) if a != b) {
        return fail("input and target must have one row size");
    }
    if dtype_of(signal.element()) != Dtype::I32
        || signal.rank() != 2
        || signal.shape()[1] != Some(1)
    {
        return fail(format!("signal must be i32 [NR, 1], got {signal}"));
    }
    let (Some(rows), Some(ranks)) = (target_shape[0], signal.shape()[0]) else {
        return fail("target dim 0 and signal dim 0 must be compile-time constants");
    };
    if ranks <= 0 || rows % ranks != 0 {
        return fail(format!(
            "signal dim 0 ({ranks}) must divide target dim 0 ({rows})"
        ));
    }
    let send_ok = dtype_of(send_element) == Dtype::I32
        && (send_shape.len() == 1 || (send_shape.len() == 2 && send_shape[1] == Some(1)))
        && send_shape[0] == Some(ranks);
    if !send_ok {
        return fail(format!("send_counts must be i32 [{ranks}] or [{ranks}, 1]"));
    }
    if dtype_of(recv.element()) != Dtype::I32 || recv.shape() != [Some(ranks), Some(1)] {
        return fail(format!("recv_counts must be i32 [{ranks}, 1], got {recv}"));
    }
    require_host_f32(target, path)
}
