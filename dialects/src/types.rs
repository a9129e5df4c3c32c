//! Typed wrappers over the `pl` and `pld` types.
//!
//! Each wrapper is a `Copy` newtype over a [`Type`] checked on construction
//! (`TryFrom<Type>`), so code holding a [`TileType`] never re-checks the kind.

use std::fmt;

use crate::ir::glue;
use melior::{
    Context,
    ir::{
        Type, TypeLike,
        r#type::{DimSize, ShapedTypeLike},
    },
};

pub use crate::enums::{MemorySpace, PadValue, TensorLayout, TileLayout};

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

/// A type that is not the one asked for. It keeps the type and prints it
/// only when displayed: the passes ask `try_from` of nearly every value's
/// type, and printing each refused one (melior's error does) cost more
/// than the rest of the question.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TypeMismatch<'c> {
    /// What was expected (`pl tile`, `pl tensor`, ...).
    pub expected: &'static str,
    /// The type found.
    pub found: Type<'c>,
}

impl std::fmt::Display for TypeMismatch<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} type expected: {}", self.expected, self.found)
    }
}

impl std::error::Error for TypeMismatch<'_> {}

macro_rules! type_wrapper {
    ($(#[$doc:meta])* $name:ident, $is_a:ident, $what:literal) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub struct $name<'c> {
            r#type: Type<'c>,
        }

        impl<'c> TryFrom<Type<'c>> for $name<'c> {
            type Error = TypeMismatch<'c>;

            fn try_from(r#type: Type<'c>) -> Result<Self, Self::Error> {
                if glue::is_a(r#type, glue::PtoTypeKind::$is_a) {
                    Ok(Self { r#type })
                } else {
                    Err(TypeMismatch {
                        expected: $what,
                        found: r#type,
                    })
                }
            }
        }

        impl<'c> TypeLike<'c> for $name<'c> {
            fn to_raw(&self) -> mlir_sys::MlirType {
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
    TensorType, Tensor, "pl tensor"
);
type_wrapper!(
    /// `!pl.tile<...>`: a tile in an on-chip buffer.
    TileType, Tile, "pl tile"
);
type_wrapper!(
    /// `!pld.dtensor<...>`: a window-bound tensor with one copy per rank.
    DistributedTensorType, DistributedTensor, "pld distributed tensor"
);
type_wrapper!(
    /// `!pld.comm_ctx`: the comm context of one domain on one device.
    CommCtxType, CommCtx, "pld comm context"
);
type_wrapper!(
    /// `!pl.array<element, extent>`: a small array of integers or task ids.
    ArrayType, Array, "pl array"
);

impl<'c> ShapedTypeLike<'c> for TensorType<'c> {}
impl<'c> ShapedTypeLike<'c> for TileType<'c> {}
impl<'c> ShapedTypeLike<'c> for DistributedTensorType<'c> {}

/// Builds a shaped type of `kind`; `None` dimensions are dynamic.
fn shaped_type<'c>(
    context: &'c Context,
    kind: glue::ShapedKind,
    shape: &[Option<i64>],
    element: Type<'c>,
) -> Type<'c> {
    glue::shaped_type(context, kind, &encode_dims(shape), element)
}

/// What a tensor type stores of its view (docs/pl-guide.md, "Tensors and
/// tiles"): `None` fields are the defaults (nd, no pad).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TensorViewSummary {
    /// The layout, when not nd.
    pub layout: Option<TensorLayout>,
    /// The pad value, when not null.
    pub pad: Option<PadValue>,
    /// Whether explicit strides are stored.
    pub has_strides: bool,
    /// Whether a valid shape narrower than the shape is stored.
    pub has_valid_shape: bool,
    /// The valid extents stored (`None` entries are dynamic); `None`: the
    /// whole tensor.
    pub valid_shape: Option<Vec<Option<i64>>>,
}

impl<'c> TensorType<'c> {
    /// Returns what the type stores of its view.
    pub fn view(&self) -> TensorViewSummary {
        let (layout, pad, strides, valid) = glue::tensor_view_codes(self.r#type);
        TensorViewSummary {
            layout: TensorLayout::from_code(layout),
            pad: PadValue::from_code(pad),
            has_strides: strides > 0,
            has_valid_shape: valid > 0,
            valid_shape: (valid > 0).then(|| {
                glue::tensor_valid_shape(self.r#type)
                    .into_iter()
                    .map(|v| (v != i64::MIN).then_some(v))
                    .collect()
            }),
        }
    }

    /// Creates a tensor type; `None` dimensions are dynamic (`?`).
    pub fn new(context: &'c Context, shape: &[Option<i64>], element: Type<'c>) -> Self {
        Self {
            r#type: shaped_type(context, glue::ShapedKind::Tensor, shape, element),
        }
    }

    /// Returns the dimensions, `None` where dynamic.
    pub fn shape(&self) -> Vec<Option<i64>> {
        dims(self)
    }
}

/// The view of a tile (docs/pl-guide.md, "Tensors and tiles"). `None`
/// fields take the implicit value of the memory space.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TileView {
    /// Valid extents (`None` entries are dynamic); `None`: the whole tile.
    pub valid_shape: Option<Vec<Option<i64>>>,
    /// Block layout.
    pub blayout: Option<TileLayout>,
    /// Scatter (inner-box) layout.
    pub slayout: Option<TileLayout>,
    /// Inner box size in bytes.
    pub fractal: Option<u64>,
    /// What fills the invalid region.
    pub pad: Option<PadValue>,
}

/// The view a tile has in effect: every field resolved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EffectiveTileView {
    /// Valid extents, `None` where dynamic.
    pub valid_shape: Vec<Option<i64>>,
    /// Block layout.
    pub blayout: TileLayout,
    /// Scatter layout.
    pub slayout: TileLayout,
    /// Inner box size in bytes.
    pub fractal: u64,
    /// Pad value.
    pub pad: PadValue,
}

impl<'c> TileType<'c> {
    /// Creates a tile type (static shape, optional memory space, implicit
    /// view).
    pub fn new(
        context: &'c Context,
        shape: &[i64],
        element: Type<'c>,
        memory_space: Option<MemorySpace>,
    ) -> Self {
        Self::with_view(context, shape, element, memory_space, &TileView::default())
    }

    /// Creates the canonical tile type with a view (fields equal to the
    /// implicit view are dropped, as the parser does).
    pub fn with_view(
        context: &'c Context,
        shape: &[i64],
        element: Type<'c>,
        memory_space: Option<MemorySpace>,
        view: &TileView,
    ) -> Self {
        let valid = view
            .valid_shape
            .as_deref()
            .map(encode_dims)
            .unwrap_or_default();
        let code = |value: Option<i32>| value.unwrap_or(-1);
        let codes = glue::TileCodes {
            shape,
            memory_space: code(memory_space.map(|s| s as i32)),
            valid: &valid,
            blayout: code(view.blayout.map(|l| l as i32)),
            slayout: code(view.slayout.map(|l| l as i32)),
            fractal: view.fractal.unwrap_or(0),
            pad: code(view.pad.map(|p| p as i32)),
        };
        Self {
            r#type: glue::tile_type(context, element, codes),
        }
    }

    /// The same tile (shape, memory space, view) of another element type.
    pub fn with_element(&self, element: Type<'c>) -> Self {
        Self {
            r#type: glue::tile_with_element(self.r#type, element),
        }
    }

    /// Returns the (static) dimensions.
    pub fn shape(&self) -> Vec<i64> {
        dims(self)
            .into_iter()
            .map(|dim| dim.unwrap_or(-1))
            .collect()
    }

    /// Returns the memory space, if one is assigned.
    pub fn memory_space(&self) -> Option<MemorySpace> {
        MemorySpace::from_code(glue::tile_memory_space_code(self.r#type))
    }

    /// The type `pl.tile.transpose_view` gives this tile: its last two
    /// axes swapped (extents and valid extents), the major order of its
    /// block and scatter layouts flipped (NZ read as ZN, ND as DN), its
    /// fractal, pad and memory space kept. `None` below rank 2.
    pub fn transposed_view(&self, context: &'c Context) -> Option<Self> {
        let rank = self.rank();
        if rank < 2 {
            return None;
        }
        let flip = |layout: TileLayout| match layout {
            TileLayout::RowMajor => TileLayout::ColMajor,
            TileLayout::ColMajor => TileLayout::RowMajor,
            TileLayout::NoneBox => TileLayout::NoneBox,
        };
        let effective = self.effective_view();
        let mut shape = self.shape();
        shape.swap(rank - 2, rank - 1);
        let mut valid = effective.valid_shape.clone();
        valid.swap(rank - 2, rank - 1);
        let view = TileView {
            valid_shape: Some(valid),
            blayout: Some(flip(effective.blayout)),
            slayout: Some(flip(effective.slayout)),
            fractal: Some(effective.fractal),
            pad: Some(effective.pad),
        };
        Some(Self::with_view(
            context,
            &shape,
            ShapedTypeLike::element(self),
            self.memory_space(),
            &view,
        ))
    }

    /// Returns the view in effect (explicit fields, else implicit ones).
    pub fn effective_view(&self) -> EffectiveTileView {
        let (valid, blayout, slayout, fractal, pad) =
            glue::tile_effective_view_codes(self.r#type, self.rank());
        EffectiveTileView {
            valid_shape: valid
                .into_iter()
                .map(|v| (v != i64::MIN).then_some(v))
                .collect(),
            blayout: TileLayout::from_code(blayout).unwrap_or(TileLayout::RowMajor),
            slayout: TileLayout::from_code(slayout).unwrap_or(TileLayout::NoneBox),
            fractal,
            pad: PadValue::from_code(pad).unwrap_or(PadValue::Null),
        }
    }
}

impl<'c> DistributedTensorType<'c> {
    /// Creates a distributed tensor type; `None` dimensions are dynamic.
    pub fn new(context: &'c Context, shape: &[Option<i64>], element: Type<'c>) -> Self {
        Self {
            r#type: shaped_type(context, glue::ShapedKind::DistributedTensor, shape, element),
        }
    }

    /// Returns the dimensions, `None` where dynamic.
    pub fn shape(&self) -> Vec<Option<i64>> {
        dims(self)
    }
}

impl<'c> ArrayType<'c> {
    /// `!pl.array<element, extent>`; `None` unless `extent` is positive and
    /// `element` an integer, `index` or `!pl.task_id`.
    pub fn new(element: Type<'c>, extent: i64) -> Option<Self> {
        let valid_element = element.is_integer()
            || element.is_index()
            || crate::ir::type_in_dialect(element, "pl") && element.to_string() == "!pl.task_id";
        (extent > 0 && valid_element).then(|| Self {
            r#type: glue::array_type(element, extent),
        })
    }

    /// The element type.
    pub fn element(&self) -> Type<'c> {
        glue::array_parts(self.r#type).0
    }

    /// How many elements it holds.
    pub fn extent(&self) -> i64 {
        glue::array_parts(self.r#type).1
    }
}

impl<'c> CommCtxType<'c> {
    /// Returns the `!pld.comm_ctx` type.
    pub fn new(context: &'c Context) -> Self {
        Self {
            r#type: glue::comm_ctx_type(context),
        }
    }
}

/// A tensor in global memory: a `!pl.tensor`, or the local copy of a
/// `!pld.dtensor`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TensorLike<'c> {
    /// A plain tensor.
    Tensor(TensorType<'c>),
    /// A window-bound distributed tensor.
    Distributed(DistributedTensorType<'c>),
}

impl<'c> TryFrom<Type<'c>> for TensorLike<'c> {
    type Error = TypeMismatch<'c>;

    fn try_from(r#type: Type<'c>) -> Result<Self, Self::Error> {
        TensorType::try_from(r#type)
            .map(Self::Tensor)
            .or_else(|_| DistributedTensorType::try_from(r#type).map(Self::Distributed))
    }
}

impl<'c> TensorLike<'c> {
    /// Returns the dimensions, `None` where dynamic.
    pub fn shape(&self) -> Vec<Option<i64>> {
        match self {
            Self::Tensor(t) => t.shape(),
            Self::Distributed(t) => t.shape(),
        }
    }

    /// Returns the element type.
    pub fn element(&self) -> Type<'c> {
        match self {
            Self::Tensor(t) => t.element(),
            Self::Distributed(t) => t.element(),
        }
    }

    /// Returns the rank.
    pub fn rank(&self) -> usize {
        self.shape().len()
    }

    /// Returns the layout of a plain tensor's view (distributed tensors are nd).
    pub fn layout(&self) -> Option<TensorLayout> {
        match self {
            Self::Tensor(t) => t.view().layout,
            Self::Distributed(_) => None,
        }
    }

    /// Whether this is a window-bound distributed tensor.
    pub fn is_distributed(&self) -> bool {
        matches!(self, Self::Distributed(_))
    }
}

impl fmt::Display for TensorLike<'_> {
    fn fmt(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
        match self {
            Self::Tensor(t) => t.fmt(formatter),
            Self::Distributed(t) => t.fmt(formatter),
        }
    }
}
