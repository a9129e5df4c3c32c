//! MLIR's string refs at the FFI boundary: Rust strings lent to MLIR, MLIR
//! strings read back, and the callback that collects a message into a
//! `String` (the glue's and the C API's error and output callbacks).

use std::ffi::c_void;

use mlir_sys::MlirStringRef;

/// Borrowed bytes (a `&str` or `&[u8]`) as MLIR's string ref, valid while
/// they are. NUL bytes are data: MLIR reads `length` bytes.
pub fn string_ref(text: &(impl AsRef<[u8]> + ?Sized)) -> MlirStringRef {
    let bytes = text.as_ref();
    MlirStringRef {
        data: bytes.as_ptr().cast(),
        length: bytes.len(),
    }
}

/// The bytes of `text`.
///
/// # Safety
/// `text` must describe `length` readable bytes that outlive `'a` (or be
/// empty).
pub unsafe fn bytes_of<'a>(text: MlirStringRef) -> &'a [u8] {
    if text.length == 0 {
        return &[];
    }
    // SAFETY: guaranteed by the caller.
    unsafe { std::slice::from_raw_parts(text.data.cast::<u8>(), text.length) }
}

/// `text` as UTF-8 (`<invalid UTF-8>` when it is not: MLIR's option names
/// and values come from pipeline text, which is).
///
/// # Safety
/// As for [`bytes_of`].
pub unsafe fn str_of<'a>(text: MlirStringRef) -> &'a str {
    // SAFETY: guaranteed by the caller.
    std::str::from_utf8(unsafe { bytes_of(text) }).unwrap_or("<invalid UTF-8>")
}

/// An `MlirStringCallback` that appends each piece to the `String` its
/// user data points at (lossily, should a piece not be UTF-8).
///
/// # Safety
/// `user_data` must point at a live `String` no one else borrows during
/// the call, and `message` describe readable bytes.
pub unsafe extern "C" fn append_to_string(message: MlirStringRef, user_data: *mut c_void) {
    // SAFETY: guaranteed by the caller.
    unsafe {
        let text = &mut *user_data.cast::<String>();
        text.push_str(&String::from_utf8_lossy(bytes_of(message)));
    }
}

/// The name of `op` (`"pl.tile.add"`), borrowed from its context, which
/// keeps every identifier for its lifetime `'c`: reading an op's name
/// copies nothing. Empty if the name is not UTF-8.
pub fn op_name<'c: 'a, 'a>(op: &impl melior::ir::operation::OperationLike<'c, 'a>) -> &'c str {
    // SAFETY: the op is live; its name is an identifier interned in the
    // context, whose bytes stay valid and unchanged while the context
    // (lifetime 'c) lives.
    let bytes: &'c [u8] = unsafe {
        bytes_of(mlir_sys::mlirIdentifierStr(mlir_sys::mlirOperationGetName(
            op.to_raw(),
        )))
    };
    std::str::from_utf8(bytes).unwrap_or_default()
}
