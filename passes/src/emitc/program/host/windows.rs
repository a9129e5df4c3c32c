//! Windows and ranks: a window buffer is a slot of its domain
//! (`pto::sim::window_buffer`), a window view a typed view of a slot
//! (`pto::sim::window`), the world size and a view's comm context what
//! the simulator says (docs/passes/convert-pl-program-to-emitc.md).

use melior::ir::{Attribute, OperationRef, TypeLike, Value, ValueLike, operation::OperationLike};
use pto_dialects::ir::ValueKey;
use pto_dialects::ops::{operand_at, result_at};
use pto_dialects::types::TensorLike;

use super::super::Failure;
use super::super::emit::{call_with_args, domain_type, i64, operand_index};
use super::Host;
use super::arguments::element_of;
use crate::emitc::build::{opaque, opaque_attribute};

impl<'c, 'a> Host<'c, 'a, '_> {
    /// `pld.system.world_size`: `pto::sim::world_size(args)`.
    pub(super) fn world_size(&mut self, op: OperationRef<'c, 'a>) {
        let size = self.call_before(
            op,
            "pto::sim::world_size",
            &[self.args],
            &[],
            i64(self.context),
        );
        pto_dialects::ir::replace_all_uses(result_at(op, 0).unwrap(), size);
    }

    /// `pld.tensor.alloc_window_buffer`: a slot of the op's domain.
    pub(super) fn window_buffer(
        &mut self,
        op: OperationRef<'c, 'a>,
    ) -> Result<(), Failure<'c, 'a>> {
        let domain = self.domain(op, "a window buffer")?;
        let slot_name = pto_dialects::attrs::text_of(op, "name").unwrap_or_default();
        let mut bytes = operand_at(op, 0).unwrap();
        if bytes.r#type().is_index() {
            bytes = self.as_i64(op, bytes);
        }
        let slot_type = opaque(self.context, "pto::sim::Slot");
        let literals = [format!("\"{slot_name}\"")];
        let slot = self.call_before(
            op,
            "pto::sim::window_buffer",
            &[domain, bytes],
            &literals,
            slot_type,
        );
        pto_dialects::ir::replace_all_uses(result_at(op, 0).unwrap(), slot);
        Ok(())
    }

    /// `pld.tensor.window`: `pto::sim::window<T>(slot, extents...)`, its
    /// extents static ones, the `sizes` operands for dynamic ones, else -1
    /// (from the slot's size).
    pub(super) fn window(&mut self, op: OperationRef<'c, 'a>) -> Result<(), Failure<'c, 'a>> {
        let context = self.context;
        let view = result_at(op, 0).unwrap();
        let element = element_of(view.r#type()).map_err(|m| (op, m))?;
        let tensor = TensorLike::try_from(view.r#type()).unwrap();
        let mut sizes = (1..op.operand_count()).filter_map(|i| operand_at(op, i));
        let mut operands = vec![operand_at(op, 0).unwrap()];
        let mut literals: Vec<Attribute> = vec![operand_index(context, 0)];
        for extent in tensor.shape() {
            match (extent, sizes.next()) {
                (Some(fixed), _) => literals.push(opaque_attribute(context, &fixed.to_string())),
                (None, Some(size)) => {
                    literals.push(operand_index(context, operands.len()));
                    operands.push(self.as_i64(op, size));
                }
                (None, None) => literals.push(opaque_attribute(context, "-1")),
            }
        }
        let callee = format!("pto::sim::window<{element}>");
        let window_type = opaque(context, &format!("pto::sim::Window<{element}>"));
        let window = self.before(
            op,
            call_with_args(context, &callee, &literals, &operands, Some(window_type)),
        );
        let dynamic_axes: Vec<usize> = tensor
            .shape()
            .iter()
            .enumerate()
            .filter(|(_, e)| e.is_none())
            .map(|(a, _)| a)
            .collect();
        self.window_axes.insert(ValueKey::of(window), dynamic_axes);
        self.window_shapes
            .insert(ValueKey::of(window), (tensor.shape(), element));
        pto_dialects::ir::replace_all_uses(view, window);
        Ok(())
    }

    /// `pld.system.get_comm_ctx`: `pto::sim::comm_ctx(view)`.
    pub(super) fn comm_ctx(&mut self, op: OperationRef<'c, 'a>) {
        let view = operand_at(op, 0).unwrap();
        let ctx = self.call_before(
            op,
            "pto::sim::comm_ctx",
            &[view],
            &[],
            domain_type(self.context),
        );
        pto_dialects::ir::replace_all_uses(result_at(op, 0).unwrap(), ctx);
    }
}

/// The shape and element type of a window view, if `value` is one.
pub(super) fn view_shape(host: &Host, value: Value) -> Option<(Vec<Option<i64>>, &'static str)> {
    host.window_shapes.get(&ValueKey::of(value)).cloned()
}
