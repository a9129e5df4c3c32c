//! Runs MLIR's opt driver through the glue (`cpp/OptMain.cpp`).

use std::ffi::c_void;

use melior::dialect::DialectRegistry;
use mlir_sys::{MlirDialectRegistry, MlirStringRef};

use crate::cli::PassFlag;

#[repr(C)]
struct PtoPassFlag {
    name: MlirStringRef,
    options: MlirStringRef,
}

#[repr(C)]
struct PtoOptConfig {
    input_name: MlirStringRef,
    pass_pipeline: MlirStringRef,
    num_pass_flags: isize,
    pass_flags: *const PtoPassFlag,
    split_input_marker: MlirStringRef,
    output_split_marker: MlirStringRef,
    verify_diagnostics: i32,
    emit_bytecode: bool,
    allow_unregistered_dialects: bool,
    show_dialects: bool,
    list_passes: bool,
    verify_each_pass: bool,
    verify_roundtrip: bool,
    no_implicit_module: bool,
    dump_pass_pipeline: bool,
    num_mlir_options: isize,
    mlir_options: *const MlirStringRef,
}

type BytesCallback = unsafe extern "C" fn(MlirStringRef, *mut c_void);

unsafe extern "C" {
    fn ptoGlue_isRegisteredPass(name: MlirStringRef) -> bool;
    fn ptoGlue_llvmVersion() -> MlirStringRef;
    fn ptoGlue_optMain(
        config: *const PtoOptConfig,
        registry: MlirDialectRegistry,
        input: MlirStringRef,
        on_output: BytesCallback,
        user_data: *mut c_void,
    ) -> bool;
}

fn string_ref(bytes: &[u8]) -> MlirStringRef {
    MlirStringRef {
        data: bytes.as_ptr().cast(),
        length: bytes.len(),
    }
}

/// How `--verify-diagnostics` checks expected-* comments.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VerifyDiagnostics {
    /// No checking.
    None = 0,
    /// Every diagnostic must be expected and every expectation met.
    All = 1,
    /// Only expected diagnostics are checked.
    OnlyExpected = 2,
}

/// Everything the opt driver needs for one run.
#[derive(Debug)]
pub struct OptRequest<'a> {
    pub input_name: &'a str,
    pub input: &'a [u8],
    pub pass_pipeline: Option<&'a str>,
    pub pass_flags: &'a [PassFlag],
    pub split_input_marker: Option<&'a str>,
    pub output_split_marker: &'a str,
    pub verify_diagnostics: VerifyDiagnostics,
    pub emit_bytecode: bool,
    pub allow_unregistered_dialects: bool,
    pub show_dialects: bool,
    pub list_passes: bool,
    pub verify_each_pass: bool,
    pub verify_roundtrip: bool,
    pub no_implicit_module: bool,
    pub dump_pass_pipeline: bool,
    pub mlir_options: &'a [String],
}

/// Registers every upstream and project pass (once per process).
pub fn register_all_passes() {
    static REGISTER: std::sync::Once = std::sync::Once::new();
    REGISTER.call_once(|| {
        melior::utility::register_all_passes();
        pto_passes::register_passes();
    });
}

/// Whether `name` is a registered pass or pipeline.
pub fn is_registered_pass(name: &str) -> bool {
    register_all_passes();
    // SAFETY: the string outlives the call.
    unsafe { ptoGlue_isRegisteredPass(string_ref(name.as_bytes())) }
}

/// The LLVM version string.
pub fn llvm_version() -> String {
    // SAFETY: the glue returns a static string.
    let version = unsafe { ptoGlue_llvmVersion() };
    // SAFETY: `version` describes a static UTF-8 string.
    let bytes = unsafe { std::slice::from_raw_parts(version.data.cast::<u8>(), version.length) };
    String::from_utf8_lossy(bytes).into_owned()
}

/// Runs the driver; returns the output on success (diagnostics already
/// printed to stderr on failure).
pub fn run(request: &OptRequest) -> Option<Vec<u8>> {
    register_all_passes();
    let registry = DialectRegistry::new();
    melior::utility::register_all_dialects(&registry);
    pto_dialects::register_dialects(&registry);

    let pass_flags: Vec<PtoPassFlag> = request
        .pass_flags
        .iter()
        .map(|flag| PtoPassFlag {
            name: string_ref(flag.name.as_bytes()),
            options: string_ref(flag.options.as_bytes()),
        })
        .collect();
    let mlir_options: Vec<MlirStringRef> = request
        .mlir_options
        .iter()
        .map(|option| string_ref(option.as_bytes()))
        .collect();
    let config = PtoOptConfig {
        input_name: string_ref(request.input_name.as_bytes()),
        pass_pipeline: string_ref(request.pass_pipeline.unwrap_or("").as_bytes()),
        num_pass_flags: pass_flags.len() as isize,
        pass_flags: pass_flags.as_ptr(),
        split_input_marker: string_ref(request.split_input_marker.unwrap_or("").as_bytes()),
        output_split_marker: string_ref(request.output_split_marker.as_bytes()),
        verify_diagnostics: request.verify_diagnostics as i32,
        emit_bytecode: request.emit_bytecode,
        allow_unregistered_dialects: request.allow_unregistered_dialects,
        show_dialects: request.show_dialects,
        list_passes: request.list_passes,
        verify_each_pass: request.verify_each_pass,
        verify_roundtrip: request.verify_roundtrip,
        no_implicit_module: request.no_implicit_module,
        dump_pass_pipeline: request.dump_pass_pipeline,
        num_mlir_options: mlir_options.len() as isize,
        mlir_options: mlir_options.as_ptr(),
    };

    unsafe extern "C" fn collect(bytes: MlirStringRef, user_data: *mut c_void) {
        // SAFETY: `user_data` is the Vec below; `bytes` is valid for the call.
        unsafe {
            let output = &mut *user_data.cast::<Vec<u8>>();
            output.extend_from_slice(std::slice::from_raw_parts(
                bytes.data.cast::<u8>(),
                bytes.length,
            ));
        }
    }
    let mut output = Vec::new();
    // SAFETY: every pointer in `config` and the input outlive the call;
    // `collect` only appends to `output`.
    let succeeded = unsafe {
        ptoGlue_optMain(
            &config,
            registry.to_raw(),
            string_ref(request.input),
            collect,
            (&mut output as *mut Vec<u8>).cast(),
        )
    };
    succeeded.then_some(output)
}
