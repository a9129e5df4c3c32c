//! `pl.tile.random` as scalar arithmetic: a2a3 has no TRANDOM (pto-isa
//! implements it for a5), so each valid element's Philox-4x32 is computed
//! on the scalar pipe (docs/passes/pl-lower-math-ops.md).

use melior::{
    Context,
    dialect::arith,
    ir::{
        Block, BlockLike, Location, Type, Value, ValueLike,
        attribute::IntegerAttribute,
        operation::{Operation, OperationBuilder, OperationLike, OperationRef},
        r#type::IntegerType,
    },
};
use pto_dialects::{op_table::OpKind, ops::Checked, types::TileType};

use crate::pl::scf_build::{for_carrying, nested_for};

/// Philox-4x32's multipliers and key increments (pto-isa's TRANDOM).
const MULTIPLIERS: [i64; 2] = [0xD251_1F53, 0xCD9E_8D57];
const KEY_STEPS: [u32; 2] = [0x9E37_79B9, 0xBB67_AE85];
/// The lanes of one TRANDOM repeat and the columns of one group of four.
const LANES: i64 = 64;
const GROUP: i64 = 4 * LANES;

/// Builds scalar arithmetic at the end of one block.
struct Scalars<'c, 'b> {
    context: &'c Context,
    location: Location<'c>,
    block: &'b Block<'c>,
}

impl<'c, 'b> Scalars<'c, 'b> {
    fn push(&self, op: Operation<'c>) -> Value<'c, 'b> {
        self.block.append_operation(op).result(0).unwrap().into()
    }

    fn constant(&self, value: i64, bits: u32) -> Value<'c, 'b> {
        let r#type = IntegerType::new(self.context, bits).into();
        self.push(arith::constant(
            self.context,
            IntegerAttribute::new(r#type, value).into(),
            self.location,
        ))
    }

    fn cast(&self, name: &str, value: Value<'c, '_>, bits: u32) -> Value<'c, 'b> {
        self.push(
            OperationBuilder::new(name, self.location)
                .add_operands(&[value])
                .add_results(&[IntegerType::new(self.context, bits).into()])
                .build()
                .expect("an integer cast builds"),
        )
    }

    /// `value` (`i32`) read unsigned as an `i64`.
    fn wide(&self, value: Value<'c, '_>) -> Value<'c, 'b> {
        self.cast("arith.extui", value, 64)
    }

    /// The low 32 bits of `value` (`i64`).
    fn low(&self, value: Value<'c, '_>) -> Value<'c, 'b> {
        self.cast("arith.trunci", value, 32)
    }

    /// The high 32 bits of `value` (`i64`).
    fn high(&self, value: Value<'c, '_>) -> Value<'c, 'b> {
        let shifted = self.push(arith::shrui(value, self.constant(32, 64), self.location));
        self.low(shifted)
    }
}

/// Replaces `pl.tile.random` by two `scf.for` loops over the valid
/// elements carrying the result (an `i32` tile; `ui32` is its bits by
/// `pl.tile.reinterpret_view`): each element's counter offset from its row,
/// group, lane and the tile's row storage (as TRANDOM places them), the
/// 128-bit counter advanced with `i64` carries, the rounds an `scf.for`
/// carrying the four words and the key (`i64` products for the high
/// words), and the element's word selected and written (`pl.tile.write`).
pub(super) fn lower<'c>(context: &'c Context, op: OperationRef<'c, '_>) -> Result<(), String> {
    let seeds: Vec<Value> = (0..6).filter_map(|i| op.operand_opt(i)).collect();
    if seeds.len() != 6 {
        return Err("expected two keys and four counter words".into());
    }
    let result = op.result_opt(0).ok_or("expected a result")?;
    let tile = TileType::try_from(result.r#type()).map_err(|_| "expected a tile")?;
    let (valid_rows, valid_cols) = super::static_valid(result.into(), "a random tile")?;
    let rounds = op
        .attribute("rounds")
        .ok()
        .and_then(|a| IntegerAttribute::try_from(a).ok())
        .map_or(10, |a| a.value());
    let cols = tile.shape()[1];
    // TRANDOM advances a row's counter by its storage's 4-word chunks.
    let stride = (cols + 7) / 8 * 8 / 4;
    let groups = (valid_cols + GROUP - 1) / GROUP;
    let location = op.location();
    let insert = super::Before::new(context, op)?;
    let i32_type: Type = IntegerType::new(context, 32).into();
    let words_type: Type = tile.with_element(i32_type).into();
    let index = Type::index(context);
    let before = |new: Operation<'c>| insert.value(new);
    let index_constant = |value: i64| {
        arith::constant(
            context,
            IntegerAttribute::new(index, value).into(),
            location,
        )
    };
    let (zero, one) = (insert.index(0), insert.index(1));
    let (rows, columns) = (insert.index(valid_rows), insert.index(valid_cols));
    let empty = before(
        OperationBuilder::new(OpKind::PlTileCreate.name(), location)
            .add_results(&[words_type])
            .build()
            .map_err(|e| e.to_string())?,
    );
    let loops = nested_for(
        context,
        location,
        [zero, one, rows, columns],
        empty,
        |inner, row, column, carried| {
            let s = Scalars {
                context,
                location,
                block: inner,
            };
            // The element's place in `index` arithmetic (unsigned division
            // of `i64` does not reach C++ through the upstream conversion),
            // then its counter offset as an `i64`.
            let at = |value: i64| s.push(index_constant(value));
            let group = s.push(arith::divui(column, at(GROUP), location));
            let in_group = s.push(arith::remui(column, at(GROUP), location));
            let repeat = s.push(arith::divui(in_group, at(LANES), location));
            let lane = s.push(arith::remui(column, at(LANES), location));
            let chunk = s.push(arith::muli(row, at(groups), location));
            let chunk = s.push(arith::addi(chunk, group, location));
            let offset = s.push(arith::muli(chunk, at(stride), location));
            let offset = s.push(arith::addi(offset, lane, location));
            let offset = s.cast("arith.index_castui", offset, 64);
            // The counter plus the offset, word by word with carries.
            let mut carry = offset;
            let mut words = Vec::with_capacity(4);
            for seed in &seeds[2..5] {
                let sum = s.push(arith::addi(s.wide(*seed), carry, location));
                words.push(s.low(sum));
                carry = s.push(arith::shrui(sum, s.constant(32, 64), location));
            }
            words.push(s.push(arith::addi(seeds[5], s.low(carry), location)));
            let mut inits = words.clone();
            inits.extend([seeds[0], seeds[1]]);
            let body = Block::new(&[
                (index, location),
                (i32_type, location),
                (i32_type, location),
                (i32_type, location),
                (i32_type, location),
                (i32_type, location),
                (i32_type, location),
            ]);
            {
                let b = Scalars {
                    context,
                    location,
                    block: &body,
                };
                let arg = |i: usize| -> Value { body.argument(i).unwrap().into() };
                let (n, key) = ([arg(1), arg(2), arg(3), arg(4)], [arg(5), arg(6)]);
                let product = |word: Value<'c, '_>, m: i64| {
                    b.push(arith::muli(b.wide(word), b.constant(m, 64), location))
                };
                let (p0, p1) = (product(n[0], MULTIPLIERS[0]), product(n[2], MULTIPLIERS[1]));
                let mix = |high: Value<'c, '_>, word: Value<'c, '_>, key: Value<'c, '_>| {
                    let x = b.push(arith::xori(high, word, location));
                    b.push(arith::xori(x, key, location))
                };
                let next = [
                    mix(b.high(p1), n[1], key[0]),
                    b.low(p1),
                    mix(b.high(p0), n[3], key[1]),
                    b.low(p0),
                ];
                let step = |key: Value<'c, '_>, by: u32| {
                    b.push(arith::addi(
                        key,
                        b.constant(i64::from(by as i32), 32),
                        location,
                    ))
                };
                let keys = [step(key[0], KEY_STEPS[0]), step(key[1], KEY_STEPS[1])];
                body.append_operation(
                    OperationBuilder::new("scf.yield", location)
                        .add_operands(&[&next[..], &keys[..]].concat())
                        .build()
                        .map_err(|e| e.to_string())?,
                );
            }
            let rounds_loop = inner.append_operation(for_carrying(
                location,
                [zero, s.push(index_constant(rounds)), one],
                &inits,
                body,
            )?);
            let word = |i: usize| -> Value { rounds_loop.result(i).unwrap().into() };
            // Word `repeat` of the four.
            let mut chosen = word(3);
            for i in (0..3).rev() {
                let is = s.push(arith::cmpi(
                    context,
                    arith::CmpiPredicate::Eq,
                    repeat,
                    at(i as i64),
                    location,
                ));
                chosen = s.push(arith::select(is, word(i), chosen, location));
            }
            Ok(s.push(
                OperationBuilder::new(OpKind::PlTileWrite.name(), location)
                    .add_operands(&[carried, row, column, chosen])
                    .add_results(&[words_type])
                    .build()
                    .map_err(|e| e.to_string())?,
            ))
        },
    )?;
    let mut random = before(loops);
    if words_type != result.r#type() {
        random = before(
            OperationBuilder::new(OpKind::PlTileReinterpretView.name(), location)
                .add_operands(&[random])
                .add_results(&[result.r#type()])
                .build()
                .map_err(|e| e.to_string())?,
        );
    }
    pto_dialects::ir::replace_all_uses(result, random);
    pto_dialects::ir::erase(op);
    Ok(())
}
