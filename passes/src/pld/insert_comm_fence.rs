//! `pld-insert-comm-fence`: the fences and cache invalidations
//! that make one rank's writes visible to another. What it does and why:
//! [`PASS`]`.description` (also docs/passes/pld-insert-comm-fence.md).

use melior::ir::{
    BlockLike, Location, Operation, Value, ValueLike,
    operation::{OperationBuilder, OperationLike, OperationRef, WalkOrder, WalkResult},
};
use pto_dialects::op_table::OpKind;
use pto_dialects::{
    attrs::{self, FunctionAttr},
    enums::FunctionKind,
    types::DistributedTensorType,
};

use super::ir::op_name;
use crate::{
    options::OptionValues,
    registry::{PassDefinition, PassFailed, Run},
};

/// The registry entry.
pub static PASS: PassDefinition = PassDefinition {
    argument: "pld-insert-comm-fence",
    class_name: "InsertCommFence",
    summary: "Insert the fences and cache invalidations around communication in kernels",
    description: r#"Global memory is cached per core and writes reach it in no fixed order, so
a rank that publishes data and then notifies a peer must first make the data
visible, and a rank that waited must drop stale cached lines before reading.
In every InCore kernel (kind incore, aic, aiv) this pass appends, after:

- a local publishing write (`pl.tile.store` or `pl.tensor.write` into a
  window-bound tensor, `pld.tile.get` / `pld.tensor.get` into one):
  `pl.system.cacheinvalid on %window` and `pl.system.fence`;
- a remote write (`pld.tile.remote_store`, `pld.tensor.remote_store`,
  `pld.tile.put`, `pld.tensor.put`): `pl.system.fence` (code generation
  invalidates the peer region);
- an opaque write (`pl.submit`, `pl.call`, `func.call`):
  `pl.system.cacheinvalid` of all global memory and `pl.system.fence`;
- `pld.system.wait`: `pl.system.cacheinvalid` of all global memory.

Nothing is added after a notify, a remote load, or a store into a plain
tensor. The pass is idempotent: markers already in place are not repeated.

Before:

```mlir
%w2 = pl.tile.store %t, %win[%row, %c0] : !pl.tile<1x256xf32, vec>, !pld.dtensor<?x256xf32>
pld.system.notify %sig[%me, %c0] to %peer, %one atomic_add : !pld.dtensor<?x1xi32>
pld.system.wait %sig[%src, %c0], %one ge : !pld.dtensor<?x1xi32>
```

After:

```mlir
%w2 = pl.tile.store %t, %win[%row, %c0] : !pl.tile<1x256xf32, vec>, !pld.dtensor<?x256xf32>
pl.system.cacheinvalid on %win : !pld.dtensor<?x256xf32>
pl.system.fence
pld.system.notify %sig[%me, %c0] to %peer, %one atomic_add : !pld.dtensor<?x1xi32>
pld.system.wait %sig[%src, %c0], %one ge : !pld.dtensor<?x1xi32>
pl.system.cacheinvalid
```"#,
    example_options: "",
    anchor: None,
    options: &[],
    dependent_dialects: || vec![pto_dialects::pl_handle()],
    run: Run::Op(run),
};

fn is_kernel(function: OperationRef) -> bool {
    matches!(
        function.attribute("pl.kind").ok().and_then(attrs::read),
        Some(FunctionAttr::Kind(
            FunctionKind::InCore | FunctionKind::Aic | FunctionKind::Aiv
        ))
    )
}

/// What must follow an op.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Marker {
    /// `cacheinvalid %window; fence` (operand index of the window).
    PublishLocal(usize),
    /// `fence`.
    Fence,
    /// `cacheinvalid; fence`.
    OpaqueWrite,
    /// `cacheinvalid`.
    AfterWait,
}

fn is_window(value: Value) -> bool {
    DistributedTensorType::try_from(value.r#type()).is_ok()
}

fn marker_for(op: OperationRef) -> Option<Marker> {
    use OpKind as K;
    let operand_is_window = |i| op.operand(i).is_ok_and(is_window);
    let Some(kind) = OpKind::of(&op) else {
        // A call to an arbitrary function may write any window.
        return (op_name(op) == "func.call").then_some(Marker::OpaqueWrite);
    };
    match kind {
        K::PlTileStore if operand_is_window(1) => Some(Marker::PublishLocal(1)),
        K::PlTensorWrite | K::PldTileGet | K::PldTensorGet if operand_is_window(0) => {
            Some(Marker::PublishLocal(0))
        }
        K::PldTileRemoteStore | K::PldTensorRemoteStore | K::PldTilePut | K::PldTensorPut => {
            Some(Marker::Fence)
        }
        K::PlSubmit | K::PlCall => Some(Marker::OpaqueWrite),
        K::PldSystemWait => Some(Marker::AfterWait),
        _ => None,
    }
}

/// Whether `op` is `pl.system.cacheinvalid` of `window` (None: of all GM).
fn is_invalidation_of(op: Option<OperationRef>, window: Option<Value>) -> bool {
    let Some(op) = op else { return false };
    if OpKind::of(&op) != Some(OpKind::PlSystemCacheinvalid) {
        return false;
    }
    match window {
        Some(window) => op.operand_count() == 1 && op.operand(0).is_ok_and(|v| v == window),
        None => op.operand_count() == 0,
    }
}

fn is_fence(op: Option<OperationRef>) -> bool {
    op.is_some_and(|op| OpKind::of(&op) == Some(OpKind::PlSystemFence))
}

fn run(root: OperationRef, _options: &OptionValues) -> Result<(), PassFailed> {
    if insert_comm_fences(root) == 0 {
        crate::registry::left_unchanged();
    }
    Ok(())
}

/// Inserts the markers in every kernel under `root`; returns how many ops
/// it inserted.
pub fn insert_comm_fences(root: OperationRef) -> usize {
    let mut targets: Vec<(OperationRef, Marker)> = Vec::new();
    pto_dialects::ir::walk(root, WalkOrder::PreOrder, |op| {
        if op_name(op) == "func.func" && !is_kernel(op) {
            return WalkResult::Skip;
        }
        if let Some(marker) = marker_for(op) {
            targets.push((op, marker));
        }
        WalkResult::Advance
    });
    let mut inserted = 0;
    for (raw, marker) in targets {
        let op = raw;
        let location = op.location();
        let next = op.next_in_block();
        let after_next = next.and_then(|n| n.next_in_block());
        let mut markers: Vec<Operation> = Vec::new();
        match marker {
            Marker::PublishLocal(index) => {
                let window = op.operand(index).expect("the marker's operand exists");
                if !(is_invalidation_of(next, Some(window)) && is_fence(after_next)) {
                    markers.push(build(
                        OpKind::PlSystemCacheinvalid.name(),
                        &[window],
                        location,
                    ));
                    markers.push(build(OpKind::PlSystemFence.name(), &[], location));
                }
            }
            Marker::Fence => {
                if !is_fence(next) {
                    markers.push(build(OpKind::PlSystemFence.name(), &[], location));
                }
            }
            Marker::OpaqueWrite => {
                if !(is_invalidation_of(next, None) && is_fence(after_next)) {
                    markers.push(build(OpKind::PlSystemCacheinvalid.name(), &[], location));
                    markers.push(build(OpKind::PlSystemFence.name(), &[], location));
                }
            }
            Marker::AfterWait => {
                if !is_invalidation_of(next, None) {
                    markers.push(build(OpKind::PlSystemCacheinvalid.name(), &[], location));
                }
            }
        }
        let Some(block) = op.block() else { continue };
        let mut anchor = op;
        for marker in markers {
            // SAFETY: `anchor` is a live op of `block`.
            let placed = block.insert_operation_after(anchor, marker);
            anchor = placed;
            inserted += 1;
        }
    }
    inserted
}

/// Builds a `pl.system.*` marker op.
fn build<'c>(name: &str, operands: &[Value<'c, '_>], location: Location<'c>) -> Operation<'c> {
    OperationBuilder::new(name, location)
        .add_operands(operands)
        .build()
        .expect("pl system ops build")
}
