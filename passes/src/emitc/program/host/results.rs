//! The entry's return: every result written and compared as `result<i>`,
//! every window given from outside as its name, every host tensor
//! parameter as pto-run writes it (a host tensor the program writes is one
//! of its outputs), then the exit code returned
//! (docs/passes/convert-pl-program-to-emitc.md).

use melior::ir::{OperationRef, ValueLike, operation::OperationLike, r#type::TypeLike};
use pto_dialects::ops::operand_at;

use super::super::emit::size_t;
use super::super::emit::{i32, ret};
use super::Host;
use super::domains::window_epilogue;
use crate::emitc::build::call_opaque;

impl<'c, 'a> Host<'c, 'a, '_> {
    /// The epilogue before `func.return` `op`.
    pub(super) fn results(&mut self, op: OperationRef<'c, 'a>) {
        let context = self.context;
        let args = self.args;
        for i in 0..op.operand_count() {
            let mut result = operand_at(op, i).unwrap();
            if result.r#type().is_index() {
                // A scalar result is written as a 0-d .npy; an index
                // goes as the size_t the host computes it in.
                let cast = melior::ir::operation::OperationBuilder::new(
                    "builtin.unrealized_conversion_cast",
                    op.location(),
                )
                .add_operands(&[result])
                .add_results(&[size_t(context)])
                .build()
                .expect("a cast builds");
                result = self.before(op, cast);
            }
            let literals = [format!("\"result{i}\"")];
            self.emit_before(
                op,
                call_opaque(
                    context,
                    "pto::sim::finish",
                    &[args, result],
                    &literals,
                    None,
                ),
            );
        }
        for (window, name) in &self.external_windows {
            let literals = [format!("\"{name}\"")];
            let epilogue = call_opaque(
                context,
                window_epilogue(name),
                &[args, *window],
                &literals,
                None,
            );
            self.emit_before(op, epilogue);
        }
        for (buffer, name) in &self.parameters {
            let literals = [format!("\"{name}\"")];
            self.emit_before(
                op,
                call_opaque(
                    context,
                    "pto::sim::finish",
                    &[args, *buffer],
                    &literals,
                    None,
                ),
            );
        }
        let code = self.call_before(op, "pto::sim::exit_code", &[args], &[], i32(context));
        self.emit_before(op, ret(context, code));
    }
}
