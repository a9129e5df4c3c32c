//! The C++ entries the translator needs: MLIR's C++ emitter, and a parser
//! that takes the input's bytes and name as they are.

use std::ffi::c_void;

use melior::{
    Context,
    ir::{Module, operation::OperationLike},
};
use mlir_sys::{MlirContext, MlirModule, MlirOperation, MlirStringRef};

unsafe extern "C" {
    fn ptoGlue_parseModule(
        context: MlirContext,
        source: MlirStringRef,
        name: MlirStringRef,
    ) -> MlirModule;

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
    let source = MlirStringRef {
        data: source.as_ptr().cast(),
        length: source.len(),
    };
    let name = MlirStringRef {
        data: name.as_ptr().cast(),
        length: name.len(),
    };
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
