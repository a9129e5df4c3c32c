//! Dynamically shaped kernels in strips: a kernel whose tensors have a
//! dynamic leading extent computes each row independently of the others
//! (elementwise, scalar, unary and cast ops, row reductions and
//! broadcasts), so it runs as a loop over blocks of `rows` rows, each a
//! tile of a static shape whose valid rows are what is left
//! (docs/passes/pl-convert-tensor-to-tile.md, "Dynamic shapes").
//!
//! [`plan`] decides whether a kernel can run so and why not; [`wrap`] puts
//! its body in the loop and stores each result's block into a new out
//! parameter; the conversion then loads each block of a dynamic parameter
//! in the loop ([`Strips`]).

use std::collections::HashMap;

use melior::{
    Context,
    dialect::arith,
    ir::{
        Block, BlockLike, BlockRef, Identifier, Location, OperationRef, Region, RegionLike, Type,
        Value, ValueLike,
        attribute::IntegerAttribute,
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

use super::Failure;
use crate::pld::ir::detach;

/// The bytes one tile of a strip may take: with the scratch of a row
/// reduction and a few intermediates, a kernel's tiles stay well inside
/// a2a3's 192 KB unified buffer.
const TILE_BUDGET_BYTES: i64 = 16 * 1024;

/// Rows of a strip are a multiple of this: a column vector of any element
/// type (one byte up) then fills whole 32-byte blocks.
const ROW_QUANTUM: i64 = 32;

/// How a dynamically shaped kernel runs in strips.
pub(super) struct Plan {
    /// Rows per strip.
    rows: i64,
    /// The parameter whose leading extent every dynamic one equals.
    representative: usize,
}

/// The loop a planned kernel runs in, as the conversion needs it.
pub(super) struct Strips<'c, 'a> {
    /// Rows per strip: the static leading extent of its tiles.
    pub rows: i64,
    /// The loop's body, where each strip's loads go.
    pub body: BlockRef<'c, 'a>,
    /// The first row of the strip.
    pub offset: Value<'c, 'a>,
    /// The strip's valid rows: `min(rows, extent - offset)`.
    pub valid: Value<'c, 'a>,
    /// The op after which the strip's loads go (the one making `valid`).
    pub anchor: OperationRef<'c, 'a>,
}

impl<'c> Strips<'c, '_> {
    /// The tile type a tensor of `r#type` has in a strip: its dynamic
    /// leading extent becomes `rows`, valid for a dynamic number of rows.
    /// `None` for a type that is not a tensor with only that extent
    /// dynamic.
    pub fn tile_type(&self, context: &'c Context, r#type: Type<'c>) -> Option<Type<'c>> {
        let tensor = TensorLike::try_from(r#type).ok()?;
        let dims = tensor.shape();
        if !leading_dynamic(&dims) {
            return None;
        }
        let mut shape = vec![self.rows];
        shape.extend(dims[1..].iter().map(|d| d.expect("static")));
        let mut valid: Vec<Option<i64>> = shape.iter().copied().map(Some).collect();
        valid[0] = None;
        let view = TileView {
            valid_shape: Some(valid),
            ..TileView::default()
        };
        Some(TileType::with_view(context, &shape, tensor.element(), None, &view).into())
    }
}

/// Whether a tensor of `dims` has its leading extent, and only that,
/// dynamic (rank 2).
fn leading_dynamic(dims: &[Option<i64>]) -> bool {
    dims.len() == 2 && dims[0].is_none() && dims[1].is_some()
}

fn dynamic(value: Value) -> Option<bool> {
    let tensor = TensorLike::try_from(value.r#type()).ok()?;
    Some(tensor.shape().iter().any(Option::is_none))
}

/// Why an op of `kind` on tensors with a dynamic leading extent does not
/// run in strips; `None` when it does (each row of its result depends on
/// the same row of its operands only).
fn strip_refusal(kind: OpKind) -> Option<&'static str> {
    match kind.family() {
        Family::TensorBinary
        | Family::TensorCast
        | Family::TensorScalar
        | Family::TensorUnary
        | Family::TensorRowReduce
        | Family::TensorRowExpand
        | Family::TensorColExpand => None,
        Family::TensorColReduce => Some("a column reduction reduces across the dynamic rows"),
        Family::TensorMatmul => Some("a product with a dynamic extent is not run in strips yet"),
        Family::TensorAccess if kind == OpKind::PlTensorDim => None,
        _ => Some("this op is not run in strips of rows yet"),
    }
}

/// Union-find over the dynamic leading extents of a kernel's values.
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

/// Whether `kernel` runs in strips of rows, and how; the reason it does
/// not, at the op that stops it, otherwise.
pub(super) fn plan<'c, 'a>(kernel: OperationRef<'c, 'a>) -> Result<Plan, Failure<'c, 'a>> {
    let entry = kernel
        .region_opt(0)
        .and_then(|r| r.first_block())
        .ok_or((kernel, "an empty kernel".to_string()))?;
    let mut extents = Extents::default();
    let mut columns_bytes = 1i64;
    let mut note = |value: Value<'c, 'a>| {
        if let Ok(tensor) = TensorLike::try_from(value.r#type()) {
            let dims = tensor.shape();
            if leading_dynamic(&dims) {
                let bytes =
                    ScalarKind::of(tensor.element()).map_or(4, |k| i64::from(k.bits().div_ceil(8)));
                columns_bytes = columns_bytes.max(dims[1].unwrap_or(1) * bytes);
            }
        }
    };
    let mut parameters = Vec::new();
    for i in 0..entry.argument_count() {
        let argument: Value = entry.argument(i).unwrap().into();
        note(argument);
        match dynamic(argument) {
            Some(true)
                if !leading_dynamic(&TensorLike::try_from(argument.r#type()).unwrap().shape()) =>
            {
                return Err((
                    kernel,
                    format!(
                        "parameter #{i} ({}) has a dynamic extent other than the leading one of a rank-2 tensor; only those kernels run in strips of rows",
                        argument.r#type()
                    ),
                ));
            }
            Some(true) => parameters.push((i, ValueKey::of(argument))),
            _ => {}
        }
    }
    let mut next = entry.first_operation();
    while let Some(op) = next {
        next = op.next_in_block();
        if op.next_in_block().is_none() {
            break; // the return
        }
        if op.region_count() > 0 {
            return Err((
                op,
                "a dynamically shaped kernel with loops or branches does not run in strips of rows yet".to_string(),
            ));
        }
        let values: Vec<Value> = op.operands().chain(op.results().map(Into::into)).collect();
        let dynamic_values: Vec<Value> = values
            .iter()
            .copied()
            .filter(|v| dynamic(*v) == Some(true))
            .collect();
        if dynamic_values.is_empty() {
            continue;
        }
        for value in &dynamic_values {
            note(*value);
            let dims = TensorLike::try_from(value.r#type()).unwrap().shape();
            if !leading_dynamic(&dims) {
                return Err((
                    op,
                    format!(
                        "{} has a dynamic extent other than the leading one of a rank-2 tensor; only those kernels run in strips of rows",
                        value.r#type()
                    ),
                ));
            }
        }
        let kind = OpKind::of(&op).ok_or((
            op,
            format!(
                "'{}' takes a dynamically shaped tensor and does not run in strips of rows",
                op_name(op)
            ),
        ))?;
        if let Some(reason) = strip_refusal(kind) {
            return Err((
                op,
                format!("{reason}; the kernel's tensors have a dynamic extent"),
            ));
        }
        if kind == OpKind::PlTensorDim {
            continue;
        }
        let first = ValueKey::of(dynamic_values[0]);
        for value in &dynamic_values[1..] {
            extents.join(first, ValueKey::of(*value));
        }
    }
    let terminator = entry
        .terminator()
        .ok_or((kernel, "no return".to_string()))?;
    for index in 0..terminator.operand_count() {
        let returned = terminator.operand(index).unwrap();
        let computed = melior::ir::operation::OperationResult::try_from(returned)
            .is_ok_and(|r| OpKind::of(&r.owner()).is_some_and(|k| k.info().tile_form.is_some()));
        if dynamic(returned) != Some(true) || !computed {
            return Err((
                terminator,
                format!(
                    "result #{index} is not a dynamically shaped tensor the kernel computes; a kernel run in strips of rows returns only those"
                ),
            ));
        }
        extents.join(ValueKey::of(returned), ValueKey::of(returned));
    }
    let Some(&(representative, key)) = parameters.first() else {
        return Err((
            kernel,
            "no tensor parameter has the dynamic extent; the kernel cannot run in strips of rows"
                .to_string(),
        ));
    };
    // Every dynamic extent must be the representative's: values no op
    // relates could differ at run time.
    let root = extents.root(key);
    let keys: Vec<ValueKey> = extents.parent.keys().copied().collect();
    for other in keys {
        if extents.root(other) != root {
            return Err((
                kernel,
                "the kernel's dynamic extents are not related by its ops (they may differ at run time); it does not run in strips of rows".to_string(),
            ));
        }
    }
    let rows = (TILE_BUDGET_BYTES / columns_bytes) / ROW_QUANTUM * ROW_QUANTUM;
    Ok(Plan {
        rows: rows.max(ROW_QUANTUM),
        representative,
    })
}

fn index_constant<'c>(
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

/// The out parameter a wrapped kernel gained: its type and the parameter
/// whose leading extent it has.
pub(super) struct StripOutput<'c> {
    pub r#type: Type<'c>,
    pub extent_of: usize,
}

/// Puts the body of planned `kernel` in a loop over its strips: each
/// result is assembled into a new out parameter at the strip's row, and
/// the kernel returns those. Returns the loop and the new parameters.
pub(super) fn wrap<'c, 'a>(
    context: &'c Context,
    kernel: OperationRef<'c, 'a>,
    plan: &Plan,
) -> Result<(Strips<'c, 'a>, Vec<StripOutput<'c>>), Failure<'c, 'a>> {
    let entry = kernel
        .region_opt(0)
        .and_then(|r| r.first_block())
        .ok_or((kernel, "an empty kernel".to_string()))?;
    let location = kernel.location();
    let terminator = entry
        .terminator()
        .ok_or((kernel, "no return".to_string()))?;
    let body_ops: Vec<OperationRef> = {
        let mut ops = Vec::new();
        let mut next = entry.first_operation();
        while let Some(op) = next {
            next = op.next_in_block();
            if op != terminator {
                ops.push(op);
            }
        }
        ops
    };
    let first = entry.first_operation().expect("a return");
    let result_of = |op: OperationRef<'c, 'a>| -> Value<'c, 'a> { op.result(0).unwrap().into() };
    let zero =
        result_of(entry.insert_operation_before(first, index_constant(context, 0, location)));
    let step = result_of(
        entry.insert_operation_before(first, index_constant(context, plan.rows, location)),
    );
    let representative: Value = entry.argument(plan.representative).unwrap().into();
    let dim = OperationBuilder::new(OpKind::PlTensorDim.name(), location)
        .add_operands(&[representative])
        .add_attributes(&[(
            Identifier::new(context, "axis"),
            IntegerAttribute::new(Type::parse(context, "i64").unwrap(), 0).into(),
        )])
        .add_results(&[Type::index(context)])
        .build()
        .map_err(|e| (kernel, e.to_string()))?;
    let extent = result_of(entry.insert_operation_before(first, dim));
    // The out parameters, one per result.
    let mut outputs = Vec::new();
    let mut outs = Vec::new();
    for index in 0..terminator.operand_count() {
        let r#type = terminator.operand(index).unwrap().r#type();
        outs.push(entry.add_argument(r#type, location));
        outputs.push(StripOutput {
            r#type,
            extent_of: plan.representative,
        });
    }
    let index = Type::index(context);
    let mut arguments = vec![(index, location)];
    arguments.extend(outputs.iter().map(|o| (o.r#type, location)));
    let region = Region::new();
    region.append_block(Block::new(&arguments));
    let types: Vec<Type> = outputs.iter().map(|o| o.r#type).collect();
    let for_op = OperationBuilder::new("scf.for", location)
        .add_operands(&[&[zero, extent, step][..], &outs].concat())
        .add_results(&types)
        .add_regions([region])
        .build()
        .map_err(|e| (kernel, e.to_string()))?;
    let for_op = entry.insert_operation_before(terminator, for_op);
    let body = for_op
        .region_opt(0)
        .and_then(|r| r.first_block())
        .expect("the loop's body");
    let offset: Value = body.argument(0).unwrap().into();
    let left = result_of(body.append_operation(arith::subi(extent, offset, location)));
    let valid_op = body.append_operation(arith::minsi(left, step, location));
    let valid = result_of(valid_op);
    for op in body_ops {
        body.append_operation(detach(op));
    }
    let mut yielded = Vec::new();
    for index in 0..terminator.operand_count() {
        let result = terminator.operand(index).unwrap();
        let carried: Value = body.argument(index + 1).unwrap().into();
        let assemble = OperationBuilder::new(OpKind::PlTensorAssemble.name(), location)
            .add_operands(&[result, carried, offset, zero])
            .add_results(&[carried.r#type()])
            .build()
            .map_err(|e| (kernel, e.to_string()))?;
        yielded.push(result_of(body.append_operation(assemble)));
    }
    body.append_operation(melior::dialect::scf::r#yield(&yielded, location));
    let mut edit = pto_dialects::ir::edit(terminator);
    for index in 0..outputs.len() {
        edit.set_operand(index, for_op.result(index).unwrap().into());
    }
    Ok((
        Strips {
            rows: plan.rows,
            body,
            offset,
            valid,
            anchor: valid_op,
        },
        outputs,
    ))
}
