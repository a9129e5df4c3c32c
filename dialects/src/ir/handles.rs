//! Handles with the lifetimes of the IR they point into: identities for
//! maps, walks that keep what they find, and mutable access.
//!
//! melior ties a handle's lifetime to the borrow it came from (a walk's
//! callback, a block argument), which is shorter than the IR's. A pass that
//! collects ops and then rewrites them, or keeps values in a map, needs the
//! IR's lifetime; these functions give it, each with the reason it holds.

use std::cell::RefCell;

use melior::{
    Context, ContextRef,
    ir::{
        BlockLike, BlockRef, Value, ValueLike,
        block::BlockArgument,
        operation::{OperationLike, OperationRef, OperationRefMut, WalkOrder, WalkResult},
    },
};

use crate::op_table::OpKind;

/// The identity of a value, for maps and sets; it borrows nothing, so it
/// cannot be turned back into a value (keep the `Value` for that).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ValueKey(usize);

impl ValueKey {
    /// The key of `value`.
    pub fn of<'c>(value: impl ValueLike<'c>) -> Self {
        Self(value.to_raw().ptr as usize)
    }
}

/// The identity of an operation, for maps and sets.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct OpKey(usize);

impl OpKey {
    /// The key of `op`.
    pub fn of<'c: 'a, 'a>(op: &impl OperationLike<'c, 'a>) -> Self {
        Self(op.to_raw().ptr as usize)
    }
}

/// The identity of a block, for maps and sets.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct BlockKey(usize);

impl BlockKey {
    /// The key of `block`.
    pub fn of<'c: 'a, 'a>(block: &impl BlockLike<'c, 'a>) -> Self {
        Self(block.to_raw().ptr as usize)
    }
}

/// The context `op` lives in, for the context's whole lifetime.
///
/// melior hands out a context as a `ContextRef` value whose `to_ref`
/// borrows that value, so the `&Context` dangles once the `ContextRef` is
/// dropped. This keeps one `ContextRef` per context (per thread) in memory
/// that is never freed, and lends that: a few bytes per context a thread
/// ever sees.
pub fn context<'c: 'a, 'a>(op: &impl OperationLike<'c, 'a>) -> &'c Context {
    thread_local! {
        static HANDLES: RefCell<Vec<&'static ContextRef<'static>>> = const { RefCell::new(Vec::new()) };
    }
    // SAFETY: `op` is live; the query only reads it.
    let raw = unsafe { mlir_sys::mlirOperationGetContext(op.to_raw()) };
    let handle = HANDLES.with(|handles| {
        let mut handles = handles.borrow_mut();
        // SAFETY: each handle holds a context pointer, only compared here.
        let same = |h: &&&ContextRef| unsafe { h.to_ref() }.to_raw().ptr == raw.ptr;
        if let Some(handle) = handles.iter().find(same) {
            return *handle;
        }
        // SAFETY: `raw` is the live context of `op`.
        let handle: &'static ContextRef<'static> =
            Box::leak(Box::new(unsafe { ContextRef::from_raw(raw) }));
        handles.push(handle);
        handle
    });
    // SAFETY: the handle lives forever and holds the raw context of `op`,
    // which lives for 'c; the reference is used only while `op`'s IR (and so
    // its context) lives.
    unsafe { handle.to_ref() }
}

/// A mutable handle to `op`.
///
/// MLIR mutates IR through shared handles; melior marks mutation with
/// `OperationRefMut`, which it hands out only for ops it owns. A pass, the
/// translator and the interpreter own the IR they were given (MLIR runs a
/// pass on an op with exclusive access to it), so mutating any live op of it
/// is sound; the caller must not use `op` after erasing it.
pub fn edit<'c, 'a>(op: OperationRef<'c, 'a>) -> OperationRefMut<'c, 'a> {
    // SAFETY: `op` is live; see above for why mutation through it is sound.
    unsafe { OperationRefMut::from_raw(op.to_raw()) }
}

/// Walks the ops nested in `scope` (`scope` included) in `order`, handing
/// `visit` each with the lifetime of `scope`'s IR, so that it may keep them
/// for a rewrite after the walk. `visit` may set operands and attributes
/// but must not erase, move or insert ops (collect first, rewrite after).
pub fn walk<'c, 'a>(
    scope: OperationRef<'c, 'a>,
    order: WalkOrder,
    mut visit: impl FnMut(OperationRef<'c, 'a>) -> WalkResult,
) {
    scope.walk(order, |op| {
        // SAFETY: the walk visits live ops nested in `scope`, which lives
        // for 'a; `visit` erases nothing, so each stays live.
        visit(unsafe { OperationRef::from_raw(op.to_raw()) })
    });
}

/// The ops nested in `scope` (`scope` included), in `order`, that `select`
/// keeps, with the lifetime of `scope`'s IR. The walk finishes before
/// `select` runs, so `select` may not mutate the IR but its caller may
/// rewrite the ops afterwards.
pub fn collect<'c, 'a>(
    scope: OperationRef<'c, 'a>,
    order: WalkOrder,
    mut select: impl FnMut(OperationRef<'c, 'a>) -> bool,
) -> Vec<OperationRef<'c, 'a>> {
    let mut raw = Vec::new();
    scope.walk(order, |op| {
        raw.push(op.to_raw());
        WalkResult::Advance
    });
    raw.into_iter()
        // SAFETY: the walk found these ops nested in `scope`, which lives
        // for 'a, and nothing has changed the IR since.
        .map(|op| unsafe { OperationRef::from_raw(op) })
        .filter(|&op| select(op))
        .collect()
}

/// The ops nested in `scope` (itself included) of the given kinds, in
/// pre-order.
pub fn collect_kinds<'c, 'a>(
    scope: OperationRef<'c, 'a>,
    kinds: &[OpKind],
) -> Vec<OperationRef<'c, 'a>> {
    collect(scope, WalkOrder::PreOrder, |op| {
        OpKind::of(&op).is_some_and(|kind| kinds.contains(&kind))
    })
}

/// The ops nested in `scope` (itself included) with one of `names`, in
/// pre-order (for upstream ops, which have no `OpKind`).
pub fn collect_named<'c, 'a>(
    scope: OperationRef<'c, 'a>,
    names: &[&str],
) -> Vec<OperationRef<'c, 'a>> {
    collect(scope, WalkOrder::PreOrder, |op| {
        op.name()
            .as_string_ref()
            .as_str()
            .is_ok_and(|name| names.contains(&name))
    })
}

/// The first op nested in `scope` (itself included), in pre-order, that
/// `select` accepts.
pub fn find<'c, 'a>(
    scope: OperationRef<'c, 'a>,
    mut select: impl FnMut(OperationRef<'c, 'a>) -> bool,
) -> Option<OperationRef<'c, 'a>> {
    let mut found = None;
    scope.walk(WalkOrder::PreOrder, |op| {
        // SAFETY: the walk visits live ops nested in `scope`, which lives for
        // 'a; `select` only reads them.
        let op = unsafe { OperationRef::from_raw(op.to_raw()) };
        if select(op) {
            found = Some(op);
            WalkResult::Interrupt
        } else {
            WalkResult::Advance
        }
    });
    found
}

/// The op before `op` in its block (melior's `previous_in_block` is not
/// implemented: the C API lacks it), found by scanning the block.
pub fn previous_in_block<'c, 'a>(op: OperationRef<'c, 'a>) -> Option<OperationRef<'c, 'a>> {
    let mut current = op.block()?.first_operation()?;
    if current == op {
        return None;
    }
    while let Some(next) = current.next_in_block() {
        if next == op {
            return Some(current);
        }
        current = next;
    }
    None
}

/// `value` as a block argument, when it is one. (melior's `TryFrom` formats
/// an op result for its error, which prints, and so verifies, the whole
/// module: slow, and inside a verifier it recurses; this asks first.)
pub fn block_argument<'c, 'a>(value: Value<'c, 'a>) -> Option<BlockArgument<'c, 'a>> {
    if !value.is_block_argument() {
        return None;
    }
    BlockArgument::try_from(value).ok()
}

/// The block that owns `value`, when it is a block argument.
pub fn argument_owner<'c, 'a>(value: Value<'c, 'a>) -> Option<BlockRef<'c, 'a>> {
    let argument = block_argument(value)?;
    // SAFETY: the argument's block owns it and lives as long as the IR the
    // value belongs to ('a); melior's `owner` only shortens the lifetime to
    // the argument handle's borrow.
    Some(unsafe { BlockRef::from_raw(argument.owner().to_raw()) })
}

/// The op that defines `value`, when it is an op result.
pub fn defining_op<'c, 'a>(value: Value<'c, 'a>) -> Option<OperationRef<'c, 'a>> {
    melior::ir::operation::OperationResult::try_from(value)
        .ok()
        .map(|result| result.owner())
}

/// The block `value` is defined in: its owner, or its defining op's block.
pub fn defining_block<'c, 'a>(value: Value<'c, 'a>) -> Option<BlockRef<'c, 'a>> {
    argument_owner(value).or_else(|| defining_op(value).and_then(|op| op.block()))
}

/// `value` with the lifetime of `scope`'s IR, once its definition has been
/// placed inside `scope` (a value built in a detached block and moved in).
/// `None` when `value` is not defined inside `scope`.
pub fn rebind<'c, 'a>(value: Value<'c, '_>, scope: OperationRef<'c, 'a>) -> Option<Value<'c, 'a>> {
    // SAFETY: a handle with the scope's lifetime to the same value; it is
    // returned only once the value is found to be defined inside `scope`,
    // so it lives as long as `scope`'s IR.
    let value: Value<'c, 'a> = unsafe { Value::from_raw(value.to_raw()) };
    let mut op = defining_block(value)?.parent_operation();
    while let Some(current) = op {
        if current == scope {
            return Some(value);
        }
        op = current.parent_operation();
    }
    None
}

/// Each use of `value`: the op that uses it and the operand number.
pub fn uses<'c, 'a>(value: Value<'c, 'a>) -> Vec<(OperationRef<'c, 'a>, usize)> {
    let mut found = Vec::new();
    // SAFETY: `value` is live; the use list is only read, and each owner is
    // an op of the same IR, live for 'a.
    unsafe {
        let mut operand = mlir_sys::mlirValueGetFirstUse(value.to_raw());
        while !operand.ptr.is_null() {
            found.push((
                OperationRef::from_raw(mlir_sys::mlirOpOperandGetOwner(operand)),
                mlir_sys::mlirOpOperandGetOperandNumber(operand) as usize,
            ));
            operand = mlir_sys::mlirOpOperandGetNextUse(operand);
        }
    }
    found
}

/// Whether anything uses `value`.
pub fn has_uses<'c>(value: impl ValueLike<'c>) -> bool {
    // SAFETY: `value` is live; the query only reads its use list.
    !unsafe { mlir_sys::mlirValueGetFirstUse(value.to_raw()) }
        .ptr
        .is_null()
}
