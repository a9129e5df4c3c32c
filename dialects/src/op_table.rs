//! The op table: one entry per `pl` and `pld` op, generated at build time
//! from the ODS (`build/op_table.rs` reads `td/*.td`), so that every layer
//! (the verifier, the passes, pto-run, the emitter) matches on the same
//! [`OpKind`] instead of re-deriving an op's kind from its name
//! (docs/op-table.md).
//!
//! Structure (operands, results, attributes, regions, segments) comes from
//! the ops' ODS definitions; the facts ODS has no field for (family,
//! computation, pipe, in-place reuse, pto-isa instruction, a2a3 element
//! types, tile form) come from the `PTO_OpInfo` fields in
//! `td/PTOOpInfo.td`.

use melior::ir::operation::OperationLike;

use crate::{dtype::Dtype, enums::Pipe};

/// Which dialect an op belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Dialect {
    /// `pl`: tensors, tiles, functions, system ops.
    Pl,
    /// `pld`: the distributed layer.
    Pld,
}

/// The part of the dialect an op belongs to: the middle of its name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Group {
    /// `pl.tile.*`, `pld.tile.*`: on-chip tiles.
    Tile,
    /// `pl.tensor.*`, `pld.tensor.*`: tensors in global memory.
    Tensor,
    /// `pl.system.*`, `pld.system.*`: synchronisation, queries, signals.
    System,
    /// `pld.builtin.*`: the builtin collectives of host programs.
    Builtin,
    /// `pl.array.*`: small arrays of integers or task ids.
    Array,
    /// Functions, calls, scopes, terminators (`pl.call`, `pld.dispatch`).
    Top,
}

/// How many values an operand or result group holds, or whether an
/// attribute may be absent.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Arity {
    /// Exactly one value (a required attribute).
    One,
    /// Zero or one value (an optional, unit or defaulted attribute).
    Optional,
    /// Any number of values.
    Variadic,
}

/// One named operand group, result group or attribute of an op.
#[derive(Clone, Copy, Debug)]
pub struct Argument {
    /// The ODS name (`lhs`, `offsets`, `high_precision`).
    pub name: &'static str,
    /// The ODS constraint (`PL_AnyTile`, `Variadic<Index>`, `UnitAttr`).
    pub constraint: &'static str,
    /// How many values the group holds.
    pub arity: Arity,
}

/// The pipe an op's instruction occupies on a2a3.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PipeRule {
    /// The op issues no instruction (views, queries, control).
    None,
    /// Always this pipe.
    Fixed(Pipe),
    /// Decided by the memory space of operand 0: FIX from `acc`, MTE1 from
    /// `mat`, else the given pipe.
    BySourceSpace(Pipe),
    /// A transfer through a staging tile: an MTE2 read into it, then an
    /// MTE3 write out of it.
    Staged,
}

/// What every layer needs to know about one op.
#[derive(Debug)]
pub struct OpInfo {
    /// The op's kind.
    pub kind: OpKind,
    /// The op's full name (`pl.tile.add`).
    pub name: &'static str,
    /// Its dialect.
    pub dialect: Dialect,
    /// Its family.
    pub family: Family,
    /// What it computes, for elementwise, scalar, reduction and expansion
    /// ops.
    pub compute: Option<Compute>,
    /// The ODS summary.
    pub summary: &'static str,
    /// Operand groups in ODS order.
    pub operands: &'static [Argument],
    /// Result groups in ODS order.
    pub results: &'static [Argument],
    /// Attributes (inherent) in ODS order.
    pub attributes: &'static [Argument],
    /// Region names in ODS order.
    pub regions: &'static [&'static str],
    /// Whether `operandSegmentSizes` delimits the operand groups.
    pub operand_segments: bool,
    /// Whether `resultSegmentSizes` delimits the result groups.
    pub result_segments: bool,
    /// The a2a3 pipe its instruction occupies.
    pub pipe: PipeRule,
    /// Operands whose buffer the result may overwrite while the op reads
    /// them, when the operand has the result's type.
    pub in_place_operands: &'static [usize],
    /// The operand whose buffer the result is (an accumulating or updating
    /// op).
    pub tied_operand: Option<usize>,
    /// The operand the instruction uses as scratch (`tmp`): written as well
    /// as read.
    pub scratch_operand: Option<usize>,
    /// The pto-isa instruction the a2a3 lowering emits.
    pub instruction: Option<&'static str>,
    /// The element types the a2a3 instruction takes for its destination;
    /// empty when the verifier's rule is the whole story.
    pub a2a3_element_types: &'static [Dtype],
    /// The element types it takes for its first tile source, where it
    /// restricts the source rather than the destination.
    pub a2a3_source_types: &'static [Dtype],
    /// Whether it takes one element type for its destination and every
    /// tile source.
    pub a2a3_same_type: bool,
    /// For a tensor op, the tile op pl-convert-tensor-to-tile makes of it.
    pub tile_form: Option<OpKind>,
    /// The part of its dialect the op belongs to.
    pub group: Group,
}

include!(concat!(env!("OUT_DIR"), "/op_table.rs"));

impl OpKind {
    /// The kind of `op`, if it is a `pl` or `pld` op (see [`kind`]).
    pub fn of<'c: 'a, 'a>(op: &impl OperationLike<'c, 'a>) -> Option<OpKind> {
        kind(op)
    }

    /// The op's full name (`"pl.tile.add"`).
    pub fn name(self) -> &'static str {
        self.info().name
    }

    /// The op's family.
    pub fn family(self) -> Family {
        self.info().family
    }

    /// The index of the operand group named `name` in ODS order.
    pub fn operand_group(self, name: &str) -> Option<usize> {
        self.info().operands.iter().position(|o| o.name == name)
    }
}

impl OpInfo {
    /// Whether the op's result is a view of operand 0's buffer: a tile view
    /// that issues no instruction (`pl.tile.reshape`, `set_validshape`).
    pub fn is_tile_view(&self) -> bool {
        self.family == Family::TileView && self.pipe == PipeRule::None
    }

    /// Whether the op computes on tensors: a `pl.tensor` op other than a
    /// view, a shape query, a creation, a window copy or a scalar access;
    /// what an InCore kernel must have lowered to tiles.
    pub fn computes_on_tensors(&self) -> bool {
        self.dialect == Dialect::Pl
            && self.group == Group::Tensor
            && !matches!(self.family, Family::TensorView | Family::TensorAccess)
            && !matches!(self.kind, OpKind::PlTensorCreate | OpKind::PlTensorAssemble)
    }

    /// Whether the op runs on the cube unit (its family is the matmul
    /// family).
    pub fn is_cube(&self) -> bool {
        self.family == Family::TileMatmul
    }

    /// Whether the op computes on the vector unit, its tile operands in
    /// `vec`: the elementwise, reduction, broadcast, compare, select and
    /// cast families of tiles.
    pub fn is_vector_compute(&self) -> bool {
        matches!(
            self.family,
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
                | Family::TilePartial
                | Family::TileCarry
        )
    }

    /// Whether the op's operands are all single values, so that operand
    /// group `i` is operand `i`.
    pub fn fixed_operands(&self) -> bool {
        self.operands.iter().all(|o| o.arity == Arity::One)
    }
}

impl std::fmt::Display for OpKind {
    fn fmt(&self, formatter: &mut std::fmt::Formatter) -> std::fmt::Result {
        formatter.write_str(self.name())
    }
}

/// The kind of `op`, if it is a `pl` or `pld` op: the one place an op's
/// name is decoded.
pub fn kind<'c: 'a, 'a>(op: &impl OperationLike<'c, 'a>) -> Option<OpKind> {
    let name = crate::ir::strings::op_name(op);
    // Upstream ops (arith, scf, func) are most ops a pass asks about.
    if !name.starts_with("pl") {
        return None;
    }
    OpKind::from_name(name)
}
