//! Cross-core pipes in `convert-pl-to-emitc`: pto-isa's `TPipe` with its
//! `TPUSH`/`TPOP`/`TFREE`, through [`PIPE_HELPERS`]
//! (docs/passes/convert-pl-to-emitc.md).

use melior::ir::{
    BlockLike, OperationRef, RegionLike, Value, ValueLike,
    attribute::IntegerAttribute,
    operation::{OperationLike, OperationMutLike, WalkOrder},
    r#type::IntegerType,
};
use pto_dialects::{
    enums::{CoreSplit, EnumAttr, PipeDirections},
    ir::ValueKey,
    ops::{Checked, OpKind, operand_at, result_at},
    types::TileType,
};

use super::{Failure, Lowering, int_attribute, materialization, no_lowering};
use crate::emitc::{
    build::{opaque, opaque_attribute},
    cpp_types,
};

/// A pipe with what its consumer needs besides pto-isa's `TPipe`: the
/// address of its ring of local slots and the count of its pops. A popped
/// tile lives in local slot `pops % LOCAL_SLOT_NUM` of the ring: a2a3's
/// TPOP points the tile there itself, pto-isa's CPU backend copies into
/// the tile's storage, so the tile is bound to the slot first (the same
/// address either way).
pub(super) const PIPE_HELPERS: &str = "#ifndef PTO_PIPE_HELPERS
#define PTO_PIPE_HELPERS
template <typename Pipe> struct PtoPipe {
  Pipe pipe;
  uint32_t ring;
  uint32_t pops;
};
template <typename Pipe> static AICORE inline PtoPipe<Pipe> pto_pipe(__gm__ void* gm, uint32_t c2v, uint32_t v2c, uint32_t ring) {
  return PtoPipe<Pipe>{Pipe(gm, c2v, v2c), ring, 0};
}
template <TileSplitAxis Split, typename Pipe, typename T> static AICORE inline void pto_tpush(PtoPipe<Pipe>& p, T& tile) {
  TPUSH<Pipe, T, Split>(p.pipe, tile);
}
template <TileSplitAxis Split, typename Pipe, typename T> static AICORE inline void pto_tpop(PtoPipe<Pipe>& p, T& tile) {
  TASSIGN(tile, p.ring + (p.pops % Pipe::RingFiFo::LOCAL_SLOT_NUM) * Pipe::RingFiFo::SLOT_SIZE);
  TPOP<Pipe, T, Split>(p.pipe, tile);
  ++p.pops;
}
template <TileSplitAxis Split, typename Pipe> static AICORE inline void pto_tfree(PtoPipe<Pipe>& p) {
  TFREE<Pipe, Split>(p.pipe);
}
#endif";

/// pto-isa's name of a split.
fn split_axis(split: CoreSplit) -> &'static str {
    match split {
        CoreSplit::None => "TileSplitAxis::TILE_NO_SPLIT",
        CoreSplit::UpDown => "TileSplitAxis::TILE_UP_DOWN",
        CoreSplit::LeftRight => "TileSplitAxis::TILE_LEFT_RIGHT",
    }
}

impl<'c, 'a> Lowering<'c, 'a> {
    /// The cross-core family: reservations and imports are their planned
    /// addresses; a set-up is `pto_pipe<TPipe<id, dirs, slot_size, slots,
    /// local>>(gm, c2v, v2c, ring)`; pushes, pops and frees call
    /// `pto_tpush<split>(pipe, tile)`, `pto_tpop<split>(pipe, tile)` (into
    /// a new `Tile<…>`) and `pto_tfree<split>(pipe)` of their pipe.
    pub(super) fn cross_core(
        &mut self,
        op: OperationRef<'c, 'a>,
        kind: OpKind,
    ) -> Result<(), Failure<'c, 'a>> {
        self.pipes_used = true;
        match kind {
            OpKind::PlSystemReserveBuffer => {
                let base = int_attribute(op, "base").ok_or((
                    op,
                    "this ring has no planned address (run pl-plan-memory first)".to_string(),
                ))?;
                self.address_constant(op, base)
            }
            OpKind::PlSystemImportPeerBuffer => {
                let base = int_attribute(op, "base")
                    .or_else(|| peer_base(op))
                    .ok_or((
                        op,
                        "the address of the peer's ring is not known here: plan the peer kernel's memory (pl-plan-memory) in the same module, or record it as `base` (pto-translate does)".to_string(),
                    ))?;
                self.address_constant(op, base)
            }
            OpKind::PlSystemAicInitializePipe | OpKind::PlSystemAivInitializePipe => {
                self.set_up_pipe(op, kind == OpKind::PlSystemAicInitializePipe)
            }
            OpKind::PlTileTpushToAiv | OpKind::PlTileTpushToAic => {
                let split = split_of(op)?;
                let pipe = self.pipe(op, int_attribute(op, "id").unwrap_or(0))?;
                let tile = operand_at(op, 0).ok_or((op, "no tile".to_string()))?;
                let object = materialization(tile)
                    .and_then(|parts| parts.first().copied())
                    .ok_or((op, "the pushed tile is not converted".to_string()))?;
                self.templated_call(
                    op,
                    "pto_tpush",
                    &[opaque_attribute(self.context, split_axis(split))],
                    &[pipe, object],
                    None,
                    None,
                );
                self.replaced.push(op);
                Ok(())
            }
            OpKind::PlTileTpopFromAic | OpKind::PlTileTpopFromAiv => {
                let split = split_of(op)?;
                let id = int_attribute(op, "id").unwrap_or(0);
                let pipe = self.pipe(op, id)?;
                let result = result_at(op, 0).ok_or((op, "no result".to_string()))?;
                let tile = TileType::try_from(result.r#type()).map_err(|e| (op, e.to_string()))?;
                if tile
                    .effective_view()
                    .valid_shape
                    .iter()
                    .any(Option::is_none)
                {
                    return Err((
                        op,
                        "a popped tile with runtime valid extents is not translated yet"
                            .to_string(),
                    ));
                }
                let cpp = cpp_types::tile(tile).map_err(|m| (op, m))?;
                let object = self
                    .call(op, &cpp, &[], None, Some(opaque(self.context, &cpp)))
                    .expect("a result");
                self.templated_call(
                    op,
                    "pto_tpop",
                    &[opaque_attribute(self.context, split_axis(split))],
                    &[pipe, object],
                    None,
                    None,
                );
                let value = self.materialize(op, result.r#type(), &[object]);
                self.popped.insert(ValueKey::of(value), (id, split));
                self.replace(op, value);
                Ok(())
            }
            OpKind::PlSystemTfreeToAic | OpKind::PlSystemTfreeToAiv => {
                let tile = operand_at(op, 0).ok_or((op, "no tile".to_string()))?;
                let &(id, split) = self.popped.get(&ValueKey::of(tile)).ok_or((
                    op,
                    "this free's tile is not a pop of this kernel".to_string(),
                ))?;
                let pipe = self.pipe(op, id)?;
                self.templated_call(
                    op,
                    "pto_tfree",
                    &[opaque_attribute(self.context, split_axis(split))],
                    &[pipe],
                    None,
                    None,
                );
                self.replaced.push(op);
                Ok(())
            }
            _ => Err(no_lowering(op, kind)),
        }
    }

    /// `op`'s i32 result as the constant `address`.
    fn address_constant(
        &mut self,
        op: OperationRef<'c, 'a>,
        address: i64,
    ) -> Result<(), Failure<'c, 'a>> {
        let value = self.i32_constant(op, address)?;
        self.replace(op, value);
        Ok(())
    }

    fn i32_constant(
        &self,
        op: OperationRef<'c, 'a>,
        value: i64,
    ) -> Result<Value<'c, 'a>, Failure<'c, 'a>> {
        let value = i32::try_from(value)
            .map_err(|_| (op, format!("address {value} does not fit in 32 bits")))?;
        let constant = melior::dialect::arith::constant(
            self.context,
            IntegerAttribute::new(IntegerType::new(self.context, 32).into(), value.into()).into(),
            op.location(),
        );
        Ok(op
            .block()
            .expect("ops sit in blocks")
            .insert_operation_before(op, constant)
            .result(0)
            .unwrap()
            .into())
    }

    /// A set-up: the pipe object, kept by its id for the pushes, pops and
    /// frees after it.
    fn set_up_pipe(&mut self, op: OperationRef<'c, 'a>, cube: bool) -> Result<(), Failure<'c, 'a>> {
        let segments = pto_dialects::ops::operand_segments(op);
        let operand = |segment: usize| {
            segments
                .get(segment)
                .filter(|(_, len)| *len == 1)
                .and_then(|(start, _)| operand_at(op, *start))
        };
        let (c2v, v2c, gm) = (operand(0), operand(1), operand(2));
        let gm = gm
            .and_then(materialization)
            .and_then(|parts| parts.first().copied())
            .ok_or((
                op,
                "this pipe has no slot buffer in global memory, which a2a3's pipes go through: run pl-inject-gm-pipe-buffer (pto-a2a3-pipeline does)".to_string(),
            ))?;
        let directions = op
            .enum_attr::<PipeDirections>("directions")
            .ok_or((op, "a pipe set-up without directions".to_string()))?;
        let int = |name: &str| int_attribute(op, name);
        let id = int("id").unwrap_or(0);
        let slot_size = int("slot_size").unwrap_or(0);
        let slots = int("slot_num").unwrap_or(1);
        let local = int("local_slot_num").unwrap_or(slots);
        let zero = self.i32_constant(op, 0)?;
        let c2v = c2v.map_or(zero, super::emitted);
        let v2c = v2c.map_or(zero, super::emitted);
        // The ring this core pops into: the vector cores' c2v, the cube's
        // v2c (0 where this core only pushes).
        let ring = if cube { v2c } else { c2v };
        let tpipe = format!(
            "TPipe<{id}, {}, {slot_size}, {slots}, {local}>",
            directions as i64
        );
        let pipe = self
            .templated_call(
                op,
                "pto_pipe",
                &[opaque_attribute(self.context, &tpipe)],
                &[gm, c2v, v2c, ring],
                None,
                Some(opaque(self.context, &format!("PtoPipe<{tpipe}>"))),
            )
            .expect("a result");
        self.pipes.insert(id, pipe);
        self.replaced.push(op);
        Ok(())
    }

    /// The pipe object of pipe `id`, set up before `op`.
    fn pipe(&self, op: OperationRef<'c, 'a>, id: i64) -> Result<Value<'c, 'a>, Failure<'c, 'a>> {
        self.pipes
            .get(&id)
            .copied()
            .ok_or((op, format!("pipe {id} is not set up before this op")))
    }
}

fn split_of<'c, 'a>(op: OperationRef<'c, 'a>) -> Result<CoreSplit, Failure<'c, 'a>> {
    op.enum_attr::<CoreSplit>("split")
        .ok_or((op, "no split".to_string()))
}

/// Records on every `import_peer_buffer` of `module` without a `base` its
/// peer's planned reservation, when the peer is in `module` (before the
/// kernels are lowered, or translated each on its own).
pub fn record_peer_bases(module: OperationRef) {
    let context = pto_dialects::ir::context(&module);
    for import in pto_dialects::ir::collect(module, WalkOrder::PreOrder, |op| {
        OpKind::of(&op) == Some(OpKind::PlSystemImportPeerBuffer)
    }) {
        if int_attribute(import, "base").is_some() {
            continue;
        }
        if let Some(base) = peer_base(import) {
            pto_dialects::ir::edit(import).set_inherent_attribute(
                "base",
                IntegerAttribute::new(IntegerType::new(context, 64).into(), base).into(),
            );
        }
    }
}

/// The planned base of the ring an import names, read from the peer
/// kernel when it is in the same module.
fn peer_base(import: OperationRef) -> Option<i64> {
    let peer = pto_dialects::attrs::text_of(import, "peer")?;
    let name = pto_dialects::attrs::text_of(import, "name")?;
    let kernel = import.parent_operation().and_then(|mut op| {
        while pto_dialects::ops::op_name(op) != "func.func" {
            op = op.parent_operation()?;
        }
        Some(op)
    })?;
    let module = kernel.parent_operation()?;
    let body = module.region_opt(0)?.first_block()?;
    let mut function = body.first_operation();
    while let Some(f) = function {
        if pto_dialects::attrs::text_of(f, "sym_name").as_deref() == Some(peer.as_str()) {
            return pto_dialects::ir::collect(f, WalkOrder::PreOrder, |op| {
                OpKind::of(&op) == Some(OpKind::PlSystemReserveBuffer)
                    && pto_dialects::attrs::text_of(op, "name").as_deref() == Some(name.as_str())
            })
            .first()
            .and_then(|reserve| int_attribute(*reserve, "base"));
        }
        function = f.next_in_block();
    }
    None
}
