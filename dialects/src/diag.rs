//! Emitting diagnostics at operations.

use melior::ir::{Location, operation::OperationRef};
use mlir_sys::{MlirLocation, MlirStringRef};

use crate::ffi;

/// How serious a diagnostic is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Severity {
    /// The IR is invalid.
    Error = 0,
    /// Suspicious but valid IR.
    Warning = 1,
    /// Information (analyses report through remarks).
    Remark = 2,
}

/// A diagnostic about one operation: a message and notes at other places.
#[derive(Clone, Debug)]
pub struct OpDiagnostic<'c> {
    /// The main message, without the `'<op>' op` prefix.
    pub message: String,
    /// Notes, each at its own location (e.g. "signal declared here").
    pub notes: Vec<(Location<'c>, String)>,
}

impl<'c> OpDiagnostic<'c> {
    /// Creates a diagnostic with no notes.
    pub fn new(message: impl Into<String>) -> Self {
        Self {
            message: message.into(),
            notes: Vec::new(),
        }
    }

    /// Adds a note at `location`.
    pub fn with_note(mut self, location: Location<'c>, note: impl Into<String>) -> Self {
        self.notes.push((location, note.into()));
        self
    }

    /// Emits the diagnostic at `op` as `'<op name>' op <message>`.
    pub fn emit(&self, op: OperationRef, severity: Severity) {
        let string_ref = |text: &str| MlirStringRef {
            data: text.as_ptr().cast(),
            length: text.len(),
        };
        let locations: Vec<MlirLocation> = self.notes.iter().map(|(loc, _)| loc.to_raw()).collect();
        let notes: Vec<MlirStringRef> = self
            .notes
            .iter()
            .map(|(_, text)| string_ref(text))
            .collect();
        // SAFETY: `op` is live; every string and array outlives the call and
        // the glue copies them into the diagnostic.
        unsafe {
            ffi::ptoGlue_emitOpDiagnostic(
                op.to_raw(),
                severity as i32,
                string_ref(&self.message),
                notes.len() as isize,
                locations.as_ptr(),
                notes.as_ptr(),
            );
        }
    }
}

/// Prints the context's diagnostics to standard error the MLIR way
/// (`file:line:col: error: message`), as command-line tools do.
pub fn print_to_stderr(context: &melior::Context) {
    use melior::diagnostic::DiagnosticSeverity;
    context.attach_diagnostic_handler(|diagnostic| {
        let severity = match diagnostic.severity() {
            DiagnosticSeverity::Error => "error",
            DiagnosticSeverity::Warning => "warning",
            DiagnosticSeverity::Note => "note",
            DiagnosticSeverity::Remark => "remark",
        };
        eprintln!(
            "{}: {severity}: {diagnostic}",
            crate::source::location_text(diagnostic.location())
        );
        true
    });
}
