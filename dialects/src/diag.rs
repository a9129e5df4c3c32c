//! Emitting diagnostics at operations.

use melior::ir::{Location, operation::OperationRef};

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
        crate::ir::glue::emit_op_diagnostic(&op, severity as i32, &self.message, &self.notes);
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
        // Its notes follow, each at its own location (not MLIR's print
        // of the whole op: the location says where it is).
        for index in 0..diagnostic.note_count() {
            if let Ok(note) = diagnostic.note(index)
                && !note.to_string().starts_with("see current operation")
            {
                eprintln!(
                    "{}: note: {note}",
                    crate::source::location_text(note.location())
                );
            }
        }
        true
    });
}
