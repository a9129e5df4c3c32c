//! `pl.tile.gather_compare` as scalar loops: a2a3's TGATHER compare form
//! takes only `eq` and `gt` and a tile of integer keys, so each valid row
//! is scanned element by element (docs/passes/pl-lower-math-ops.md).

use melior::{
    Context,
    dialect::arith,
    ir::{
        Block, BlockLike, Location, Type, Value, ValueLike,
        attribute::IntegerAttribute,
        operation::{OperationBuilder, OperationLike, OperationRef},
        r#type::{IntegerType, ShapedTypeLike, TypeLike},
    },
};
use pto_dialects::{
    enums::{CmpMode, EnumAttr},
    op_table::OpKind,
    ops::Checked,
    types::TileType,
};

use crate::pl::scf_build::for_carrying;

/// The comparison `x <cmp> key` of two scalars of one element type
/// (floats ordered except `ne`, as C++ compares them; integers signed).
fn compare<'c>(
    context: &'c Context,
    cmp: CmpMode,
    x: Value<'c, '_>,
    key: Value<'c, '_>,
    location: Location<'c>,
) -> melior::ir::Operation<'c> {
    use arith::{CmpfPredicate as F, CmpiPredicate as I};
    if x.r#type().is_float() {
        let predicate = match cmp {
            CmpMode::Eq => F::Oeq,
            CmpMode::Ne => F::Une,
            CmpMode::Lt => F::Olt,
            CmpMode::Le => F::Ole,
            CmpMode::Gt => F::Ogt,
            CmpMode::Ge => F::Oge,
        };
        arith::cmpf(context, predicate, x, key, location)
    } else {
        let predicate = match cmp {
            CmpMode::Eq => I::Eq,
            CmpMode::Ne => I::Ne,
            CmpMode::Lt => I::Slt,
            CmpMode::Le => I::Sle,
            CmpMode::Gt => I::Sgt,
            CmpMode::Ge => I::Sge,
        };
        arith::cmpi(context, predicate, x, key, location)
    }
}

/// Replaces `pl.tile.gather_compare` by two `scf.for` loops over the
/// source's valid rows and columns. The result starts as zeros
/// (`pl.tile.full`); the inner loop carries it and the row's match count
/// `m`, and at each column reads the element (`pl.tile.read`), compares
/// it with the key and writes `column + offset` at column `min(m, n - 1)`
/// when it matches and `m < n` (else the element there, unchanged), so
/// the loops have no branch. The outer loop writes each row's count
/// (`pl.tile.write`); `ui32` counts are the `i32` tile's bits
/// (`pl.tile.reinterpret_view`).
pub(super) fn lower<'c>(context: &'c Context, op: OperationRef<'c, '_>) -> Result<(), String> {
    let source = op.operand_opt(0).ok_or("expected a source")?;
    let key = op.operand_opt(1).ok_or("expected a key")?;
    let cmp = op
        .enum_attr::<CmpMode>("cmp")
        .ok_or("expected a comparison")?;
    let offset = op
        .attribute("offset")
        .ok()
        .and_then(|a| IntegerAttribute::try_from(a).ok())
        .map_or(0, |a| a.value());
    let (columns, counts) = (
        op.result_opt(0).ok_or("expected two results")?,
        op.result_opt(1).ok_or("expected two results")?,
    );
    let source_type = TileType::try_from(source.r#type()).map_err(|_| "expected a tile")?;
    let columns_type = TileType::try_from(columns.r#type()).map_err(|_| "expected a tile")?;
    let counts_type = TileType::try_from(counts.r#type()).map_err(|_| "expected a tile")?;
    let (rows, cols) = super::static_valid(source, "a gather_compare")?;
    let n = columns_type.shape()[1];
    let location = op.location();
    let insert = super::Before::new(context, op)?;
    let index = Type::index(context);
    let i32_type: Type = IntegerType::new(context, 32).into();
    let before = |new: melior::ir::Operation<'c>| insert.value(new);
    let build = |name: &str, operands: &[Value<'c, '_>], result: Type<'c>| {
        OperationBuilder::new(name, location)
            .add_operands(operands)
            .add_results(&[result])
            .build()
            .map_err(|e| e.to_string())
    };
    let (zero, one) = (insert.constant(0, index), insert.constant(1, index));
    let (row_count, col_count) = (insert.constant(rows, index), insert.constant(cols, index));
    let (last, width) = (insert.constant(n - 1, index), insert.constant(n, index));
    let offset = insert.constant(offset, i32_type);
    let zeros = before(build(
        OpKind::PlTileFull.name(),
        &[insert.constant(0, i32_type)],
        columns.r#type(),
    )?);
    let counts_i32: Type = counts_type.with_element(i32_type).into();
    let no_counts = before(build(OpKind::PlTileCreate.name(), &[], counts_i32)?);

    // The inner loop: one row's columns, carrying the result and the
    // row's match count.
    let outer = Block::new(&[
        (index, location),
        (columns.r#type(), location),
        (counts_i32, location),
    ]);
    let row: Value = outer.argument(0).unwrap().into();
    let inner = Block::new(&[
        (index, location),
        (columns.r#type(), location),
        (index, location),
    ]);
    {
        let append = |new: melior::ir::Operation<'c>| -> Value<'c, '_> {
            inner.append_operation(new).result(0).unwrap().into()
        };
        let column: Value = inner.argument(0).unwrap().into();
        let result: Value = inner.argument(1).unwrap().into();
        let matches: Value = inner.argument(2).unwrap().into();
        let element = source_type.element();
        let x = append(build(
            OpKind::PlTileRead.name(),
            &[source, row, column],
            element,
        )?);
        let hit = append(compare(context, cmp, x, key, location));
        let at = append(arith::minui(matches, last, location));
        let there = append(build(
            OpKind::PlTileRead.name(),
            &[result, row, at],
            i32_type,
        )?);
        let room = append(arith::cmpi(
            context,
            arith::CmpiPredicate::Ult,
            matches,
            width,
            location,
        ));
        let keep = append(arith::andi(hit, room, location));
        let position = append(arith::index_cast(column, i32_type, location));
        let position = append(arith::addi(position, offset, location));
        let value = append(arith::select(keep, position, there, location));
        let written = append(build(
            OpKind::PlTileWrite.name(),
            &[result, row, at, value],
            columns.r#type(),
        )?);
        let step = append(arith::select(hit, one, zero, location));
        let matches = append(arith::addi(matches, step, location));
        inner.append_operation(
            OperationBuilder::new("scf.yield", location)
                .add_operands(&[written, matches])
                .build()
                .map_err(|e| e.to_string())?,
        );
    }
    let scanned = outer.append_operation(for_carrying(
        location,
        [zero, col_count, one],
        &[outer.argument(1).unwrap().into(), zero],
        inner,
    )?);
    {
        let append = |new: melior::ir::Operation<'c>| -> Value<'c, '_> {
            outer.append_operation(new).result(0).unwrap().into()
        };
        let matches: Value = scanned.result(1).unwrap().into();
        let count = append(arith::index_cast(matches, i32_type, location));
        let counted = append(build(
            OpKind::PlTileWrite.name(),
            &[outer.argument(2).unwrap().into(), zero, row, count],
            counts_i32,
        )?);
        outer.append_operation(
            OperationBuilder::new("scf.yield", location)
                .add_operands(&[scanned.result(0).unwrap().into(), counted])
                .build()
                .map_err(|e| e.to_string())?,
        );
    }
    let rows_loop = insert.op(for_carrying(
        location,
        [zero, row_count, one],
        &[zeros, no_counts],
        outer,
    )?);
    let mut counted: Value = rows_loop.result(1).unwrap().into();
    if counted.r#type() != counts.r#type() {
        counted = before(build(
            OpKind::PlTileReinterpretView.name(),
            &[counted],
            counts.r#type(),
        )?);
    }
    let scanned: Value = rows_loop.result(0).unwrap().into();
    pto_dialects::ir::replace_all_uses(columns, scanned);
    pto_dialects::ir::replace_all_uses(counts, counted);
    pto_dialects::ir::erase(op);
    Ok(())
}
