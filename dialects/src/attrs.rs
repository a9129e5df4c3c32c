//! Typed constructors and accessors for the pl dialect attributes on
//! functions: `#pl.kind<...>`, `#pl.level<...>`, `#pl.role<...>`,
//! `#pl.direction<...>` and `#pl.split<...>`.

use melior::{Context, ir::Attribute};

use crate::enums::{CoreSplit, FunctionKind, Level, ParamDirection, Role};

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

/// Returns `#pl.split<split>`.
pub fn split<'c>(context: &'c Context, split: CoreSplit) -> Attribute<'c> {
    parse(context, &format!("#pl.split<{split}>"))
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
    /// `#pl.split<...>`
    Split(CoreSplit),
}

/// Reads a pl function attribute; `None` for any other attribute.
pub fn read(attribute: Attribute) -> Option<FunctionAttr> {
    let (code, which) = crate::ir::glue::enum_attr_code(attribute);
    match which {
        1 => FunctionKind::from_code(code).map(FunctionAttr::Kind),
        2 => Level::from_code(code).map(FunctionAttr::Level),
        3 => Role::from_code(code).map(FunctionAttr::Role),
        4 => ParamDirection::from_code(code).map(FunctionAttr::Direction),
        5 => CoreSplit::from_code(code).map(FunctionAttr::Split),
        _ => None,
    }
}

/// The `pl.kind` of a function (`func.func`), if it has one.
pub fn kind_of<'c: 'a, 'a>(
    function: impl melior::ir::operation::OperationLike<'c, 'a>,
) -> Option<FunctionKind> {
    match function.attribute("pl.kind").ok().and_then(read) {
        Some(FunctionAttr::Kind(kind)) => Some(kind),
        _ => None,
    }
}

/// The `pl.split` of a function (`func.func`), if it has one.
pub fn split_of<'c: 'a, 'a>(
    function: impl melior::ir::operation::OperationLike<'c, 'a>,
) -> Option<CoreSplit> {
    match function.attribute("pl.split").ok().and_then(read) {
        Some(FunctionAttr::Split(split)) => Some(split),
        _ => None,
    }
}

/// The text of a string or flat symbol reference attribute (read without
/// melior's `as_str`, which aborts on the empty string).
pub fn text(attribute: Attribute) -> Option<String> {
    crate::ir::string_attr_text(attribute)
}

/// The [`text`] of `op`'s attribute `name`, when it has one.
pub fn text_of<'c: 'a, 'a>(
    op: impl melior::ir::operation::OperationLike<'c, 'a>,
    name: &str,
) -> Option<String> {
    op.attribute(name).ok().and_then(text)
}
