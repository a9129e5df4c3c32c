//! Typed wrappers over the `pl` and `pld` types.
//!
//! Each wrapper is a `Copy` newtype over a [`Type`] checked on construction
//! (`TryFrom<Type>`), so code holding a [`TileType`] never re-checks the kind.

use std::fmt;

use melior::{
    Context,
    ir::{
        Type, TypeLike,
        r#type::{DimSize, ShapedTypeLike},
    },
};
use mlir_sys::MlirType;

use crate::ffi;

/// Where a tile lives (spec pl.md §1.6). The codes are PyPTO's and match the
/// `PL_MemorySpace` enum of `td/PLAttrs.td`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(i32)]
pub enum MemorySpace {
    /// Global memory (tensors only).
    Ddr = 0,
    /// The unified buffer (UB) of a vector core.
    Vec = 1,
    /// L1 of a cube core.
    Mat = 2,
    /// L0A: the left matmul operand.
    Left = 3,
    /// L0B: the right matmul operand.
    Right = 4,
    /// L0C: the matmul accumulator.
    Acc = 5,
    /// The bias table.
    Bias = 6,
    /// Scalar registers (arrays only).
    ScalarLocal = 7,
    /// A5 MX scale buffer of the left operand.
    LeftScale = 8,
    /// A5 MX scale buffer of the right operand.
    RightScale = 9,
}

impl MemorySpace {
    /// Every memory space, in code order.
    pub const ALL: [MemorySpace; 10] = [
        Self::Ddr,
        Self::Vec,
        Self::Mat,
        Self::Left,
        Self::Right,
        Self::Acc,
        Self::Bias,
        Self::ScalarLocal,
        Self::LeftScale,
        Self::RightScale,
    ];

    /// Returns the memory space with the given code.
    pub fn from_code(code: i32) -> Option<Self> {
        Self::ALL.get(usize::try_from(code).ok()?).copied()
    }

    /// Returns the keyword used in the assembly format (`vec`, `mat`, ...).
    pub fn keyword(self) -> &'static str {
        match self {
            Self::Ddr => "ddr",
            Self::Vec => "vec",
            Self::Mat => "mat",
            Self::Left => "left",
            Self::Right => "right",
            Self::Acc => "acc",
            Self::Bias => "bias",
            Self::ScalarLocal => "scalar_local",
            Self::LeftScale => "left_scale",
            Self::RightScale => "right_scale",
        }
    }
}

impl fmt::Display for MemorySpace {
    fn fmt(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
        formatter.write_str(self.keyword())
    }
}

/// Returns the dimensions of a shaped type, `None` for a dynamic one.
fn dims<'c>(shaped: &impl ShapedTypeLike<'c>) -> Vec<Option<i64>> {
    (0..shaped.rank())
        .map(|index| match shaped.dim_size(index) {
            Ok(DimSize::Static(size)) => Some(size as i64),
            _ => None,
        })
        .collect()
}

/// Encodes optional dimensions the way MLIR stores them.
fn encode_dims(shape: &[Option<i64>]) -> Vec<i64> {
    shape.iter().map(|dim| dim.unwrap_or(i64::MIN)).collect()
}

macro_rules! type_wrapper {
    ($(#[$doc:meta])* $name:ident, $is_a:path, $what:literal) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub struct $name<'c> {
            r#type: Type<'c>,
        }

        impl<'c> TryFrom<Type<'c>> for $name<'c> {
            type Error = melior::Error;

            fn try_from(r#type: Type<'c>) -> Result<Self, Self::Error> {
                // SAFETY: `r#type` is a valid type of a live context.
                if unsafe { $is_a(r#type.to_raw()) } {
                    Ok(Self { r#type })
                } else {
                    Err(melior::Error::TypeExpected($what, r#type.to_string()))
                }
            }
        }

        impl<'c> TypeLike<'c> for $name<'c> {
            fn to_raw(&self) -> MlirType {
                self.r#type.to_raw()
            }
        }

        impl<'c> From<$name<'c>> for Type<'c> {
            fn from(wrapper: $name<'c>) -> Self {
                wrapper.r#type
            }
        }

        impl fmt::Display for $name<'_> {
            fn fmt(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
                self.r#type.fmt(formatter)
            }
        }
    };
}

type_wrapper!(
    /// `!pl.tensor<...>`: a tensor in global memory.
    TensorType, ffi::ptoGlue_plTypeIsATensor, "pl tensor"
);
type_wrapper!(
    /// `!pl.tile<...>`: a tile in an on-chip buffer.
    TileType, ffi::ptoGlue_plTypeIsATile, "pl tile"
);
type_wrapper!(
    /// `!pld.dtensor<...>`: a window-bound tensor with one copy per rank.
    DistributedTensorType, ffi::ptoGlue_pldTypeIsADistributedTensor, "pld distributed tensor"
);
type_wrapper!(
    /// `!pld.comm_ctx`: the comm context of one domain on one device.
    CommCtxType, ffi::ptoGlue_pldTypeIsACommCtx, "pld comm context"
);

impl<'c> ShapedTypeLike<'c> for TensorType<'c> {}
impl<'c> ShapedTypeLike<'c> for TileType<'c> {}
impl<'c> ShapedTypeLike<'c> for DistributedTensorType<'c> {}

/// The glue's constructor of a `shape x element` type.
type ShapedTypeGet = unsafe extern "C" fn(mlir_sys::MlirContext, isize, *const i64, MlirType) -> MlirType;

/// Builds a shaped type through `get`; `None` dimensions are dynamic.
fn shaped_type<'c>(context: &'c Context, get: ShapedTypeGet, shape: &[Option<i64>], element: Type<'c>) -> Type<'c> {
    let raw_shape = encode_dims(shape);
    // SAFETY: the shape slice outlives the call; the context is live; the
    // glue returns a valid type.
    unsafe {
        Type::from_raw(get(context.to_raw(), raw_shape.len() as isize, raw_shape.as_ptr(), element.to_raw()))
    }
}

impl<'c> TensorType<'c> {
    /// Creates a tensor type; `None` dimensions are dynamic (`?`).
    pub fn new(context: &'c Context, shape: &[Option<i64>], element: Type<'c>) -> Self {
        Self { r#type: shaped_type(context, ffi::ptoGlue_plTensorTypeGet, shape, element) }
    }

    /// Returns the dimensions, `None` where dynamic.
    pub fn shape(&self) -> Vec<Option<i64>> {
        dims(self)
    }
}

impl<'c> TileType<'c> {
    /// Creates a tile type (static shape, optional memory space).
    pub fn new(
        context: &'c Context,
        shape: &[i64],
        element: Type<'c>,
        memory_space: Option<MemorySpace>,
    ) -> Self {
        // SAFETY: the shape slice outlives the call; the context is live.
        let raw = unsafe {
            ffi::ptoGlue_plTileTypeGet(
                context.to_raw(),
                shape.len() as isize,
                shape.as_ptr(),
                element.to_raw(),
                memory_space.map_or(-1, |space| space as i32),
            )
        };
        // SAFETY: the glue returns a valid type.
        Self { r#type: unsafe { Type::from_raw(raw) } }
    }

    /// Returns the (static) dimensions.
    pub fn shape(&self) -> Vec<i64> {
        dims(self).into_iter().map(|dim| dim.unwrap_or(-1)).collect()
    }

    /// Returns the memory space, if one is assigned.
    pub fn memory_space(&self) -> Option<MemorySpace> {
        // SAFETY: `self` is a tile type.
        MemorySpace::from_code(unsafe { ffi::ptoGlue_plTileTypeGetMemorySpace(self.to_raw()) })
    }
}

impl<'c> DistributedTensorType<'c> {
    /// Creates a distributed tensor type; `None` dimensions are dynamic.
    pub fn new(context: &'c Context, shape: &[Option<i64>], element: Type<'c>) -> Self {
        Self { r#type: shaped_type(context, ffi::ptoGlue_pldDistributedTensorTypeGet, shape, element) }
    }

    /// Returns the dimensions, `None` where dynamic.
    pub fn shape(&self) -> Vec<Option<i64>> {
        dims(self)
    }
}

impl<'c> CommCtxType<'c> {
    /// Returns the `!pld.comm_ctx` type.
    pub fn new(context: &'c Context) -> Self {
        // SAFETY: the context is live; the glue returns a valid type.
        Self { r#type: unsafe { Type::from_raw(ffi::ptoGlue_pldCommCtxTypeGet(context.to_raw())) } }
    }
}
