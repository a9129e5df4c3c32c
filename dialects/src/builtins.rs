//! The builtin collective library: which hand-written kernel variant a host
//! `pld.builtin.*` call runs (the names: docs/passes/pld-lower-host-collectives.md;
//! the kernels: docs/translate.md, "Output"). The host code generator
//! materializes each variant once per program under `next_levels/<variant>/`.

use melior::ir::{
    Type,
    attribute::{IntegerAttribute, TypeAttribute},
    operation::{OperationLike, OperationRef},
};

use crate::{dtype::Dtype, ops::op_name};

/// `builtin.tensor.<collective>__<parameters>__<dtype>` for a
/// `pld.builtin.*` op, e.g. `builtin.tensor.allreduce__sum__fp32` or
/// `builtin.tensor.broadcast__root1__fp32`; `None` for any other op.
pub fn variant(op: OperationRef) -> Option<String> {
    let name = op_name(op);
    let collective = name.strip_prefix("pld.builtin.")?;
    let integer = |key: &str| {
        op.attribute(key)
            .ok()
            .and_then(|a| IntegerAttribute::try_from(a).ok())
            .map(|a| a.value())
    };
    let dtype = op
        .attribute("dtype")
        .ok()
        .and_then(|a| TypeAttribute::try_from(a).ok())
        .map(|a| a.value())
        .map_or(Some("fp32"), dtype_suffix)?;
    let reduce = || match integer("op").unwrap_or(0) {
        0 => Some("sum"),
        1 => Some("max"),
        2 => Some("min"),
        3 => Some("prod"),
        _ => None,
    };
    let parameters = match collective {
        "allreduce" | "allreduce_ring" | "reduce_scatter" => Some(reduce()?.to_string()),
        "broadcast" => Some(format!("root{}", integer("root")?)),
        "barrier" | "allgather" | "all_to_all" | "all_to_all_v" => None,
        _ => return None,
    };
    Some(match parameters {
        Some(parameters) => format!("builtin.tensor.{collective}__{parameters}__{dtype}"),
        None => format!("builtin.tensor.{collective}__{dtype}"),
    })
}

fn dtype_suffix(element: Type) -> Option<&'static str> {
    match Dtype::of(element)? {
        Dtype::F32 => Some("fp32"),
        Dtype::F16 => Some("fp16"),
        _ => None,
    }
}
