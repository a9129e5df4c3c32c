//! Which comm context a distributed tensor value has: its lineage back to
//! a parameter of the enclosing function, whose context parameter it is.
//!
//! A value is followed through what keeps a tensor's buffer: the op
//! table's tied operand (a store, scalar write or collective writing back
//! into its target), a view (the one op that reinterprets a
//! distributed tensor), a loop carry (its initial value and
//! every value the loop yields back into it must agree), an `scf.if` (both
//! branches must agree), and a call's result (the callee's parameter its
//! return traces to). A carry or branch that mixes tensors of different
//! contexts is a conflict: the context is decided once, where the tensor is
//! passed, so it cannot change with the branch taken or the iteration.

use std::collections::HashMap;

use melior::ir::{
    BlockLike, RegionLike, Value, operation::OperationLike, operation::OperationRef,
    operation::OperationResult,
};
use pto_dialects::ir::{OpKey, argument_owner};
use pto_dialects::op_table::OpKind;
use pto_dialects::ops::Checked;

use super::super::ir::op_name;

/// Why a tensor's context is not found.
pub(super) enum Unresolved<'c, 'a> {
    /// Its lineage ends at something other than a parameter (a window
    /// made here, a kernel's fresh output, an op not followed).
    Unknown,
    /// `op` joins tensors of different contexts; `message` says how.
    Conflict {
        op: OperationRef<'c, 'a>,
        message: String,
    },
}

/// What a lineage walk found: a context, or nothing yet (the walk came
/// back to a value it is already following, a loop carried unchanged).
type Found<'c, 'a> = Result<Option<Value<'c, 'a>>, Unresolved<'c, 'a>>;

/// Follows lineages in one module, after every function has its context
/// parameters.
pub(super) struct Lineage<'m, 'c, 'a> {
    /// (function, parameter index) → its context parameter.
    pub ctx_params: &'m HashMap<(OpKey, usize), Value<'c, 'a>>,
    /// Function name → the indices of its distributed-tensor parameters.
    pub callee_windows: &'m HashMap<String, Vec<usize>>,
    /// Function name → the function.
    pub functions: &'m HashMap<String, OperationRef<'c, 'a>>,
}

/// Lineage walks deeper than this are given up (as unknown), so a
/// pathological chain cannot exhaust the stack.
const DEPTH_LIMIT: usize = 256;

impl<'c, 'a> Lineage<'_, 'c, 'a> {
    /// The context of `value`.
    pub fn resolve(&self, value: Value<'c, 'a>) -> Result<Value<'c, 'a>, Unresolved<'c, 'a>> {
        let mut path = Vec::new();
        self.walk(value, &mut path)?.ok_or(Unresolved::Unknown)
    }

    fn walk(&self, value: Value<'c, 'a>, path: &mut Vec<Value<'c, 'a>>) -> Found<'c, 'a> {
        if path.contains(&value) {
            return Ok(None);
        }
        if path.len() >= DEPTH_LIMIT {
            return Err(Unresolved::Unknown);
        }
        path.push(value);
        let found = self.step(value, path);
        path.pop();
        found
    }

    fn step(&self, value: Value<'c, 'a>, path: &mut Vec<Value<'c, 'a>>) -> Found<'c, 'a> {
        if let Some(argument) = pto_dialects::ir::block_argument(value) {
            let number = argument.argument_number();
            let block = argument_owner(value).ok_or(Unresolved::Unknown)?;
            let owner = block.parent_operation().ok_or(Unresolved::Unknown)?;
            return match op_name(owner) {
                "func.func" => self
                    .ctx_params
                    .get(&(OpKey::of(&owner), number))
                    .copied()
                    .map(Some)
                    .ok_or(Unresolved::Unknown),
                // Body argument k > 0 of scf.for carries iter_arg k - 1.
                "scf.for" if number > 0 => self.for_carry(owner, number - 1, path),
                "scf.while" if is_region_entry(owner, 0, block) => {
                    self.while_carry(owner, number, path)
                }
                // The after region's arguments are what scf.condition passes.
                "scf.while" => {
                    let condition = region_terminator(owner, 0).ok_or(Unresolved::Unknown)?;
                    self.walk_operand(condition, number + 1, path)
                }
                _ => Err(Unresolved::Unknown),
            };
        }
        let result = OperationResult::try_from(value).map_err(|_| Unresolved::Unknown)?;
        let owner = result.owner();
        let number = result.result_number();
        match OpKind::of(&owner) {
            Some(OpKind::PlTensorView) => self.walk_operand(owner, 0, path),
            Some(OpKind::PlCall) => self.call_result(owner, number, path),
            Some(kind) => match kind.info().tied_operand.filter(|_| number == 0) {
                Some(tied) => self.walk_operand(owner, tied, path),
                None => Err(Unresolved::Unknown),
            },
            None => match op_name(owner) {
                "scf.for" => self.for_carry(owner, number, path),
                "scf.while" => {
                    let condition = region_terminator(owner, 0).ok_or(Unresolved::Unknown)?;
                    self.walk_operand(condition, number + 1, path)
                }
                "scf.if" => self.branches(owner, number, path),
                "func.call" => self.call_result(owner, number, path),
                _ => Err(Unresolved::Unknown),
            },
        }
    }

    fn walk_operand(
        &self,
        op: OperationRef<'c, 'a>,
        index: usize,
        path: &mut Vec<Value<'c, 'a>>,
    ) -> Found<'c, 'a> {
        let operand = op.operand_opt(index).ok_or(Unresolved::Unknown)?;
        self.walk(operand, path)
    }

    /// Carry `k` of an `scf.for`: its init (operand 3 + k) and what the
    /// body yields back (yield operand k) must agree.
    fn for_carry(
        &self,
        op: OperationRef<'c, 'a>,
        k: usize,
        path: &mut Vec<Value<'c, 'a>>,
    ) -> Found<'c, 'a> {
        let init = self.walk_operand(op, 3 + k, path)?;
        let yield_op = region_terminator(op, 0).ok_or(Unresolved::Unknown)?;
        let back = self.walk_operand(yield_op, k, path)?;
        agree(init, back, || Unresolved::Conflict {
            op,
            message: format!(
                "this loop rebinds the distributed tensor it carries (#{k}) to one of another \
                 communication context; a carried distributed tensor must keep its initial value's context"
            ),
        })
    }

    /// Carry `k` of an `scf.while`: its init (operand k) and what the
    /// after region yields back (yield operand k) must agree.
    fn while_carry(
        &self,
        op: OperationRef<'c, 'a>,
        k: usize,
        path: &mut Vec<Value<'c, 'a>>,
    ) -> Found<'c, 'a> {
        let init = self.walk_operand(op, k, path)?;
        let yield_op = region_terminator(op, 1).ok_or(Unresolved::Unknown)?;
        let back = self.walk_operand(yield_op, k, path)?;
        agree(init, back, || Unresolved::Conflict {
            op,
            message: format!(
                "this loop rebinds the distributed tensor it carries (#{k}) to one of another \
                 communication context; a carried distributed tensor must keep its initial value's context"
            ),
        })
    }

    /// Result `k` of an `scf.if`: what both branches yield must agree.
    fn branches(
        &self,
        op: OperationRef<'c, 'a>,
        k: usize,
        path: &mut Vec<Value<'c, 'a>>,
    ) -> Found<'c, 'a> {
        let mut found = None;
        for region in 0..2 {
            let terminator = region_terminator(op, region).ok_or(Unresolved::Unknown)?;
            let branch = self.walk_operand(terminator, k, path)?;
            found = agree(found, branch, || Unresolved::Conflict {
                op,
                message: format!(
                    "the branches of this scf.if yield distributed tensors of different communication \
                     contexts (result #{k}); yield tensors of one context, or pass each branch's tensor \
                     to its own call"
                ),
            })?;
        }
        Ok(found)
    }

    /// Result `k` of a call: the callee's return value `k` traced to one
    /// of the callee's distributed-tensor parameters, whose argument at
    /// this call has the context.
    fn call_result(
        &self,
        call: OperationRef<'c, 'a>,
        k: usize,
        path: &mut Vec<Value<'c, 'a>>,
    ) -> Found<'c, 'a> {
        let callee = call
            .attribute("callee")
            .ok()
            .and_then(pto_dialects::attrs::text)
            .ok_or(Unresolved::Unknown)?;
        let function = *self.functions.get(&callee).ok_or(Unresolved::Unknown)?;
        let windows = self
            .callee_windows
            .get(&callee)
            .ok_or(Unresolved::Unknown)?;
        let ret = function
            .region_opt(0)
            .and_then(|region| region.first_block())
            .and_then(|block| block.terminator())
            .ok_or(Unresolved::Unknown)?;
        // The callee's own lineage ends at one of its context parameters;
        // which parameter it belongs to says which argument to follow here.
        let Some(ctx) = self.walk_operand(ret, k, path)? else {
            return Ok(None);
        };
        let key = OpKey::of(&function);
        let parameter = windows
            .iter()
            .copied()
            .find(|&index| self.ctx_params.get(&(key, index)) == Some(&ctx))
            .ok_or(Unresolved::Unknown)?;
        self.walk_operand(call, parameter, path)
    }
}

/// The context two lineages agree on, or `conflict`.
fn agree<'c, 'a>(
    a: Option<Value<'c, 'a>>,
    b: Option<Value<'c, 'a>>,
    conflict: impl FnOnce() -> Unresolved<'c, 'a>,
) -> Found<'c, 'a> {
    match (a, b) {
        (Some(a), Some(b)) if a != b => Err(conflict()),
        (a, b) => Ok(a.or(b)),
    }
}

/// Whether `block` is the entry block of `op`'s region `index`.
fn is_region_entry<'c, 'a>(
    op: OperationRef<'c, 'a>,
    index: usize,
    block: melior::ir::BlockRef<'c, 'a>,
) -> bool {
    op.region_opt(index).and_then(|region| region.first_block()) == Some(block)
}

/// The terminator of the entry block of `op`'s region `index`.
fn region_terminator<'c, 'a>(
    op: OperationRef<'c, 'a>,
    index: usize,
) -> Option<OperationRef<'c, 'a>> {
    op.region_opt(index)?.first_block()?.terminator()
}
