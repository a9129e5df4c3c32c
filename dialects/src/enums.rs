//! The enums of `td/PLAttrs.td` and `td/PLDAttrs.td` (every `I32EnumAttr`),
//! generated from the ODS at build time (`build/op_table.rs`): their codes
//! and keywords, and typed access to an op's enum attributes
//! ([`EnumAttr`]). `tests/build_ir.rs` checks every keyword round-trips
//! through MLIR.

use std::fmt;

/// Declares a `#[repr(i32)]` enum with its PyPTO codes and MLIR keywords.
macro_rules! code_enum {
    ($(#[$doc:meta])* $name:ident { $($(#[$vdoc:meta])* $variant:ident = $code:literal => $keyword:literal,)+ }) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[repr(i32)]
        pub enum $name {
            $($(#[$vdoc])* $variant = $code,)+
        }

        impl $name {
            /// Every value, in code order.
            pub const ALL: &'static [$name] = &[$($name::$variant,)+];

            /// Returns the value with the given code.
            pub fn from_code(code: i32) -> Option<Self> {
                Self::ALL.iter().copied().find(|value| *value as i32 == code)
            }

            /// Returns the value spelled `keyword` in the assembly format.
            pub fn from_keyword(keyword: &str) -> Option<Self> {
                Self::ALL.iter().copied().find(|value| value.keyword() == keyword)
            }

            /// Returns the keyword used in the assembly format.
            pub fn keyword(self) -> &'static str {
                match self {
                    $($name::$variant => $keyword,)+
                }
            }
        }

        impl I32Enum for $name {
            fn from_code(code: i32) -> Option<Self> {
                $name::from_code(code)
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
                formatter.write_str(self.keyword())
            }
        }
    };
}

include!(concat!(env!("OUT_DIR"), "/enums.rs"));

/// An enum attribute's Rust type: an `I32EnumAttr` of the ODS.
pub trait I32Enum: Sized + Copy {
    /// The value with the given code.
    fn from_code(code: i32) -> Option<Self>;
}

/// Typed access to an op's enum attributes.
pub trait EnumAttr {
    /// The value of the enum attribute `name`, if the op has it and it
    /// holds a valid code.
    fn enum_attr<E: I32Enum>(&self, name: &str) -> Option<E>;
}

impl<'c: 'a, 'a, T: melior::ir::operation::OperationLike<'c, 'a>> EnumAttr for T {
    fn enum_attr<E: I32Enum>(&self, name: &str) -> Option<E> {
        let attribute = self.attribute(name).ok()?;
        let code = melior::ir::attribute::IntegerAttribute::try_from(attribute)
            .ok()?
            .value();
        E::from_code(i32::try_from(code).ok()?)
    }
}

impl MaskPattern {
    /// The column stride: every how manyth column the pattern keeps.
    pub fn stride(self) -> i64 {
        match self {
            MaskPattern::P0101 | MaskPattern::P1010 => 2,
            MaskPattern::P0001 | MaskPattern::P0010 | MaskPattern::P0100 | MaskPattern::P1000 => 4,
            MaskPattern::P1111 => 1,
        }
    }

    /// Whether the pattern keeps column `column` (its bits, lowest first,
    /// repeat every four columns).
    pub fn keeps(self, column: usize) -> bool {
        let bits: u8 = match self {
            MaskPattern::P0101 => 0b0101,
            MaskPattern::P1010 => 0b1010,
            MaskPattern::P0001 => 0b0001,
            MaskPattern::P0010 => 0b0010,
            MaskPattern::P0100 => 0b0100,
            MaskPattern::P1000 => 0b1000,
            MaskPattern::P1111 => 0b1111,
        };
        bits & (1 << (column % 4)) != 0
    }
}
