//! Index sequences, masks, sorts and gathers in `convert-pl-to-emitc`
//! (families `TileGenerate`, `TileSort`, `TileGather`): pto-isa's TCI, TTRI, TSORT32,
//! TMRGSORT, TGATHER and TGATHERB, with the destination first and the template
//! arguments pto-isa cannot deduce spelt out (docs/passes/convert-pl-to-emitc.md).

use melior::ir::{
    Attribute, OperationRef, Type, Value, ValueLike, attribute::IntegerAttribute,
    operation::OperationLike, r#type::ShapedTypeLike,
};
use pto_dialects::{
    enums::{EnumAttr, GatherMode, GatherOob, MaskPattern},
    ops::{OpKind, result_at},
    types::TileType,
};

use super::{Failure, Lowering, no_lowering};
use crate::emitc::{
    build::{opaque, opaque_attribute},
    cpp_types,
};
use crate::target::a2a3;

impl<'c, 'a> Lowering<'c, 'a> {
    /// `TCI<Tile, T, descending>(dst, start)`, `TTRI<Tile, upper>(dst,
    /// diagonal)`, `TSORT32(dst, src, idx[,
    /// tmp])`, `TMRGSORT(dst, src, blockLen)`, `TMRGSORT<Dst, Tmp, S0, …,
    /// exhausted>(dst, executed, tmp, s0, …)`, `TGATHER(dst, src, idx,
    /// tmp)`, `TGATHER<Dst, Src, MaskPattern::P…>(dst, src)` and
    /// `TGATHERB(dst, src, offsets)`.
    pub(super) fn indexing(
        &mut self,
        op: OperationRef<'c, 'a>,
        kind: OpKind,
    ) -> Result<(), Failure<'c, 'a>> {
        let result = result_at(op, 0).expect("indexing ops have a result");
        let operands: Vec<Value> = op.operands().collect();
        let valid = self.propagated_valid(op);
        match kind {
            OpKind::PlTileCi => {
                let object = self.declare_tile(op, result, 0, [None, None])?;
                let tile = TileType::try_from(result.r#type()).map_err(|e| (op, e.to_string()))?;
                let element = cpp_types::element(tile.element()).map_err(|m| (op, m))?;
                let descending = op.attribute("descending").is_ok();
                let templates = [
                    self.cpp_type_of(op, result)?,
                    melior::ir::attribute::TypeAttribute::new(opaque(self.context, element)).into(),
                    opaque_attribute(self.context, if descending { "1" } else { "0" }),
                ];
                self.templated_call(op, "TCI", &templates, &[object, operands[0]], None, None);
                self.replace(op, object);
            }
            OpKind::PlTileTri => {
                let object = self.declare_tile(op, result, 0, valid)?;
                let upper = op.attribute("upper").is_ok();
                let templates = [
                    self.cpp_type_of(op, result)?,
                    opaque_attribute(self.context, if upper { "1" } else { "0" }),
                ];
                self.templated_call(op, "TTRI", &templates, &[object, operands[0]], None, None);
                self.replace(op, object);
            }
            OpKind::PlTileSort32 => self.one_to_one(op, kind, operands, None)?,
            OpKind::PlTileGather => {
                // pto-isa's TGATHER reads a flat index of the source's
                // storage: the row-major flat index only when no row is
                // padded.
                let source =
                    TileType::try_from(operands[0].r#type()).map_err(|e| (op, e.to_string()))?;
                if source.shape()[0] != 1 && a2a3::storage_shape(source) != source.shape() {
                    return Err((
                        op,
                        format!(
                            "pto-isa's TGATHER indexes the source's storage, whose rows are padded to 32 bytes here: gather from one row, or from rows of a whole number of 32 bytes, got {}",
                            operands[0].r#type()
                        ),
                    ));
                }
                self.one_to_one(op, kind, operands, None)?;
            }
            // The verifier keeps the source's rows whole 32-byte blocks, so
            // the offsets count bytes of its storage as they do of its
            // row-major elements.
            OpKind::PlTileGatherb => self.one_to_one(op, kind, operands, None)?,
            OpKind::PlTileMgather => self.mgather(op, result, &operands, valid)?,
            OpKind::PlTileScatter => {
                // a2a3's TSCATTER zeroes its destination first and
                // pto-isa's CPU backend does not: zero it here, so both
                // compute the op's value (TEXPANDS's `{}` is the element
                // type's zero).
                // TSCATTER indexes the destination's storage, as TGATHER
                // its source's.
                let target =
                    TileType::try_from(result.r#type()).map_err(|e| (op, e.to_string()))?;
                if target.shape()[0] != 1 && a2a3::storage_shape(target) != target.shape() {
                    return Err((
                        op,
                        format!(
                            "pto-isa's TSCATTER indexes the destination's storage, whose rows are padded to 32 bytes here: scatter into one row, or into rows of a whole number of 32 bytes, got {}",
                            result.r#type()
                        ),
                    ));
                }
                let object = self.declare_tile(op, result, 0, valid)?;
                let zero = vec![
                    IntegerAttribute::new(Type::index(self.context), 0).into(),
                    opaque_attribute(self.context, "{}"),
                ];
                self.call(op, "TEXPANDS", &[object], Some(zero), None);
                self.call(
                    op,
                    "TSCATTER",
                    &[object, operands[0], operands[1]],
                    None,
                    None,
                );
                self.replace(op, object);
            }
            OpKind::PlTileScatterMask => {
                // pto-isa's CPU backend streams the source's elements over
                // its storage: its rows are the pattern's only when they
                // fill it.
                let source =
                    TileType::try_from(operands[0].r#type()).map_err(|e| (op, e.to_string()))?;
                if a2a3::storage_shape(source) != source.shape() {
                    return Err((
                        op,
                        format!(
                            "pto-isa's masked TSCATTER reads its source's storage as one stream: the source's rows must be a whole number of 32 bytes, got {}",
                            operands[0].r#type()
                        ),
                    ));
                }
                let pattern = op
                    .enum_attr::<MaskPattern>("pattern")
                    .ok_or((op, "a masked scatter without a pattern".to_string()))?;
                let object = self.declare_tile(op, result, 0, valid)?;
                let templates: [Attribute; 1] =
                    [opaque_attribute(self.context, &mask_pattern_cpp(pattern))];
                self.templated_call(
                    op,
                    "TSCATTER",
                    &templates,
                    &[object, operands[0]],
                    None,
                    None,
                );
                self.replace(op, object);
            }
            OpKind::PlTileMrgsortFormat1 => {
                let object = self.declare_tile(op, result, 0, valid)?;
                self.call(
                    op,
                    "TMRGSORT",
                    &[object, operands[0], operands[1]],
                    None,
                    None,
                );
                self.replace(op, object);
            }
            OpKind::PlTileMrgsortFormat2 => {
                let object = self.declare_tile(op, result, 0, valid)?;
                // The counts of pairs taken from each list, which pl has
                // no result for.
                let counts = "MrgSortExecutedNumList";
                let executed = self
                    .call(op, counts, &[], None, Some(opaque(self.context, counts)))
                    .expect("a result");
                let (tmp, sources) = operands.split_last().expect("sources and a scratch");
                let mut templates =
                    vec![self.cpp_type_of(op, result)?, self.cpp_type_of(op, *tmp)?];
                for &source in sources {
                    templates.push(self.cpp_type_of(op, source)?);
                }
                let exhausted = op.attribute("exhausted").is_ok();
                templates.push(opaque_attribute(
                    self.context,
                    if exhausted { "true" } else { "false" },
                ));
                let mut call = vec![object, executed, *tmp];
                call.extend(sources);
                self.templated_call(op, "TMRGSORT", &templates, &call, None, None);
                self.replace(op, object);
            }
            OpKind::PlTileGatherMask => {
                // pto-isa's masked gather writes a stream of the kept
                // elements, row after row of the destination's storage:
                // the destination's rows are then the rows the pattern
                // makes only when they fill its storage.
                let tile = TileType::try_from(result.r#type()).map_err(|e| (op, e.to_string()))?;
                if a2a3::storage_shape(tile) != tile.shape() {
                    return Err((
                        op,
                        format!(
                            "pto-isa's masked TGATHER fills its destination's storage row after row: the result's rows must be a whole number of 32 bytes, got {}",
                            result.r#type()
                        ),
                    ));
                }
                let pattern = op
                    .enum_attr::<MaskPattern>("pattern")
                    .ok_or((op, "a masked gather without a pattern".to_string()))?;
                let object = self.declare_tile(op, result, 0, valid)?;
                let templates: [Attribute; 3] = [
                    self.cpp_type_of(op, result)?,
                    self.cpp_type_of(op, operands[0])?,
                    opaque_attribute(self.context, &mask_pattern_cpp(pattern)),
                ];
                self.templated_call(
                    op,
                    "TGATHER",
                    &templates,
                    &[object, operands[0]],
                    None,
                    None,
                );
                self.replace(op, object);
            }
            _ => return Err(no_lowering(op, kind)),
        }
        Ok(())
    }

    /// A `GlobalTensor` of the whole of `table` (its dynamic extents read
    /// at run time).
    pub(super) fn whole_tensor(
        &mut self,
        op: OperationRef<'c, 'a>,
        table: Value<'c, 'a>,
    ) -> Result<Value<'c, 'a>, Failure<'c, 'a>> {
        let shape = pto_dialects::types::TensorLike::try_from(table.r#type())
            .map_err(|e| (op, e.to_string()))?
            .shape();
        let mut window = Vec::with_capacity(shape.len());
        let mut runtime = Vec::with_capacity(shape.len());
        for (d, extent) in shape.iter().enumerate() {
            match extent {
                Some(extent) => {
                    window.push(*extent);
                    runtime.push(None);
                }
                None => {
                    window.push(-1);
                    runtime.push(Some(self.tensor_dim(op, table, d)?));
                }
            }
        }
        self.global_window(op, table, table, &[], &window, &runtime)
    }

    /// `MGATHER<Coalesce::…, GatherOOB::…>(dst, table, indices)`: the
    /// table a `GlobalTensor` of the whole tensor, the mode spelt out
    /// (pto-isa's default is `Row` on a2a3 and `Elem` on its CPU backend).
    fn mgather(
        &mut self,
        op: OperationRef<'c, 'a>,
        result: Value<'c, 'a>,
        operands: &[Value<'c, 'a>],
        valid: [Option<Value<'c, 'a>>; 2],
    ) -> Result<(), Failure<'c, 'a>> {
        let global = self.whole_tensor(op, operands[0])?;
        let object = self.declare_tile(op, result, 0, valid)?;
        let mode = match op.enum_attr::<GatherMode>("mode") {
            Some(GatherMode::Elem) => "Coalesce::Elem",
            _ => "Coalesce::Row",
        };
        let oob = match op.enum_attr::<GatherOob>("oob") {
            Some(GatherOob::Clamp) => "GatherOOB::Clamp",
            Some(GatherOob::Wrap) => "GatherOOB::Wrap",
            Some(GatherOob::Zero) => "GatherOOB::Zero",
            _ => "GatherOOB::Undefined",
        };
        let templates: [Attribute; 2] = [
            opaque_attribute(self.context, mode),
            opaque_attribute(self.context, oob),
        ];
        self.templated_call(
            op,
            "MGATHER",
            &templates,
            &[object, global, operands[1]],
            None,
            None,
        );
        self.replace(op, object);
        Ok(())
    }
}

/// pto-isa's spelling of a mask pattern: `MaskPattern::P0101`.
fn mask_pattern_cpp(pattern: MaskPattern) -> String {
    format!("MaskPattern::{}", pattern.keyword().to_uppercase())
}
