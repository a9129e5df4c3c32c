//! Dynamically shaped kernels in blocks: a rank-2 kernel whose tensors
//! have dynamic extents computes each block of rows and columns
//! independently of the others (elementwise, scalar, unary and cast ops,
//! broadcasts, reductions along a static axis), so it runs as loops over
//! blocks — of rows when the rows are dynamic, of columns inside them when
//! the columns are — each a tile of a static shape whose valid extents are
//! what is left. A row reduction across dynamic columns accumulates its
//! blocks' partial reductions in a tile the column loop carries; what is
//! computed from it follows the column loop
//! (docs/passes/pl-convert-tensor-to-tile.md, "Dynamic shapes").
//!
//! [`plan`] decides whether a kernel can run so and why not; [`wrap`] puts
//! its body in the loops and stores each result's block into a new out
//! parameter; the conversion then loads each block of a dynamic parameter
//! in the loop of its axes ([`Strips`]).

use std::collections::HashMap;

use melior::{
    Context,
    dialect::{arith, scf},
    ir::{
        Attribute, Block, BlockLike, BlockRef, Identifier, Location, OperationRef, Region,
        RegionLike, Type, Value, ValueLike,
        attribute::{FloatAttribute, IntegerAttribute},
        operation::{OperationBuilder, OperationLike, OperationMutLike},
    },
};
use pto_dialects::{
    dtype::ScalarKind,
    ir::ValueKey,
    op_table::{Family, OpKind},
    ops::{Checked, op_name},
    types::{TensorLike, TileType, TileView},
};

use super::{Failure, result_of};
use crate::pld::ir::detach;

/// The bytes one tile of a block may take: with the scratch of a row
/// reduction and a few intermediates, a kernel's tiles stay well inside
/// a2a3's 192 KB unified buffer.
const TILE_BUDGET_BYTES: i64 = 16 * 1024;

/// Rows of a block are a multiple of this: a column vector of any element
/// type (one byte up) then fills whole 32-byte blocks.
const ROW_QUANTUM: i64 = 32;

/// A row of a block of dynamic columns is this many bytes when the rows
/// are dynamic too (64 rows of 256 bytes fill the budget).
const DYNAMIC_ROW_BYTES: i64 = 256;

/// Where an op of a kernel with dynamic columns runs.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Phase {
    /// Before the loop over the columns (per block of rows): it computes
    /// on values without the dynamic columns, from parameters only.
    Before,
    /// In the loop over the columns: its result has them.
    Columns,
    /// In the loop over the columns, accumulated across it: a row
    /// reduction of a block of the columns.
    Reduction,
    /// After the loop over the columns: it computes from an accumulated
    /// reduction.
    After,
}

/// How a dynamically shaped kernel runs in blocks.
pub(super) struct Plan {
    /// The static extent of a block on each dynamic axis.
    block: [i64; 2],
    /// For each dynamic axis, the parameter whose extent on it every
    /// dynamic one equals.
    representative: [Option<usize>; 2],
    /// The phase of each op of the body (in order, the return left out);
    /// every op is `Before` when the columns are static.
    phases: Vec<Phase>,
}

/// A loop of the blocks, where loads of the blocks it walks go.
#[derive(Clone, Copy)]
pub(super) struct Level<'c, 'a> {
    /// The loop's body.
    pub body: BlockRef<'c, 'a>,
    /// The op after which the loads go (the one making the valid extent).
    pub anchor: OperationRef<'c, 'a>,
}

/// The loops a planned kernel runs in, as the conversion needs them.
pub(super) struct Strips<'c, 'a> {
    /// The static extent of a block on each dynamic axis.
    block: [i64; 2],
    /// The first row and column of the block (the kernel's zero on a
    /// static axis).
    pub offsets: [Value<'c, 'a>; 2],
    /// The block's valid extent on each dynamic axis:
    /// `min(block, extent - offset)`.
    pub valid: [Option<Value<'c, 'a>>; 2],
    /// The loop over blocks of rows, when the rows are dynamic.
    pub rows: Option<Level<'c, 'a>>,
    /// The loop over blocks of columns, when the columns are dynamic.
    pub columns: Option<Level<'c, 'a>>,
}

impl<'c, 'a> Strips<'c, 'a> {
    /// The tile type a tensor of `r#type` has in a block: each dynamic
    /// extent becomes the block's, valid for a dynamic number of rows or
    /// columns. `None` for a type that is not a dynamically shaped rank-2
    /// tensor.
    pub fn tile_type(&self, context: &'c Context, r#type: Type<'c>) -> Option<Type<'c>> {
        let tensor = TensorLike::try_from(r#type).ok()?;
        let dims = tensor.shape();
        if dims.len() != 2 || dims.iter().all(Option::is_some) {
            return None;
        }
        let shape: Vec<i64> = (0..2).map(|d| dims[d].unwrap_or(self.block[d])).collect();
        let view = TileView {
            valid_shape: Some(dims.clone()),
            ..TileView::default()
        };
        Some(TileType::with_view(context, &shape, tensor.element(), None, &view).into())
    }

    /// Where a block of a tensor of `r#type` is loaded: in the loop over
    /// the columns when it has them, else in the loop over the rows.
    pub fn level_of(&self, r#type: Type<'c>) -> Option<Level<'c, 'a>> {
        let dims = TensorLike::try_from(r#type).ok()?.shape();
        if dims.get(1).copied().flatten().is_none() {
            self.columns
        } else {
            self.rows
        }
    }
}

fn dims_of(value: Value) -> Option<Vec<Option<i64>>> {
    Some(TensorLike::try_from(value.r#type()).ok()?.shape())
}

fn dynamic(value: Value) -> Option<bool> {
    Some(dims_of(value)?.iter().any(Option::is_none))
}

/// Whether `value` is a tensor with dynamic columns.
fn has_dynamic_columns(value: Value) -> bool {
    dims_of(value).is_some_and(|d| d.len() == 2 && d[1].is_none())
}

/// Why an op of `kind` on tensors with dynamic extents (`dynamic`, per
/// axis, of the op's first operand) does not run in blocks; `None` when
/// it does (each block of its result depends on the same block of its
/// operands only, or accumulates across them).
fn block_refusal(kind: OpKind, dynamic: [bool; 2]) -> Option<&'static str> {
    match kind.family() {
        Family::TensorBinary
        | Family::TensorCast
        | Family::TensorScalar
        | Family::TensorUnary
        | Family::TensorRowExpand
        | Family::TensorColExpand => None,
        Family::TensorRowReduce if !dynamic[1] || accumulation(kind).is_some() => None,
        Family::TensorRowReduce => {
            Some("an arg-reduction across dynamic columns is not accumulated across blocks yet")
        }
        Family::TensorColReduce if !dynamic[0] => None,
        Family::TensorColReduce => Some("a column reduction reduces across the dynamic rows"),
        Family::TensorMatmul => Some("a product with a dynamic extent is not run in blocks yet"),
        Family::TensorAccess if kind == OpKind::PlTensorDim => None,
        _ => Some("this op is not run in blocks yet"),
    }
}

/// How row reduction `kind` accumulates its blocks: the binary op that
/// combines two partial reductions, and the identity it starts from.
fn accumulation(kind: OpKind) -> Option<(OpKind, Identity)> {
    match kind {
        OpKind::PlTensorRowSum => Some((OpKind::PlTensorAdd, Identity::Zero)),
        OpKind::PlTensorRowProd => Some((OpKind::PlTensorMul, Identity::One)),
        OpKind::PlTensorRowMax => Some((OpKind::PlTensorMaximum, Identity::Lowest)),
        OpKind::PlTensorRowMin => Some((OpKind::PlTensorMinimum, Identity::Highest)),
        _ => None,
    }
}

/// The value a reduction starts from.
#[derive(Clone, Copy)]
enum Identity {
    Zero,
    One,
    /// -inf, or the least integer.
    Lowest,
    /// +inf, or the greatest integer.
    Highest,
}

impl Identity {
    fn attribute<'c>(self, context: &'c Context, element: Type<'c>) -> Option<Attribute<'c>> {
        Some(match ScalarKind::of(element)? {
            ScalarKind::Float(_) => {
                let number = match self {
                    Self::Zero => 0.0,
                    Self::One => 1.0,
                    Self::Lowest => f64::NEG_INFINITY,
                    Self::Highest => f64::INFINITY,
                };
                FloatAttribute::new(context, element, number).into()
            }
            ScalarKind::Signed(bits) => {
                let bits = bits.clamp(1, 64);
                let number = match self {
                    Self::Zero => 0,
                    Self::One => 1,
                    Self::Lowest => i64::MIN >> (64 - bits),
                    Self::Highest => i64::MAX >> (64 - bits),
                };
                IntegerAttribute::new(element, number).into()
            }
            ScalarKind::Unsigned(bits) => {
                let bits = bits.clamp(1, 64);
                let number = match self {
                    Self::Zero | Self::Lowest => 0,
                    Self::One => 1,
                    Self::Highest => (u64::MAX >> (64 - bits)) as i64,
                };
                IntegerAttribute::new(element, number).into()
            }
        })
    }
}

/// Union-find over the dynamic extents of a kernel's values (one axis).
#[derive(Default)]
struct Extents {
    parent: HashMap<ValueKey, ValueKey>,
}

impl Extents {
    fn root(&mut self, key: ValueKey) -> ValueKey {
        let mut current = key;
        while let Some(&next) = self.parent.get(&current) {
            if next == current {
                break;
            }
            current = next;
        }
        self.parent.insert(key, current);
        current
    }

    fn join(&mut self, a: ValueKey, b: ValueKey) {
        let (a, b) = (self.root(a), self.root(b));
        self.parent.insert(b, a);
        self.parent.entry(a).or_insert(a);
    }
}

/// A kernel's entry block, its return and the ops before it.
pub(super) type KernelBody<'c, 'a> = (
    BlockRef<'c, 'a>,
    OperationRef<'c, 'a>,
    Vec<OperationRef<'c, 'a>>,
);

/// The parts of `kernel`'s body its blocks are built from.
pub(super) fn kernel_body<'c, 'a>(
    kernel: OperationRef<'c, 'a>,
) -> Result<KernelBody<'c, 'a>, Failure<'c, 'a>> {
    let entry = kernel
        .region_opt(0)
        .and_then(|r| r.first_block())
        .ok_or((kernel, "an empty kernel".to_string()))?;
    let terminator = entry
        .terminator()
        .ok_or((kernel, "no return".to_string()))?;
    Ok((entry, terminator, body_ops(entry)))
}

/// The ops of `entry` but its terminator, in order.
pub(super) fn body_ops<'c, 'a>(entry: BlockRef<'c, 'a>) -> Vec<OperationRef<'c, 'a>> {
    let mut ops = Vec::new();
    let mut next = entry.first_operation();
    while let Some(op) = next {
        next = op.next_in_block();
        if op.next_in_block().is_some() {
            ops.push(op);
        }
    }
    ops
}

/// Checks that a dynamically shaped `value` is of rank 2 and that each of
/// its extents on a dynamic axis is dynamic or 1 (a broadcast); `None`
/// when it is, the reason otherwise.
fn shape_refusal(value: Value, axes: [bool; 2]) -> Option<String> {
    let dims = dims_of(value)?;
    if dims.len() != 2 {
        return Some(format!(
            "{} is a dynamically shaped tensor of rank {}; only rank-2 kernels run in blocks",
            value.r#type(),
            dims.len()
        ));
    }
    (0..2)
        .find(|&d| axes[d] && dims[d].is_some_and(|e| e != 1))
        .map(|d| {
            format!(
                "{} has a static extent on axis {d}, which other tensors of the kernel have dynamic; a block cannot hold both",
                value.r#type()
            )
        })
}

/// Whether `kernel` runs in blocks, and how; the reason it does not, at
/// the op that stops it, otherwise.
pub(super) fn plan<'c, 'a>(kernel: OperationRef<'c, 'a>) -> Result<Plan, Failure<'c, 'a>> {
    let entry = kernel
        .region_opt(0)
        .and_then(|r| r.first_block())
        .ok_or((kernel, "an empty kernel".to_string()))?;
    let ops = body_ops(entry);
    // The dynamic axes: any tensor of the kernel's with a dynamic extent
    // there.
    let mut axes = [false; 2];
    let mut mark = |value: Value| {
        if let Some(dims) = dims_of(value).filter(|d| d.len() == 2) {
            for d in 0..2 {
                axes[d] |= dims[d].is_none();
            }
        }
    };
    for i in 0..entry.argument_count() {
        mark(entry.argument(i).unwrap().into());
    }
    for op in &ops {
        op.operands().for_each(&mut mark);
        op.results().for_each(|r| mark(r.into()));
    }
    let mut extents = [Extents::default(), Extents::default()];
    let mut widest_bytes = 1i64;
    let mut widest_rows = 1i64;
    let mut note = |value: Value<'c, 'a>| {
        if let Ok(tensor) = TensorLike::try_from(value.r#type()) {
            let dims = tensor.shape();
            let bytes =
                ScalarKind::of(tensor.element()).map_or(4, |k| i64::from(k.bits().div_ceil(8)));
            let columns = if axes[1] { 1 } else { dims[1].unwrap_or(1) };
            widest_bytes = widest_bytes.max(columns * bytes);
            widest_rows = widest_rows.max(dims[0].unwrap_or(1));
        }
    };
    let mut representative = [None, None];
    for i in 0..entry.argument_count() {
        let argument: Value = entry.argument(i).unwrap().into();
        if dynamic(argument) != Some(true) {
            continue;
        }
        if let Some(reason) = shape_refusal(argument, axes) {
            return Err((kernel, format!("parameter #{i}: {reason}")));
        }
        note(argument);
        let dims = dims_of(argument).expect("a tensor");
        for d in 0..2 {
            if dims[d].is_none() {
                representative[d].get_or_insert(i);
                extents[d].join(ValueKey::of(argument), ValueKey::of(argument));
            }
        }
    }
    let mut phases = Vec::new();
    let mut phase_of: HashMap<ValueKey, Phase> = HashMap::new();
    for &op in &ops {
        if op.region_count() > 0 {
            return Err((
                op,
                "a dynamically shaped kernel with loops or branches does not run in blocks yet"
                    .to_string(),
            ));
        }
        let values: Vec<Value> = op.operands().chain(op.results().map(Into::into)).collect();
        let dynamic_values: Vec<Value> = values
            .iter()
            .copied()
            .filter(|v| dynamic(*v) == Some(true))
            .collect();
        let phase = if axes[1] {
            phase_in_columns(op, &phase_of)?
        } else {
            Phase::Before
        };
        phases.push(phase);
        for result in op.results() {
            phase_of.insert(ValueKey::of(Value::from(result)), phase);
        }
        if dynamic_values.is_empty() {
            continue;
        }
        for value in &dynamic_values {
            if let Some(reason) = shape_refusal(*value, axes) {
                return Err((op, reason));
            }
            note(*value);
        }
        let kind = OpKind::of(&op).ok_or((
            op,
            format!(
                "'{}' takes a dynamically shaped tensor and does not run in blocks",
                op_name(op)
            ),
        ))?;
        let first = dims_of(op.operand_opt(0).unwrap_or(dynamic_values[0])).unwrap_or_default();
        let operand_axes = [0, 1].map(|d| first.get(d).is_some_and(Option::is_none));
        if let Some(reason) = block_refusal(kind, operand_axes) {
            return Err((
                op,
                format!("{reason}; the kernel's tensors have a dynamic extent"),
            ));
        }
        if kind == OpKind::PlTensorDim {
            continue;
        }
        // Each axis's dynamic extents are one: the op relates them.
        for (d, axis) in extents.iter_mut().enumerate() {
            let on_axis: Vec<ValueKey> = dynamic_values
                .iter()
                .filter(|v| dims_of(**v).is_some_and(|dims| dims[d].is_none()))
                .map(|v| ValueKey::of(*v))
                .collect();
            for key in &on_axis {
                axis.join(on_axis[0], *key);
            }
        }
    }
    let terminator = entry
        .terminator()
        .ok_or((kernel, "no return".to_string()))?;
    for index in 0..terminator.operand_count() {
        let returned = terminator.operand(index).unwrap();
        let computed = melior::ir::operation::OperationResult::try_from(returned)
            .is_ok_and(|r| OpKind::of(&r.owner()).is_some_and(|k| k.info().tile_form.is_some()));
        // A static result is stored once: only when no loop walks rows.
        let shaped = dynamic(returned) == Some(true) || (!axes[0] && dynamic(returned).is_some());
        if !shaped || !computed {
            return Err((
                terminator,
                format!(
                    "result #{index} is not a dynamically shaped tensor the kernel computes; a kernel run in blocks returns only those (and, when its rows are static, static tensors it computes)"
                ),
            ));
        }
    }
    for d in 0..2 {
        if !axes[d] {
            continue;
        }
        let Some(parameter) = representative[d] else {
            return Err((
                kernel,
                format!(
                    "no tensor parameter has the dynamic extent on axis {d}; the kernel cannot run in blocks"
                ),
            ));
        };
        // Every dynamic extent must be the representative's: values no op
        // relates could differ at run time.
        let key = ValueKey::of(Value::from(entry.argument(parameter).unwrap()));
        let root = extents[d].root(key);
        let keys: Vec<ValueKey> = extents[d].parent.keys().copied().collect();
        if keys.into_iter().any(|other| extents[d].root(other) != root) {
            return Err((
                kernel,
                format!(
                    "the kernel's dynamic extents on axis {d} are not related by its ops (they may differ at run time); it does not run in blocks"
                ),
            ));
        }
    }
    let block = if axes[1] {
        let row_bytes = if axes[0] {
            DYNAMIC_ROW_BYTES
        } else {
            (TILE_BUDGET_BYTES / widest_rows).max(32) / 32 * 32
        };
        let columns = (row_bytes / widest_bytes).max(1);
        let rows = if axes[0] {
            TILE_BUDGET_BYTES / DYNAMIC_ROW_BYTES
        } else {
            1
        };
        [rows, columns]
    } else {
        let rows = (TILE_BUDGET_BYTES / widest_bytes) / ROW_QUANTUM * ROW_QUANTUM;
        [rows.max(ROW_QUANTUM), 1]
    };
    Ok(Plan {
        block,
        representative,
        phases,
    })
}

/// Where `op` of a kernel with dynamic columns runs, given the phases of
/// the values before it; the reason it cannot run in blocks otherwise.
fn phase_in_columns<'c, 'a>(
    op: OperationRef<'c, 'a>,
    phase_of: &HashMap<ValueKey, Phase>,
) -> Result<Phase, Failure<'c, 'a>> {
    let operand_phase = |v: Value| {
        phase_of.get(&ValueKey::of(v)).copied().unwrap_or(
            // A parameter: its block is loaded where it is used.
            if has_dynamic_columns(v) {
                Phase::Columns
            } else {
                Phase::Before
            },
        )
    };
    let after = op
        .operands()
        .any(|v| matches!(operand_phase(v), Phase::After | Phase::Reduction));
    let reads_columns = op
        .operands()
        .any(|v| operand_phase(v) == Phase::Columns && has_dynamic_columns(v));
    if op.results().any(|r| has_dynamic_columns(r.into())) {
        if after {
            return Err((
                op,
                "a row reduction across the dynamic columns is combined with the columns again (two passes over the columns); this does not run in blocks yet".to_string(),
            ));
        }
        return Ok(Phase::Columns);
    }
    let kind = OpKind::of(&op);
    if reads_columns {
        if kind.is_some_and(|k| k.family() == Family::TensorRowReduce) {
            return Ok(Phase::Reduction);
        }
        if kind == Some(OpKind::PlTensorDim)
            && op
                .operand_opt(0)
                .is_some_and(|v| pto_dialects::ir::argument_owner(v).is_some())
        {
            return Ok(Phase::Before);
        }
        return Err((
            op,
            "this op reads a block of the dynamic columns but its result does not have them; only row reductions do that in blocks".to_string(),
        ));
    }
    Ok(if after { Phase::After } else { Phase::Before })
}

/// An `index` constant op of `value`.
pub(super) fn index_constant<'c>(
    context: &'c Context,
    value: i64,
    location: Location<'c>,
) -> melior::ir::Operation<'c> {
    arith::constant(
        context,
        IntegerAttribute::new(Type::index(context), value).into(),
        location,
    )
}

/// The out parameter a wrapped kernel gained: its type and, for each of
/// its dynamic extents in order, the parameter and axis it takes it from.
pub(super) struct StripOutput<'c> {
    pub r#type: Type<'c>,
    pub extents_of: Vec<(usize, i64)>,
}

/// An `scf.for` from `zero` to `extent` by `step` carrying `carried`,
/// with its body's first ops making the block's valid extent:
/// `min(step, extent - iv)`. Returns the loop, its body and the op
/// making the valid extent.
fn block_loop<'c, 'a>(
    context: &'c Context,
    location: Location<'c>,
    bounds: [Value<'c, 'a>; 3],
    carried: &[Value<'c, 'a>],
) -> Result<melior::ir::Operation<'c>, String> {
    let mut arguments = vec![(Type::index(context), location)];
    arguments.extend(carried.iter().map(|v| (v.r#type(), location)));
    let region = Region::new();
    let body = Block::new(&arguments);
    let [_, extent, step] = bounds;
    let iv: Value = body.argument(0).unwrap().into();
    let left = body.append_operation(arith::subi(extent, iv, location));
    body.append_operation(arith::minsi(left.result(0).unwrap().into(), step, location));
    region.append_block(body);
    let types: Vec<Type> = carried.iter().map(|v| v.r#type()).collect();
    OperationBuilder::new("scf.for", location)
        .add_operands(&[&bounds[..], carried].concat())
        .add_results(&types)
        .add_regions([region])
        .build()
        .map_err(|e| e.to_string())
}

/// A placed loop: its body, its induction variable, the valid extent and
/// the op making it.
struct Placed<'c, 'a> {
    op: OperationRef<'c, 'a>,
    body: BlockRef<'c, 'a>,
    iv: Value<'c, 'a>,
    valid: Value<'c, 'a>,
    anchor: OperationRef<'c, 'a>,
}

impl<'c, 'a> Placed<'c, 'a> {
    fn new(op: OperationRef<'c, 'a>) -> Self {
        let body = op
            .region_opt(0)
            .and_then(|r| r.first_block())
            .expect("the loop's body");
        let anchor = body
            .first_operation()
            .and_then(|o| o.next_in_block())
            .expect("the valid extent");
        Self {
            op,
            body,
            iv: body.argument(0).unwrap().into(),
            valid: result_of(anchor),
            anchor,
        }
    }

    fn carried(&self, index: usize) -> Value<'c, 'a> {
        self.body.argument(index + 1).unwrap().into()
    }
}

/// Builds `pl.tensor.assemble source into target[offsets]` at the end of
/// `block` (before `before` when given).
pub(super) fn assemble<'c, 'a>(
    block: BlockRef<'c, 'a>,
    before: Option<OperationRef<'c, 'a>>,
    location: Location<'c>,
    source: Value<'c, 'a>,
    target: Value<'c, 'a>,
    offsets: &[Value<'c, 'a>],
) -> Result<Value<'c, 'a>, String> {
    let op = OperationBuilder::new(OpKind::PlTensorAssemble.name(), location)
        .add_operands(&[&[source, target][..], offsets].concat())
        .add_results(&[target.r#type()])
        .build()
        .map_err(|e| e.to_string())?;
    Ok(result_of(match before {
        Some(before) => block.insert_operation_before(before, op),
        None => block.append_operation(op),
    }))
}

/// Puts the body of planned `kernel` in its loops over blocks: each
/// result is assembled into a new out parameter at the block's offsets,
/// and the kernel returns those. Returns the loops and the new parameters.
pub(super) fn wrap<'c, 'a>(
    context: &'c Context,
    kernel: OperationRef<'c, 'a>,
    plan: &Plan,
) -> Result<(Strips<'c, 'a>, Vec<StripOutput<'c>>), Failure<'c, 'a>> {
    let (entry, terminator, ops) = kernel_body(kernel)?;
    let location = kernel.location();
    let fail = |e: String| (kernel, e);
    let first = entry.first_operation().expect("a return");
    let before_first = |op| result_of(entry.insert_operation_before(first, op));
    let zero = before_first(index_constant(context, 0, location));
    // Each dynamic axis's extent (the representative's) and block.
    let mut bounds = [None, None];
    for (d, bound) in bounds.iter_mut().enumerate() {
        let Some(parameter) = plan.representative[d] else {
            continue;
        };
        let step = before_first(index_constant(context, plan.block[d], location));
        let dim = OperationBuilder::new(OpKind::PlTensorDim.name(), location)
            .add_operands(&[entry.argument(parameter).unwrap().into()])
            .add_attributes(&[(
                Identifier::new(context, "axis"),
                IntegerAttribute::new(Type::parse(context, "i64").unwrap(), d as i64).into(),
            )])
            .add_results(&[Type::index(context)])
            .build()
            .map_err(|e| fail(e.to_string()))?;
        *bound = Some([zero, before_first(dim), step]);
    }
    // The out parameters, one per result.
    let mut outputs = Vec::new();
    let mut outs = Vec::new();
    for index in 0..terminator.operand_count() {
        let r#type = terminator.operand(index).unwrap().r#type();
        outs.push(entry.add_argument(r#type, location));
        let dims = TensorLike::try_from(r#type)
            .map(|t| t.shape())
            .unwrap_or_default();
        let extents_of = (0..dims.len().min(2))
            .filter(|&d| dims[d].is_none())
            .filter_map(|d| plan.representative[d].map(|p| (p, d as i64)))
            .collect();
        outputs.push(StripOutput { r#type, extents_of });
    }
    // The loop over blocks of rows, or the kernel's entry.
    let rows = match bounds[0] {
        Some(bounds) => {
            let for_op = block_loop(context, location, bounds, &outs).map_err(fail)?;
            Some(Placed::new(
                entry.insert_operation_before(terminator, for_op),
            ))
        }
        None => None,
    };
    let (outer, outer_end) = match &rows {
        Some(rows) => (rows.body, None),
        None => (entry, Some(terminator)),
    };
    let place = |op: melior::ir::Operation<'c>| match outer_end {
        Some(end) => outer.insert_operation_before(end, op),
        None => outer.append_operation(op),
    };
    let row_offset = rows.as_ref().map_or(zero, |r| r.iv);
    let carried_outer: Vec<Value> = (0..outs.len())
        .map(|i| rows.as_ref().map_or(outs[i], |r| r.carried(i)))
        .collect();
    for (op, phase) in ops.iter().zip(&plan.phases) {
        if *phase == Phase::Before {
            place(detach(*op));
        }
    }
    let mut columns = None;
    let mut finals: Vec<Option<Value>> = vec![None; outs.len()];
    if let Some(column_bounds) = bounds[1] {
        // Results with the columns are carried by the column loop; each
        // row reduction of a block accumulates in a carried tile started
        // at its identity.
        let column_results: Vec<usize> = (0..outs.len())
            .filter(|&i| has_dynamic_columns(terminator.operand(i).unwrap()))
            .collect();
        let reductions: Vec<OperationRef> = ops
            .iter()
            .zip(&plan.phases)
            .filter(|(_, p)| **p == Phase::Reduction)
            .map(|(op, _)| *op)
            .collect();
        let mut carried: Vec<Value> = column_results.iter().map(|&i| carried_outer[i]).collect();
        for reduction in &reductions {
            let result = result_of(*reduction);
            let kind = OpKind::of(reduction).expect("a reduction");
            let (_, identity) = accumulation(kind).expect("planned reductions accumulate");
            let element = TensorLike::try_from(result.r#type()).unwrap().element();
            let attribute = identity.attribute(context, element).ok_or((
                *reduction,
                format!("no identity for a reduction of {element}"),
            ))?;
            let constant = result_of(place(arith::constant(context, attribute, location)));
            let sizes: Vec<Value> = dims_of(result)
                .unwrap_or_default()
                .iter()
                .enumerate()
                .filter(|(_, e)| e.is_none())
                .map(|_| rows.as_ref().map_or(zero, |r| r.valid))
                .collect();
            let full = OperationBuilder::new(OpKind::PlTensorFull.name(), location)
                .add_operands(&[&[constant][..], &sizes].concat())
                .add_results(&[result.r#type()])
                .build()
                .map_err(|e| fail(e.to_string()))?;
            carried.push(result_of(place(full)));
        }
        let for_op = block_loop(context, location, column_bounds, &carried).map_err(fail)?;
        let inner = Placed::new(place(for_op));
        // What follows the loop reads the accumulated reductions.
        for (k, reduction) in reductions.iter().enumerate() {
            let accumulated: Value = inner.op.result(column_results.len() + k).unwrap().into();
            super::replace_uses(kernel, result_of(*reduction), accumulated);
        }
        let mut yielded = Vec::new();
        let mut accumulated = Vec::new();
        for (op, phase) in ops.iter().zip(&plan.phases) {
            match phase {
                Phase::Columns => {
                    inner.body.append_operation(detach(*op));
                }
                Phase::Reduction => {
                    let moved = inner.body.append_operation(detach(*op));
                    let kind = OpKind::of(&moved).expect("a reduction");
                    let (combine, _) = accumulation(kind).expect("planned reductions accumulate");
                    let acc = inner.carried(column_results.len() + accumulated.len());
                    let combined = OperationBuilder::new(combine.name(), location)
                        .add_operands(&[acc, result_of(moved)])
                        .add_results(&[acc.r#type()])
                        .build()
                        .map_err(|e| fail(e.to_string()))?;
                    accumulated.push(result_of(inner.body.append_operation(combined)));
                }
                _ => {}
            }
        }
        for (k, &i) in column_results.iter().enumerate() {
            let source = terminator.operand(i).unwrap();
            yielded.push(
                assemble(
                    inner.body,
                    None,
                    location,
                    source,
                    inner.carried(k),
                    &[row_offset, inner.iv],
                )
                .map_err(fail)?,
            );
        }
        yielded.extend(accumulated);
        inner
            .body
            .append_operation(scf::r#yield(&yielded, location));
        for (k, &i) in column_results.iter().enumerate() {
            finals[i] = Some(inner.op.result(k).unwrap().into());
        }
        for (op, phase) in ops.iter().zip(&plan.phases) {
            if *phase == Phase::After {
                place(detach(*op));
            }
        }
        columns = Some(Level {
            body: inner.body,
            anchor: inner.anchor,
        });
    }
    // Results without the dynamic columns: assembled at the block's row.
    for (i, slot) in finals.iter_mut().enumerate() {
        if slot.is_none() {
            let source = terminator.operand(i).unwrap();
            *slot = Some(
                assemble(
                    outer,
                    outer_end,
                    location,
                    source,
                    carried_outer[i],
                    &[row_offset, zero],
                )
                .map_err(fail)?,
            );
        }
    }
    let finals: Vec<Value> = finals.into_iter().map(Option::unwrap).collect();
    let returned = match &rows {
        Some(rows) => {
            rows.body.append_operation(scf::r#yield(&finals, location));
            (0..finals.len())
                .map(|i| rows.op.result(i).unwrap().into())
                .collect()
        }
        None => finals,
    };
    let mut edit = pto_dialects::ir::edit(terminator);
    for (index, value) in returned.into_iter().enumerate() {
        edit.set_operand(index, value);
    }
    Ok((
        Strips {
            block: plan.block,
            offsets: [
                row_offset,
                columns.map_or(zero, |c| c.body.argument(0).unwrap().into()),
            ],
            valid: [
                rows.as_ref().map(|r| r.valid),
                columns.map(|c| result_of(c.anchor)),
            ],
            rows: rows.as_ref().map(|r| Level {
                body: r.body,
                anchor: r.anchor,
            }),
            columns,
        },
        outputs,
    ))
}
