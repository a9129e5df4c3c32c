//! Which ops convert-pl-to-emitc lowers (`lowers`, keyed by the op table):
//! every op of the table is asked, the answers are printed as a table
//! (`cargo test -p pto-passes --test emitc_coverage -- --nocapture`), and
//! the ops it does not lower must be exactly [`NOT_LOWERED`]. An op added to
//! the ODS is thereby a decision here: lowered, or listed with why not.

use std::collections::BTreeSet;

use pto_dialects::{
    op_table::{Dialect, Group},
    ops::OpKind,
};
use pto_passes::emitc::convert_pl_to_emitc::{has_family_lowering, lowers};

/// The ops convert-pl-to-emitc does not lower (an error at the op) besides
/// the tensor-level ones ([`tensor_level`]): orchestration-level and
/// host-level ops, and the tile and system ops without a lowering yet.
const NOT_LOWERED: &[OpKind] = &[
    // Dispatches, scopes and their terminators: orchestration structure;
    // task ids and launch sizes.
    OpKind::PlCall,
    OpKind::PlSystemTaskDummy,
    OpKind::PlSystemTaskInvalid,
    OpKind::PlSystemTaskIsValid,
    OpKind::PlSystemAvailableClusterCount,
    OpKind::PlSystemAvailableAivCount,
    OpKind::PlSubmit,
    OpKind::PldDispatch,
    OpKind::PlClusterScope,
    OpKind::PlIncoreScope,
    OpKind::PlRuntimeScope,
    OpKind::PlSpmdScope,
    OpKind::PldCommDomain,
    OpKind::PlYield,
    OpKind::PldYield,
    // Barriers and cross-core events pl-insert-sync does not place.
    OpKind::PlSystemBarAll,
    OpKind::PlSystemBarM,
    OpKind::PlSystemBarV,
    OpKind::PlSystemSyncSet,
    OpKind::PlSystemSyncWait,
    // Tile ops without a lowering: planning gives tiles their buffers,
    // batch matmuls are not translated yet, pto-isa has no sine or cosine,
    // no carrying add, no row update and no compare gather of every
    // comparison and no TRANDOM on a2a3, and its MSCATTER is spelt
    // without its mode (pl-lower-math-ops decomposes them).
    OpKind::PlTileAlloc,
    OpKind::PlTileBatchMatmul,
    OpKind::PlTileBatchMatmulAcc,
    OpKind::PlTileCos,
    OpKind::PlTileSin,
    OpKind::PlTileAddc,
    OpKind::PlTileSubc,
    OpKind::PlTileAddsc,
    OpKind::PlTileSubsc,
    OpKind::PlTileScatterUpdate,
    OpKind::PlTileGatherRow,
    OpKind::PlTileGatherCompare,
    OpKind::PlTileMscatter,
    OpKind::PlTileRandom,
    // The boundaries of mixed kernels (pl-expand-mixed-kernel makes pipes
    // of them).
    OpKind::PlTileAivShard,
    OpKind::PlTileAicGather,
    // Host-level and tensor-level communication.
    OpKind::PldSystemWorldSize,
    OpKind::PldSystemDeferWait,
    OpKind::PldBuiltinAllToAll,
    OpKind::PldBuiltinAllToAllV,
    OpKind::PldBuiltinAllgather,
    OpKind::PldBuiltinAllreduce,
    OpKind::PldBuiltinAllreduceRing,
    OpKind::PldBuiltinBarrier,
    OpKind::PldBuiltinBroadcast,
    OpKind::PldBuiltinReduceScatter,
    OpKind::PldTensorAllToAll,
    OpKind::PldTensorAllToAllV,
    OpKind::PldTensorAllgather,
    OpKind::PldTensorAllreduce,
    OpKind::PldTensorBarrier,
    OpKind::PldTensorBroadcast,
    OpKind::PldTensorReduceScatter,
    OpKind::PldTensorAllocWindowBuffer,
    OpKind::PldTensorWindow,
    OpKind::PldTensorGet,
    OpKind::PldTensorPut,
    OpKind::PldTensorRemoteStore,
];

/// The `pl.tensor` ops other than `pl.tensor.view`, `pl.tensor.dim` and
/// the scalar accesses `pl.tensor.read`/`write`: kernels get tile ops for
/// them from pl-convert-tensor-to-tile, so none is lowered (a new tensor
/// op joins them without a line here).
fn tensor_level(kind: OpKind) -> bool {
    let info = kind.info();
    info.dialect == Dialect::Pl
        && info.group == Group::Tensor
        && !matches!(
            kind,
            OpKind::PlTensorView
                | OpKind::PlTensorDim
                | OpKind::PlTensorRead
                | OpKind::PlTensorWrite
        )
}

#[test]
fn the_ops_not_lowered_are_the_documented_ones() {
    let mut not_lowered = BTreeSet::new();
    println!("{:<32} {:<20} convert-pl-to-emitc", "op", "family");
    for &kind in OpKind::ALL {
        let answer = match lowers(kind) {
            Ok(()) => "lowered".to_string(),
            Err(reason) => {
                not_lowered.insert(kind);
                format!("not lowered: {reason}")
            }
        };
        println!("{:<32} {:<20} {answer}", kind.name(), kind.family().name());
    }
    let listed: BTreeSet<OpKind> = NOT_LOWERED.iter().copied().collect();
    assert_eq!(
        listed.len(),
        NOT_LOWERED.len(),
        "NOT_LOWERED lists an op twice"
    );
    assert!(
        listed.iter().all(|&kind| !tensor_level(kind)),
        "NOT_LOWERED lists a tensor-level op"
    );
    let documented: BTreeSet<OpKind> = OpKind::ALL
        .iter()
        .copied()
        .filter(|&kind| listed.contains(&kind) || tensor_level(kind))
        .collect();
    let undocumented: Vec<&str> = not_lowered
        .difference(&documented)
        .map(|k| k.name())
        .collect();
    let lowered: Vec<&str> = documented
        .difference(&not_lowered)
        .map(|k| k.name())
        .collect();
    assert!(
        undocumented.is_empty() && lowered.is_empty(),
        "not lowered but not in NOT_LOWERED: {undocumented:?}; in NOT_LOWERED but lowered: {lowered:?}"
    );
}

/// An op the op table gives a pto-isa instruction is one the lowering
/// emits it for.
#[test]
fn every_op_with_an_instruction_is_lowered() {
    let missing: Vec<&str> = OpKind::ALL
        .iter()
        .filter(|kind| kind.info().instruction.is_some() && lowers(**kind).is_err())
        .map(|kind| kind.name())
        .collect();
    assert!(
        missing.is_empty(),
        "ops with an instruction convert-pl-to-emitc does not lower: {missing:?}"
    );
}

/// Every op `lowers` takes belongs to a family with a lowering, so the
/// dispatch and the decision cannot drift apart (`lowers` may still refuse
/// single kinds of a lowered family).
#[test]
fn the_ops_lowered_have_a_lowering() {
    let mismatched: Vec<String> = OpKind::ALL
        .iter()
        .filter(|kind| lowers(**kind).is_ok() && !has_family_lowering(**kind))
        .map(|kind| kind.name().to_string())
        .collect();
    assert!(
        mismatched.is_empty(),
        "lowered ops whose family has no lowering: {mismatched:?}"
    );
}
