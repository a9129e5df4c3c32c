//! The public C API (`include/pto-c/Dialects.h`), exported from every
//! shared library that links this crate. Every entry installs the
//! verifier's hooks first: a type or attribute constructor loads its
//! dialect, and a dialect loaded without them would refuse every op.

use mlir_sys::{
    MlirAttribute, MlirContext, MlirDialectHandle, MlirDialectRegistry, MlirLocation,
    MlirStringRef, MlirType,
};

use super::glue_raw as ffi;

/// Exports each entry under its name: it installs the verifier's hooks,
/// then forwards its arguments to the glue function after `=`. A `fn`
/// takes live handles only; an `unsafe fn` also takes pointers, under its
/// `# Safety` section.
macro_rules! c_api {
    () => {};
    ($(#[$doc:meta])* fn $name:ident($($arg:ident: $ty:ty),* $(,)?) -> $ret:ty = $glue:ident; $($rest:tt)*) => {
        $(#[$doc])*
        #[unsafe(no_mangle)]
        pub extern "C" fn $name($($arg: $ty),*) -> $ret {
            super::hooks::install();
            // SAFETY: the C API's handles are live (its contract).
            unsafe { ffi::$glue($($arg),*) }
        }
        c_api!($($rest)*);
    };
    ($(#[$doc:meta])* unsafe fn $name:ident($($arg:ident: $ty:ty),* $(,)?) -> $ret:ty = $glue:ident; $($rest:tt)*) => {
        $(#[$doc])*
        #[unsafe(no_mangle)]
        pub unsafe extern "C" fn $name($($arg: $ty),*) -> $ret {
            super::hooks::install();
            // SAFETY: forwarded under the caller's guarantees.
            unsafe { ffi::$glue($($arg),*) }
        }
        c_api!($($rest)*);
    };
}

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

c_api! {
    /// Returns `!pl.tile<shape x element, space>`; `memory_space` < 0 means none.
    ///
    /// # Safety
    /// `shape` points to `rank` integers; `context` and `element` are live.
    unsafe fn plTileTypeGet(
        context: MlirContext,
        rank: isize,
        shape: *const i64,
        element: MlirType,
        memory_space: i32,
    ) -> MlirType = ptoGlue_plTileTypeGet;

    /// Whether `type` is a `!pl.tile`.
    fn plTypeIsATile(r#type: MlirType) -> bool = ptoGlue_plTypeIsATile;

    /// Returns the memory space code of a `!pl.tile`, or -1 when it has none.
    fn plTileTypeGetMemorySpace(r#type: MlirType) -> i32 = ptoGlue_plTileTypeGetMemorySpace;

    /// Returns `!pl.tensor<shape x element>` (dynamic dims as `INT64_MIN`).
    ///
    /// # Safety
    /// `shape` points to `rank` integers; `context` and `element` are live.
    unsafe fn plTensorTypeGet(
        context: MlirContext,
        rank: isize,
        shape: *const i64,
        element: MlirType,
    ) -> MlirType = ptoGlue_plTensorTypeGet;

    /// Returns `!pld.dtensor<shape x element>` (dynamic dims as `INT64_MIN`).
    ///
    /// # Safety
    /// `shape` points to `rank` integers; `context` and `element` are live.
    unsafe fn pldDistributedTensorTypeGet(
        context: MlirContext,
        rank: isize,
        shape: *const i64,
        element: MlirType,
    ) -> MlirType = ptoGlue_pldDistributedTensorTypeGet;

    /// Returns `!pld.comm_ctx`.
    fn pldCommCtxTypeGet(context: MlirContext) -> MlirType = ptoGlue_pldCommCtxTypeGet;

    /// Returns the tile type with a view, or null (with a diagnostic at
    /// `location`) when the arguments make no valid tile type. Enum codes < 0
    /// and `fractal` 0 mean the implicit value, `valid_rank` 0 the whole tile.
    ///
    /// # Safety
    /// `shape` points to `rank` and `valid_shape` to `valid_rank` integers;
    /// `location` and `element` are live.
    unsafe fn plTileTypeGetChecked(
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
    ) -> MlirType = ptoGlue_plTileTypeGetChecked;

    /// Returns the tensor type with a view, or null (with a diagnostic at
    /// `location`). Enum codes < 0 mean the default; no strides or valid
    /// extents mean packed and whole.
    ///
    /// # Safety
    /// `shape`, `strides` and `valid_shape` point to `rank`, `num_strides` and
    /// `valid_rank` integers; `location` and `element` are live.
    unsafe fn plTensorTypeGetChecked(
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
    ) -> MlirType = ptoGlue_plTensorTypeGetChecked;

    /// Returns `!pld.dtensor` bound to window buffer `window` (empty: none),
    /// or null with a diagnostic at `location`.
    ///
    /// # Safety
    /// `shape` points to `rank` integers; `window` describes readable bytes;
    /// `location` and `element` are live.
    unsafe fn pldDistributedTensorTypeGetChecked(
        location: MlirLocation,
        rank: isize,
        shape: *const i64,
        element: MlirType,
        window: MlirStringRef,
    ) -> MlirType = ptoGlue_pldDistributedTensorTypeGetChecked;

    /// Returns `!pl.array<element, extent>`, or null with a diagnostic at
    /// `location`.
    fn plArrayTypeGetChecked(
        location: MlirLocation,
        element: MlirType,
        extent: i64,
    ) -> MlirType = ptoGlue_plArrayTypeGetChecked;

    /// Returns the pl/pld type without parameters of code `code`
    /// (`PlUnitType`), or null for an unknown code.
    fn plUnitTypeGet(context: MlirContext, code: i32) -> MlirType = ptoGlue_unitTypeGet;

    /// The `PlUnitType` code of `type`, or -1 when it is none of them.
    fn plUnitTypeGetCode(r#type: MlirType) -> i32 = ptoGlue_unitTypeGetCode;

    /// Whether `type` is a `!pl.tensor`.
    fn plTypeIsATensor(r#type: MlirType) -> bool = ptoGlue_plTypeIsATensor;

    /// Whether `type` is a `!pl.array`.
    fn plTypeIsAnArray(r#type: MlirType) -> bool = ptoGlue_plTypeIsAnArray;

    /// Whether `type` is a `!pld.dtensor`.
    fn pldTypeIsADistributedTensor(r#type: MlirType) -> bool = ptoGlue_pldTypeIsADistributedTensor;

    /// Returns the pl enum attribute of kind `kind` (`PlEnumAttrKind`) with
    /// value `code`, or null for an unknown kind or code.
    fn plEnumAttrGet(
        context: MlirContext,
        kind: i32,
        code: i32,
    ) -> MlirAttribute = ptoGlue_plEnumAttrGet;
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
