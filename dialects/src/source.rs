//! Names from the source text: MLIR drops `%names` when it parses, but
//! values keep their `file:line:col` locations, which point at them. The
//! tools that read a file record the names of function arguments in the IR
//! with [`name_arguments`] (as name locations, `crate::ir::value_name`).

use melior::ir::ValueLike;

/// `file:line:col` for a file location; the printed form otherwise.
pub fn location_text(location: melior::ir::Location) -> String {
    let text = crate::ir::unnamed(location).to_string();
    // loc("file":L:C) possibly wrapped in callsite/fused forms
    // (`loc(callsite("f":6:8 at "f":18:10))`): take the first
    // file:line:col, the op's own place.
    if let Some(start) = text
        .find("loc(")
        .and_then(|s| text[s..].find('"').map(|q| s + q))
    {
        let rest = &text[start + 1..];
        if let Some(end_quote) = rest.find('"') {
            let file = &rest[..end_quote];
            let tail = &rest[end_quote + 1..];
            let numbers: String = tail
                .chars()
                .take_while(|c| *c == ':' || c.is_ascii_digit())
                .collect();
            if numbers.starts_with(':') {
                return format!("{file}{numbers}");
            }
        }
    }
    text
}

/// The `%name` at `location` (`file:line:col`) in the source whose lines
/// are `lines`.
pub fn source_name(lines: &[&str], location: &str) -> Option<String> {
    let mut parts = location.rsplitn(3, ':');
    let column: usize = parts.next()?.parse().ok()?;
    let line: usize = parts.next()?.parse().ok()?;
    let text = lines.get(line.checked_sub(1)?)?;
    let rest = text.get(column.checked_sub(1)?..)?;
    let rest = rest.strip_prefix('%')?;
    let name: String = rest
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == '$' || *c == '.')
        .collect();
    (!name.is_empty()).then_some(name)
}

/// Records in `module` the source name of each function argument that has
/// one in `source` (the text `module` was parsed from), so that passes can
/// name what they emit after the user's parameters.
pub fn name_arguments(module: &melior::ir::Module, source: &str) {
    // Split once: looking each argument's line up from the start of the
    // text made a module of many functions quadratic.
    let lines: Vec<&str> = source.lines().collect();
    crate::ir::name_arguments(module.as_operation(), |argument| {
        source_name(&lines, &location_text(argument.location()))
    });
}

/// Text MLIR 22's parser crashes on instead of diagnosing, found before
/// parsing: a dense array whose element type is neither an integer nor a
/// float (`array<index: 0>` dereferences the type as a float). The result
/// is `name:line:col: error: …` at the element type. Comments are skipped.
pub fn unparsable(name: &str, text: &str) -> Option<String> {
    for (number, line) in text.lines().enumerate() {
        let code = line.split("//").next().unwrap_or_default();
        let mut from = 0;
        while let Some(found) = code[from..].find("array<") {
            let start = from + found + "array<".len();
            // The builtin `array<T: ...>` attribute, not a dialect's
            // `!pl.array<...>` type or a longer name ending in `array`.
            let before = code[..from + found].chars().next_back();
            if before.is_some_and(|c| c.is_alphanumeric() || matches!(c, '_' | '.' | '!' | '$')) {
                from = start;
                continue;
            }
            let rest = &code[start..];
            let skipped = rest.len() - rest.trim_start().len();
            let element: String = rest
                .trim_start()
                .chars()
                .take_while(|c| !matches!(c, ':' | '>' | ' '))
                .collect();
            let integer = ["i", "si", "ui"].iter().any(|p| {
                element
                    .strip_prefix(p)
                    .is_some_and(|w| !w.is_empty() && w.chars().all(|c| c.is_ascii_digit()))
            });
            let float = element.starts_with('f')
                && element[1..].starts_with(|c: char| c.is_ascii_digit())
                || matches!(element.as_str(), "bf16" | "tf32");
            if !element.is_empty() && !integer && !float {
                let column = start + skipped + 1;
                return Some(format!(
                    "{name}:{}:{column}: error: a dense array holds integers or floats, not '{element}'",
                    number + 1
                ));
            }
            from = start;
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::{location_text, unparsable};
    use melior::ir::Location;

    #[test]
    fn call_site_locations_name_the_op_itself() {
        let context = melior::Context::new();
        let callee = Location::new(&context, "f.mlir", 6, 8);
        let caller = Location::new(&context, "f.mlir", 18, 10);
        assert_eq!(location_text(callee), "f.mlir:6:8");
        assert_eq!(
            location_text(Location::call_site(callee, caller)),
            "f.mlir:6:8"
        );
    }

    #[test]
    fn dense_arrays_of_other_types_are_found_where_they_are() {
        assert_eq!(
            unparsable(
                "in.mlir",
                "func.func @f() {\n  %x = pl.op {pl.addresses = array<index: 0>}\n"
            ),
            Some("in.mlir:2:36: error: a dense array holds integers or floats, not 'index'".into())
        );
        // A dialect type named `array` is not the builtin attribute.
        assert_eq!(
            unparsable("in.mlir", "%a = pl.array.create : !pl.array<i32, 8>"),
            None
        );
        assert_eq!(
            unparsable(
                "in.mlir",
                "x = array<i64: 0, 1> y = array<f32: 1.0> z = array<i1> w = array<f8E4M3FN: 1.0>"
            ),
            None
        );
        assert_eq!(unparsable("in.mlir", "// array<index: 0>\n"), None);
        assert!(unparsable("in.mlir", "a = array< none : 1>").is_some());
    }
}
