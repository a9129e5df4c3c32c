//! Which parameters of a kernel may name one global tensor: the pipe model
//! gives each parameter a buffer of its own, which is sound only when no
//! call passes one tensor (or views of one) to two of them. A kernel
//! called as `@k(%x, %x)` that stores through one parameter and loads
//! through the other must order the two (docs/a2a3-lowering.md, "The
//! machine the passes model").
//!
//! The calls are the kernel's `pl.call`s and `pl.submit`s in its module
//! (`pld.dispatch` runs chip orchestrations, not kernels); a kernel no
//! call in its module reaches is called by the host with distinct
//! tensors. In the caller a tensor stands for the
//! tensors it may be: a view for its source, a call's result for the
//! call's tensor arguments (the kernel returns one it wrote), a loop's or
//! a branch's result for what it carries or yields.

use std::collections::{BTreeSet, HashMap};

use melior::ir::{BlockLike, OperationRef, RegionLike, Value, ValueLike, operation::OperationLike};
use pto_dialects::{
    ir::{ValueKey, argument_owner, block_argument},
    op_table::OpKind,
    ops::{Checked, op_name, operand_at},
    types::TensorLike,
};

/// For each kernel of a module, the pairs `(i, j)`, `i < j`, of its
/// parameters that some call in the module passes tensors that may be one
/// to. Gathered in one walk of the module, before the passes that model
/// pipes run on its kernels (in parallel: it holds no IR).
#[derive(Debug, Default)]
pub struct ParameterAliases {
    by_kernel: HashMap<String, Vec<(usize, usize)>>,
}

impl ParameterAliases {
    /// The aliased parameters of the kernels `module`'s calls reach.
    pub fn of(module: OperationRef) -> Self {
        let mut by_kernel = HashMap::new();
        let mut memo = HashMap::new();
        for (callee, calls) in super::signature::CallSites::of(module).by_callee() {
            let pairs = aliased_pairs(
                calls.iter().filter_map(|&call| call_arguments(call)),
                &mut memo,
            );
            if !pairs.is_empty() {
                by_kernel.insert(callee.to_string(), pairs);
            }
        }
        ParameterAliases { by_kernel }
    }

    /// The aliased parameter pairs of `function`, in order.
    pub fn of_function(&self, function: OperationRef) -> &[(usize, usize)] {
        pto_dialects::attrs::text_of(function, "sym_name")
            .and_then(|name| self.by_kernel.get(&name))
            .map_or(&[], Vec::as_slice)
    }
}

/// The pairs of parameters some of `calls` (each a call's arguments)
/// passes tensors that may be one to.
fn aliased_pairs<'c: 'a, 'a>(
    calls: impl Iterator<Item = Vec<Value<'c, 'a>>>,
    memo: &mut HashMap<ValueKey, BTreeSet<ValueKey>>,
) -> Vec<(usize, usize)> {
    let mut pairs = BTreeSet::new();
    for arguments in calls {
        let bases: Vec<Option<BTreeSet<ValueKey>>> = arguments
            .iter()
            .map(|&v| is_tensor(v).then(|| bases(v, memo, 0)))
            .collect();
        for i in 0..bases.len() {
            for j in i + 1..bases.len() {
                if let (Some(a), Some(b)) = (&bases[i], &bases[j])
                    && !a.is_disjoint(b)
                {
                    pairs.insert((i, j));
                }
            }
        }
    }
    pairs.into_iter().collect()
}

fn is_tensor(value: Value) -> bool {
    TensorLike::try_from(value.r#type()).is_ok()
}

/// The arguments a call-like op passes its callee's parameters (a
/// dispatch's device operand is none).
fn call_arguments<'c: 'a, 'a>(op: OperationRef<'c, 'a>) -> Option<Vec<Value<'c, 'a>>> {
    let (start, count) = match OpKind::of(&op)? {
        OpKind::PlCall | OpKind::PlSubmit => super::signature::argument_range(op),
        OpKind::PldDispatch => (0, op.operand_count().saturating_sub(1)),
        _ => return None,
    };
    Some(
        (start..start + count)
            .filter_map(|i| operand_at(op, i))
            .collect(),
    )
}

/// The tensors `value` may be (values no view, call, loop or branch made).
fn bases(
    value: Value,
    memo: &mut HashMap<ValueKey, BTreeSet<ValueKey>>,
    depth: usize,
) -> BTreeSet<ValueKey> {
    let key = ValueKey::of(value);
    if let Some(known) = memo.get(&key) {
        return known.clone();
    }
    // A cycle through a loop's carry, or a very deep chain: the value
    // itself (the loop's init is reached on the other way round).
    memo.insert(key, BTreeSet::from([key]));
    let found = if depth > 64 {
        BTreeSet::from([key])
    } else {
        sources(value)
            .map(|values| {
                let mut all = BTreeSet::new();
                for source in values {
                    all.extend(bases(source, memo, depth + 1));
                }
                all
            })
            .unwrap_or_else(|| BTreeSet::from([key]))
    };
    memo.insert(key, found.clone());
    found
}

/// The values `value` may be the memory of, when it is made of others.
fn sources<'c: 'a, 'a>(value: Value<'c, 'a>) -> Option<Vec<Value<'c, 'a>>> {
    if let Some(argument) = block_argument(value) {
        // A loop's carried tensor: its init and what the body yields.
        let number = argument.argument_number();
        let owner = argument_owner(value)?;
        let parent = owner.parent_operation()?;
        if op_name(parent) != "scf.for" || number == 0 {
            return None;
        }
        let mut values: Vec<Value> = operand_at(parent, 2 + number).into_iter().collect();
        values.extend(owner.terminator().and_then(|t| operand_at(t, number - 1)));
        return Some(values);
    }
    let op = pto_dialects::ir::defining_op(value)?;
    let index =
        (0..op.result_count()).find(|&i| op.result(i).is_ok_and(|r| Value::from(r) == value))?;
    match (OpKind::of(&op), op_name(op)) {
        (Some(kind), _) if let Some(operand) = super::pipes::same_memory_operand(kind) => {
            Some(operand_at(op, operand).into_iter().collect())
        }
        (Some(OpKind::PlCall | OpKind::PlSubmit | OpKind::PldDispatch), _) => Some(
            call_arguments(op)?
                .into_iter()
                .filter(|&v| is_tensor(v))
                .collect(),
        ),
        (None, "scf.for") => {
            let mut values: Vec<Value> = operand_at(op, 3 + index).into_iter().collect();
            let body = op.region_opt(0)?.first_block()?;
            values.extend(body.terminator().and_then(|t| operand_at(t, index)));
            Some(values)
        }
        (None, "scf.if") => Some(
            op.regions()
                .filter_map(|r| r.first_block()?.terminator())
                .filter_map(|t| operand_at(t, index))
                .collect(),
        ),
        _ => None,
    }
}
