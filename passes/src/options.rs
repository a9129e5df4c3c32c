//! Pass options: their declaration and the typed values a pass run sees.
//!
//! MLIR parses the `{name=value ...}` syntax (the options are real MLIR pass
//! options, declared by the glue from [`OptionSpec`]s); the values reach Rust
//! as strings and are checked here, so an option error is reported when the
//! pipeline is parsed, before anything runs.

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
}
