//! Safe calls into the C++ glue (`cpp/CAPI.cpp`, `cpp/Common.cpp`): the pl
//! and pld types, enum attributes, dialect handles and diagnostics. The raw
//! declarations are in `glue_raw`; nothing outside this module calls them.

use melior::{
    Context,
    dialect::DialectHandle,
    ir::{Attribute, Location, Type, TypeLike, attribute::AttributeLike, operation::OperationLike},
};
use mlir_sys::{MlirLocation, MlirStringRef};

use super::glue_raw as raw;
use super::strings::string_ref;

/// The handle of the `pl` dialect.
pub fn pl_dialect_handle() -> DialectHandle {
    super::hooks::install();
    // SAFETY: the glue returns a pointer to static registration hooks.
    unsafe { DialectHandle::from_raw(raw::mlirGetDialectHandle__pto_glue_pl__()) }
}

/// The handle of the `pld` dialect.
pub fn pld_dialect_handle() -> DialectHandle {
    super::hooks::install();
    // SAFETY: as for `pl_dialect_handle`.
    unsafe { DialectHandle::from_raw(raw::mlirGetDialectHandle__pto_glue_pld__()) }
}

/// The handle of upstream's `emitc` dialect (melior has no constructor
/// for it).
pub fn emitc_dialect_handle() -> DialectHandle {
    // SAFETY: the C API returns a pointer to the dialect's static hooks.
    unsafe { DialectHandle::from_raw(mlir_sys::mlirGetDialectHandle__emitc__()) }
}

/// Which shaped pl/pld type a shape-and-element constructor builds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ShapedKind {
    /// `!pl.tensor`.
    Tensor,
    /// `!pld.dtensor`.
    DistributedTensor,
}

/// `!pl.tensor` or `!pld.dtensor` of `shape` (MLIR's encoding: dynamic
/// dimensions as `i64::MIN`) and `element`.
pub fn shaped_type<'c>(
    context: &'c Context,
    kind: ShapedKind,
    shape: &[i64],
    element: Type<'c>,
) -> Type<'c> {
    let get = match kind {
        ShapedKind::Tensor => raw::ptoGlue_plTensorTypeGet,
        ShapedKind::DistributedTensor => raw::ptoGlue_pldDistributedTensorTypeGet,
    };
    // SAFETY: the shape slice outlives the call; the context is live; the
    // glue returns a valid type uniqued in the context.
    unsafe {
        Type::from_raw(get(
            context.to_raw(),
            shape.len() as isize,
            shape.as_ptr(),
            element.to_raw(),
        ))
    }
}

/// Which pl/pld type a type is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PtoTypeKind {
    /// `!pl.tensor`.
    Tensor,
    /// `!pl.tile`.
    Tile,
    /// `!pld.dtensor`.
    DistributedTensor,
    /// `!pld.comm_ctx`.
    CommCtx,
    /// `!pl.array`.
    Array,
}

/// Whether `r#type` is the pl/pld type `kind`.
pub fn is_a(r#type: Type, kind: PtoTypeKind) -> bool {
    let raw_type = r#type.to_raw();
    // SAFETY: `r#type` is a valid type of a live context; the query only
    // reads it.
    unsafe {
        match kind {
            PtoTypeKind::Tensor => raw::ptoGlue_plTypeIsATensor(raw_type),
            PtoTypeKind::Tile => raw::ptoGlue_plTypeIsATile(raw_type),
            PtoTypeKind::DistributedTensor => raw::ptoGlue_pldTypeIsADistributedTensor(raw_type),
            PtoTypeKind::CommCtx => raw::ptoGlue_pldTypeIsACommCtx(raw_type),
            PtoTypeKind::Array => raw::ptoGlue_plTypeIsAnArray(raw_type),
        }
    }
}

/// The codes of a tensor type's view: layout, pad, the number of strides
/// and of valid extents it spells (-1 codes for fields left implicit).
pub fn tensor_view_codes(tensor: Type) -> (i32, i32, isize, isize) {
    assert!(is_a(tensor, PtoTypeKind::Tensor), "not a pl tensor type");
    let (mut layout, mut pad, mut strides, mut valid) = (0, 0, 0isize, 0isize);
    // SAFETY: `tensor` is a tensor type (checked above); the glue writes
    // the four outputs.
    unsafe {
        raw::ptoGlue_plTensorTypeGetView(
            tensor.to_raw(),
            &mut layout,
            &mut pad,
            &mut strides,
            &mut valid,
        )
    };
    (layout, pad, strides, valid)
}

/// The valid extents a tensor type spells (empty: the whole tensor),
/// `i64::MIN` for a dynamic one.
pub fn tensor_valid_shape(tensor: Type) -> Vec<i64> {
    let (_, _, _, count) = tensor_view_codes(tensor);
    let mut valid = vec![0i64; count.max(0) as usize];
    // SAFETY: `tensor` is a tensor type (checked by tensor_view_codes);
    // the glue writes exactly `count` extents into `valid`.
    unsafe { raw::ptoGlue_plTensorTypeGetValidShape(tensor.to_raw(), valid.as_mut_ptr()) };
    valid
}

/// The fields of `!pl.tile` in the glue's codes (-1 for a field not given).
#[derive(Clone, Copy, Debug)]
pub struct TileCodes<'s> {
    pub shape: &'s [i64],
    pub memory_space: i32,
    pub valid: &'s [i64],
    pub blayout: i32,
    pub slayout: i32,
    pub fractal: u64,
    pub pad: i32,
}

/// `!pl.tile` with the fields `codes` gives.
pub fn tile_type<'c>(context: &'c Context, element: Type<'c>, codes: TileCodes) -> Type<'c> {
    // SAFETY: the slices outlive the call; the context is live; the glue
    // returns a valid type uniqued in the context.
    unsafe {
        Type::from_raw(raw::ptoGlue_plTileTypeGetWithView(
            context.to_raw(),
            codes.shape.len() as isize,
            codes.shape.as_ptr(),
            element.to_raw(),
            codes.memory_space,
            codes.valid.len() as isize,
            codes.valid.as_ptr(),
            codes.blayout,
            codes.slayout,
            codes.fractal,
            codes.pad,
        ))
    }
}

/// The tile type `tile` with element type `element` (shape, memory space
/// and view kept).
pub fn tile_with_element<'c>(tile: Type<'c>, element: Type<'c>) -> Type<'c> {
    debug_assert!(is_a(tile, PtoTypeKind::Tile));
    // SAFETY: `tile` is a `!pl.tile` (the callers hold a TileType) and both
    // types are live; the glue returns a type uniqued in their context.
    unsafe {
        Type::from_raw(raw::ptoGlue_plTileTypeWithElement(
            tile.to_raw(),
            element.to_raw(),
        ))
    }
}

/// `!pl.array<element, extent>` (a valid element type and a positive
/// extent, which the caller checks).
pub fn array_type(element: Type, extent: i64) -> Type {
    // SAFETY: `element` is a valid type of a live context; the glue
    // uniques the array type in it.
    unsafe { Type::from_raw(raw::ptoGlue_plArrayTypeGet(element.to_raw(), extent)) }
}

/// The element type and extent of an array type.
pub fn array_parts(array: Type) -> (Type, i64) {
    assert!(is_a(array, PtoTypeKind::Array), "not a pl array type");
    // SAFETY: `array` is an array type (checked above); the getters read
    // it.
    unsafe {
        (
            Type::from_raw(raw::ptoGlue_plArrayTypeGetElement(array.to_raw())),
            raw::ptoGlue_plArrayTypeGetExtent(array.to_raw()),
        )
    }
}

/// The memory space code of a tile type (-1 when it has none).
pub fn tile_memory_space_code(tile: Type) -> i32 {
    assert!(is_a(tile, PtoTypeKind::Tile), "not a pl tile type");
    // SAFETY: `tile` is a tile type (checked above).
    unsafe { raw::ptoGlue_plTileTypeGetMemorySpace(tile.to_raw()) }
}

/// The view a tile type has in effect (explicit fields, else the implicit
/// ones), in the glue's codes: valid extents (one per dimension), blayout,
/// slayout, fractal size and pad.
pub fn tile_effective_view_codes(tile: Type, rank: usize) -> (Vec<i64>, i32, i32, u64, i32) {
    assert!(is_a(tile, PtoTypeKind::Tile), "not a pl tile type");
    let mut valid = vec![0i64; rank];
    let (mut blayout, mut slayout, mut fractal, mut pad) = (0, 0, 0u64, 0);
    // SAFETY: `tile` is a tile type (checked above) and `valid` has room for
    // its rank; the glue writes every output.
    unsafe {
        raw::ptoGlue_plTileTypeGetEffectiveView(
            tile.to_raw(),
            valid.as_mut_ptr(),
            &mut blayout,
            &mut slayout,
            &mut fractal,
            &mut pad,
        );
    }
    (valid, blayout, slayout, fractal, pad)
}

/// `!pld.comm_ctx`.
pub fn comm_ctx_type(context: &Context) -> Type<'_> {
    // SAFETY: the context is live; the glue returns a valid type.
    unsafe { Type::from_raw(raw::ptoGlue_pldCommCtxTypeGet(context.to_raw())) }
}

/// A pl enum attribute's value and which enum it is (the glue's `which`
/// code: 0 for an attribute that is none of them).
pub fn enum_attr_code(attribute: Attribute) -> (i32, i32) {
    let mut which = 0;
    // SAFETY: the attribute is live; the glue only inspects it.
    let code = unsafe { raw::ptoGlue_plEnumAttrGetValue(attribute.to_raw(), &mut which) };
    (code, which)
}

/// Emits a diagnostic of `severity` (0 error, 1 warning, 2 remark) at `op`
/// with `notes` at their locations, through the context's handlers.
pub fn emit_op_diagnostic<'c: 'a, 'a>(
    op: &impl OperationLike<'c, 'a>,
    severity: i32,
    message: &str,
    notes: &[(Location<'c>, String)],
) {
    let locations: Vec<MlirLocation> = notes.iter().map(|(l, _)| l.to_raw()).collect();
    let messages: Vec<MlirStringRef> = notes.iter().map(|(_, m)| string_ref(m)).collect();
    // SAFETY: `op` is live; every string and array outlives the call and the
    // glue copies them into the diagnostic.
    unsafe {
        raw::ptoGlue_emitOpDiagnostic(
            op.to_raw(),
            severity,
            string_ref(message),
            notes.len() as isize,
            locations.as_ptr(),
            messages.as_ptr(),
        );
    }
}
