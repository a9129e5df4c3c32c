//! `pl-inject-gm-pipe-buffer`: every pipe of a core group gets its slot
//! buffer in global memory, made by the group and passed to both halves.
//! What it does and why: [`PASS`]`.description` (also
//! docs/passes/pl-inject-gm-pipe-buffer.md).

use std::collections::{BTreeMap, HashMap};

use melior::{
    Context,
    ir::{
        BlockLike, OperationRef, RegionLike, Type, Value,
        attribute::{DenseI32ArrayAttribute, IntegerAttribute},
        operation::{OperationBuilder, OperationLike, OperationMutLike, WalkOrder},
        r#type::IntegerType,
    },
};
use pto_dialects::{
    attrs,
    enums::{FunctionKind, ParamDirection},
    ops::{Checked, OpKind},
    types::TensorType,
};

use super::signature::{extend_signature, pass_arguments};
use crate::{
    options::OptionValues,
    registry::{PassDefinition, PassFailed, Run},
};

/// The registry entry.
pub static PASS: PassDefinition = PassDefinition {
    argument: "pl-inject-gm-pipe-buffer",
    class_name: "InjectGMPipeBuffer",
    summary: "Give each cross-core pipe of a core group its slot buffer in global memory",
    description: r#"On a2a3 the cube core and the vector cores share no
memory: a tile pushed through a cross-core pipe is written to a slot in
global memory and loaded from there by its consumer (the consumer's ring,
`pl.system.reserve_buffer`, holds the popped tiles). This pass (PyPTO's
InjectGMPipeBuffer) gives every pipe set-up of the aic and aiv kernels a
core group launches that has none its global slot buffer (`gm`): the
kernel takes one more parameter per such pipe, in pipe id order, an
`inout` tensor of `slot_size × slots` bytes (`!pl.tensor<Nxi8>`); the
group makes the buffer (`pl.tensor.create`) before its calls and passes
the same one to both kernels. A pipe set up with `slot_size` 2048 and 2
slots:

```mlir
// before
func.func @k(%a: !A) attributes {pl.kind = #pl.kind<group>} {
  pl.call @k_aic(%a) : (!A) -> ()
  pl.call @k_aiv(%a) : (!A) -> ()
  return
}
func.func @k_aic(%a: !A) attributes {pl.kind = #pl.kind<aic>} {
  ...
  pl.system.aic_initialize_pipe c2v c2v %c2v slot_size 2048 slots 2
// after
func.func @k(%a: !A) attributes {pl.kind = #pl.kind<group>} {
  %0 = pl.tensor.create() : !pl.tensor<4096xi8>
  pl.call @k_aic(%a, %0) : (!A, !pl.tensor<4096xi8>) -> ()
  pl.call @k_aiv(%a, %0) : (!A, !pl.tensor<4096xi8>) -> ()
  return
}
func.func @k_aic(%a: !A, %arg1: !pl.tensor<4096xi8> {pl.direction = #pl.direction<inout>}) ... {
  ...
  pl.system.aic_initialize_pipe c2v c2v %c2v gm %arg1 : !pl.tensor<4096xi8> slot_size 2048 slots 2
```

The buffer is the group's: callers of the group do not change. pto-run
keeps pipes without global memory, so running before or after this pass
computes the same; pto-translate needs it (pto-a2a3-pipeline runs it after
`pl-expand-mixed-kernel`). Kernels with pipes that no group launches are
left as they are, as are set-ups that already have a buffer."#,
    example_options: "",
    anchor: Some("builtin.module"),
    options: &[],
    dependent_dialects: || vec![pto_dialects::pl_handle()],
    run: Run::Op(run),
};

/// The bytes of each pipe id a kernel sets up without a gm buffer.
type Lacking = BTreeMap<i64, i64>;

fn run(module: OperationRef, _options: &OptionValues) -> Result<(), PassFailed> {
    let context = pto_dialects::ir::context(&module);
    let functions = pto_dialects::ir::collect(module, WalkOrder::PreOrder, |op| {
        pto_dialects::ops::op_name(op) == "func.func"
    });
    let groups: Vec<OperationRef> = functions
        .iter()
        .copied()
        .filter(|f| attrs::kind_of(*f) == Some(FunctionKind::Group))
        .collect();
    let by_name: HashMap<String, OperationRef> = functions
        .iter()
        .filter_map(|f| attrs::text_of(*f, "sym_name").map(|n| (n, *f)))
        .collect();
    if groups.is_empty() {
        crate::registry::left_unchanged();
    }
    // The kernels the groups launch, each patched once.
    let mut patched: HashMap<String, Lacking> = HashMap::new();
    for group in &groups {
        for call in group_calls(*group) {
            let Some(name) = attrs::text_of(call, "callee") else {
                continue;
            };
            if patched.contains_key(&name) {
                continue;
            }
            let Some(&kernel) = by_name.get(&name) else {
                continue;
            };
            patched.insert(name, add_buffers(context, kernel));
        }
    }
    for group in groups {
        let calls = group_calls(group);
        let mut wanted = Lacking::new();
        for call in &calls {
            let lacking = attrs::text_of(*call, "callee").and_then(|n| patched.get(&n));
            for (&id, &bytes) in lacking.into_iter().flatten() {
                let entry = wanted.entry(id).or_insert(0);
                *entry = (*entry).max(bytes);
            }
        }
        let Some(&first) = calls.first() else {
            continue;
        };
        let Some(body) = first.block() else {
            continue;
        };
        let buffers: BTreeMap<i64, Value> = wanted
            .iter()
            .map(|(&id, &bytes)| {
                let create = OperationBuilder::new(OpKind::PlTensorCreate.name(), first.location())
                    .add_results(&[buffer_type(context, bytes)])
                    .build()
                    .expect("pl.tensor.create builds");
                (
                    id,
                    body.insert_operation_before(first, create)
                        .result(0)
                        .unwrap()
                        .into(),
                )
            })
            .collect();
        for call in calls {
            let lacking = attrs::text_of(call, "callee").and_then(|n| patched.get(&n));
            let passed: Vec<Value> = lacking
                .into_iter()
                .flat_map(|l| l.keys())
                .filter_map(|id| buffers.get(id).copied())
                .collect();
            if !passed.is_empty() {
                pass_arguments(context, call, &[], &passed);
            }
        }
    }
    Ok(())
}

/// The `pl.call`s of a group's body.
fn group_calls<'c, 'a>(group: OperationRef<'c, 'a>) -> Vec<OperationRef<'c, 'a>> {
    let Some(body) = group.region_opt(0).and_then(|r| r.first_block()) else {
        return Vec::new();
    };
    let mut calls = Vec::new();
    let mut op = body.first_operation();
    while let Some(current) = op {
        if OpKind::of(&current) == Some(OpKind::PlCall) {
            calls.push(current);
        }
        op = current.next_in_block();
    }
    calls
}

/// The slot buffer of a pipe: `bytes` bytes.
fn buffer_type(context: &Context, bytes: i64) -> Type<'_> {
    TensorType::new(context, &[Some(bytes)], IntegerType::new(context, 8).into()).into()
}

/// Gives each pipe set-up of `kernel` without a gm buffer one, a new
/// parameter per pipe id (in id order); returns the ids and their bytes.
fn add_buffers<'c>(context: &'c Context, kernel: OperationRef<'c, '_>) -> Lacking {
    let setups = pto_dialects::ir::collect(kernel, WalkOrder::PreOrder, |op| {
        matches!(
            OpKind::of(&op),
            Some(OpKind::PlSystemAicInitializePipe | OpKind::PlSystemAivInitializePipe)
        )
    });
    let mut lacking = Lacking::new();
    for setup in &setups {
        let segments = pto_dialects::ops::operand_segments(*setup);
        if segments.get(2).is_some_and(|(_, len)| *len == 1) {
            continue;
        }
        let int = |name: &str| int_attr(*setup, name).unwrap_or(0);
        let bytes = int("slot_size") * int("slot_num");
        let entry = lacking.entry(int("id")).or_insert(0);
        *entry = (*entry).max(bytes);
    }
    let Some(entry) = kernel.region_opt(0).and_then(|r| r.first_block()) else {
        return Lacking::new();
    };
    if lacking.is_empty() {
        return lacking;
    }
    let types: Vec<Type> = lacking
        .values()
        .map(|&bytes| buffer_type(context, bytes))
        .collect();
    let arguments: BTreeMap<i64, Value> = lacking
        .keys()
        .zip(&types)
        .map(|(&id, &t)| (id, entry.add_argument(t, kernel.location())))
        .collect();
    extend_signature(context, kernel, &types, Some(ParamDirection::InOut));
    for setup in setups {
        let segments = pto_dialects::ops::operand_segments(setup);
        if segments.get(2).is_some_and(|(_, len)| *len == 1) {
            continue;
        }
        let id = int_attr(setup, "id").unwrap_or(0);
        let Some(&buffer) = arguments.get(&id) else {
            continue;
        };
        let mut operands: Vec<Value> = setup.operands().collect();
        operands.push(buffer);
        let sizes: Vec<i32> = [0, 1]
            .iter()
            .map(|&i| segments.get(i).map_or(0, |(_, len)| *len as i32))
            .chain([1])
            .collect();
        let mut edit = pto_dialects::ir::edit(setup);
        edit.set_operands(&operands);
        edit.set_inherent_attribute(
            "operandSegmentSizes",
            DenseI32ArrayAttribute::new(context, &sizes).into(),
        );
    }
    lacking
}

fn int_attr(op: OperationRef, name: &str) -> Option<i64> {
    IntegerAttribute::try_from(op.attribute(name).ok()?)
        .ok()
        .map(|a| a.value())
}
