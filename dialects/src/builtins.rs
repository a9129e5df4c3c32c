//! The builtin collective library: which hand-written kernel variant a host
//! `pld.builtin.*` call runs (the names: docs/passes/pld-lower-host-collectives.md;
//! the kernels: docs/translate.md, "Output"). The host code generator
//! materializes each variant once per program under `next_levels/<variant>/`.

use melior::ir::{
    Type,
    attribute::{IntegerAttribute, TypeAttribute},
    operation::{OperationLike, OperationRef},
};

use crate::{
    dtype::Dtype,
    enums::{EnumAttr, ReduceOp},
    op_table::{Family, OpKind},
};

/// `builtin.tensor.<collective>__<parameters>__<dtype>` for a
/// `pld.builtin.*` op, e.g. `builtin.tensor.allreduce__sum__fp32` or
/// `builtin.tensor.broadcast__root1__fp32`; `None` for any other op.
pub fn variant(op: OperationRef) -> Option<String> {
    let kind = OpKind::of(&op).filter(|kind| kind.family() == Family::BuiltinCollective)?;
    let collective = kind.name().strip_prefix("pld.builtin.")?;
    let dtype = op
        .attribute("dtype")
        .ok()
        .and_then(|a| TypeAttribute::try_from(a).ok())
        .map(|a| a.value())
        .map_or(Some("fp32"), dtype_suffix)?;
    let parameters = match kind {
        OpKind::PldBuiltinAllreduce
        | OpKind::PldBuiltinAllreduceRing
        | OpKind::PldBuiltinReduceScatter => {
            // Without `op` a reduction sums.
            let reduce = match op.attribute("op") {
                Ok(_) => op.enum_attr::<ReduceOp>("op")?,
                Err(_) => ReduceOp::Sum,
            };
            Some(reduce.keyword().to_string())
        }
        OpKind::PldBuiltinBroadcast => {
            let root = op
                .attribute("root")
                .ok()
                .and_then(|a| IntegerAttribute::try_from(a).ok())?
                .value();
            Some(format!("root{root}"))
        }
        _ => None,
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
