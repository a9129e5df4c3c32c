//! EmitC's opaque type and attribute built through its C API: the
//! translator makes one for every tile and call it emits, and building
//! them from text (`Type::parse`) ran MLIR's parser each time.

use melior::{
    Context,
    ir::{Attribute, Type},
};
use mlir_sys::MlirStringRef;

fn string_ref(text: &str) -> MlirStringRef {
    MlirStringRef {
        data: text.as_ptr().cast(),
        length: text.len(),
    }
}

/// `!emitc.opaque<"text">`. The context must have EmitC loaded (a pass
/// that builds it names EmitC among its dependent dialects).
pub fn opaque_type<'c>(context: &'c Context, text: &str) -> Type<'c> {
    // SAFETY: the context is live; the string is copied into the context
    // before the call returns; the type lives as long as the context.
    unsafe {
        Type::from_raw(mlir_sys::mlirEmitCOpaqueTypeGet(
            context.to_raw(),
            string_ref(text),
        ))
    }
}

/// `#emitc.opaque<"text">`, under the conditions of [`opaque_type`].
pub fn opaque_attribute<'c>(context: &'c Context, text: &str) -> Attribute<'c> {
    // SAFETY: as for `opaque_type`.
    unsafe {
        Attribute::from_raw(mlir_sys::mlirEmitCOpaqueAttrGet(
            context.to_raw(),
            string_ref(text),
        ))
    }
}
