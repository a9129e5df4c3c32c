//! Typed constructors and accessors for the pl dialect attributes on
//! functions: `#pl.kind<...>`, `#pl.level<...>`, `#pl.role<...>` and
//! `#pl.direction<...>`.

use melior::{
    Context,
    ir::{Attribute, attribute::AttributeLike},
};

use crate::{
    enums::{FunctionKind, Level, ParamDirection, Role},
    ffi,
};

fn parse<'c>(context: &'c Context, text: &str) -> Attribute<'c> {
    // The text is built from the enum's own keyword, so it always parses
    // once the dialect is registered.
    Attribute::parse(context, text)
        .unwrap_or_else(|| panic!("the pl dialect is not loaded ({text})"))
}

/// Returns `#pl.kind<kind>`.
pub fn function_kind<'c>(context: &'c Context, kind: FunctionKind) -> Attribute<'c> {
    parse(context, &format!("#pl.kind<{kind}>"))
}

/// Returns `#pl.level<level>`.
pub fn level<'c>(context: &'c Context, level: Level) -> Attribute<'c> {
    parse(context, &format!("#pl.level<{level}>"))
}

/// Returns `#pl.role<role>`.
pub fn role<'c>(context: &'c Context, role: Role) -> Attribute<'c> {
    parse(context, &format!("#pl.role<{role}>"))
}

/// Returns `#pl.direction<direction>`.
pub fn direction<'c>(context: &'c Context, direction: ParamDirection) -> Attribute<'c> {
    parse(context, &format!("#pl.direction<{direction}>"))
}

/// The value of a pl function attribute.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FunctionAttr {
    /// `#pl.kind<...>`
    Kind(FunctionKind),
    /// `#pl.level<...>`
    Level(Level),
    /// `#pl.role<...>`
    Role(Role),
    /// `#pl.direction<...>`
    Direction(ParamDirection),
}

/// Reads a pl function attribute; `None` for any other attribute.
pub fn read(attribute: Attribute) -> Option<FunctionAttr> {
    let mut which = 0;
    // SAFETY: the attribute is live; the glue only inspects it.
    let code = unsafe { ffi::ptoGlue_plEnumAttrGetValue(attribute.to_raw(), &mut which) };
    match which {
        1 => FunctionKind::from_code(code).map(FunctionAttr::Kind),
        2 => Level::from_code(code).map(FunctionAttr::Level),
        3 => Role::from_code(code).map(FunctionAttr::Role),
        4 => ParamDirection::from_code(code).map(FunctionAttr::Direction),
        _ => None,
    }
}

/// The text of a string or flat symbol reference attribute.
///
/// melior's `StringRef::as_str` builds a slice from MLIR's null data pointer
/// for the empty string, which aborts (a non-unwinding panic); this reads
/// the raw string instead.
pub fn text(attribute: Attribute) -> Option<String> {
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
    if text.length == 0 || text.data.is_null() {
        return Some(String::new());
    }
    // SAFETY: non-null data of `length` bytes, per the checks above.
    let bytes = unsafe { std::slice::from_raw_parts(text.data.cast::<u8>(), text.length) };
    Some(String::from_utf8_lossy(bytes).into_owned())
}
