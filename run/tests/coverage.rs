//! Every `pl`/`pld` op of the op table either runs in pto-run or is one of
//! the exceptions `pto_run::program::unsupported` documents (the ops outside
//! what docs/pto-run.md lists as running): a new op is caught here until
//! pto-run has a rule for it or it joins the list.

use pto_dialects::op_table::OpKind;
use pto_run::program::unsupported;

/// The ops pto-run does not execute, with the reason it gives.
const UNSUPPORTED: &[(OpKind, &str)] = &[
    (OpKind::PlTensorCmp, unsupported::TENSOR_COMPARE),
    (OpKind::PlTensorCmps, unsupported::TENSOR_COMPARE),
    (OpKind::PlTensorSel, unsupported::TENSOR_SELECT),
    (OpKind::PlTensorSels, unsupported::TENSOR_SELECT),
    (OpKind::PlTileAlloc, unsupported::TILE_ALLOC),
    (OpKind::PlTileBatchMatmul, unsupported::BATCH_MATMUL),
    (OpKind::PlTileBatchMatmulAcc, unsupported::BATCH_MATMUL),
];

#[test]
fn every_op_runs_or_is_a_documented_exception() {
    let mut table = String::new();
    let mut unsupported = Vec::new();
    for &kind in OpKind::ALL {
        let verdict = pto_run::supports(kind);
        let family = format!("{:?}", kind.family());
        let text = match verdict {
            Ok(()) => "runs".to_string(),
            Err(reason) => {
                unsupported.push((kind, reason));
                format!("unsupported: {reason}")
            }
        };
        table.push_str(&format!("{:<32} {family:<18} {text}\n", kind.name()));
    }
    println!("{table}");
    let supported = OpKind::ALL.len() - unsupported.len();
    println!(
        "{supported} of {} ops run, {} do not",
        OpKind::ALL.len(),
        unsupported.len()
    );
    assert_eq!(
        unsupported, UNSUPPORTED,
        "the ops pto-run does not execute differ from the documented list"
    );
}
