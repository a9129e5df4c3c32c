//! `pl-lower-math-ops`: the tile ops a2a3 has no instruction for, as
//! primitive tile ops. What it does and why: [`PASS`]`.description` (also
//! docs/passes/pl-lower-math-ops.md).

use melior::{
    Context,
    dialect::{DialectHandle, arith},
    ir::{
        Attribute, BlockLike, Identifier, Type, Value, ValueLike,
        attribute::{FloatAttribute, IntegerAttribute},
        operation::{OperationBuilder, OperationLike, OperationRef, WalkOrder},
        r#type::{IntegerType, ShapedTypeLike},
    },
};
use pto_dialects::{
    composite::{self, Operand, Step},
    diag::{OpDiagnostic, Severity},
    enums::RoundMode,
    op_table::OpKind,
    ops::Checked,
    types::TileType,
};

mod gather_compare;
mod mscatter;
mod random;

use crate::{
    options::OptionValues,
    registry::{PassDefinition, PassFailed, Run},
};

/// The registry entry.
pub static PASS: PassDefinition = PassDefinition {
    argument: "pl-lower-math-ops",
    class_name: "LowerMathOps",
    summary: "Decompose pl.tile.sin, pl.tile.cos, the carrying ops, pl.tile.scatter_update, pl.tile.gather_row, pl.tile.gather_compare, pl.tile.mscatter and pl.tile.random into primitive tile ops",
    description: r#"a2a3 has no sine or cosine instruction. As PyPTO's LowerCompositeOps, this
pass replaces every `pl.tile.sin` and `pl.tile.cos` (f32) by primitive
elementwise tile ops of the same shape, memory space and view: with
k = round(x/π) (ties away from zero; cosine: rint(x/π + 1/2)), x is
reduced to t = x − kπ (cosine: + π/2) in [-π/2, π/2] by subtracting k
times each of five f32 parts of π (a Cody–Waite reduction, exact for
|k| < 2^14); the result is (−1)^k·sin(t), the sign computed without a
branch as 4·floor(k/2) − 2k + 1 and sin(t) by an odd polynomial of degree
9. That is 31 ops for a sine and 34 for a cosine: `pl.tile.muls`,
`pl.tile.adds`, `pl.tile.add`, `pl.tile.sub`, `pl.tile.mul` and four
`pl.tile.cast`s between f32 and i32 (modes round or rint, floor, none).
The absolute error is about 2e-7 for |x| up to 2^11·π; accuracy falls
past |x| ≈ 2^17 and |x/π| must fit in an i32. pto-run computes
`pl.tile.sin`/`pl.tile.cos` by the same steps, so a program computes the
same, bit for bit, before and after this pass.

```mlir
// before
%s = pl.tile.sin %x : !pl.tile<16x64xf32, vec>
// after (first and last of 31 ops)
%c = arith.constant 0.318309873 : f32
%0 = pl.tile.muls %x, %c : !pl.tile<16x64xf32, vec>, f32
%1 = pl.tile.cast %0 round : !pl.tile<16x64xf32, vec> -> !pl.tile<16x64xi32, vec>
...
%30 = pl.tile.mul %19, %29 : !pl.tile<16x64xf32, vec>, !pl.tile<16x64xf32, vec>
```

a2a3 has no instruction for the carrying ops either: `pl.tile.addc a, b,
c` becomes `pl.tile.add` of a and b, then `pl.tile.add` of c (`subc`:
`sub` then `add`; `addsc` and `subsc`: `adds` / `subs` of the scalar,
then `add`), each rounding, as pto-run computes them.

```mlir
// before
%r = pl.tile.subsc %a, %s, %c : !pl.tile<16x64xf16, vec>, f16
// after
%0 = pl.tile.subs %a, %s : !pl.tile<16x64xf16, vec>, f16
%r = pl.tile.add %0, %c : !pl.tile<16x64xf16, vec>, !pl.tile<16x64xf16, vec> -> !pl.tile<16x64xf16, vec>
```

Nor for `pl.tile.scatter_update`: it becomes row copies, two `scf.for`
loops over the index's positions carrying the input, each reading the
index (`pl.tile.read`), slicing the source's row (`pl.tile.slice`) and
assembling it into the input's row the index names (`pl.tile.assemble`),
in row-major order so a later position wins. The input is updated in place
when the op is its only reader, else a whole `pl.tile.slice` copies it
first.

```mlir
// before
%u = pl.tile.scatter_update %c, %i, %r : !pl.tile<32x64xf16, vec>, !pl.tile<2x8xi32, vec>, !pl.tile<16x64xf16, vec>
// after (the inner loop's body)
%at = pl.tile.read %i[%b, %j] : !pl.tile<2x8xi32, vec> -> i32
%row = pl.tile.slice %r[%p, %c0] : !pl.tile<16x64xf16, vec> -> !pl.tile<1x64xf16, vec>
%w = pl.tile.assemble %row into %acc[%at_index, %c0] : !pl.tile<1x64xf16, vec>, !pl.tile<32x64xf16, vec>
```

A `pl.tile.gather_row` is a `pl.tile.load` of the source's window (valid
for its `valid` corner) and a `pl.tile.assemble` of it into the target
at the target's offsets (TINSERT writes the loaded tile's valid region);
a target in `mat` is an error: a row of an NZ tile is not a window a load
can write yet.

```mlir
// before
%t2 = pl.tile.gather_row %c[%p, %c0] into %t[%i, %c0] shape [1, 128] : !pl.tensor<256x128xf16>, !pl.tile<16x128xf16, vec>
// after
%w = pl.tile.load %c[%p, %c0] : !pl.tensor<256x128xf16> -> !pl.tile<1x128xf16, vec>
%t2 = pl.tile.assemble %w into %t[%i, %c0] : !pl.tile<1x128xf16, vec>, !pl.tile<16x128xf16, vec>
```

a2a3's compare gather (TGATHER's compare form) takes only `eq` and `gt`
and a tile of integer keys, so a `pl.tile.gather_compare` becomes two
`scf.for` loops over the source's valid rows and columns (a static valid
region; a dynamic one is an error). The result starts as zeros
(`pl.tile.full`); the inner loop carries it and the row's match count m,
reads each element (`pl.tile.read`), compares it with the key
(`arith.cmpf`, ordered but for `ne`; `arith.cmpi`, signed) and writes
`column + offset` at column min(m, n − 1) when it matches and m < n, else
the element already there, so the loop has no branch; the outer loop
writes each row's count into an `i32` tile, `ui32` counts being its bits
(`pl.tile.reinterpret_view`).

```mlir
// before
%i, %n = pl.tile.gather_compare %x, %k ge offset 16 : !pl.tile<4x16xf32, vec>, f32 -> !pl.tile<4x8xi32, vec>, !pl.tile<1x4xi32, vec>
// after (the inner loop's body)
%x0 = pl.tile.read %x[%r, %c] : !pl.tile<4x16xf32, vec> -> f32
%hit = arith.cmpf oge, %x0, %k : f32
%at = arith.minui %m, %c7 : index
%old = pl.tile.read %acc[%r, %at] : !pl.tile<4x8xi32, vec> -> i32
%room = arith.cmpi ult, %m, %c8 : index
%keep = arith.andi %hit, %room : i1
%col = arith.index_cast %c : index to i32
%pos = arith.addi %col, %c16_i32 : i32
%v = arith.select %keep, %pos, %old : i32
%w = pl.tile.write %acc[%r, %at], %v : !pl.tile<4x8xi32, vec>, i32
```

A `pl.tile.mscatter` becomes stores: a2a3's MSCATTER writes elements
through the scalar cache, which its DMAs do not see, and pto-isa spells
it without its mode (which its CPU backend reads as the other mode). A
row scatter is an `scf.for` over the source's valid rows carrying the
table, each reading its index (`pl.tile.read`; `ui32` indices as their
`i32` bits via `pl.tile.reinterpret_view`, cast unsigned), slicing the row
(`pl.tile.slice`) and storing it at the indexed row (`pl.tile.store`,
`atomic_add` kept); an element scatter is two loops over the valid
elements storing one-element slices at the flat index's row and column
(a vector table: at the index, `partition [1]`). `clamp` takes the
minimum with the last row or element, `wrap` the remainder by the table's
rows or elements (`pl.tensor.dim` where dynamic), and `skip` puts the
store in an `scf.for` of one trip inside the table and none outside it.

```mlir
// before
%w = pl.tile.mscatter %x, %i into %t elem oob wrap : !pl.tile<2x8xf32, vec>, !pl.tile<2x8xi32, vec>, !pl.tensor<4x8xf32>
// after (the inner loop's body)
%raw = pl.tile.read %i[%r, %c] : !pl.tile<2x8xi32, vec> -> i32
%at = arith.index_castui %raw : i32 to index
%w = arith.remui %at, %c32 : index
%e = pl.tile.slice %x[%r, %c] : !pl.tile<2x8xf32, vec> -> !pl.tile<1x1xf32, vec>
%row = arith.divui %w, %c8 : index
%col = arith.remui %w, %c8 : index
%t2 = pl.tile.store %e, %t1[%row, %col] : !pl.tile<1x1xf32, vec>, !pl.tensor<4x8xf32>
```

a2a3 has no TRANDOM (pto-isa implements it for a5), so a `pl.tile.random`
is computed on the scalar pipe: two `scf.for` loops over the valid
elements carry an `i32` tile (`ui32` is its bits); each element's counter
offset, `(row * groups + column / 256) * storage / 4 + column mod 64` with
`storage` the row's columns rounded up to 8, is `index` arithmetic; the
128-bit counter is advanced word by word through `i64` sums and carries;
the rounds are an `scf.for` carrying the four words and the key, the high
words of the products taken from `i64` products (`arith.extui`,
`arith.muli`, `arith.shrui`); the element's word is selected
(`arith.select`) and written (`pl.tile.write`). pto-run computes TRANDOM
as pto-isa's CPU backend does, so the values are the same before and after.

`pto-a2a3-pipeline` runs it on every function after the tensor-to-tile
conversion and the distributed lowering, before tiles are flattened to
2-D."#,
    example_options: "",
    anchor: Some("func.func"),
    options: &[],
    dependent_dialects: || vec![DialectHandle::arith(), DialectHandle::scf()],
    run: Run::Op(run),
};

fn run(function: OperationRef, _options: &OptionValues) -> Result<(), PassFailed> {
    let targets = pto_dialects::ir::collect(function, WalkOrder::PreOrder, |op| {
        OpKind::of(&op).is_some_and(|kind| {
            matches!(
                kind,
                OpKind::PlTileSin
                    | OpKind::PlTileCos
                    | OpKind::PlTileScatterUpdate
                    | OpKind::PlTileGatherRow
                    | OpKind::PlTileGatherCompare
                    | OpKind::PlTileMscatter
                    | OpKind::PlTileRandom
            ) || carried_step(kind).is_some()
        })
    });
    if targets.is_empty() {
        crate::registry::left_unchanged();
    }
    let context = pto_dialects::ir::context(&function);
    let mut failed = false;
    for op in targets {
        let lowered = match OpKind::of(&op) {
            Some(OpKind::PlTileScatterUpdate) => lower_scatter_update(context, op),
            Some(OpKind::PlTileGatherRow) => lower_gather_row(context, op),
            Some(OpKind::PlTileGatherCompare) => gather_compare::lower(context, op),
            Some(OpKind::PlTileMscatter) => mscatter::lower(context, op),
            Some(OpKind::PlTileRandom) => random::lower(context, op),
            kind => match kind.and_then(carried_step) {
                Some(step) => lower_carry(op, step),
                None => lower(context, op),
            },
        };
        if let Err(message) = lowered {
            OpDiagnostic::new(format!("pl-lower-math-ops: {message}")).emit(op, Severity::Error);
            failed = true;
        }
    }
    if failed { Err(PassFailed) } else { Ok(()) }
}

/// Inserts ops before the op a lowering replaces.
struct Before<'c, 'a> {
    context: &'c Context,
    op: OperationRef<'c, 'a>,
    block: melior::ir::BlockRef<'c, 'a>,
}

impl<'c, 'a> Before<'c, 'a> {
    fn new(context: &'c Context, op: OperationRef<'c, 'a>) -> Result<Self, String> {
        let block = op.block().ok_or("the op is in no block")?;
        Ok(Self { context, op, block })
    }

    /// Inserts `new` before the op.
    fn op(&self, new: melior::ir::Operation<'c>) -> OperationRef<'c, 'a> {
        self.block.insert_operation_before(self.op, new)
    }

    /// Inserts `new` before the op and returns its first result.
    fn value(&self, new: melior::ir::Operation<'c>) -> Value<'c, 'a> {
        self.op(new).result(0).unwrap().into()
    }

    /// An integer constant of `type`.
    fn constant(&self, value: i64, r#type: Type<'c>) -> Value<'c, 'a> {
        self.value(arith::constant(
            self.context,
            IntegerAttribute::new(r#type, value).into(),
            self.op.location(),
        ))
    }

    /// An `index` constant.
    fn index(&self, value: i64) -> Value<'c, 'a> {
        self.constant(value, Type::index(self.context))
    }
}

/// The static valid rows and columns of the 2-D tile `value`, which `what`
/// (the op, for the error) reads.
fn static_valid(value: Value, what: &str) -> Result<(i64, i64), String> {
    let tile = TileType::try_from(value.r#type()).map_err(|_| "expected a tile")?;
    match tile.effective_view().valid_shape[..] {
        [Some(rows), Some(cols)] => Ok((rows, cols)),
        _ => Err(format!(
            "{what} of a source with a dynamic valid region is not lowered yet, got {}",
            value.r#type()
        )),
    }
}

/// The first step of a carrying op (the carry is then added).
fn carried_step(kind: OpKind) -> Option<OpKind> {
    Some(match kind {
        OpKind::PlTileAddc => OpKind::PlTileAdd,
        OpKind::PlTileSubc => OpKind::PlTileSub,
        OpKind::PlTileAddsc => OpKind::PlTileAdds,
        OpKind::PlTileSubsc => OpKind::PlTileSubs,
        _ => return None,
    })
}

/// Replaces the carrying `op` (`lhs`, `rhs`, `carry`) by `step` of `lhs`
/// and `rhs`, then the carry added.
fn lower_carry(op: OperationRef<'_, '_>, step: OpKind) -> Result<(), String> {
    let operand = |i: usize| op.operand_opt(i).ok_or("expected three operands");
    let (lhs, rhs, carry) = (operand(0)?, operand(1)?, operand(2)?);
    let result = op.result_opt(0).ok_or("expected a result")?;
    let tile = lhs.r#type();
    let block = op.block().ok_or("the op is in no block")?;
    let mut last: Option<Value> = None;
    for (kind, operands) in [(step, [lhs, rhs]), (OpKind::PlTileAdd, [lhs, carry])] {
        let operands = [last.unwrap_or(operands[0]), operands[1]];
        let built = OperationBuilder::new(kind.name(), op.location())
            .add_operands(&operands)
            .add_results(&[tile])
            .build()
            .map_err(|e| e.to_string())?;
        let inserted = block.insert_operation_before(op, built);
        last = inserted.result_opt(0).map(Into::into);
    }
    let last = last.ok_or("the decomposition built no result")?;
    pto_dialects::ir::replace_all_uses(result, last);
    pto_dialects::ir::erase(op);
    Ok(())
}

/// Replaces the sine or cosine `op` by its steps, built before it.
fn lower<'c>(context: &'c Context, op: OperationRef<'c, '_>) -> Result<(), String> {
    let cos = OpKind::of(&op) == Some(OpKind::PlTileCos);
    let input = op.operand_opt(0).ok_or("expected an operand")?;
    let result = op.result_opt(0).ok_or("expected a result")?;
    let tile = TileType::try_from(input.r#type()).map_err(|_| "expected a tile operand")?;
    let f32_type: Type = melior::ir::r#type::Type::float32(context);
    if tile.element() != f32_type {
        return Err(format!("expected an f32 tile, got {}", input.r#type()));
    }
    let i32_tile: Type = tile
        .with_element(IntegerType::new(context, 32).into())
        .into();
    let f32_tile: Type = tile.into();
    let location = op.location();
    let block = op.block().ok_or("the op is in no block")?;
    let mut values: Vec<Value> = Vec::new();
    let insert = |operation: melior::ir::Operation<'c>| -> Result<Value<'c, '_>, String> {
        let inserted = block.insert_operation_before(op, operation);
        inserted
            .result_opt(0)
            .map(Into::into)
            .ok_or_else(|| "a step built no result".to_string())
    };
    let scalar = |value: f32| -> Result<Value, String> {
        insert(arith::constant(
            context,
            FloatAttribute::new(context, f32_type, f64::from(value)).into(),
            location,
        ))
    };
    for step in composite::sine_or_cosine(cos) {
        let read = |operand: Operand| match operand {
            Operand::Input => input,
            Operand::Step(n) => values[n],
        };
        let (name, operands, result_type, mode) = match step {
            Step::MulScalar(a, c) => (
                OpKind::PlTileMuls,
                vec![read(a), scalar(c)?],
                f32_tile,
                None,
            ),
            Step::AddScalar(a, c) => (
                OpKind::PlTileAdds,
                vec![read(a), scalar(c)?],
                f32_tile,
                None,
            ),
            Step::Add(a, b) => (OpKind::PlTileAdd, vec![read(a), read(b)], f32_tile, None),
            Step::Sub(a, b) => (OpKind::PlTileSub, vec![read(a), read(b)], f32_tile, None),
            Step::Mul(a, b) => (OpKind::PlTileMul, vec![read(a), read(b)], f32_tile, None),
            Step::ToI32(a, mode) => (OpKind::PlTileCast, vec![read(a)], i32_tile, Some(mode)),
            Step::ToF32(a) => (
                OpKind::PlTileCast,
                vec![read(a)],
                f32_tile,
                Some(RoundMode::None),
            ),
        };
        let mut builder = OperationBuilder::new(name.name(), location)
            .add_operands(&operands)
            .add_results(&[result_type]);
        if let Some(mode) = mode {
            let code: Attribute =
                IntegerAttribute::new(IntegerType::new(context, 32).into(), mode as i64).into();
            builder = builder.add_attributes(&[(Identifier::new(context, "mode"), code)]);
        }
        let built = builder.build().map_err(|e| e.to_string())?;
        values.push(insert(built)?);
    }
    let last = *values.last().ok_or("the decomposition has no steps")?;
    pto_dialects::ir::replace_all_uses(result, last);
    pto_dialects::ir::erase(op);
    Ok(())
}

/// Replaces `pl.tile.scatter_update` by row copies: for each position of
/// the index (`[b, s]`) in row-major order, `pl.tile.read` of the index,
/// `pl.tile.slice` of the source's row and `pl.tile.assemble` of it into
/// the input's row there, the loops carrying the input (a whole
/// `pl.tile.slice` copy of it when something else reads it too).
fn lower_scatter_update<'c>(context: &'c Context, op: OperationRef<'c, '_>) -> Result<(), String> {
    use crate::pl::scf_build::nested_for;
    let operand = |i: usize| op.operand_opt(i).ok_or("expected three operands");
    let (input, index, source) = (operand(0)?, operand(1)?, operand(2)?);
    let result = op.result_opt(0).ok_or("expected a result")?;
    let tile = TileType::try_from(input.r#type()).map_err(|_| "expected a tile input")?;
    let index_type = TileType::try_from(index.r#type()).map_err(|_| "expected a tile index")?;
    let source_type = TileType::try_from(source.r#type()).map_err(|_| "expected a tile source")?;
    let [b, s] = index_type.shape()[..] else {
        return Err("expected a 2-D index".into());
    };
    let location = op.location();
    let insert = Before::new(context, op)?;
    let before = |new: melior::ir::Operation<'c>| insert.value(new);
    let (zero, one, rows, cols) = (
        insert.index(0),
        insert.index(1),
        insert.index(b),
        insert.index(s),
    );
    let slice = |of: Value<'c, '_>, row: Value<'c, '_>, r#type: Type<'c>| {
        let built = OperationBuilder::new(OpKind::PlTileSlice.name(), location)
            .add_operands(&[of, row, zero])
            .add_results(&[r#type])
            .build()
            .expect("pl.tile.slice builds");
        pto_dialects::ops::with_operand_segments(context, built, &[1, 2, 0])
    };
    // The input is updated in place: a copy unless this op is its only
    // reader.
    let init = if pto_dialects::ir::uses(input).len() == 1 {
        input
    } else {
        before(slice(input, zero, input.r#type()))
    };
    let row_type: Type = TileType::new(
        context,
        &[1, source_type.shape()[1]],
        source_type.element(),
        source_type.memory_space(),
    )
    .into();
    let tile_type: Type = tile.into();
    let loops = nested_for(
        context,
        location,
        [zero, one, rows, cols],
        init,
        |inner, bi, si, carried| {
            let append = |new: melior::ir::Operation<'c>| -> Value<'c, '_> {
                inner.append_operation(new).result(0).unwrap().into()
            };
            let at = append(
                OperationBuilder::new(OpKind::PlTileRead.name(), location)
                    .add_operands(&[index, bi, si])
                    .add_results(&[index_type.element()])
                    .build()
                    .map_err(|e| e.to_string())?,
            );
            let at = append(arith::index_cast(at, Type::index(context), location));
            let scaled = append(arith::muli(bi, cols, location));
            let position = append(arith::addi(scaled, si, location));
            let row = append(slice(source, position, row_type));
            Ok(append(
                OperationBuilder::new(OpKind::PlTileAssemble.name(), location)
                    .add_operands(&[row, carried, at, zero])
                    .add_results(&[tile_type])
                    .build()
                    .map_err(|e| e.to_string())?,
            ))
        },
    )?;
    let updated = before(loops);
    pto_dialects::ir::replace_all_uses(result, updated);
    pto_dialects::ir::erase(op);
    Ok(())
}

/// `pl.tile.gather_row` as a load of the source's window and an assemble
/// of it into the target.
fn lower_gather_row<'c>(context: &'c Context, op: OperationRef<'c, '_>) -> Result<(), String> {
    use pto_dialects::types::{MemorySpace, TileView};
    let target = op.operand_opt(1).ok_or("expected a target")?;
    let tile = TileType::try_from(target.r#type()).map_err(|_| "expected a tile target")?;
    if tile.memory_space() == Some(MemorySpace::Mat) {
        return Err(
            "a gather_row into a tile in mat is not lowered yet (a row of an NZ tile is not a window a load can write); gather into vec"
                .into(),
        );
    }
    let shape: Vec<i64> = op
        .attribute("shape")
        .ok()
        .and_then(|a| melior::ir::attribute::DenseI64ArrayAttribute::try_from(a).ok())
        .map(|a| (0..a.len()).filter_map(|i| a.element(i).ok()).collect())
        .ok_or("expected a shape")?;
    let segments = pto_dialects::ops::operand_segments(op);
    let group = |i: usize| -> Vec<Value<'c, '_>> {
        segments.get(i).map_or_else(Vec::new, |&(start, len)| {
            (start..start + len)
                .filter_map(|k| op.operand_opt(k))
                .collect()
        })
    };
    let (source_offsets, target_offsets, valid) = (group(2), group(3), group(4));
    let source = op.operand_opt(0).ok_or("expected a source")?;
    // The window's valid extents: the constant ones static in its type.
    let view = TileView {
        valid_shape: Some(if valid.is_empty() {
            shape.iter().map(|&e| Some(e)).collect()
        } else {
            valid
                .iter()
                .map(|v| pto_dialects::ops::constant_int(*v))
                .collect()
        }),
        ..TileView::default()
    };
    let dynamic: Vec<Value> = valid
        .iter()
        .copied()
        .filter(|v| pto_dialects::ops::constant_int(*v).is_none())
        .collect();
    let window_type: Type =
        TileType::with_view(context, &shape, tile.element(), tile.memory_space(), &view).into();
    let location = op.location();
    let load = OperationBuilder::new(OpKind::PlTileLoad.name(), location)
        .add_operands(&[&[source][..], &source_offsets, &dynamic].concat())
        .add_results(&[window_type])
        .build()
        .map_err(|e| e.to_string())?;
    let load = pto_dialects::ops::with_operand_segments(
        context,
        load,
        &[1, source_offsets.len() as i32, dynamic.len() as i32],
    );
    let block = op.block().ok_or("the op is in no block")?;
    let window: Value = block
        .insert_operation_before(op, load)
        .result(0)
        .unwrap()
        .into();
    let assemble = OperationBuilder::new(OpKind::PlTileAssemble.name(), location)
        .add_operands(&[&[window, target][..], &target_offsets].concat())
        .add_results(&[target.r#type()])
        .build()
        .map_err(|e| e.to_string())?;
    let assembled: Value = block
        .insert_operation_before(op, assemble)
        .result(0)
        .unwrap()
        .into();
    let result = op.result_opt(0).ok_or("expected a result")?;
    pto_dialects::ir::replace_all_uses(result, assembled);
    pto_dialects::ir::erase(op);
    Ok(())
}
