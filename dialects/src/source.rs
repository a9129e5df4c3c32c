//! Names from the source text: MLIR drops `%names` when it parses, but
//! values keep their `file:line:col` locations, which point at them.

use melior::ir::{Value, ValueLike};

/// `file:line:col` for a file location; the printed form otherwise.
pub fn location_text(location: melior::ir::Location) -> String {
    let text = location.to_string();
    // loc("file":L:C) possibly wrapped in callsite/fused forms: take the
    // first file:line:col.
    if let Some(start) = text.find("loc(\"") {
        let rest = &text[start + 5..];
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

/// The `%name` at `location` (`file:line:col`) in `source`.
pub fn source_name(source: &str, location: &str) -> Option<String> {
    let mut parts = location.rsplitn(3, ':');
    let column: usize = parts.next()?.parse().ok()?;
    let line: usize = parts.next()?.parse().ok()?;
    let text = source.lines().nth(line.checked_sub(1)?)?;
    let rest = text.get(column.checked_sub(1)?..)?;
    let rest = rest.strip_prefix('%')?;
    let name: String = rest
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == '$' || *c == '.')
        .collect();
    (!name.is_empty()).then_some(name)
}

/// `value`'s `%name` in `source` (the text it was parsed from), if its
/// location points at one.
pub fn value_name(source: Option<&str>, value: Value) -> Option<String> {
    source_name(source?, &location_text(value.location()))
}
