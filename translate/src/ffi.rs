//! The C++ entries the translator needs: MLIR's C++ emitter, a parser that
//! takes the input's bytes and name as they are, and what mlir-translate's
//! driver adds (MLIR's --mlir-* options, the diagnostic verifier, timing).

use std::ffi::c_void;

use melior::pass::PassManager;
use melior::{
    Context,
    ir::{Module, operation::OperationLike},
};
use mlir_sys::{MlirContext, MlirModule, MlirOperation, MlirPassManager, MlirStringRef};
use pto_dialects::ir::strings::{append_to_string, string_ref};

unsafe extern "C" {
    fn ptoGlue_parseModule(
        context: MlirContext,
        source: MlirStringRef,
        name: MlirStringRef,
    ) -> MlirModule;

    fn ptoGlue_parseMlirOptions(
        argc: i32,
        argv: *const *const std::ffi::c_char,
        on_error: unsafe extern "C" fn(MlirStringRef, *mut c_void),
        user_data: *mut c_void,
    ) -> bool;
    fn ptoGlue_timingPush(name: MlirStringRef);
    fn ptoGlue_timingPop();
    fn ptoGlue_configurePassManager(pm: MlirPassManager) -> bool;
    fn ptoGlue_timingReport();
    fn ptoGlue_diagnosticVerifierCreate(
        context: MlirContext,
        buffer: MlirStringRef,
        name: MlirStringRef,
    ) -> *mut c_void;
    fn ptoGlue_diagnosticVerifierFinish(verifier: *mut c_void) -> bool;

    fn ptoGlue_translateToCpp(
        op: MlirOperation,
        callback: unsafe extern "C" fn(*const u8, usize, *mut c_void),
        user_data: *mut c_void,
    ) -> bool;
}

unsafe extern "C" fn append(data: *const u8, length: usize, user_data: *mut c_void) {
    // SAFETY: `user_data` is the `Vec<u8>` passed below, alive for the call;
    // `data` points at `length` bytes of the emitter's output.
    unsafe {
        let buffer = &mut *(user_data as *mut Vec<u8>);
        buffer.extend_from_slice(std::slice::from_raw_parts(data, length));
    }
}

/// Parses `source` (text or bytecode; NUL bytes are data, not its end) as a
/// module whose locations name `name`, its function arguments named as in
/// the text (`pto_dialects::source::name_arguments`); `None` on an error,
/// which the context's diagnostics have reported.
pub fn parse_module<'c>(context: &'c Context, source: &[u8], name: &str) -> Option<Module<'c>> {
    let text = std::str::from_utf8(source).ok();
    let (source, name) = (string_ref(source), string_ref(name));
    // SAFETY: the context is live; MLIR copies the name and reads the
    // source only during the call.
    let raw = unsafe { ptoGlue_parseModule(context.to_raw(), source, name) };
    // SAFETY: a non-null module was just created and is owned here.
    let module = (!raw.ptr.is_null()).then(|| unsafe { Module::from_raw(raw) })?;
    if let Some(text) = text {
        pto_dialects::source::name_arguments(&module, text);
    }
    Some(module)
}

/// Prints `op` (EmitC) as C++; `None` when the emitter reported an error
/// (through the context's diagnostics).
pub fn translate_to_cpp<'c>(op: &impl OperationLike<'c, 'c>) -> Option<String> {
    let mut buffer: Vec<u8> = Vec::new();
    // SAFETY: `op` is a live operation; the callback only appends to
    // `buffer`, which outlives the call.
    let ok = unsafe {
        ptoGlue_translateToCpp(
            op.to_raw(),
            append,
            &mut buffer as *mut Vec<u8> as *mut c_void,
        )
    };
    ok.then(|| String::from_utf8_lossy(&buffer).into_owned())
}

/// Parses MLIR's own options (`--mlir-*`, as mlir-translate takes them);
/// `tool` is the program name. Must run before the first context is made.
pub fn parse_mlir_options(tool: &str, options: &[String]) -> Result<(), String> {
    let arguments: Vec<std::ffi::CString> = std::iter::once(tool)
        .chain(options.iter().map(String::as_str))
        .map(|argument| {
            std::ffi::CString::new(argument).map_err(|_| format!("'{argument}' holds a NUL byte"))
        })
        .collect::<Result<_, _>>()?;
    let pointers: Vec<*const std::ffi::c_char> = arguments.iter().map(|a| a.as_ptr()).collect();
    let mut message = String::new();
    // SAFETY: `pointers` holds `len` NUL-terminated strings that outlive
    // the call; the callback only appends to `message`.
    let parsed = unsafe {
        ptoGlue_parseMlirOptions(
            pointers.len() as i32,
            pointers.as_ptr(),
            append_to_string,
            &mut message as *mut String as *mut c_void,
        )
    };
    if parsed { Ok(()) } else { Err(message) }
}

/// A --mlir-timing timer, open until dropped, nested in the one open when
/// it started.
pub struct Timer(());

impl Timer {
    pub fn start(name: &str) -> Self {
        // SAFETY: the glue copies the name.
        unsafe { ptoGlue_timingPush(string_ref(name)) };
        Timer(())
    }
}

impl Drop for Timer {
    fn drop(&mut self) {
        // SAFETY: closes the timer `start` opened.
        unsafe { ptoGlue_timingPop() };
    }
}

/// Prints the --mlir-timing report, when asked for.
pub fn timing_report() {
    // SAFETY: no arguments; the glue owns the timers.
    unsafe { ptoGlue_timingReport() };
}

/// A pass manager with MLIR's pass-manager options applied and its passes
/// timed under the open timer; `None` when the options do not apply (the
/// glue printed why).
pub fn pass_manager<'c>(context: &'c Context) -> Option<PassManager<'c>> {
    // SAFETY: the context is live; the new pass manager is owned by the
    // returned value, which destroys it.
    let manager =
        unsafe { PassManager::from_raw(mlir_sys::mlirPassManagerCreate(context.to_raw())) };
    // SAFETY: `manager` is live for the call.
    let configured = unsafe { ptoGlue_configurePassManager(manager.to_raw()) };
    configured.then_some(manager)
}

/// --verify-diagnostics over one input buffer: while it lives, the
/// context's diagnostics are matched against the buffer's expected-*
/// comments instead of being printed.
pub struct DiagnosticVerifier(*mut c_void);

impl DiagnosticVerifier {
    pub fn start(context: &Context, buffer: &str, name: &str) -> Self {
        // SAFETY: the context outlives the verifier (finish is called
        // before it goes); the glue copies the buffer and the name.
        DiagnosticVerifier(unsafe {
            ptoGlue_diagnosticVerifierCreate(context.to_raw(), string_ref(buffer), string_ref(name))
        })
    }

    /// Whether the diagnostics were exactly the expected ones (the
    /// mismatches are printed).
    pub fn finish(self) -> bool {
        let raw = self.0;
        std::mem::forget(self);
        // SAFETY: `raw` came from create and is finished once.
        unsafe { ptoGlue_diagnosticVerifierFinish(raw) }
    }
}

impl Drop for DiagnosticVerifier {
    fn drop(&mut self) {
        // SAFETY: a verifier dropped without finish is still ended once.
        unsafe { ptoGlue_diagnosticVerifierFinish(self.0) };
    }
}
