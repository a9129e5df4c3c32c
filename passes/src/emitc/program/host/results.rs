//! The entry's return: every result written and compared as `result<i>`,
//! every window given from outside as its name, every host tensor
//! parameter as pto-run writes it (a host tensor the program writes is one
//! of its outputs), then the exit code returned
//! (docs/passes/convert-pl-program-to-emitc.md).

use melior::ir::{OperationRef, operation::OperationLike};
use pto_dialects::ops::operand_at;

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
            let result = operand_at(op, i).unwrap();
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
