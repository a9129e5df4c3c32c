//! Scalar element types and PyPTO's promotion rule (docs/pl-guide.md,
//! "Element types").
//!
//! pl spells its dtypes as MLIR types: signless `iN` is PyPTO's signed
//! `INTn`, `uiN` is `UINTn`, `index` is `INDEX` (64-bit, signed), and the
//! float types are the builtin ones.

use melior::ir::Type;

/// A scalar element type by name, as PyPTO's `DataType` spelled in MLIR.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Dtype {
    /// `i1` (BOOL).
    Bool,
    /// `i8` .. `i64` (INT8 .. INT64).
    I8,
    I16,
    I32,
    I64,
    /// `index` (INDEX).
    Index,
    /// `ui8` .. `ui64` (UINT8 .. UINT64).
    U8,
    U16,
    U32,
    U64,
    /// `f16`, `bf16`, `f32` and the 8-bit floats.
    F16,
    Bf16,
    F32,
    F8E4M3FN,
    F8E5M2,
    /// The A5 MX scale exponent `f8E8M0FNU` (FP8E8M0).
    F8E8M0,
    /// `f4E2M1FN` (FP4), packed two per byte.
    F4,
    /// `i4` / `ui4` (INT4 / UINT4), packed two per byte.
    I4,
    U4,
    /// `!pl.hf8` / `!pl.hf4` (HF8 / HF4).
    Hf8,
    Hf4,
}

impl Dtype {
    /// Classifies an MLIR type; `None` for anything else. Builtin types are
    /// classified through the C API (this runs for every op the passes
    /// model, and printing a type costs far more).
    pub fn of(r#type: Type) -> Option<Self> {
        use crate::ir::{BuiltinScalar, FloatFormat, Signedness};
        match crate::ir::builtin_scalar(r#type) {
            Some(BuiltinScalar::Integer { width, signedness }) => {
                let unsigned = match signedness {
                    Signedness::Signed => return None,
                    Signedness::Signless => false,
                    Signedness::Unsigned => true,
                };
                Some(match (width, unsigned) {
                    (1, false) => Self::Bool,
                    (4, false) => Self::I4,
                    (8, false) => Self::I8,
                    (16, false) => Self::I16,
                    (32, false) => Self::I32,
                    (64, false) => Self::I64,
                    (4, true) => Self::U4,
                    (8, true) => Self::U8,
                    (16, true) => Self::U16,
                    (32, true) => Self::U32,
                    (64, true) => Self::U64,
                    _ => return None,
                })
            }
            Some(BuiltinScalar::Index) => Some(Self::Index),
            Some(BuiltinScalar::Float { format, .. }) => match format {
                FloatFormat::F16 => Some(Self::F16),
                FloatFormat::Bf16 => Some(Self::Bf16),
                FloatFormat::F32 => Some(Self::F32),
                FloatFormat::F8E4M3FN => Some(Self::F8E4M3FN),
                FloatFormat::F8E5M2 => Some(Self::F8E5M2),
                FloatFormat::F8E8M0FNU => Some(Self::F8E8M0),
                FloatFormat::F4E2M1FN => Some(Self::F4),
                FloatFormat::Other => None,
            },
            // Dialect types: pl's own narrow floats (other dialects' types
            // are not printed).
            None if crate::ir::type_in_dialect(r#type, "pl") => match r#type.to_string().as_str() {
                "!pl.hf8" => Some(Self::Hf8),
                "!pl.hf4" => Some(Self::Hf4),
                _ => None,
            },
            None => None,
        }
    }

    /// Whether this is a float type.
    pub fn is_float(self) -> bool {
        matches!(
            self,
            Self::F16
                | Self::Bf16
                | Self::F32
                | Self::F8E4M3FN
                | Self::F8E5M2
                | Self::F8E8M0
                | Self::F4
                | Self::Hf8
                | Self::Hf4
        )
    }

    /// Whether this is an integer type (signed, unsigned, index or bool).
    pub fn is_integer(self) -> bool {
        !self.is_float()
    }

    /// The MLIR spelling.
    pub fn name(self) -> &'static str {
        match self {
            Self::Bool => "i1",
            Self::I8 => "i8",
            Self::I16 => "i16",
            Self::I32 => "i32",
            Self::I64 => "i64",
            Self::Index => "index",
            Self::U8 => "ui8",
            Self::U16 => "ui16",
            Self::U32 => "ui32",
            Self::U64 => "ui64",
            Self::F16 => "f16",
            Self::Bf16 => "bf16",
            Self::F32 => "f32",
            Self::F8E4M3FN => "f8E4M3FN",
            Self::F8E5M2 => "f8E5M2",
            Self::F8E8M0 => "f8E8M0FNU",
            Self::F4 => "f4E2M1FN",
            Self::I4 => "i4",
            Self::U4 => "ui4",
            Self::Hf8 => "!pl.hf8",
            Self::Hf4 => "!pl.hf4",
        }
    }
}

/// Renders a dtype set for a diagnostic: "i16, i32, f16 or f32".
pub fn describe_dtypes(set: &[Dtype]) -> String {
    let names: Vec<&str> = set.iter().map(|d| d.name()).collect();
    match names.split_last() {
        Some((last, [])) => last.to_string(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
        None => String::new(),
    }
}

/// The category of a scalar element type, as the promotion rule sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScalarKind {
    /// A float type of the given width.
    Float(u32),
    /// A signed (or signless) integer, or `index`, of the given width.
    Signed(u32),
    /// An unsigned integer of the given width.
    Unsigned(u32),
}

impl ScalarKind {
    /// Classifies an MLIR type; `None` for a non-scalar type.
    pub fn of(r#type: Type) -> Option<Self> {
        use crate::ir::{BuiltinScalar, Signedness};
        match crate::ir::builtin_scalar(r#type) {
            Some(BuiltinScalar::Float { width, .. }) => Some(Self::Float(width)),
            Some(BuiltinScalar::Index) => Some(Self::Signed(64)),
            Some(BuiltinScalar::Integer { width, signedness }) => Some(match signedness {
                Signedness::Unsigned => Self::Unsigned(width),
                Signedness::Signless | Signedness::Signed => Self::Signed(width),
            }),
            // The HiFloat formats are pl types, not MLIR floats.
            None => match Dtype::of(r#type) {
                Some(Dtype::Hf8) => Some(Self::Float(8)),
                Some(Dtype::Hf4) => Some(Self::Float(4)),
                _ => None,
            },
        }
    }

    /// Returns the storage width in bits.
    pub fn bits(self) -> u32 {
        match self {
            Self::Float(bits) | Self::Signed(bits) | Self::Unsigned(bits) => bits,
        }
    }
}

/// Returns the promotion of two element types (`PromoteDataTypes`): equal
/// types give that type; a float beats a non-float; otherwise the wider
/// type wins; at equal width a signed integer beats an unsigned one;
/// otherwise the first operand's type. `None` if either is not a scalar.
pub fn promote<'c>(lhs: Type<'c>, rhs: Type<'c>) -> Option<Type<'c>> {
    let (left, right) = (ScalarKind::of(lhs)?, ScalarKind::of(rhs)?);
    if lhs == rhs {
        return Some(lhs);
    }
    let is_float = |kind| matches!(kind, ScalarKind::Float(_));
    Some(match (is_float(left), is_float(right)) {
        (true, false) => lhs,
        (false, true) => rhs,
        _ if left.bits() > right.bits() => lhs,
        _ if right.bits() > left.bits() => rhs,
        _ => match (left, right) {
            (ScalarKind::Unsigned(_), ScalarKind::Signed(_)) => rhs,
            _ => lhs,
        },
    })
}

/// Returns the NumPy-style right-aligned broadcast of two static shapes:
/// equal dimensions or a 1 broadcast; `None` when incompatible.
pub fn broadcast_shapes(lhs: &[i64], rhs: &[i64]) -> Option<Vec<i64>> {
    let rank = lhs.len().max(rhs.len());
    let dim = |shape: &[i64], index: usize| {
        (index + shape.len())
            .checked_sub(rank)
            .map_or(1, |i| shape[i])
    };
    (0..rank)
        .map(|index| match (dim(lhs, index), dim(rhs, index)) {
            (a, b) if a == b => Some(a),
            (1, b) => Some(b),
            (a, 1) => Some(a),
            _ => None,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use melior::ir::Type;

    use super::*;
    use crate::create_context;

    fn parse<'c>(context: &'c melior::Context, text: &str) -> Type<'c> {
        Type::parse(context, text).unwrap_or_else(|| panic!("bad type {text}"))
    }

    #[test]
    fn promotion_follows_pypto() {
        let context = create_context();
        let cases = [
            ("f32", "f32", "f32"), // equal
            ("i32", "f16", "f16"), // a float beats a non-float
            ("f16", "i64", "f16"),
            ("i8", "i32", "i32"), // the wider wins
            ("f16", "f32", "f32"),
            ("ui32", "i32", "i32"), // signed beats unsigned at equal width
            ("i32", "ui32", "i32"),
            ("ui64", "index", "index"),
            ("f16", "bf16", "f16"), // otherwise the first operand
            ("bf16", "f16", "bf16"),
            ("index", "i64", "index"),
        ];
        for (lhs, rhs, expected) in cases {
            let promoted = promote(parse(&context, lhs), parse(&context, rhs)).unwrap();
            assert_eq!(promoted.to_string(), expected, "promote({lhs}, {rhs})");
        }
        assert!(promote(parse(&context, "f32"), parse(&context, "vector<4xf32>")).is_none());
    }

    #[test]
    fn dtypes_are_classified_by_their_spelling() {
        let context = create_context();
        let cases = [
            ("i1", Some(Dtype::Bool)),
            ("i4", Some(Dtype::I4)),
            ("i8", Some(Dtype::I8)),
            ("i16", Some(Dtype::I16)),
            ("i32", Some(Dtype::I32)),
            ("i64", Some(Dtype::I64)),
            ("ui4", Some(Dtype::U4)),
            ("ui8", Some(Dtype::U8)),
            ("ui16", Some(Dtype::U16)),
            ("ui32", Some(Dtype::U32)),
            ("ui64", Some(Dtype::U64)),
            ("index", Some(Dtype::Index)),
            ("f16", Some(Dtype::F16)),
            ("bf16", Some(Dtype::Bf16)),
            ("f32", Some(Dtype::F32)),
            ("f8E4M3FN", Some(Dtype::F8E4M3FN)),
            ("f8E5M2", Some(Dtype::F8E5M2)),
            ("f8E8M0FNU", Some(Dtype::F8E8M0)),
            ("f4E2M1FN", Some(Dtype::F4)),
            ("!pl.hf8", Some(Dtype::Hf8)),
            ("!pl.hf4", Some(Dtype::Hf4)),
            ("si8", None),
            ("i2", None),
            ("f64", None),
            ("f8E4M3", None),
            ("!pl.task_id", None),
            ("vector<4xf32>", None),
        ];
        for (text, expected) in cases {
            assert_eq!(Dtype::of(parse(&context, text)), expected, "{text}");
        }
    }

    #[test]
    fn broadcasting_is_right_aligned() {
        assert_eq!(broadcast_shapes(&[16, 1], &[1, 8]), Some(vec![16, 8]));
        assert_eq!(broadcast_shapes(&[8], &[4, 1]), Some(vec![4, 8]));
        assert_eq!(broadcast_shapes(&[3, 4], &[3, 4]), Some(vec![3, 4]));
        assert_eq!(broadcast_shapes(&[16, 16], &[8, 16]), None);
    }
}
