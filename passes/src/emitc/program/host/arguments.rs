//! The entry's parameters: a host tensor is read from the command line
//! into a buffer (`pto::sim::input`), a window given from outside is a
//! domain of its own with one slot filled rank by rank from the input and
//! written at the end (docs/passes/convert-pl-program-to-emitc.md).

use melior::ir::{
    BlockLike, BlockRef, Location, OperationRef, Type, Value, ValueLike, r#type::IntegerType,
    r#type::TypeLike,
};
use pto_dialects::ir::ValueKey;
use pto_dialects::{dtype::Dtype, types::TensorLike};

use super::super::Failure;
use super::super::emit::{checked_product, domain_type, shape_text};
use super::super::facts::scalar_element;
use super::Host;
use crate::emitc::build::{call_opaque, opaque};

/// The C++ element type of a tensor of `type`.
pub(super) fn element_of(r#type: melior::ir::Type) -> Result<&'static str, String> {
    let tensor = TensorLike::try_from(r#type)
        .map_err(|_| format!("{type} is neither a tensor nor a scalar"))?;
    super::super::facts::io_element(tensor.element())
}

impl<'c, 'a> Host<'c, 'a, '_> {
    /// Every parameter (after argc and argv) becomes a buffer or a window
    /// made before `first`, and is erased.
    pub(super) fn parameters_of(
        &mut self,
        function: OperationRef<'c, 'a>,
        entry: BlockRef<'c, 'a>,
        first: OperationRef<'c, 'a>,
        count: usize,
    ) -> Result<(), Failure<'c, 'a>> {
        let fail = |message: String| -> Failure { (function, message) };
        for i in 0..count {
            let parameter: Value = entry.argument(i + 2).unwrap().into();
            if let Some(element) = scalar_element(parameter.r#type()) {
                let name = pto_dialects::ir::parameter_name(parameter, i);
                let value = self.scalar(first, parameter.r#type(), element, &name);
                pto_dialects::ir::replace_all_uses(parameter, value);
                continue;
            }
            let element =
                element_of(parameter.r#type()).map_err(|m| fail(format!("parameter #{i}: {m}")))?;
            let tensor = TensorLike::try_from(parameter.r#type()).unwrap();
            let name = pto_dialects::ir::parameter_name(parameter, i);
            let value = if tensor.is_distributed() {
                self.external_window(first, &tensor, element, name)
                    .map_err(|m| fail(format!("parameter #{i}: {m}")))?
            } else {
                self.input(first, &tensor, element, name)
            };
            pto_dialects::ir::replace_all_uses(parameter, value);
        }
        for i in (0..count).rev() {
            if !pto_dialects::ir::erase_argument(entry, i + 2) {
                return Err(fail(format!("parameter #{i} is still used")));
            }
        }
        Ok(())
    }

    /// `pto::sim::scalar<T>(args, "name")` before `first`, as a value of
    /// `type` (an index is read as an int64 and cast: index arithmetic
    /// uses it).
    fn scalar(
        &mut self,
        first: OperationRef<'c, 'a>,
        r#type: Type<'c>,
        element: &str,
        name: &str,
    ) -> Value<'c, 'a> {
        let quoted = [format!("\"{name}\"")];
        if !r#type.is_index() {
            let read = format!("pto::sim::scalar<{element}>");
            return self.call_before(first, &read, &[self.args], &quoted, r#type);
        }
        let i64_type = IntegerType::new(self.context, 64).into();
        let read = "pto::sim::scalar<int64_t>";
        let value = self.call_before(first, read, &[self.args], &quoted, i64_type);
        let location = Location::unknown(self.context);
        self.before(
            first,
            melior::dialect::arith::index_cast(value, r#type, location),
        )
    }

    /// `pto::sim::input<T>(args, "name", {shape})` before `first`.
    fn input(
        &mut self,
        first: OperationRef<'c, 'a>,
        tensor: &TensorLike,
        element: &'static str,
        name: String,
    ) -> Value<'c, 'a> {
        let shape = shape_text(tensor.shape().iter().map(|d| d.unwrap_or(-1)));
        let buffer_type = opaque(self.context, &format!("pto::sim::Buffer<{element}>"));
        let buffer = self.call_before(
            first,
            &format!("pto::sim::input<{element}>"),
            &[self.args],
            &[format!("\"{name}\""), shape],
            buffer_type,
        );
        self.buffers.insert(ValueKey::of(buffer), element);
        self.shapes.insert(ValueKey::of(buffer), tensor.shape());
        self.parameters.push((buffer, name));
        buffer
    }

    /// A window given from outside, before `first`: a domain of its own,
    /// one slot filled rank by rank from the input.
    fn external_window(
        &mut self,
        first: OperationRef<'c, 'a>,
        tensor: &TensorLike,
        element: &'static str,
        name: String,
    ) -> Result<Value<'c, 'a>, String> {
        let context = self.context;
        let dims: Option<Vec<i64>> = tensor.shape().into_iter().collect();
        let dims =
            dims.ok_or("windows of dynamic shape given from outside are not simulated yet")?;
        let quoted = format!("\"{name}\"");
        let domain_type = domain_type(context);
        let domain = self.call_before(
            first,
            "pto::sim::domain",
            &[self.args],
            std::slice::from_ref(&quoted),
            domain_type,
        );
        let element_bytes =
            crate::target::a2a3::element_bits(Dtype::of(tensor.element())).div_ceil(8) as i64;
        let bytes = checked_product(dims.iter().copied().chain([element_bytes]))
            .ok_or("the size in bytes of the window overflows 64 bits")?;
        let slot_type = opaque(context, "pto::sim::Slot");
        let literals = [bytes.to_string(), quoted.clone()];
        let slot = self.call_before(
            first,
            "pto::sim::window_buffer",
            &[domain],
            &literals,
            slot_type,
        );
        let extents: Vec<String> = dims.iter().map(i64::to_string).collect();
        let window_type = opaque(context, &format!("pto::sim::Window<{element}>"));
        let window = self.call_before(
            first,
            &format!("pto::sim::window<{element}>"),
            &[slot],
            &extents,
            window_type,
        );
        let mut literals = vec![quoted];
        literals.extend(extents.iter().cloned());
        let fill = format!("pto::sim::fill_slot<{element}>");
        self.emit_before(
            first,
            call_opaque(context, &fill, &[self.args, domain], &literals, None),
        );
        self.external_windows.push((window, name));
        Ok(window)
    }
}
