//! `pld-materialize-comm-domains`: infer which devices share
//! each window buffer and wrap host orchestrators' bodies in
//! `pld.comm_domain` scopes. What it does and why: [`PASS`]`.description`
//! (also docs/passes/pld-materialize-comm-domains.md).

use pto_dialects::op_table::OpKind;
use pto_dialects::ops::Checked;
use std::collections::BTreeSet;

use melior::{
    Context,
    ir::{
        Attribute, Block, BlockLike, Identifier, Location, Operation, OperationRef, Region,
        RegionLike, Value,
        attribute::{ArrayAttribute, DenseI64ArrayAttribute, IntegerAttribute, StringAttribute},
        operation::{OperationBuilder, OperationLike, OperationResult},
    },
};
use pto_dialects::{
    attrs,
    diag::{OpDiagnostic, Severity},
};

use super::ir::{detach, is_host, op_name};
use crate::{
    options::OptionValues,
    registry::{PassDefinition, PassFailed, Run},
};

/// The registry entry.
pub static PASS: PassDefinition = PassDefinition {
    argument: "pld-materialize-comm-domains",
    class_name: "MaterializeCommDomains",
    summary: "Infer comm domains from window consumers and scope host orchestrators",
    description: r#"In every host orchestrator that allocates window buffers, each buffer's
devices are inferred from its consumers: a `pld.dispatch ... on %d` whose
arguments include a window of the buffer (directly or through a host
collective's result) adds `%d`'s devices — a constant k gives {k}; the
induction variable of an enclosing `scf.for` up to `pld.system.world_size`
gives all devices; one with constant bounds and step 1 gives that range.
A host collective's signal inherits its data buffer's devices (a barrier's
signal needs a dispatch of its own). Buffers are grouped, in allocation
order, by identical device sets, and the body is wrapped in one nested
`pld.comm_domain "comm_d<i>"` per group (first group outermost), listing
its devices (empty: all) and its buffers' names as slots. Idempotent.

Errors: a dispatch device that is neither a constant nor such an induction
variable, a buffer without a window or without a consumer, a barrier
signal without coverage. (Two buffers of one name and a host
`all_to_all_v` inside a loop are already rejected by the op verifiers.)

PyPTO re-types each window view to carry its buffer; here a view's
buffer is its `pld.tensor.window` operand, which the later passes follow
through SSA, so no type change is needed (a type holding the buffer
would duplicate that link and go stale when IR is cloned).

Before:

```mlir
%buf = pld.tensor.alloc_window_buffer %bytes name "data" : i64 -> !pl.ptr
%data = pld.tensor.window %buf : !pl.ptr -> !pld.dtensor<1x256xf32>
scf.for %d = %c0 to %ws step %c1 {      // %ws from pld.system.world_size
  pld.dispatch @chip(%data) on %d : (!pld.dtensor<1x256xf32>) -> ()
}
return
```

After:

```mlir
pld.comm_domain "comm_d0" devices [] slots ["data"] {
  %buf = pld.tensor.alloc_window_buffer %bytes name "data" : i64 -> !pl.ptr
  ...
}
return
```"#,
    example_options: "",
    anchor: Some("builtin.module"),
    options: &[],
    dependent_dialects: || vec![pto_dialects::pld_handle()],
    run: Run::Op(run),
};

/// Which devices use a buffer.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Devices {
    /// Every device (`pld.system.world_size`-bounded loops).
    All,
    /// These worker indices.
    Some(BTreeSet<i64>),
}

impl Devices {
    fn merge(&mut self, other: &Devices) {
        match (&mut *self, other) {
            (Devices::All, _) => {}
            (_, Devices::All) => *self = Devices::All,
            (Devices::Some(mine), Devices::Some(theirs)) => mine.extend(theirs),
        }
    }
}

/// One window buffer of a host orchestrator.
struct Allocation<'c, 'a> {
    op: OperationRef<'c, 'a>,
    name: String,
    has_window: bool,
    devices: Option<Devices>,
}

fn run(root: OperationRef, _options: &OptionValues) -> Result<(), PassFailed> {
    let mut failed = false;
    let Some(body) = root.regions().next().and_then(|r| r.first_block()) else {
        return Ok(());
    };
    let mut changed = false;
    let mut next = body.first_operation();
    while let Some(function) = next {
        next = function.next_in_block();
        if op_name(function) == "func.func" && is_host(function) {
            match materialize(function) {
                Ok(materialized) => changed |= materialized,
                Err((op, message)) => {
                    OpDiagnostic::new(message).emit(op, Severity::Error);
                    failed = true;
                }
            }
        }
    }
    if !changed {
        crate::registry::left_unchanged();
    }
    if failed { Err(PassFailed) } else { Ok(()) }
}

type Failure<'c, 'a> = (OperationRef<'c, 'a>, String);

fn constant(value: Value) -> Option<i64> {
    let owner = OperationResult::try_from(value).ok()?.owner();
    if op_name(owner) != "arith.constant" {
        return None;
    }
    Some(
        IntegerAttribute::try_from(owner.attribute("value").ok()?)
            .ok()?
            .value(),
    )
}

/// Looks through integer casts.
fn source_op<'c, 'a>(mut value: Value<'c, 'a>) -> Option<OperationRef<'c, 'a>> {
    loop {
        let owner = OperationResult::try_from(value).ok()?.owner();
        match op_name(owner) {
            "arith.index_cast" | "arith.index_castui" | "arith.extsi" | "arith.extui"
            | "arith.trunci" => {
                value = owner.operand_opt(0)?;
            }
            _ => return Some(owner),
        }
    }
}

/// The devices a dispatch's `on` operand denotes (a constant or a loop's
/// induction variable, as [`PASS`]`.description` says).
fn devices_of<'c, 'a>(
    dispatch: OperationRef<'c, 'a>,
    device: Value<'c, 'a>,
) -> Result<Devices, Failure<'c, 'a>> {
    if let Some(k) = constant(device) {
        return if k >= 0 {
            Ok(Devices::Some(BTreeSet::from([k])))
        } else {
            Err((dispatch, format!("device {k} is negative")))
        };
    }
    let Some(argument) = pto_dialects::ir::block_argument(device) else {
        return Err((
            dispatch,
            "the device must be a constant or the induction variable of an enclosing scf.for"
                .into(),
        ));
    };
    let Some(parent) = argument.owner().parent_operation() else {
        return Err((
            dispatch,
            "the device must be a constant or the induction variable of an enclosing scf.for"
                .into(),
        ));
    };
    if op_name(parent) != "scf.for" || argument.argument_number() != 0 {
        return Err((
            dispatch,
            "the device must be a constant or the induction variable of an enclosing scf.for"
                .into(),
        ));
    }
    let upper = parent.operand(1).expect("scf.for upper bound");
    if source_op(upper).is_some_and(|op| OpKind::of(&op) == Some(OpKind::PldSystemWorldSize)) {
        return Ok(Devices::All);
    }
    let (lower, upper, step) = (
        constant(parent.operand(0).unwrap()),
        constant(upper),
        constant(parent.operand(2).unwrap()),
    );
    match (lower, upper, step) {
        (Some(lower), Some(upper), Some(1)) if 0 <= lower && lower <= upper => {
            Ok(Devices::Some((lower..upper).collect()))
        }
        _ => Err((
            dispatch,
            "the device loop's bounds must be constants (step 1) or end at pld.system.world_size"
                .into(),
        )),
    }
}

/// The allocation a value is a window of: through `pld.tensor.window` and
/// through host collectives' results (which alias their data operand).
pub(crate) fn allocation_of<'c, 'a>(value: Value<'c, 'a>) -> Option<OperationRef<'c, 'a>> {
    let owner = OperationResult::try_from(value).ok()?.owner();
    match OpKind::of(&owner) {
        Some(OpKind::PldTensorWindow) => {
            let allocation = OperationResult::try_from(owner.operand_opt(0)?)
                .ok()?
                .owner();
            (OpKind::of(&allocation) == Some(OpKind::PldTensorAllocWindowBuffer))
                .then_some(allocation)
        }
        Some(OpKind::PldTensorAllreduce)
        | Some(OpKind::PldTensorBarrier)
        | Some(OpKind::PldTensorBroadcast)
        | Some(OpKind::PldTensorReduceScatter) => allocation_of(owner.operand_opt(0)?),
        Some(OpKind::PldTensorAllgather)
        | Some(OpKind::PldTensorAllToAll)
        | Some(OpKind::PldTensorAllToAllV) => allocation_of(owner.operand_opt(1)?),
        _ => None,
    }
}

fn index_of(allocations: &[Allocation], op: OperationRef) -> Option<usize> {
    allocations.iter().position(|a| a.op == op)
}

/// Ops of `block` and of every region below it, in order.
pub(crate) fn visit<'c, 'a>(
    block: melior::ir::BlockRef<'c, 'a>,
    f: &mut impl FnMut(OperationRef<'c, 'a>),
) {
    let mut next = block.first_operation();
    while let Some(op) = next {
        f(op);
        for region in op.regions() {
            let mut inner = region.first_block();
            while let Some(b) = inner {
                visit(b, f);
                inner = b.next_in_region();
            }
        }
        next = op.next_in_block();
    }
}

/// Returns whether it changed `function`.
fn materialize<'c, 'a>(function: OperationRef<'c, 'a>) -> Result<bool, Failure<'c, 'a>> {
    let Some(body) = function.regions().next().and_then(|r| r.first_block()) else {
        return Ok(false);
    };
    let mut ops = Vec::new();
    visit(body, &mut |op| ops.push(op));
    if ops
        .iter()
        .any(|op| OpKind::of(op) == Some(OpKind::PldCommDomain))
    {
        return Ok(false); // already materialised
    }
    let mut allocations: Vec<Allocation> = ops
        .iter()
        .filter(|op| OpKind::of(&**op) == Some(OpKind::PldTensorAllocWindowBuffer))
        .map(|op| Allocation {
            op: *op,
            name: attrs::text_of(*op, "name").unwrap_or_default(),
            has_window: false,
            devices: None,
        })
        .collect();
    if allocations.is_empty() {
        return Ok(false);
    }
    // Windows and dispatch coverage.
    for op in &ops {
        match OpKind::of(op) {
            Some(OpKind::PldTensorWindow) => {
                if let Some(i) = allocation_of(op.result(0).unwrap().into())
                    .and_then(|a| index_of(&allocations, a))
                {
                    allocations[i].has_window = true;
                }
            }
            Some(OpKind::PldDispatch) => {
                let device = op.operand(op.operand_count() - 1).expect("dispatch device");
                let devices = devices_of(*op, device)?;
                for argument in op.operands().take(op.operand_count() - 1) {
                    if let Some(i) = allocation_of(argument).and_then(|a| index_of(&allocations, a))
                    {
                        allocations[i]
                            .devices
                            .get_or_insert_with(|| devices.clone())
                            .merge(&devices);
                    }
                }
            }
            _ => {}
        }
    }
    // Host collectives: a signal inherits its data buffer's devices.
    for op in &ops {
        let (data, signals): (Option<usize>, Vec<usize>) = match OpKind::of(op) {
            Some(OpKind::PldTensorAllreduce)
            | Some(OpKind::PldTensorBroadcast)
            | Some(OpKind::PldTensorReduceScatter) => (Some(0), vec![1]),
            Some(OpKind::PldTensorAllgather) | Some(OpKind::PldTensorAllToAll) => {
                (Some(1), vec![2])
            }
            Some(OpKind::PldTensorAllToAllV) => (Some(1), vec![2, 4]),
            Some(OpKind::PldTensorBarrier) => (None, vec![0]),
            _ => continue,
        };
        let devices = data
            .and_then(|d| op.operand_opt(d))
            .and_then(allocation_of)
            .and_then(|a| index_of(&allocations, a))
            .and_then(|i| allocations[i].devices.clone());
        for s in signals {
            let Some(i) = op
                .operand_opt(s)
                .and_then(allocation_of)
                .and_then(|a| index_of(&allocations, a))
            else {
                continue;
            };
            match &devices {
                Some(devices) => allocations[i]
                    .devices
                    .get_or_insert_with(|| devices.clone())
                    .merge(devices),
                None if data.is_none() && allocations[i].devices.is_none() => {
                    return Err((*op, "the barrier's signal buffer has no inferred devices; dispatch it to a chip orchestration".into()));
                }
                None => {}
            }
        }
    }
    for allocation in &allocations {
        if !allocation.has_window {
            return Err((
                allocation.op,
                format!("window buffer \"{}\" has no window", allocation.name),
            ));
        }
        if allocation.devices.is_none() {
            return Err((
                allocation.op,
                format!(
                    "window buffer \"{}\" is not passed to any chip orchestration dispatch",
                    allocation.name
                ),
            ));
        }
    }
    // Groups in allocation order by identical device sets.
    let mut groups: Vec<(Devices, Vec<String>)> = Vec::new();
    for allocation in &allocations {
        let devices = allocation.devices.clone().unwrap();
        match groups.iter_mut().find(|(d, _)| *d == devices) {
            Some((_, names)) => names.push(allocation.name.clone()),
            None => groups.push((devices, vec![allocation.name.clone()])),
        }
    }
    wrap(function, body, &groups);
    Ok(true)
}

/// Moves the body (all but the terminator) into nested comm domains.
fn wrap(function: OperationRef, body: melior::ir::BlockRef, groups: &[(Devices, Vec<String>)]) {
    let context = pto_dialects::ir::context(&function);
    let location = function.location();
    let terminator = body.terminator().expect("func.func has a terminator");
    // Innermost block first: the body's ops.
    let inner = Block::new(&[]);
    while let Some(first) = body.first_operation() {
        if first == terminator {
            break;
        }
        inner.append_operation(detach(first));
    }
    let mut block = inner;
    for (index, (devices, slots)) in groups.iter().enumerate().rev() {
        block.append_operation(
            OperationBuilder::new(OpKind::PldYield.name(), location)
                .build()
                .expect("pld.yield builds"),
        );
        let region = Region::new();
        region.append_block(block);
        let domain = comm_domain(context, location, index, devices, slots, region);
        let outer = Block::new(&[]);
        outer.append_operation(domain);
        block = outer;
    }
    // `block` now holds the outermost domain: move it before the terminator.
    let outermost = block.first_operation().expect("a domain");
    body.insert_operation_before(terminator, detach(outermost));
}

fn comm_domain<'c>(
    context: &'c Context,
    location: Location<'c>,
    index: usize,
    devices: &Devices,
    slots: &[String],
    body: Region<'c>,
) -> Operation<'c> {
    let devices: Vec<i64> = match devices {
        Devices::All => Vec::new(),
        Devices::Some(set) => set.iter().copied().collect(),
    };
    let slots: Vec<Attribute> = slots
        .iter()
        .map(|name| StringAttribute::new(context, name).into())
        .collect();
    OperationBuilder::new(OpKind::PldCommDomain.name(), location)
        .add_attributes(&[
            (
                Identifier::new(context, "sym_name"),
                StringAttribute::new(context, &format!("comm_d{index}")).into(),
            ),
            (
                Identifier::new(context, "devices"),
                DenseI64ArrayAttribute::new(context, &devices).into(),
            ),
            (
                Identifier::new(context, "slots"),
                ArrayAttribute::new(context, &slots).into(),
            ),
        ])
        .add_regions([body])
        .build()
        .expect("pld.comm_domain builds")
}
