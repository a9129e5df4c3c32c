//! Pass options: their declaration and the typed values a pass run sees.
//!
//! The options are real MLIR pass options (declared by the glue from
//! [`OptionSpec`]s, so `--help` and pipeline printing show them), but their
//! text (`name=value ...`, the inside of `pass{...}` or what follows
//! `--pass=`) is split and checked here, with MLIR's splitting rules, by
//! [`parse_option_text`]; the glue then sets the MLIR options from the
//! checked values. An error carries the byte offset of what it is about, so
//! the tools report it at `<pass-options>:1:COL` (see docs/pto-opt.md).

use std::collections::BTreeMap;

/// The type of a pass option.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OptionKind {
    /// `true` / `false`.
    Bool,
    /// A signed 64-bit integer, with an inclusive lower bound.
    Int { min: i64 },
    /// Free text.
    String,
    /// One of the listed keywords.
    Enum(&'static [&'static str]),
}

impl OptionKind {
    /// The option type MLIR parses the value as.
    pub fn mlir_kind(self) -> &'static str {
        match self {
            Self::Bool => "bool",
            Self::Int { .. } => "int",
            Self::String | Self::Enum(_) => "string",
        }
    }
}

/// One option of a pass.
#[derive(Clone, Copy, Debug)]
pub struct OptionSpec {
    /// The name used in `pass{name=value}`.
    pub name: &'static str,
    /// Its type.
    pub kind: OptionKind,
    /// A one-line description (shown in `--help` and docs/passes).
    pub description: &'static str,
    /// The default value, as it would be written in a pipeline.
    pub default: &'static str,
}

/// A typed option value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionValue {
    /// A boolean option.
    Bool(bool),
    /// An integer option.
    Int(i64),
    /// A string or enum option.
    String(String),
}

/// The option values of one pass run, checked against the pass's specs.
#[derive(Clone, Debug, Default)]
pub struct OptionValues {
    values: BTreeMap<&'static str, OptionValue>,
}

impl OptionValues {
    /// Parses and checks `(name, text)` pairs against `specs`.
    pub fn parse<'a>(
        pass: &str,
        specs: &[OptionSpec],
        pairs: impl IntoIterator<Item = (&'a str, &'a str)>,
    ) -> Result<Self, String> {
        let mut values = BTreeMap::new();
        for (name, text) in pairs {
            let spec = specs
                .iter()
                .find(|spec| spec.name == name)
                .ok_or_else(|| format!("{pass}: no option named '{name}'"))?;
            let value = match spec.kind {
                OptionKind::Bool => match text {
                    "true" | "1" => OptionValue::Bool(true),
                    "false" | "0" => OptionValue::Bool(false),
                    _ => {
                        return Err(format!(
                            "{pass}: option '{name}' must be true or false, got '{text}'"
                        ));
                    }
                },
                OptionKind::Int { min } => {
                    let number: i64 = text.parse().map_err(|_| {
                        format!("{pass}: option '{name}' must be an integer, got '{text}'")
                    })?;
                    if number < min {
                        return Err(format!(
                            "{pass}: option '{name}' must be at least {min}, got {number}"
                        ));
                    }
                    OptionValue::Int(number)
                }
                OptionKind::String => OptionValue::String(text.to_string()),
                OptionKind::Enum(choices) => {
                    if !choices.contains(&text) {
                        return Err(format!(
                            "{pass}: option '{name}' must be one of {}, got '{text}'",
                            choices.join(", ")
                        ));
                    }
                    OptionValue::String(text.to_string())
                }
            };
            values.insert(spec.name, value);
        }
        Ok(Self { values })
    }

    /// Returns an integer option's value.
    pub fn int(&self, name: &str) -> i64 {
        match self.values.get(name) {
            Some(OptionValue::Int(value)) => *value,
            other => panic!("option '{name}' is not an integer: {other:?}"),
        }
    }

    /// Returns a boolean option's value.
    pub fn bool(&self, name: &str) -> bool {
        match self.values.get(name) {
            Some(OptionValue::Bool(value)) => *value,
            other => panic!("option '{name}' is not a boolean: {other:?}"),
        }
    }

    /// Returns a string or enum option's value.
    pub fn string(&self, name: &str) -> &str {
        match self.values.get(name) {
            Some(OptionValue::String(value)) => value,
            other => panic!("option '{name}' is not a string: {other:?}"),
        }
    }
}

/// An error in a pass's option text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OptionError {
    /// What is wrong, starting with the pass name.
    pub message: String,
    /// The byte offset in the option text of the item it is about.
    pub offset: usize,
}

/// The file name of the location option errors are reported at: line 1 of
/// the pass's option text, the column of the offending item.
pub const OPTION_TEXT_LOCATION: &str = "<pass-options>";

/// One `name[=value]` item of an option text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OptionItem<'a> {
    /// The option name.
    pub name: &'a str,
    /// Its byte offset in the text.
    pub name_offset: usize,
    /// The value (`None`: no `=`), unquoted as MLIR unquotes it.
    pub value: Option<&'a str>,
    /// The byte offset of the value (just after `=`).
    pub value_offset: usize,
}

const TRIMMED: &[char] = &[' ', '\t', '\n', '\x0b', '\x0c', '\r'];

/// Where `c` next occurs in `text` from `index`, skipping `{...}`, `(...)`,
/// `[...]` and quoted ranges (MLIR's `findChar`).
fn find_outside_ranges(text: &[u8], index: usize, c: u8) -> Option<usize> {
    let mut i = index;
    while i < text.len() {
        if text[i] == c {
            return Some(i);
        }
        i = match text[i] {
            b'{' => find_outside_ranges(text, i + 1, b'}')?,
            b'(' => find_outside_ranges(text, i + 1, b')')?,
            b'[' => find_outside_ranges(text, i + 1, b']')?,
            quote @ (b'"' | b'\'') => i + 1 + text[i + 1..].iter().position(|&b| b == quote)?,
            _ => i,
        };
        i += 1;
    }
    None
}

/// `text[start..end]` trimmed and unquoted as MLIR does it
/// (`extractArgAndUpdateOptions`), with the offset of what is left.
fn extract(text: &str, start: usize, end: usize) -> (&str, usize) {
    let raw = &text[start..end];
    let trimmed = raw.trim_start_matches(TRIMMED);
    let offset = start + (raw.len() - trimmed.len());
    let item = trimmed.trim_end_matches(TRIMMED);
    let bytes = item.as_bytes();
    if bytes.len() <= 1 {
        return (item, offset);
    }
    let (first, last) = (bytes[0], bytes[bytes.len() - 1]);
    if first == last && (first == b'"' || first == b'\'') {
        let inner = &item[1..item.len() - 1];
        let inner_trimmed = inner.trim_start_matches(TRIMMED);
        return (
            inner_trimmed.trim_end_matches(TRIMMED),
            offset + 1 + inner.len() - inner_trimmed.len(),
        );
    }
    if first == b'{' && find_outside_ranges(bytes, 1, b'}') == Some(bytes.len() - 1) {
        let inner = &item[1..item.len() - 1];
        let inner_trimmed = inner.trim_start_matches(TRIMMED);
        return (
            inner_trimmed.trim_end_matches(TRIMMED),
            offset + 1 + inner.len() - inner_trimmed.len(),
        );
    }
    (item, offset)
}

/// The offset of the first non-blank byte at or after `index`.
fn skip_blanks(text: &str, index: usize) -> usize {
    index + (text[index..].len() - text[index..].trim_start_matches(TRIMMED).len())
}

/// Splits an option text into its items exactly as MLIR's pass option
/// parser does (`parseNextArg`): items are separated by spaces, a value runs
/// to the next space outside quotes and `{...}`, and quotes or braces around
/// a whole value are dropped. Items without a name are skipped.
pub fn split_option_text(text: &str) -> Vec<OptionItem<'_>> {
    let bytes = text.as_bytes();
    let mut items = Vec::new();
    let mut at = skip_blanks(text, 0);
    while at < bytes.len() {
        let mut end = at;
        while end < bytes.len() && bytes[end] != b' ' && bytes[end] != b'=' {
            end += 1;
        }
        let (name, name_offset) = extract(text, at, end);
        if end == bytes.len() || bytes[end] == b' ' {
            items.push(OptionItem {
                name,
                name_offset,
                value: None,
                value_offset: end,
            });
            at = skip_blanks(text, end);
            continue;
        }
        let value_start = end + 1;
        let mut i = value_start;
        while i < bytes.len() && bytes[i] != b' ' {
            match bytes[i] {
                quote @ (b'"' | b'\'') => {
                    if let Some(close) = bytes[i + 1..].iter().position(|&b| b == quote) {
                        i += 1 + close;
                    }
                }
                b'{' => {
                    let mut depth = 1;
                    i += 1;
                    while i < bytes.len() {
                        match bytes[i] {
                            quote @ (b'"' | b'\'') => {
                                if let Some(close) = bytes[i + 1..].iter().position(|&b| b == quote)
                                {
                                    i += 1 + close;
                                }
                            }
                            b'{' => depth += 1,
                            b'}' => {
                                depth -= 1;
                                if depth == 0 {
                                    break;
                                }
                            }
                            _ => {}
                        }
                        i += 1;
                    }
                    if i == bytes.len() {
                        break;
                    }
                }
                _ => {}
            }
            i += 1;
        }
        let (value, value_offset) = extract(text, value_start, i);
        items.push(OptionItem {
            name,
            name_offset,
            value: Some(value),
            value_offset,
        });
        at = skip_blanks(text, i);
    }
    items.retain(|item| !item.name.is_empty() || item.value.is_some_and(|value| !value.is_empty()));
    items
}

/// Parses an integer as LLVM's option parser does (`getAsInteger` with
/// radix 0): an optional `-`, then decimal, `0x` hex, `0b` binary, `0o` or
/// leading-`0` octal.
pub fn parse_llvm_integer(text: &str) -> Option<i64> {
    let (negative, digits) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text),
    };
    let lower = digits.to_ascii_lowercase();
    let (radix, digits) = if lower.starts_with("0x") {
        (16, &digits[2..])
    } else if lower.starts_with("0b") {
        (2, &digits[2..])
    } else if let Some(rest) = digits.strip_prefix("0o") {
        (8, rest)
    } else if digits.len() > 1 && digits.starts_with('0') && digits.as_bytes()[1].is_ascii_digit() {
        (8, &digits[1..])
    } else {
        (10, digits)
    };
    if digits.is_empty() || !digits.chars().all(|c| c.is_digit(radix)) {
        return None;
    }
    let magnitude = u64::from_str_radix(digits, radix).ok()?;
    if negative {
        0i64.checked_sub_unsigned(magnitude)
    } else {
        i64::try_from(magnitude).ok()
    }
}

/// A value as quoted in a message (long ones shortened).
fn shown(text: &str) -> String {
    const LIMIT: usize = 40;
    if text.chars().count() <= LIMIT {
        format!("'{text}'")
    } else {
        format!("'{}...'", text.chars().take(LIMIT).collect::<String>())
    }
}

/// Parses and checks a pass's option text (`nranks=4 arch=a5`) against its
/// specs, with defaults for what it does not give. Returns the given values
/// in canonical spelling (`true`/`false`, decimal integers), in text order,
/// for the glue to set on the MLIR options.
pub fn parse_option_text(
    pass: &str,
    specs: &[OptionSpec],
    text: &str,
) -> Result<Vec<(&'static str, String)>, OptionError> {
    let mut given: Vec<(&'static str, String)> = Vec::new();
    for item in split_option_text(text) {
        let error = |message: String, offset: usize| OptionError {
            message: format!("{pass}: {message}"),
            offset,
        };
        if item.name.is_empty() {
            return Err(error(
                "expected an option name before '='".to_string(),
                item.name_offset,
            ));
        }
        let Some(spec) = specs.iter().find(|spec| spec.name == item.name) else {
            let known: Vec<&str> = specs.iter().map(|spec| spec.name).collect();
            let hint = if known.is_empty() {
                "it takes no options".to_string()
            } else {
                format!("its options are {}", known.join(", "))
            };
            return Err(error(
                format!("no option named {} ({hint})", shown(item.name)),
                item.name_offset,
            ));
        };
        let name = spec.name;
        let canonical = match (spec.kind, item.value) {
            (OptionKind::Bool, None) => "true".to_string(),
            (OptionKind::Bool, Some(value)) => match value {
                "" | "true" | "TRUE" | "True" | "1" => "true".to_string(),
                "false" | "FALSE" | "False" | "0" => "false".to_string(),
                _ => {
                    return Err(error(
                        format!(
                            "option '{name}' must be true or false, got {}",
                            shown(value)
                        ),
                        item.value_offset,
                    ));
                }
            },
            (_, None) => {
                return Err(error(
                    format!("option '{name}' needs a value ({name}=...)"),
                    item.name_offset,
                ));
            }
            (OptionKind::Int { min }, Some(value)) => {
                let Some(number) = parse_llvm_integer(value) else {
                    return Err(error(
                        format!(
                            "option '{name}' must be a 64-bit integer, got {}",
                            shown(value)
                        ),
                        item.value_offset,
                    ));
                };
                if number < min {
                    return Err(error(
                        format!("option '{name}' must be at least {min}, got {number}"),
                        item.value_offset,
                    ));
                }
                number.to_string()
            }
            (OptionKind::String, Some(value)) => value.to_string(),
            (OptionKind::Enum(choices), Some(value)) => {
                if !choices.contains(&value) {
                    return Err(error(
                        format!(
                            "option '{name}' must be one of {}, got {}",
                            choices.join(", "),
                            shown(value)
                        ),
                        item.value_offset,
                    ));
                }
                value.to_string()
            }
        };
        given.push((name, canonical));
    }
    // An integer option whose default is below its minimum is required.
    for spec in specs
        .iter()
        .filter(|spec| !given.iter().any(|(name, _)| *name == spec.name))
    {
        if let OptionKind::Int { min } = spec.kind
            && spec
                .default
                .parse::<i64>()
                .is_ok_and(|default| default < min)
        {
            let name = spec.name;
            return Err(OptionError {
                message: format!("{pass}: option '{name}' is required ({name}=N with N >= {min})"),
                offset: skip_blanks(text, 0),
            });
        }
    }
    Ok(given)
}

#[cfg(test)]
mod tests {
    use super::*;

    const SPECS: &[OptionSpec] = &[
        OptionSpec {
            name: "n",
            kind: OptionKind::Int { min: 1 },
            description: "",
            default: "1",
        },
        OptionSpec {
            name: "mode",
            kind: OptionKind::Enum(&["mesh", "ring"]),
            description: "",
            default: "mesh",
        },
        OptionSpec {
            name: "fast",
            kind: OptionKind::Bool,
            description: "",
            default: "false",
        },
    ];

    #[test]
    fn parses_typed_values() {
        let values =
            OptionValues::parse("p", SPECS, [("n", "4"), ("mode", "ring"), ("fast", "true")])
                .unwrap();
        assert_eq!(values.int("n"), 4);
        assert_eq!(values.string("mode"), "ring");
        assert!(values.bool("fast"));
    }

    #[test]
    fn rejects_out_of_range_and_unknown_values() {
        assert_eq!(
            OptionValues::parse("p", SPECS, [("n", "0")]).unwrap_err(),
            "p: option 'n' must be at least 1, got 0"
        );
        assert_eq!(
            OptionValues::parse("p", SPECS, [("mode", "tree")]).unwrap_err(),
            "p: option 'mode' must be one of mesh, ring, got 'tree'"
        );
        assert!(OptionValues::parse("p", SPECS, [("x", "1")]).is_err());
    }

    fn items(text: &str) -> Vec<(&str, Option<&str>, usize)> {
        split_option_text(text)
            .into_iter()
            .map(|item| (item.name, item.value, item.name_offset))
            .collect()
    }

    #[test]
    fn splits_option_text_as_mlir_does() {
        assert_eq!(items(""), vec![]);
        assert_eq!(
            items("  n=4   mode=ring fast"),
            vec![
                ("n", Some("4"), 2),
                ("mode", Some("ring"), 8),
                ("fast", None, 18)
            ]
        );
        assert_eq!(
            items("s='a b' t=\"c d\" u={x y}"),
            vec![
                ("s", Some("a b"), 0),
                ("t", Some("c d"), 8),
                ("u", Some("x y"), 16)
            ]
        );
        assert_eq!(items("a= b"), vec![("a", Some(""), 0), ("b", None, 3)]);
        assert_eq!(
            items("a={unclosed b=1"),
            vec![("a", Some("{unclosed b=1"), 0)]
        );
    }

    #[test]
    fn integers_follow_llvm() {
        assert_eq!(parse_llvm_integer("42"), Some(42));
        assert_eq!(parse_llvm_integer("-9223372036854775808"), Some(i64::MIN));
        assert_eq!(parse_llvm_integer("9223372036854775808"), None);
        assert_eq!(parse_llvm_integer("0x10"), Some(16));
        assert_eq!(parse_llvm_integer("010"), Some(8));
        assert_eq!(parse_llvm_integer("0"), Some(0));
        assert_eq!(parse_llvm_integer("1e3"), None);
        assert_eq!(parse_llvm_integer(""), None);
        assert_eq!(parse_llvm_integer("-"), None);
        assert_eq!(parse_llvm_integer("+1"), None);
    }

    #[test]
    fn checks_option_text_with_offsets() {
        let parse = |text| parse_option_text("p", SPECS, text);
        assert_eq!(
            parse("n=4 mode=ring fast").unwrap(),
            vec![
                ("n", "4".to_string()),
                ("mode", "ring".to_string()),
                ("fast", "true".to_string())
            ]
        );
        assert_eq!(
            parse("fast=False").unwrap(),
            vec![("fast", "false".to_string())]
        );
        let error = parse("n=2 bogus=1").unwrap_err();
        assert_eq!(error.offset, 4);
        assert_eq!(
            error.message,
            "p: no option named 'bogus' (its options are n, mode, fast)"
        );
        let error = parse("mode=tree").unwrap_err();
        assert_eq!(
            (error.offset, error.message.as_str()),
            (5, "p: option 'mode' must be one of mesh, ring, got 'tree'")
        );
        assert_eq!(
            parse("n=0").unwrap_err().message,
            "p: option 'n' must be at least 1, got 0"
        );
        assert_eq!(
            parse("n=1e3").unwrap_err().message,
            "p: option 'n' must be a 64-bit integer, got '1e3'"
        );
        assert_eq!(
            parse("n").unwrap_err().message,
            "p: option 'n' needs a value (n=...)"
        );
        assert_eq!(
            parse("fast=2").unwrap_err().message,
            "p: option 'fast' must be true or false, got '2'"
        );
        assert_eq!(
            parse("=3").unwrap_err().message,
            "p: expected an option name before '='"
        );
        let long = format!("mode={}", "x".repeat(100));
        assert!(
            parse(&long)
                .unwrap_err()
                .message
                .ends_with(&format!("'{}...'", "x".repeat(40)))
        );
    }

    #[test]
    fn an_out_of_range_default_is_a_required_option() {
        const REQUIRED: &[OptionSpec] = &[OptionSpec {
            name: "n",
            kind: OptionKind::Int { min: 1 },
            description: "",
            default: "0",
        }];
        let error = parse_option_text("p", REQUIRED, "").unwrap_err();
        assert_eq!(
            (error.offset, error.message.as_str()),
            (0, "p: option 'n' is required (n=N with N >= 1)")
        );
        assert!(parse_option_text("p", REQUIRED, "n=2").is_ok());
    }
}
