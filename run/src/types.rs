//! The types pto-run needs to know about, decoded once from MLIR.

use melior::ir::{
    Type, TypeLike,
    r#type::{IntegerType, ShapedTypeLike},
};
use pto_dialects::{
    dtype::Dtype,
    enums::PadValue,
    types::{TensorLike, TileType},
};

/// An element type the interpreter computes with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Elem {
    Bool,
    I8,
    I16,
    I32,
    I64,
    U8,
    U16,
    U32,
    U64,
    Index,
    F16,
    Bf16,
    F32,
    F64,
}

impl Elem {
    /// From a pl dtype; `None` for the packed and 8-bit float formats.
    pub fn from_dtype(dtype: Dtype) -> Option<Self> {
        Some(match dtype {
            Dtype::Bool => Self::Bool,
            Dtype::I8 => Self::I8,
            Dtype::I16 => Self::I16,
            Dtype::I32 => Self::I32,
            Dtype::I64 => Self::I64,
            Dtype::Index => Self::Index,
            Dtype::U8 => Self::U8,
            Dtype::U16 => Self::U16,
            Dtype::U32 => Self::U32,
            Dtype::U64 => Self::U64,
            Dtype::F16 => Self::F16,
            Dtype::Bf16 => Self::Bf16,
            Dtype::F32 => Self::F32,
            _ => return None,
        })
    }

    /// The pl dtype; `None` for f64 (pto-run's scalars only).
    pub fn dtype(self) -> Option<Dtype> {
        Some(match self {
            Self::Bool => Dtype::Bool,
            Self::I8 => Dtype::I8,
            Self::I16 => Dtype::I16,
            Self::I32 => Dtype::I32,
            Self::I64 => Dtype::I64,
            Self::Index => Dtype::Index,
            Self::U8 => Dtype::U8,
            Self::U16 => Dtype::U16,
            Self::U32 => Dtype::U32,
            Self::U64 => Dtype::U64,
            Self::F16 => Dtype::F16,
            Self::Bf16 => Dtype::Bf16,
            Self::F32 => Dtype::F32,
            Self::F64 => return None,
        })
    }

    /// Bytes per element in memory.
    pub fn bytes(self) -> usize {
        match self {
            Self::Bool | Self::I8 | Self::U8 => 1,
            Self::I16 | Self::U16 | Self::F16 | Self::Bf16 => 2,
            Self::I32 | Self::U32 | Self::F32 => 4,
            Self::I64 | Self::U64 | Self::Index | Self::F64 => 8,
        }
    }

    pub fn is_float(self) -> bool {
        matches!(self, Self::F16 | Self::Bf16 | Self::F32 | Self::F64)
    }

    /// The value `x` takes when stored as this type: rounded to the float
    /// format (round to nearest even), or wrapped to the integer width.
    pub fn round(self, x: f64) -> f64 {
        match self {
            Self::F16 => half::f16::from_f64(x).to_f64(),
            Self::Bf16 => half::bf16::from_f64(x).to_f64(),
            Self::F32 => x as f32 as f64,
            Self::F64 => x,
            Self::Bool => f64::from(u8::from(x != 0.0)),
            _ => self.wrap(float_to_int(x)) as f64,
        }
    }

    /// Wraps an integer to this type's width and signedness.
    pub fn wrap(self, x: i64) -> i64 {
        match self {
            Self::Bool => x & 1,
            Self::I8 => x as i8 as i64,
            Self::I16 => x as i16 as i64,
            Self::I32 => x as i32 as i64,
            Self::U8 => x as u8 as i64,
            Self::U16 => x as u16 as i64,
            Self::U32 => x as u32 as i64,
            _ => x,
        }
    }

    /// The numpy dtype string of this type.
    pub fn name(self) -> &'static str {
        match self {
            Self::Bool => "bool",
            Self::I8 => "int8",
            Self::I16 => "int16",
            Self::I32 => "int32",
            Self::I64 | Self::Index => "int64",
            Self::U8 => "uint8",
            Self::U16 => "uint16",
            Self::U32 => "uint32",
            Self::U64 => "uint64",
            Self::F16 => "float16",
            Self::Bf16 => "bfloat16",
            Self::F32 => "float32",
            Self::F64 => "float64",
        }
    }
}

/// Float to integer, truncating toward zero and saturating (the hardware's
/// conversion for out-of-range values is not modelled).
pub fn float_to_int(x: f64) -> i64 {
    if x.is_nan() {
        0
    } else {
        x.trunc().clamp(i64::MIN as f64, i64::MAX as f64) as i64
    }
}

/// A tile type: its physical shape, element type, valid extents (`None`:
/// dynamic, given by the op) and pad value.
#[derive(Clone, Debug, PartialEq)]
pub struct TileTy {
    pub shape: Vec<i64>,
    pub elem: Elem,
    pub valid: Vec<Option<i64>>,
    pub pad: PadValue,
}

/// A tensor type (`!pl.tensor` or `!pld.dtensor`).
#[derive(Clone, Debug, PartialEq)]
pub struct TensorTy {
    pub shape: Vec<Option<i64>>,
    pub elem: Elem,
    pub distributed: bool,
    /// The layout of a plain tensor's view, when not nd.
    pub layout: Option<pto_dialects::enums::TensorLayout>,
    /// Whether the type stores explicit strides.
    pub explicit_strides: bool,
    /// The valid extents the type spells (`None` entries: `?`); `None`:
    /// the whole tensor.
    pub valid: Option<Vec<Option<i64>>>,
}

/// A value's type.
#[derive(Clone, Debug, PartialEq)]
pub enum Ty {
    /// `iN` / `uiN` / `index` scalars.
    Int(Elem),
    /// Float scalars.
    Float(Elem),
    Tile(TileTy),
    Tensor(TensorTy),
    CommCtx,
    Ptr,
    TaskId,
    /// `!pl.array`: its element type and extent.
    Array(Box<Ty>, usize),
    /// Anything else, by its printed form.
    Other(String),
}

impl Ty {
    /// Decodes an MLIR type.
    pub fn of(r#type: Type) -> Self {
        if let Ok(tile) = TileType::try_from(r#type) {
            let view = tile.effective_view();
            if let Some(elem) = Dtype::of(tile.element()).and_then(Elem::from_dtype) {
                return Self::Tile(TileTy {
                    shape: tile.shape(),
                    elem,
                    valid: view.valid_shape,
                    pad: view.pad,
                });
            }
        }
        if let Ok(tensor) = TensorLike::try_from(r#type)
            && let Some(elem) = Dtype::of(tensor.element()).and_then(Elem::from_dtype)
        {
            let (explicit_strides, valid) = match tensor {
                TensorLike::Tensor(plain) => {
                    let view = plain.view();
                    (view.has_strides, view.valid_shape)
                }
                TensorLike::Distributed(_) => (false, None),
            };
            return Self::Tensor(TensorTy {
                shape: tensor.shape(),
                elem,
                distributed: tensor.is_distributed(),
                layout: tensor.layout(),
                explicit_strides,
                valid,
            });
        }
        if let Ok(array) = pto_dialects::types::ArrayType::try_from(r#type) {
            return Self::Array(Box::new(Self::of(array.element())), array.extent() as usize);
        }
        let text = r#type.to_string();
        match text.as_str() {
            "!pld.comm_ctx" => return Self::CommCtx,
            "!pl.ptr" => return Self::Ptr,
            "!pl.task_id" => return Self::TaskId,
            "f64" => return Self::Float(Elem::F64),
            _ => {}
        }
        if let Some(elem) = Dtype::of(r#type).and_then(Elem::from_dtype) {
            return if elem.is_float() {
                Self::Float(elem)
            } else {
                Self::Int(elem)
            };
        }
        if r#type.is_integer() {
            let width = IntegerType::try_from(r#type)
                .map(|t| t.width())
                .unwrap_or(64);
            return Self::Int(if width <= 32 { Elem::I32 } else { Elem::I64 });
        }
        Self::Other(text)
    }

    /// The scalar element type of an `Int`/`Float`.
    pub fn scalar(&self) -> Option<Elem> {
        match self {
            Self::Int(e) | Self::Float(e) => Some(*e),
            _ => None,
        }
    }
}
