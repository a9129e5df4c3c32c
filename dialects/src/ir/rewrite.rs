//! Rewrites the melior API lacks: replacing uses, erasing, detaching and
//! cloning ops, moving region bodies, erasing block arguments, building a
//! dictionary attribute, parsing a file.
//!
//! Erasing is the one operation that ends a handle's life: after
//! [`erase`] (or [`detach`], which hands the op over), the caller must not
//! use other handles to the op or to anything nested in it, as with
//! upstream's `RewriterBase::eraseOp`.

use melior::{
    Context,
    ir::{
        Attribute, BlockLike, BlockRef, Identifier, Module, Operation, RegionLike, ValueLike,
        attribute::AttributeLike,
        operation::{OperationLike, OperationMutLike, OperationRef},
    },
};

use super::handles::{edit, has_uses};

/// Replaces every use of `of` with `with`.
pub fn replace_all_uses<'c>(of: impl ValueLike<'c>, with: impl ValueLike<'c>) {
    // SAFETY: both values are live values of one context; MLIR moves the
    // uses and invalidates no handle.
    unsafe { mlir_sys::mlirValueReplaceAllUsesOfWith(of.to_raw(), with.to_raw()) }
}

/// Takes `op` out of its block and returns it owned (dropping it destroys
/// it; appending it elsewhere moves it).
pub fn detach<'c>(op: OperationRef<'c, '_>) -> Operation<'c> {
    edit(op).remove_from_parent();
    // SAFETY: `op` is live and no longer in a block, so nothing else owns
    // it; the returned value takes ownership and the caller drops `op`.
    unsafe { Operation::from_raw(op.to_raw()) }
}

/// Sets operand `index` of `op` to `value`.
pub fn set_operand<'c, 'a>(
    op: OperationRef<'c, 'a>,
    index: usize,
    value: melior::ir::Value<'c, 'a>,
) {
    edit(op).set_operand(index, value);
}

/// Erases `op` (and what it nests): removes it from its block and destroys
/// it. Its results must be unused.
pub fn erase(op: OperationRef) {
    drop(detach(op));
}

/// Splices a copy of the body of the function `call` calls in its place
/// (upstream `inlineCall` with the dialects' inliner interfaces) and erases
/// the call: afterwards, as after [`erase`], no handle to it may be used.
/// Returns false, with the IR unchanged, when the callee has no body or a
/// dialect's interface refuses one of its ops there.
pub fn inline_call(call: OperationRef) -> bool {
    // SAFETY: `call` is live; the glue erases it only when it returns true,
    // and the caller gives up its handle (as for `erase`).
    unsafe { super::glue_raw::ptoGlue_inlineCall(call.to_raw()) }
}

/// Replaces the `scf.for` `op`, whose bounds and step are constants, by a
/// copy of its body per iteration (upstream `loopUnrollFull`); afterwards,
/// as after [`erase`], no handle to it may be used. Returns false, with
/// the IR unchanged, when `op` is not such a loop.
pub fn unroll_loop_full(op: OperationRef) -> bool {
    // SAFETY: `op` is live; the glue replaces it only when it returns
    // true, and the caller gives up its handle (as for `erase`).
    unsafe { super::glue_raw::ptoGlue_unrollLoopFull(op.to_raw()) }
}

/// Unrolls the `scf.for` `op` by `factor` (upstream `loopUnrollByFactor`:
/// `factor` copies of the body per iteration, then a loop of the remaining
/// iterations unless the trip count is a known multiple), marking each
/// top-level op of copy k with the integer attribute `marker` = k (the
/// remainder loop's ops stay unmarked). Afterwards no handle to `op` may
/// be used. Returns false, with the IR unchanged, when it cannot be.
pub fn unroll_loop_by_factor(op: OperationRef, factor: u32, marker: &str) -> bool {
    // SAFETY: `op` is live; `marker` outlives the call (MLIR copies it
    // into an identifier); the caller gives up its handle to `op`.
    unsafe {
        super::glue_raw::ptoGlue_unrollLoopByFactor(
            op.to_raw(),
            factor,
            super::strings::string_ref(marker),
        )
    }
}

/// A copy of `op` (and what it nests), owned by the caller and in no block.
pub fn clone<'c: 'a, 'a>(op: &impl OperationLike<'c, 'a>) -> Operation<'c> {
    // SAFETY: `op` is live; MLIR returns a new op that nothing else owns.
    unsafe { Operation::from_raw(mlir_sys::mlirOperationClone(op.to_raw())) }
}

/// Moves every block of `from` to the end of `into`, leaving `from` empty.
pub fn take_body<'c, 'a, 'b>(into: &impl RegionLike<'c, 'a>, from: &impl RegionLike<'c, 'b>) {
    // SAFETY: both regions are live and distinct; MLIR moves the blocks.
    unsafe { mlir_sys::mlirRegionTakeBody(into.to_raw(), from.to_raw()) }
}

/// Erases argument `index` of `block`; it must be unused (an argument with
/// uses is kept and `false` returned).
pub fn erase_argument(block: BlockRef, index: usize) -> bool {
    match block.argument(index) {
        Ok(argument) if !has_uses(argument) => {
            // SAFETY: the argument exists and has no uses, so no op refers to
            // it; the caller drops its handles to it.
            unsafe { block.erase_argument(index) };
            true
        }
        _ => false,
    }
}

/// The dictionary attribute of `entries`.
pub fn dictionary<'c>(
    context: &'c Context,
    entries: &[(Identifier<'c>, Attribute<'c>)],
) -> Attribute<'c> {
    let named: Vec<mlir_sys::MlirNamedAttribute> = entries
        .iter()
        .map(|(name, value)| mlir_sys::MlirNamedAttribute {
            name: name.to_raw(),
            attribute: value.to_raw(),
        })
        .collect();
    // SAFETY: the named attributes are live for the call; MLIR copies them
    // into the uniqued dictionary, which lives as long as the context.
    unsafe {
        Attribute::from_raw(mlir_sys::mlirDictionaryAttrGet(
            context.to_raw(),
            named.len() as isize,
            named.as_ptr(),
        ))
    }
}

/// Parses the file `path` into a module; `None` on failure (diagnosed
/// through the context's handlers).
pub fn parse_file<'c>(context: &'c Context, path: &str) -> Option<Module<'c>> {
    let name = melior::StringRef::new(path);
    // SAFETY: the context is live; MLIR copies the file name.
    let raw = unsafe { mlir_sys::mlirModuleCreateParseFromFile(context.to_raw(), name.to_raw()) };
    // SAFETY: a non-null module was just created and is owned by the caller.
    (!raw.ptr.is_null()).then(|| unsafe { Module::from_raw(raw) })
}
