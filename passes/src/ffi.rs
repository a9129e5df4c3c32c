//! The C boundary of the pass registry (docs/building.md, "Where unsafe
//! lives"): registering every pass and pipeline with the pass adapter glue
//! (`cpp/PassAdapter.cpp`), creating a pass by name, and the callbacks the
//! glue makes to parse a pass's options and to run it.

use std::{
    ffi::c_void,
    panic::{AssertUnwindSafe, catch_unwind},
    sync::Once,
};

use melior::{ir::operation::OperationRef, pass::Pass};
use mlir_sys::{MlirDialectHandle, MlirOperation, MlirPass, MlirStringRef};
use pto_dialects::ir::strings::{append_to_string, str_of, string_ref};

use crate::{
    options::OptionError,
    pl::parameter_aliases::ParameterAliases,
    registry::{PASSES, PIPELINES, PassFailed, Run},
};

#[repr(C)]
struct PtoPassOptionSpec {
    name: MlirStringRef,
    kind: MlirStringRef,
    description: MlirStringRef,
    default_value: MlirStringRef,
}

#[repr(C)]
struct PtoPassSpec {
    argument: MlirStringRef,
    class_name: MlirStringRef,
    summary: MlirStringRef,
    anchor: MlirStringRef,
    num_options: isize,
    options: *const PtoPassOptionSpec,
    num_dialects: isize,
    dialects: *const MlirDialectHandle,
    index: isize,
    each_function: bool,
    parse_options: ParseOptionsHook,
    run: RunHook,
    gather: GatherHook,
    release: ReleaseHook,
}

/// `PtoPassSpec::parseOptions` of the glue ([`parse_options_hook`]).
type ParseOptionsHook = unsafe extern "C" fn(
    isize,
    MlirStringRef,
    OptionValueCallback,
    OptionErrorCallback,
    *mut c_void,
) -> bool;
/// `PtoPassSpec::run` of the glue ([`run_hook`]): one of [`PASS_FAILED`],
/// [`PASS_CHANGED`], [`PASS_UNCHANGED`].
type RunHook = unsafe extern "C" fn(
    isize,
    MlirOperation,
    *const c_void,
    isize,
    *const MlirStringRef,
    *const MlirStringRef,
) -> i32;
/// `PtoPassSpec::gather` and `release` of the glue ([`gather_hook`],
/// [`release_hook`]).
type GatherHook = unsafe extern "C" fn(isize, MlirOperation) -> *mut c_void;
type ReleaseHook = unsafe extern "C" fn(isize, *mut c_void);

/// The glue's `PtoPassFailed`, `PtoPassChanged`, `PtoPassUnchanged`.
const PASS_FAILED: i32 = 0;
const PASS_CHANGED: i32 = 1;
const PASS_UNCHANGED: i32 = 2;

type ErrorCallback = unsafe extern "C" fn(MlirStringRef, *mut c_void);

unsafe extern "C" {
    fn ptoGlue_registerPass(spec: *const PtoPassSpec);
    fn ptoGlue_registerPipeline(
        argument: MlirStringRef,
        summary: MlirStringRef,
        pipeline: MlirStringRef,
    );
    fn ptoGlue_createPass(
        argument: MlirStringRef,
        options: MlirStringRef,
        on_error: ErrorCallback,
        user_data: *mut c_void,
    ) -> MlirPass;
}

/// Registers every pass in MLIR's global pass registry (once per process).
pub fn register_passes() {
    static REGISTER: Once = Once::new();
    REGISTER.call_once(|| {
        for (index, pass) in PASSES.iter().enumerate() {
            let options: Vec<PtoPassOptionSpec> = pass
                .options
                .iter()
                .map(|spec| PtoPassOptionSpec {
                    name: string_ref(spec.name),
                    kind: string_ref(spec.kind.mlir_kind()),
                    description: string_ref(spec.description),
                    default_value: string_ref(spec.default),
                })
                .collect();
            let dialects: Vec<MlirDialectHandle> = (pass.dependent_dialects)()
                .iter()
                .map(|handle| handle.to_raw())
                .collect();
            let spec = PtoPassSpec {
                argument: string_ref(pass.argument),
                class_name: string_ref(pass.class_name),
                summary: string_ref(pass.summary),
                anchor: string_ref(pass.anchor.unwrap_or("")),
                num_options: options.len() as isize,
                options: options.as_ptr(),
                num_dialects: dialects.len() as isize,
                dialects: dialects.as_ptr(),
                index: index as isize,
                each_function: matches!(pass.run, Run::Functions(_)),
                parse_options: parse_options_hook,
                run: run_hook,
                gather: gather_hook,
                release: release_hook,
            };
            // SAFETY: every pointer in `spec` is live for the call; the glue
            // copies the strings and arrays.
            unsafe { ptoGlue_registerPass(&spec) };
        }
        for pipeline in PIPELINES {
            // SAFETY: the strings are 'static; the glue copies them.
            unsafe {
                ptoGlue_registerPipeline(
                    string_ref(pipeline.argument),
                    string_ref(pipeline.summary),
                    string_ref(pipeline.pipeline),
                )
            };
        }
    });
}

/// Creates a pass by pipeline name with options in pipeline syntax
/// (`"nranks=4"`), for building pass managers from Rust.
pub fn create_pass(argument: &str, options: &str) -> Result<Pass, String> {
    register_passes();
    let mut error = String::new();
    // SAFETY: the strings outlive the call; the callback only appends to
    // `error`.
    let raw = unsafe {
        ptoGlue_createPass(
            string_ref(argument),
            string_ref(options),
            append_to_string,
            (&mut error as *mut String).cast(),
        )
    };
    if raw.ptr.is_null() {
        Err(error)
    } else {
        // SAFETY: the glue returned a new pass whose ownership moves to us.
        Ok(unsafe { Pass::from_raw(raw) })
    }
}

/// # Safety
/// `names` and `values` point to `count` valid string refs.
unsafe fn option_pairs<'a>(
    count: isize,
    names: *const MlirStringRef,
    values: *const MlirStringRef,
) -> Vec<(&'a str, &'a str)> {
    (0..count.max(0) as usize)
        // SAFETY: guaranteed by the caller.
        .map(|i| unsafe { (str_of(*names.add(i)), str_of(*values.add(i))) })
        .collect()
}

type OptionValueCallback = unsafe extern "C" fn(MlirStringRef, MlirStringRef, *mut c_void);
type OptionErrorCallback = unsafe extern "C" fn(MlirStringRef, isize, *mut c_void);

/// Parses a pass's option text (called by the glue's `initializeOptions`):
/// reports each given option in canonical spelling through `on_value`, or
/// the first error and its byte offset in `text` through `on_error`.
///
/// # Safety
/// `text` describes readable bytes; the callbacks may be called with
/// `user_data`.
unsafe extern "C" fn parse_options_hook(
    index: isize,
    text: MlirStringRef,
    on_value: OptionValueCallback,
    on_error: OptionErrorCallback,
    user_data: *mut c_void,
) -> bool {
    let Some(pass) = PASSES.get(index as usize) else {
        return false;
    };
    let bytes: &[u8] = if text.length == 0 {
        &[]
    } else {
        // SAFETY: the glue passes the option text MLIR handed it.
        unsafe { std::slice::from_raw_parts(text.data.cast::<u8>(), text.length) }
    };
    let parsed = match std::str::from_utf8(bytes) {
        Ok(text) => pass.parse_option_text(text),
        Err(error) => Err(OptionError {
            message: format!("{}: option text is not valid UTF-8", pass.argument),
            offset: error.valid_up_to(),
        }),
    };
    match parsed {
        Ok(values) => {
            for (name, value) in &values {
                // SAFETY: the callback copies the strings during the call.
                unsafe { on_value(string_ref(name), string_ref(value), user_data) };
            }
            true
        }
        Err(error) => {
            // SAFETY: the callback copies the message during the call.
            unsafe { on_error(string_ref(&error.message), error.offset as isize, user_data) };
            false
        }
    }
}

/// Runs a pass on `op` (called by the glue's `runOnOperation`, or for
/// each function of the module with `facts` from [`gather_hook`]).
///
/// # Safety
/// `op` is a live operation; `facts` is null or what [`gather_hook`]
/// returned for this pass and [`release_hook`] has not freed; `names` and
/// `values` point to `count` valid string refs.
unsafe extern "C" fn run_hook(
    index: isize,
    op: MlirOperation,
    facts: *const c_void,
    count: isize,
    names: *const MlirStringRef,
    values: *const MlirStringRef,
) -> i32 {
    let failure = PASS_FAILED;
    let Some(pass) = PASSES.get(index as usize) else {
        return failure;
    };
    // SAFETY: MLIR passes the live op the pass is scheduled on.
    let op = unsafe { OperationRef::from_raw(op) };
    // SAFETY: the glue passes `count` valid names and values.
    let pairs = unsafe { option_pairs(count, names, values) };
    // SAFETY: a non-null `facts` is a live `ParameterAliases` (the
    // caller's guarantee); runs on several threads only read it.
    let facts = unsafe { facts.cast::<ParameterAliases>().as_ref() };
    let outcome = catch_unwind(AssertUnwindSafe(|| {
        let options = pass.parse_options(pairs).map_err(|message| {
            pto_dialects::diag::OpDiagnostic::new(message)
                .emit(op, pto_dialects::diag::Severity::Error);
            PassFailed
        })?;
        crate::registry::take_unchanged();
        match (&pass.run, facts) {
            (Run::Op(run), _) => run(op, &options),
            (Run::Functions(run), Some(facts)) => run(op, facts, &options),
            (Run::Functions(_), None) => Err(internal_error(pass.argument, op)),
        }
    }));
    match outcome {
        Ok(Ok(())) if crate::registry::take_unchanged() => PASS_UNCHANGED,
        Ok(Ok(())) => PASS_CHANGED,
        Ok(Err(PassFailed)) => failure,
        Err(_) => {
            internal_error(pass.argument, op);
            failure
        }
    }
}

fn internal_error(argument: &str, op: OperationRef) -> PassFailed {
    pto_dialects::diag::OpDiagnostic::new(format!("internal error in pass '{argument}'"))
        .emit(op, pto_dialects::diag::Severity::Error);
    PassFailed
}

/// Gathers what the runs of a [`Run::Functions`] pass on the functions of
/// `module` need to know of it; null (diagnosed) if that failed.
///
/// # Safety
/// `module` is a live operation.
unsafe extern "C" fn gather_hook(index: isize, module: MlirOperation) -> *mut c_void {
    let Some(pass) = PASSES.get(index as usize) else {
        return std::ptr::null_mut();
    };
    // SAFETY: the glue passes the live op the pass is scheduled on.
    let module = unsafe { OperationRef::from_raw(module) };
    match catch_unwind(AssertUnwindSafe(|| ParameterAliases::of(module))) {
        Ok(facts) => Box::into_raw(Box::new(facts)).cast(),
        Err(_) => {
            internal_error(pass.argument, module);
            std::ptr::null_mut()
        }
    }
}

/// Frees what [`gather_hook`] returned.
///
/// # Safety
/// `facts` is what [`gather_hook`] returned, freed once, after every run.
unsafe extern "C" fn release_hook(_index: isize, facts: *mut c_void) {
    if !facts.is_null() {
        // SAFETY: `facts` came from `Box::into_raw` in `gather_hook`.
        drop(unsafe { Box::from_raw(facts.cast::<ParameterAliases>()) });
    }
}
