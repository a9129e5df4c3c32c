//! Source names carried in the IR: MLIR's parser drops `%names`, so the
//! tools that read a file (pto-translate, pto-run) wrap each function
//! argument's location in a name location (`loc("a"(file:line:col))`)
//! before anything else runs. Passes then name what they emit after the
//! user's parameters without seeing the source text.

use crate::ops::Checked;
use melior::ir::{BlockLike, Location, OperationRef, RegionLike, Value, ValueLike};
use mlir_sys::{mlirLocationIsAName, mlirLocationNameGetName};

/// The name `location` carries when it is a name location.
pub fn location_name(location: Location) -> Option<String> {
    let raw = location.to_raw();
    // SAFETY: `raw` is a live location; the queries only read it, and the
    // name's bytes are copied before the call returns.
    unsafe {
        if !mlirLocationIsAName(raw) {
            return None;
        }
        let name = mlir_sys::mlirIdentifierStr(mlirLocationNameGetName(raw));
        Some(String::from_utf8_lossy(super::query::string_bytes(name)).into_owned())
    }
}

/// The location a name location wraps (`location` itself otherwise).
pub fn unnamed(location: Location) -> Location {
    let raw = location.to_raw();
    // SAFETY: `raw` is a live location; its child belongs to the same
    // context and lives as long as it does.
    unsafe {
        if mlirLocationIsAName(raw) {
            Location::from_raw(mlir_sys::mlirLocationNameGetChildLoc(raw))
        } else {
            location
        }
    }
}

/// `value`'s source name: the name of its location when that is a name
/// location.
pub fn value_name<'c>(value: impl ValueLike<'c>) -> Option<String> {
    let raw = value.to_raw();
    // SAFETY: `raw` is a live value; its location lives as long as its
    // context.
    let location = unsafe { Location::from_raw(mlir_sys::mlirValueGetLocation(raw)) };
    location_name(location)
}

/// Gives every function argument under `root` that `name` names (it gets
/// the argument and answers from the source text) a name location
/// wrapping the one it has. Arguments already named keep their name.
pub fn name_arguments<'c>(
    root: OperationRef<'c, '_>,
    mut name: impl FnMut(Value<'c, '_>) -> Option<String>,
) {
    let functions = crate::ir::collect_named(root, &["func.func"]);
    for block in functions
        .iter()
        .filter_map(|f| f.region_opt(0).and_then(|r| r.first_block()))
    {
        for index in 0..block.argument_count() {
            let Ok(argument) = block.argument(index) else {
                continue;
            };
            let value: Value = argument.into();
            if value_name(value).is_some() {
                continue;
            }
            let Some(text) = name(value) else {
                continue;
            };
            let child = value.location().to_raw();
            let raw_name = super::strings::string_ref(&text);
            // SAFETY: `child` is a live location of the argument's context;
            // MLIR copies the name into that context before returning. The
            // argument is a live block argument and keeps the new location,
            // which lives as long as the context.
            unsafe {
                let context = mlir_sys::mlirLocationGetContext(child);
                let named = mlir_sys::mlirLocationNameGet(context, raw_name, child);
                mlir_sys::mlirBlockArgumentSetLocation(argument.to_raw(), named);
            }
        }
    }
}

/// The name the tools know parameter `index` by: its source name, else
/// `arg<index>`.
pub fn parameter_name<'c>(value: impl ValueLike<'c>, index: usize) -> String {
    value_name(value).unwrap_or_else(|| format!("arg{index}"))
}
