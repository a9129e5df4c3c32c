//! Raw declarations of the C++ glue (`cpp/CAPI.cpp`, `cpp/Common.cpp`).
//!
//! Everything here is `unsafe` to call; the safe wrappers live in
//! [`crate::types`], [`crate::registration`] and [`crate::diag`].

use mlir_sys::{
    MlirAttribute, MlirContext, MlirDialectHandle, MlirLocation, MlirLogicalResult, MlirOperation,
    MlirStringRef, MlirType,
};

/// `PtoDialectHooks` of cpp/Dialects.h: the Rust functions the glue calls.
#[repr(C)]
pub struct PtoDialectHooks {
    pub verify_operation: extern "C" fn(MlirOperation) -> MlirLogicalResult,
    pub verify_symbol_uses: extern "C" fn(MlirOperation) -> MlirLogicalResult,
    pub verify_attribute:
        unsafe extern "C" fn(MlirOperation, MlirStringRef, i64, i64) -> MlirLogicalResult,
    pub is_legal_to_inline: extern "C" fn(MlirOperation, MlirOperation) -> bool,
}

unsafe extern "C" {
    pub fn ptoGlue_setDialectHooks(hooks: *const PtoDialectHooks);
    pub fn mlirGetDialectHandle__pto_glue_pl__() -> MlirDialectHandle;
    pub fn mlirGetDialectHandle__pto_glue_pld__() -> MlirDialectHandle;

    pub fn ptoGlue_plTensorTypeGet(
        context: MlirContext,
        rank: isize,
        shape: *const i64,
        element_type: MlirType,
    ) -> MlirType;
    pub fn ptoGlue_plTypeIsATensor(r#type: MlirType) -> bool;
    pub fn ptoGlue_plTensorTypeGetView(
        r#type: MlirType,
        layout: *mut i32,
        pad: *mut i32,
        num_strides: *mut isize,
        num_valid: *mut isize,
    );
    pub fn ptoGlue_plTensorTypeGetValidShape(r#type: MlirType, valid_shape: *mut i64);
    pub fn ptoGlue_plTileTypeGet(
        context: MlirContext,
        rank: isize,
        shape: *const i64,
        element_type: MlirType,
        memory_space: i32,
    ) -> MlirType;
    pub fn ptoGlue_plTypeIsATile(r#type: MlirType) -> bool;
    #[allow(clippy::too_many_arguments)]
    pub fn ptoGlue_plTileTypeGetWithView(
        context: MlirContext,
        rank: isize,
        shape: *const i64,
        element_type: MlirType,
        memory_space: i32,
        valid_rank: isize,
        valid_shape: *const i64,
        blayout: i32,
        slayout: i32,
        fractal: u64,
        pad: i32,
    ) -> MlirType;
    pub fn ptoGlue_plTileTypeGetEffectiveView(
        r#type: MlirType,
        valid_shape: *mut i64,
        blayout: *mut i32,
        slayout: *mut i32,
        fractal: *mut u64,
        pad: *mut i32,
    );
    pub fn ptoGlue_plTileTypeWithElement(r#type: MlirType, element_type: MlirType) -> MlirType;
    pub fn ptoGlue_plTileTypeGetMemorySpace(r#type: MlirType) -> i32;
    pub fn ptoGlue_pldDistributedTensorTypeGet(
        context: MlirContext,
        rank: isize,
        shape: *const i64,
        element_type: MlirType,
    ) -> MlirType;
    pub fn ptoGlue_pldTypeIsADistributedTensor(r#type: MlirType) -> bool;
    pub fn ptoGlue_plArrayTypeGet(element: MlirType, extent: i64) -> MlirType;
    pub fn ptoGlue_plTypeIsAnArray(r#type: MlirType) -> bool;
    pub fn ptoGlue_plArrayTypeGetElement(r#type: MlirType) -> MlirType;
    pub fn ptoGlue_plArrayTypeGetExtent(r#type: MlirType) -> i64;
    pub fn ptoGlue_pldCommCtxTypeGet(context: MlirContext) -> MlirType;
    pub fn ptoGlue_pldTypeIsACommCtx(r#type: MlirType) -> bool;

    pub fn ptoGlue_plEnumAttrGetValue(attribute: MlirAttribute, which: *mut i32) -> i32;

    pub fn ptoGlue_inlineCall(op: MlirOperation) -> bool;
    pub fn ptoGlue_unrollLoopFull(op: MlirOperation) -> bool;
    pub fn ptoGlue_unrollLoopByFactor(
        op: MlirOperation,
        factor: std::ffi::c_uint,
        attr_name: MlirStringRef,
    ) -> bool;

    pub fn ptoGlue_emitOpDiagnostic(
        op: MlirOperation,
        severity: i32,
        message: MlirStringRef,
        num_notes: isize,
        note_locations: *const MlirLocation,
        note_messages: *const MlirStringRef,
    );

    pub fn ptoGlue_plTileTypeGetChecked(
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
    ) -> MlirType;
    pub fn ptoGlue_plTensorTypeGetChecked(
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
    ) -> MlirType;
    pub fn ptoGlue_pldDistributedTensorTypeGetChecked(
        location: MlirLocation,
        rank: isize,
        shape: *const i64,
        element: MlirType,
        window: MlirStringRef,
    ) -> MlirType;
    pub fn ptoGlue_plArrayTypeGetChecked(
        location: MlirLocation,
        element: MlirType,
        extent: i64,
    ) -> MlirType;
    pub fn ptoGlue_unitTypeGet(context: MlirContext, code: i32) -> MlirType;
    pub fn ptoGlue_unitTypeGetCode(r#type: MlirType) -> i32;
    pub fn ptoGlue_plEnumAttrGet(context: MlirContext, which: i32, code: i32) -> MlirAttribute;
}
