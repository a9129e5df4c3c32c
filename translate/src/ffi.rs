//! The one C++ entry the translator needs: MLIR's C++ emitter.

use std::ffi::c_void;

use melior::ir::operation::OperationLike;
use mlir_sys::MlirOperation;

unsafe extern "C" {
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
