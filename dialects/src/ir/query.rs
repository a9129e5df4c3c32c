//! Read-only queries the melior API lacks or answers unsafely: builtin
//! scalar types, string attributes, dialect namespaces.

use melior::ir::{Attribute, Type, TypeLike, attribute::AttributeLike};
use mlir_sys::MlirStringRef;

/// How a builtin integer type treats its sign.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Signedness {
    /// `iN`.
    Signless,
    /// `siN`.
    Signed,
    /// `uiN`.
    Unsigned,
}

/// A float format MLIR names with a builtin type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FloatFormat {
    F16,
    Bf16,
    F32,
    F8E4M3FN,
    F8E5M2,
    F8E8M0FNU,
    F4E2M1FN,
    /// Any other builtin float (f64, tf32, other 8-bit formats, ...).
    Other,
}

/// A builtin scalar type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BuiltinScalar {
    Integer { width: u32, signedness: Signedness },
    Index,
    Float { width: u32, format: FloatFormat },
}

/// Classifies a builtin scalar type through the C API (this runs for every
/// op the passes model; printing a type costs far more); `None` for any
/// other type.
pub fn builtin_scalar(r#type: Type) -> Option<BuiltinScalar> {
    use mlir_sys::*;
    let raw = r#type.to_raw();
    // SAFETY: `raw` is a valid type of a live context; each query only
    // reads it.
    unsafe {
        if mlirTypeIsAInteger(raw) {
            let signedness = if mlirIntegerTypeIsSigned(raw) {
                Signedness::Signed
            } else if mlirIntegerTypeIsUnsigned(raw) {
                Signedness::Unsigned
            } else {
                Signedness::Signless
            };
            return Some(BuiltinScalar::Integer {
                width: mlirIntegerTypeGetWidth(raw),
                signedness,
            });
        }
        if mlirTypeIsAIndex(raw) {
            return Some(BuiltinScalar::Index);
        }
        if mlirTypeIsAFloat(raw) {
            let format = [
                (
                    mlirTypeIsAF16 as unsafe extern "C" fn(_) -> bool,
                    FloatFormat::F16,
                ),
                (mlirTypeIsABF16, FloatFormat::Bf16),
                (mlirTypeIsAF32, FloatFormat::F32),
                (mlirTypeIsAFloat8E4M3FN, FloatFormat::F8E4M3FN),
                (mlirTypeIsAFloat8E5M2, FloatFormat::F8E5M2),
                (mlirTypeIsAFloat8E8M0FNU, FloatFormat::F8E8M0FNU),
                (mlirTypeIsAFloat4E2M1FN, FloatFormat::F4E2M1FN),
            ]
            .into_iter()
            .find(|(is, _)| is(raw))
            .map_or(FloatFormat::Other, |(_, format)| format);
            return Some(BuiltinScalar::Float {
                width: mlirFloatTypeGetWidth(raw) as u32,
                format,
            });
        }
    }
    None
}

/// Whether `r#type` belongs to the dialect `namespace`.
pub fn type_in_dialect(r#type: Type, namespace: &str) -> bool {
    // SAFETY: `r#type` is valid; its dialect outlives the call.
    let name =
        unsafe { mlir_sys::mlirDialectGetNamespace(mlir_sys::mlirTypeGetDialect(r#type.to_raw())) };
    string_bytes(name) == namespace.as_bytes()
}

/// The bytes of an MLIR string ref (empty for a null one).
pub(super) fn string_bytes<'a>(text: MlirStringRef) -> &'a [u8] {
    if text.length == 0 || text.data.is_null() {
        return &[];
    }
    // SAFETY: MLIR's string refs here point at `length` bytes uniqued in the
    // context or static, which outlive the caller's use.
    unsafe { std::slice::from_raw_parts(text.data.cast::<u8>(), text.length) }
}

/// The text of a string or flat symbol reference attribute.
///
/// melior's `StringRef::as_str` builds a slice from MLIR's null data pointer
/// for the empty string, which aborts (a non-unwinding panic); this reads
/// the raw string instead, replacing invalid UTF-8.
pub fn string_attr_text(attribute: Attribute) -> Option<String> {
    use mlir_sys::{
        mlirAttributeIsAFlatSymbolRef, mlirAttributeIsAString, mlirFlatSymbolRefAttrGetValue,
        mlirStringAttrGetValue,
    };
    let raw = attribute.to_raw();
    // SAFETY: `raw` is a live attribute; the queries only read it, and the
    // returned string is valid while the context lives.
    let text = unsafe {
        if mlirAttributeIsAString(raw) {
            mlirStringAttrGetValue(raw)
        } else if mlirAttributeIsAFlatSymbolRef(raw) {
            mlirFlatSymbolRefAttrGetValue(raw)
        } else {
            return None;
        }
    };
    Some(String::from_utf8_lossy(string_bytes(text)).into_owned())
}
