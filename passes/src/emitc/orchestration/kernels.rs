//! What an orchestration's lowering knows of the kernels it calls: their
//! parameters' directions, the parameters they return, and the runtime's
//! `func_id` and core of each (docs/passes/convert-pl-orchestration-to-emitc.md).

use std::collections::HashMap;

use melior::ir::{
    BlockLike, OperationRef, RegionLike, ValueLike, attribute::IntegerAttribute,
    operation::OperationLike,
};
use pto_dialects::ops::Checked;
use pto_dialects::{
    attrs,
    enums::{FunctionKind, ParamDirection},
    ops::op_name,
    types::TensorLike,
};

/// The attribute that gives a kernel its runtime `func_id`.
pub const FUNC_ID: &str = "pto2.func_id";

/// What an orchestration needs to know of a kernel it calls.
#[derive(Clone, Debug)]
pub struct KernelCall {
    pub func_id: usize,
    /// `aiv` or `aic`.
    pub core: &'static str,
    /// Per parameter: the direction of a tensor, `None` for a scalar.
    pub parameters: Vec<Option<ParamDirection>>,
    /// Per result: the parameter the kernel returns.
    pub returns: Vec<Option<usize>>,
    /// The (input, output) parameters whose output may share the input's
    /// buffer ([`shareable_outputs`]).
    pub shares: Vec<(usize, usize)>,
    /// The SPMD identity the kernel reads (its trailing parameters).
    pub queries: crate::emitc::spmd::Queries,
    /// The vector cores its pipes need when a core group launches it: two
    /// when a push or pop splits its tile between them
    /// (`pto_dialects::verify::group_lanes`; the verifier
    /// refuses a group whose halves disagree).
    pub lanes: u32,
}

/// The `pl.kind` of `function`.
pub fn kind(function: OperationRef) -> Option<FunctionKind> {
    attrs::kind_of(function)
}

/// The module's `func.func`s, in order.
pub fn functions<'c, 'a>(module: OperationRef<'c, 'a>) -> Vec<OperationRef<'c, 'a>> {
    let mut functions = Vec::new();
    let mut next = module
        .region_opt(0)
        .and_then(|r| r.first_block())
        .and_then(|b| b.first_operation());
    while let Some(op) = next {
        next = op.next_in_block();
        if op_name(op) == "func.func" {
            functions.push(op);
        }
    }
    functions
}

/// The symbol name of `function`.
pub fn symbol(function: OperationRef) -> String {
    attrs::text_of(function, "sym_name").unwrap_or_default()
}

/// The module's aic and aiv kernels by name: each one's `func_id` is its
/// [`FUNC_ID`] attribute, else its position among them.
pub fn kernel_calls<'c, 'a>(kernels: &[OperationRef<'c, 'a>]) -> HashMap<String, KernelCall> {
    kernels
        .iter()
        .enumerate()
        .map(|(position, &kernel)| {
            let func_id = kernel
                .attribute(FUNC_ID)
                .ok()
                .and_then(|a| IntegerAttribute::try_from(a).ok())
                .map_or(position, |a| a.value() as usize);
            let core = if kind(kernel) == Some(FunctionKind::Aic) {
                "aic"
            } else {
                "aiv"
            };
            let call = KernelCall {
                func_id,
                core,
                parameters: signature(kernel),
                returns: returned_parameters(kernel),
                shares: shareable_outputs(kernel),
                queries: crate::emitc::spmd::Queries::of(kernel),
                lanes: pto_dialects::verify::group_lanes(&[kernel]).unwrap_or(2),
            };
            (symbol(kernel), call)
        })
        .collect()
}

/// Per parameter of `function`: the direction of a tensor (`in` unless
/// declared; pl-convert-tensor-to-tile declares what kernels write), `None`
/// for a scalar.
pub fn signature(function: OperationRef) -> Vec<Option<ParamDirection>> {
    let body = function.region_opt(0).and_then(|r| r.first_block());
    (0..body.map_or(0, |b| b.argument_count()))
        .map(|i| {
            let argument: melior::ir::Value = body.unwrap().argument(i).unwrap().into();
            TensorLike::try_from(argument.r#type()).ok().map(|_| {
                pto_dialects::access::declared_direction(function, i)
                    .or_else(|| pto_dialects::access::access(function, argument))
                    .unwrap_or(ParamDirection::In)
            })
        })
        .collect()
}

/// Per result of `function`: the parameter it returns (through stores,
/// views and loops), `None` for anything else.
pub fn returned_parameters(function: OperationRef) -> Vec<Option<usize>> {
    let Some(body) = function.region_opt(0).and_then(|r| r.first_block()) else {
        return Vec::new();
    };
    let Some(terminator) = body.terminator() else {
        return Vec::new();
    };
    terminator
        .operands()
        .map(|value| pto_dialects::access::parameter_of(function, value))
        .collect()
}

/// The (input, output) tensor parameters of `function` whose output may be
/// given the input's buffer: every use of the input is a read and every use
/// of the output a write or the return, all in the body's own block, and
/// every read of the input feeds every write of the output. Each write then
/// waits for every read to complete (synchronisation orders each op after
/// the ops its operands come from), so the kernel has read the whole input
/// before it overwrites any of it. A loop carrying an accumulator through
/// such a kernel updates one buffer (docs/translate.md).
pub fn shareable_outputs(function: OperationRef) -> Vec<(usize, usize)> {
    use pto_dialects::access::{Use, operand_use};
    use pto_dialects::ir::OpKey;
    use std::collections::HashSet;
    let Some(body) = function.region_opt(0).and_then(|r| r.first_block()) else {
        return Vec::new();
    };
    let directions = signature(function);
    // The uses of parameter `i`, when every one is an op of the body's
    // block, each with how it uses the parameter.
    let uses_of = |i: usize| -> Option<Vec<(OperationRef, Use)>> {
        let parameter: melior::ir::Value = body.argument(i).ok()?.into();
        pto_dialects::ir::uses(parameter)
            .into_iter()
            .map(|(owner, index)| {
                let here = owner.block().is_some_and(|b| b == body);
                here.then(|| (owner, operand_use(owner, index)))
            })
            .collect()
    };
    // The ops `op`'s operands come from, transitively, within the function.
    let feeding = |op: OperationRef| -> HashSet<OpKey> {
        let mut seen = HashSet::new();
        let mut pending = vec![op];
        while let Some(next) = pending.pop() {
            for operand in next.operands() {
                if let Some(owner) = pto_dialects::ir::defining_op(operand)
                    && seen.insert(OpKey::of(&owner))
                {
                    pending.push(owner);
                }
            }
        }
        seen
    };
    let mut shares = Vec::new();
    let with = |direction: ParamDirection| -> Vec<usize> {
        (0..directions.len())
            .filter(|&i| directions[i] == Some(direction))
            .collect()
    };
    for output in with(ParamDirection::Out) {
        let Some(writes) = uses_of(output) else {
            continue;
        };
        if writes
            .iter()
            .any(|(_, u)| !matches!(u, Use::Write | Use::Pass))
            || !writes.iter().any(|(_, u)| *u == Use::Write)
        {
            continue;
        }
        let fed: Vec<HashSet<OpKey>> = writes
            .iter()
            .filter(|(_, u)| *u == Use::Write)
            .map(|(op, _)| feeding(*op))
            .collect();
        for input in with(ParamDirection::In) {
            let Some(reads) = uses_of(input) else {
                continue;
            };
            let feeds_every_write = reads.iter().all(|(read, u)| {
                *u == Use::Read && fed.iter().all(|f| f.contains(&OpKey::of(read)))
            });
            if !reads.is_empty() && feeds_every_write {
                shares.push((input, output));
            }
        }
    }
    shares
}

/// The `pl.direction` of parameter `index` of `function` (`in` unless said).
pub fn direction(function: OperationRef, index: usize) -> ParamDirection {
    pto_dialects::access::declared_direction(function, index).unwrap_or(ParamDirection::In)
}
