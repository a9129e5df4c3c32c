//! The public C API (`include/pto-c/Dialects.h`), exported from every
//! shared library that links this crate. Every entry installs the
//! verifier's hooks first: a type or attribute constructor loads its
//! dialect, and a dialect loaded without them would refuse every op.

use mlir_sys::{
    MlirAttribute, MlirContext, MlirDialectHandle, MlirDialectRegistry, MlirLocation,
    MlirStringRef, MlirType,
};

use super::glue_raw as ffi;

/// Returns the `pl` dialect handle.
#[unsafe(no_mangle)]
pub extern "C" fn mlirGetDialectHandle__pl__() -> MlirDialectHandle {
    super::glue::pl_dialect_handle().to_raw()
}

/// Returns the `pld` dialect handle.
#[unsafe(no_mangle)]
pub extern "C" fn mlirGetDialectHandle__pld__() -> MlirDialectHandle {
    super::glue::pld_dialect_handle().to_raw()
}

/// Inserts `pl` and `pld` into `registry`.
#[unsafe(no_mangle)]
pub extern "C" fn ptoRegisterDialects(registry: MlirDialectRegistry) {
    super::hooks::install();
    // SAFETY: the caller passes a live registry.
    unsafe {
        mlir_sys::mlirDialectHandleInsertDialect(mlirGetDialectHandle__pl__(), registry);
        mlir_sys::mlirDialectHandleInsertDialect(mlirGetDialectHandle__pld__(), registry);
    }
}

/// Returns `!pl.tile<shape x element, space>`; `memory_space` < 0 means none.
///
/// # Safety
/// `shape` points to `rank` integers; `context` and `element` are live.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn plTileTypeGet(
    context: MlirContext,
    rank: isize,
    shape: *const i64,
    element: MlirType,
    memory_space: i32,
) -> MlirType {
    super::hooks::install();
    // SAFETY: forwarded under the caller's guarantees.
    unsafe { ffi::ptoGlue_plTileTypeGet(context, rank, shape, element, memory_space) }
}

/// Whether `type` is a `!pl.tile`.
#[unsafe(no_mangle)]
pub extern "C" fn plTypeIsATile(r#type: MlirType) -> bool {
    super::hooks::install();
    // SAFETY: the caller passes a live type.
    unsafe { ffi::ptoGlue_plTypeIsATile(r#type) }
}

/// Returns the memory space code of a `!pl.tile`, or -1 when it has none.
#[unsafe(no_mangle)]
pub extern "C" fn plTileTypeGetMemorySpace(r#type: MlirType) -> i32 {
    super::hooks::install();
    // SAFETY: the caller passes a live tile type.
    unsafe { ffi::ptoGlue_plTileTypeGetMemorySpace(r#type) }
}

/// Returns `!pl.tensor<shape x element>` (dynamic dims as `INT64_MIN`).
///
/// # Safety
/// `shape` points to `rank` integers; `context` and `element` are live.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn plTensorTypeGet(
    context: MlirContext,
    rank: isize,
    shape: *const i64,
    element: MlirType,
) -> MlirType {
    super::hooks::install();
    // SAFETY: forwarded under the caller's guarantees.
    unsafe { ffi::ptoGlue_plTensorTypeGet(context, rank, shape, element) }
}

/// Returns `!pld.dtensor<shape x element>` (dynamic dims as `INT64_MIN`).
///
/// # Safety
/// `shape` points to `rank` integers; `context` and `element` are live.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pldDistributedTensorTypeGet(
    context: MlirContext,
    rank: isize,
    shape: *const i64,
    element: MlirType,
) -> MlirType {
    super::hooks::install();
    // SAFETY: forwarded under the caller's guarantees.
    unsafe { ffi::ptoGlue_pldDistributedTensorTypeGet(context, rank, shape, element) }
}

/// Returns `!pld.comm_ctx`.
#[unsafe(no_mangle)]
pub extern "C" fn pldCommCtxTypeGet(context: MlirContext) -> MlirType {
    super::hooks::install();
    // SAFETY: the caller passes a live context.
    unsafe { ffi::ptoGlue_pldCommCtxTypeGet(context) }
}

/// Returns the tile type with a view, or null (with a diagnostic at
/// `location`) when the arguments make no valid tile type. Enum codes < 0
/// and `fractal` 0 mean the implicit value, `valid_rank` 0 the whole tile.
///
/// # Safety
/// `shape` points to `rank` and `valid_shape` to `valid_rank` integers;
/// `location` and `element` are live.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn plTileTypeGetChecked(
    location: MlirLocation,
    rank: isize,
    shape: *const i64,
    element: MlirType,
    memory_space: i32,
    valid_rank: isize,
    valid_shape: *const i64,
    blayout: i32,
    slayout: i32,
    fractal: u64,
    pad: i32,
) -> MlirType {
    super::hooks::install();
    // SAFETY: forwarded under the caller's guarantees.
    unsafe {
        ffi::ptoGlue_plTileTypeGetChecked(
            location,
            rank,
            shape,
            element,
            memory_space,
            valid_rank,
            valid_shape,
            blayout,
            slayout,
            fractal,
            pad,
        )
    }
}

/// Returns the tensor type with a view, or null (with a diagnostic at
/// `location`). Enum codes < 0 mean the default; no strides or valid
/// extents mean packed and whole.
///
/// # Safety
/// `shape`, `strides` and `valid_shape` point to `rank`, `num_strides` and
/// `valid_rank` integers; `location` and `element` are live.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn plTensorTypeGetChecked(
    location: MlirLocation,
    rank: isize,
    shape: *const i64,
    element: MlirType,
    layout: i32,
    num_strides: isize,
    strides: *const i64,
    valid_rank: isize,
    valid_shape: *const i64,
    pad: i32,
) -> MlirType {
    super::hooks::install();
    // SAFETY: forwarded under the caller's guarantees.
    unsafe {
        ffi::ptoGlue_plTensorTypeGetChecked(
            location,
            rank,
            shape,
            element,
            layout,
            num_strides,
            strides,
            valid_rank,
            valid_shape,
            pad,
        )
    }
}

/// Returns `!pld.dtensor` bound to window buffer `window` (empty: none),
/// or null with a diagnostic at `location`.
///
/// # Safety
/// `shape` points to `rank` integers; `window` describes readable bytes;
/// `location` and `element` are live.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pldDistributedTensorTypeGetChecked(
    location: MlirLocation,
    rank: isize,
    shape: *const i64,
    element: MlirType,
    window: MlirStringRef,
) -> MlirType {
    super::hooks::install();
    // SAFETY: forwarded under the caller's guarantees.
    unsafe {
        ffi::ptoGlue_pldDistributedTensorTypeGetChecked(location, rank, shape, element, window)
    }
}

/// Returns `!pl.array<element, extent>`, or null with a diagnostic at
/// `location`.
#[unsafe(no_mangle)]
pub extern "C" fn plArrayTypeGetChecked(
    location: MlirLocation,
    element: MlirType,
    extent: i64,
) -> MlirType {
    super::hooks::install();
    // SAFETY: the caller passes a live location and type.
    unsafe { ffi::ptoGlue_plArrayTypeGetChecked(location, element, extent) }
}

/// Returns the pl/pld type without parameters of code `code`
/// (`PlUnitType`), or null for an unknown code.
#[unsafe(no_mangle)]
pub extern "C" fn plUnitTypeGet(context: MlirContext, code: i32) -> MlirType {
    super::hooks::install();
    // SAFETY: the caller passes a live context.
    unsafe { ffi::ptoGlue_unitTypeGet(context, code) }
}

/// The `PlUnitType` code of `type`, or -1 when it is none of them.
#[unsafe(no_mangle)]
pub extern "C" fn plUnitTypeGetCode(r#type: MlirType) -> i32 {
    super::hooks::install();
    // SAFETY: the caller passes a live type.
    unsafe { ffi::ptoGlue_unitTypeGetCode(r#type) }
}

/// Whether `type` is a `!pl.tensor`.
#[unsafe(no_mangle)]
pub extern "C" fn plTypeIsATensor(r#type: MlirType) -> bool {
    super::hooks::install();
    // SAFETY: the caller passes a live type.
    unsafe { ffi::ptoGlue_plTypeIsATensor(r#type) }
}

/// Whether `type` is a `!pl.array`.
#[unsafe(no_mangle)]
pub extern "C" fn plTypeIsAnArray(r#type: MlirType) -> bool {
    super::hooks::install();
    // SAFETY: the caller passes a live type.
    unsafe { ffi::ptoGlue_plTypeIsAnArray(r#type) }
}

/// Whether `type` is a `!pld.dtensor`.
#[unsafe(no_mangle)]
pub extern "C" fn pldTypeIsADistributedTensor(r#type: MlirType) -> bool {
    super::hooks::install();
    // SAFETY: the caller passes a live type.
    unsafe { ffi::ptoGlue_pldTypeIsADistributedTensor(r#type) }
}

/// Returns the pl enum attribute of kind `kind` (`PlEnumAttrKind`) with
/// value `code`, or null for an unknown kind or code.
#[unsafe(no_mangle)]
pub extern "C" fn plEnumAttrGet(context: MlirContext, kind: i32, code: i32) -> MlirAttribute {
    super::hooks::install();
    // SAFETY: the caller passes a live context.
    unsafe { ffi::ptoGlue_plEnumAttrGet(context, kind, code) }
}

/// The value of a pl enum attribute, or -1 when `attribute` is none;
/// `kind` receives its `PlEnumAttrKind` (0 for none). `kind` may be null.
///
/// # Safety
/// `kind` is null or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn plEnumAttrGetValue(attribute: MlirAttribute, kind: *mut i32) -> i32 {
    super::hooks::install();
    let mut which = 0;
    // SAFETY: the caller passes a live attribute; `which` is writable.
    let value = unsafe { ffi::ptoGlue_plEnumAttrGetValue(attribute, &mut which) };
    if !kind.is_null() {
        // SAFETY: the caller guarantees a non-null `kind` is writable.
        unsafe { *kind = which };
    }
    value
}
