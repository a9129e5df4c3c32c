//! Runs MLIR's opt driver through the glue (`cpp/OptMain.cpp`), which parses
//! the command line with MLIR's own options; Rust checks the input before
//! MLIR parses it and writes the output.

use std::{
    ffi::{CString, OsString, c_char, c_int, c_void},
    os::unix::ffi::OsStringExt,
};

use melior::dialect::DialectRegistry;
use mlir_sys::{MlirDialectRegistry, MlirStringRef};
use pto_dialects::ir::strings::{bytes_of, string_ref};

use crate::output;

#[repr(C)]
struct PtoOptCallbacks {
    check_input: unsafe extern "C" fn(MlirStringRef, MlirStringRef, *mut c_void) -> bool,
    write_output: unsafe extern "C" fn(MlirStringRef, MlirStringRef, *mut c_void) -> bool,
    user_data: *mut c_void,
}

unsafe extern "C" {
    fn ptoGlue_optMain(
        argc: c_int,
        argv: *const *const c_char,
        registry: MlirDialectRegistry,
        version: MlirStringRef,
        callbacks: *const PtoOptCallbacks,
    ) -> c_int;
}

/// Registers every upstream and project pass and pipeline (once per
/// process): MLIR's option parser makes one flag of each registered pass.
pub fn register_all_passes() {
    static REGISTER: std::sync::Once = std::sync::Once::new();
    REGISTER.call_once(|| {
        melior::utility::register_all_passes();
        pto_passes::register_passes();
    });
}

/// Text MLIR 22's parser would crash on is reported before it parses
/// (`pto_dialects::source::unparsable`); returns whether the input may be
/// parsed.
unsafe extern "C" fn check_input(
    name: MlirStringRef,
    bytes: MlirStringRef,
    _: *mut c_void,
) -> bool {
    // SAFETY: the glue passes the input's name and bytes for the call.
    let (name, bytes) = unsafe { (bytes_of(name), bytes_of(bytes)) };
    let message = std::str::from_utf8(bytes)
        .ok()
        .and_then(|text| pto_dialects::source::unparsable(&String::from_utf8_lossy(name), text));
    match message {
        Some(message) => {
            eprintln!("{message}");
            false
        }
        None => true,
    }
}

/// Writes a successful run's output (`output::write_output`); returns
/// whether it was written.
unsafe extern "C" fn write_output(
    path: MlirStringRef,
    bytes: MlirStringRef,
    _: *mut c_void,
) -> bool {
    // SAFETY: the glue passes the path and the output for the call.
    let (path, bytes) = unsafe { (bytes_of(path), bytes_of(bytes)) };
    let path = String::from_utf8_lossy(path);
    match output::write_output(&path, bytes) {
        Ok(()) => true,
        Err(error) => {
            eprintln!("pto-opt: error: cannot write output file '{path}': {error}");
            false
        }
    }
}

/// Runs pto-opt on `arguments` (the program name first) with the dialects
/// of `registry`; returns the exit code.
pub fn opt_main(arguments: impl IntoIterator<Item = OsString>, registry: &DialectRegistry) -> u8 {
    register_all_passes();
    // Unix arguments are C strings already: none holds a NUL byte.
    let arguments: Vec<CString> = arguments
        .into_iter()
        .map(|argument| CString::new(argument.into_vec()).expect("arguments hold no NUL byte"))
        .collect();
    let argv: Vec<*const c_char> = arguments.iter().map(|argument| argument.as_ptr()).collect();
    let callbacks = PtoOptCallbacks {
        check_input,
        write_output,
        user_data: std::ptr::null_mut(),
    };
    let version = env!("CARGO_PKG_VERSION");
    // SAFETY: `argv` points to `arguments`, which outlive the call, as do
    // the registry, the version string and the callbacks.
    let code = unsafe {
        ptoGlue_optMain(
            argv.len() as c_int,
            argv.as_ptr(),
            registry.to_raw(),
            string_ref(version.as_bytes()),
            &callbacks,
        )
    };
    u8::try_from(code).unwrap_or(1)
}
