//! `libpto_mlir.so`: one shared library that
//! - stock `mlir-opt` loads with `--load-dialect-plugin` and
//!   `--load-pass-plugin` (the two entry points below), and
//! - C and C++ programs link to get the dialects, the verifier and the
//!   passes (`include/pto-c/*.h`; the C API is defined in the Rust crates
//!   and exported from here).
//!
//! It links the same shared `libMLIR.so` as `mlir-opt`: a private MLIR copy
//! would duplicate MLIR's type ids and crash inside the host.

use std::ffi::{c_char, c_void};

use mlir_sys::MlirDialectRegistry;

/// `MLIR_PLUGIN_API_VERSION` of `mlir/Tools/Plugins/*Plugin.h`.
const PLUGIN_API_VERSION: u32 = 1;
const PLUGIN_NAME: &std::ffi::CStr = c"pto-mlir";
const PLUGIN_VERSION: &std::ffi::CStr = c"0.1.0";

/// `mlir::DialectPluginLibraryInfo`.
#[repr(C)]
pub struct DialectPluginLibraryInfo {
    api_version: u32,
    plugin_name: *const c_char,
    plugin_version: *const c_char,
    register_dialect_registry_callbacks: extern "C" fn(*mut c_void),
}

/// `mlir::PassPluginLibraryInfo`.
#[repr(C)]
pub struct PassPluginLibraryInfo {
    api_version: u32,
    plugin_name: *const c_char,
    plugin_version: *const c_char,
    register_pass_registry_callbacks: extern "C" fn(),
}

extern "C" fn register_dialects(registry: *mut c_void) {
    // `registry` is the host's `mlir::DialectRegistry*`, which is what an
    // `MlirDialectRegistry` wraps.
    pto_dialects::capi::ptoRegisterDialects(MlirDialectRegistry { ptr: registry });
}

extern "C" fn register_passes() {
    pto_passes::register_passes();
}

/// The dialect plugin entry point `mlir-opt --load-dialect-plugin` calls.
#[unsafe(no_mangle)]
pub extern "C" fn mlirGetDialectPluginInfo() -> DialectPluginLibraryInfo {
    DialectPluginLibraryInfo {
        api_version: PLUGIN_API_VERSION,
        plugin_name: PLUGIN_NAME.as_ptr(),
        plugin_version: PLUGIN_VERSION.as_ptr(),
        register_dialect_registry_callbacks: register_dialects,
    }
}

/// The pass plugin entry point `mlir-opt --load-pass-plugin` calls.
#[unsafe(no_mangle)]
pub extern "C" fn mlirGetPassPluginInfo() -> PassPluginLibraryInfo {
    PassPluginLibraryInfo {
        api_version: PLUGIN_API_VERSION,
        plugin_name: PLUGIN_NAME.as_ptr(),
        plugin_version: PLUGIN_VERSION.as_ptr(),
        register_pass_registry_callbacks: register_passes,
    }
}

/// Registers every pass of the project in MLIR's global pass registry
/// (C API for embedders; idempotent).
#[unsafe(no_mangle)]
pub extern "C" fn ptoRegisterPasses() {
    pto_passes::register_passes();
}
