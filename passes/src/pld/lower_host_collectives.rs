//! `pld-lower-host-collectives`: host collectives become one
//! `pld.builtin.*` kernel call per device of their comm domain. What it
//! does and why: [`PASS`]`.description` (also
//! docs/passes/pld-lower-host-collectives.md).

use melior::{
    Context, IrRewriter,
    dialect::{DialectHandle, arith, scf},
    ir::{
        Attribute, Block, BlockLike, Identifier, Location, OperationRef, Region, RegionLike, Type,
        Value, ValueLike,
        attribute::{ArrayAttribute, DenseI64ArrayAttribute, IntegerAttribute, TypeAttribute},
        operation::{OperationBuilder, OperationLike},
        r#type::ShapedTypeLike,
    },
};
use pto_dialects::op_table::OpKind;
use pto_dialects::{
    attrs,
    diag::{OpDiagnostic, Severity},
    types::DistributedTensorType,
};

use super::ir::{is_host, op_name, splice_before};
use super::materialize_comm_domains::{allocation_of, visit};
use crate::{
    options::{OptionKind, OptionSpec, OptionValues},
    registry::{PassDefinition, PassFailed, Run},
};

/// The registry entry.
pub static PASS: PassDefinition = PassDefinition {
    argument: "pld-lower-host-collectives",
    class_name: "LowerHostCollectives",
    summary: "Lower host orchestrators' collectives to per-device builtin kernels",
    description: r#"Runs after `pld-materialize-comm-domains`. In host orchestrators, each
`pld.tensor.<collective>` becomes its `pld.builtin.<collective>` kernel,
called once per device of the comm domain that holds its data buffer: a
static domain gives one call per listed device, the all-devices domain a
`scf.for %r = 0 to world_size` loop. Ring allreduce becomes
`pld.builtin.allreduce_ring`. Kernels get `dtype` (the data's element
type), the collective's `op`/`root`/`cores`, and the runtime directions of
their operands: `inout` for every operand of allreduce, broadcast,
reduce_scatter and barrier; `in` for the input of allgather and
all_to_all, and for the input and send_counts of all_to_all_v; `inout`
for the rest. Uses of the collective's result become uses of the buffer
it aliases (the data for allreduce, barrier, broadcast, reduce_scatter;
the target for allgather, all_to_all, all_to_all_v). Each builtin call
runs one variant of the builtin collective library, named by
`pto_dialects::builtins::variant` as
`builtin.tensor.<collective>__<parameters>__<dtype>`: the parameters are
the reduction (`sum`, `max`, `min`, `prod`) of allreduce, allreduce_ring
and reduce_scatter and `root<k>` of a broadcast, absent for the others
(`builtin.tensor.barrier__fp32`); the dtype is `fp32` or `fp16`
(`builtin.tensor.allreduce__sum__fp32`,
`builtin.tensor.allreduce_ring__sum__fp32`,
`builtin.tensor.broadcast__root1__fp32`, ...). Code generation
materializes each variant once per program.

Errors: a collective outside any comm domain or whose data buffer is in no
enclosing domain's slots; an allgather / all_to_all / all_to_all_v input or
send_counts that is not a window view; two operands viewing one buffer (a
cross-process data race); a ring allreduce with `cores` > 1. With a static
domain of D devices: a broadcast root >= D; a signal with fewer than D
static rows; a ring over more than 16 devices, whose signal is not
`[2(D-1)+1, D]` (static extents must match) or whose target is not static
with an element count divisible by D. With `aiv-cores=N` (the target's
vector core count, 48 on Ascend 910B; 0 does not check), a mesh allreduce
with `cores` > N.

Before:

```mlir
pld.comm_domain "comm_d0" devices [] slots ["data", "sig"] {
  ...
  %r = pld.tensor.barrier %sig : !pld.dtensor<?xi32>
}
```

After:

```mlir
%ws = pld.system.world_size : i64
%n = arith.index_cast %ws : i64 to index
scf.for %r = %c0 to %n step %c1 {
  pld.builtin.barrier %sig on %r directions [#pl.direction<inout>] : !pld.dtensor<?xi32>, index
}
```"#,
    example_options: "",
    anchor: Some("builtin.module"),
    options: &[OptionSpec {
        name: "aiv-cores",
        kind: OptionKind::Int { min: 0 },
        description: "Vector cores per device a mesh allreduce may use (0: unchecked; 48 on Ascend 910B)",
        default: "0",
    }],
    dependent_dialects: || {
        vec![
            DialectHandle::arith(),
            DialectHandle::scf(),
            pto_dialects::pld_handle(),
        ]
    },
    run: Run::Op(run),
};

/// How a collective maps to its builtin.
struct Shape {
    /// Operand names, for diagnostics.
    roles: &'static [&'static str],
    /// Directions, in operand order.
    directions: &'static str,
    /// The data operand (its buffer's domain is the collective's).
    data: usize,
    /// The signal operand.
    signal: usize,
    /// Operands that must be window views although the pld op accepts a
    /// plain tensor.
    windows_required: &'static [usize],
}

fn shape_of(kind: OpKind) -> Option<Shape> {
    const INOUT2: &str = "[#pl.direction<inout>, #pl.direction<inout>]";
    const EXCHANGE: &str = "[#pl.direction<in>, #pl.direction<inout>, #pl.direction<inout>]";
    Some(match kind {
        OpKind::PldTensorAllreduce => Shape {
            roles: &["target", "signal"],
            directions: INOUT2,
            data: 0,
            signal: 1,
            windows_required: &[],
        },
        OpKind::PldTensorBroadcast | OpKind::PldTensorReduceScatter => Shape {
            roles: &["target", "signal"],
            directions: INOUT2,
            data: 0,
            signal: 1,
            windows_required: &[],
        },
        OpKind::PldTensorBarrier => Shape {
            roles: &["signal"],
            directions: "[#pl.direction<inout>]",
            data: 0,
            signal: 0,
            windows_required: &[],
        },
        OpKind::PldTensorAllgather | OpKind::PldTensorAllToAll => Shape {
            roles: &["input", "target", "signal"],
            directions: EXCHANGE,
            data: 1,
            signal: 2,
            windows_required: &[0],
        },
        OpKind::PldTensorAllToAllV => Shape {
            roles: &["input", "target", "signal", "send_counts", "recv_counts"],
            directions: "[#pl.direction<in>, #pl.direction<inout>, #pl.direction<inout>, #pl.direction<in>, #pl.direction<inout>]",
            data: 1,
            signal: 2,
            windows_required: &[0, 3],
        },
        _ => return None,
    })
}

fn run(root: OperationRef, options: &OptionValues) -> Result<(), PassFailed> {
    let aiv_cores = options.int("aiv-cores");
    let Some(body) = root.regions().next().and_then(|r| r.first_block()) else {
        return Ok(());
    };
    let mut collectives = Vec::new();
    let mut next = body.first_operation();
    while let Some(function) = next {
        next = function.next_in_block();
        if op_name(function) == "func.func"
            && is_host(function)
            && let Some(block) = function.regions().next().and_then(|r| r.first_block())
        {
            visit(block, &mut |op| {
                if OpKind::of(&op).and_then(shape_of).is_some() {
                    collectives.push(op);
                }
            });
        }
    }
    if collectives.is_empty() {
        crate::registry::left_unchanged();
    }
    let context = pto_dialects::ir::context(&root);
    let mut failed = false;
    for raw in collectives {
        let op = raw;
        if let Err(message) = lower(context, op, aiv_cores) {
            OpDiagnostic::new(message).emit(op, Severity::Error);
            failed = true;
        }
    }
    if failed { Err(PassFailed) } else { Ok(()) }
}

/// The devices of the innermost enclosing domain listing `name` as a slot
/// (`None`: all devices), or `Err` if there is none.
fn domain_devices(op: OperationRef, name: &str) -> Result<Option<Vec<i64>>, String> {
    let mut current = op.parent_operation();
    let mut inside_any = false;
    while let Some(parent) = current {
        if OpKind::of(&parent) == Some(OpKind::PldCommDomain) {
            inside_any = true;
            let slots = parent
                .attribute("slots")
                .ok()
                .and_then(|a| ArrayAttribute::try_from(a).ok());
            let listed = slots.is_some_and(|slots| {
                (0..slots.len())
                    .any(|i| slots.element(i).ok().and_then(attrs::text).as_deref() == Some(name))
            });
            if listed {
                let devices = parent
                    .attribute("devices")
                    .ok()
                    .and_then(|a| DenseI64ArrayAttribute::try_from(a).ok())
                    .map(|a| {
                        (0..a.len())
                            .filter_map(|i| a.element(i).ok())
                            .collect::<Vec<i64>>()
                    })
                    .unwrap_or_default();
                return Ok(if devices.is_empty() {
                    None
                } else {
                    Some(devices)
                });
            }
        }
        current = parent.parent_operation();
    }
    Err(if inside_any {
        format!("window buffer \"{name}\" is in no enclosing comm domain's slots")
    } else {
        "host collectives must be inside a pld.comm_domain; run pld-materialize-comm-domains first"
            .to_string()
    })
}

fn lower(context: &Context, op: OperationRef, aiv_cores: i64) -> Result<(), String> {
    let kind = OpKind::of(&op).expect("collected");
    let shape = shape_of(kind).expect("collected");
    let operands: Vec<Value> = op.operands().collect();
    let name = kind.name();
    let short = &name["pld.tensor.".len()..];
    for &i in shape.windows_required {
        if allocation_of(operands[i]).is_none() {
            return Err(format!(
                "{short} {} must be a window-bound !pld.dtensor (a view of an alloc_window_buffer) when called from a host orchestrator",
                shape.roles[i]
            ));
        }
    }
    // Window operands must view distinct buffers.
    let buffers: Vec<(usize, OperationRef)> = operands
        .iter()
        .enumerate()
        .filter_map(|(i, v)| allocation_of(*v).map(|a| (i, a)))
        .collect();
    for (x, (i, a)) in buffers.iter().enumerate() {
        if let Some((j, _)) = buffers[x + 1..].iter().find(|(_, b)| b == a) {
            return Err(format!(
                "{short} {} and {} must be different window allocations (two views of one buffer are a cross-process data race)",
                shape.roles[*i], shape.roles[*j]
            ));
        }
    }
    let data_buffer = allocation_of(operands[shape.data])
        .ok_or_else(|| format!("{short} {} must be a window view", shape.roles[shape.data]))?;
    let buffer_name = attrs::text_of(data_buffer, "name").unwrap_or_default();
    let devices = domain_devices(op, &buffer_name)?;
    if kind == OpKind::PldTensorAllreduce {
        check_allreduce(
            op,
            &operands,
            devices.as_deref().map(<[i64]>::len),
            aiv_cores,
        )?;
    }
    if let Some(devices) = &devices {
        let count = devices.len() as i64;
        if let Ok(root) = op.attribute("root").and_then(IntegerAttribute::try_from)
            && root.value() >= count
        {
            return Err(format!(
                "broadcast root {} is outside the domain's {count} devices",
                root.value()
            ));
        }
        let signal = operands[shape.signal];
        if let Some(Some(rows)) = DistributedTensorType::try_from(signal.r#type())
            .ok()
            .map(|t| t.shape()[0])
            && rows < count
        {
            return Err(format!(
                "the signal has {rows} rows for a domain of {count} devices"
            ));
        }
    }
    emit(context, op, kind, &shape, &operands, devices.as_deref());
    Ok(())
}

/// The allreduce checks of the errors listed in [`PASS`]`.description`:
/// `devices`, the static domain's size.
fn check_allreduce(
    op: OperationRef,
    operands: &[Value],
    devices: Option<usize>,
    aiv_cores: i64,
) -> Result<(), String> {
    let attribute = |key: &str| {
        op.attribute(key)
            .ok()
            .and_then(|a| IntegerAttribute::try_from(a).ok())
            .map_or(0, |a| a.value())
    };
    let cores = attribute("cores");
    if attribute("mode") != 1 {
        if aiv_cores > 0 && cores > aiv_cores {
            return Err(format!(
                "mesh allreduce uses {cores} cores, more than the {aiv_cores} vector cores of a device"
            ));
        }
        return Ok(());
    }
    if cores != 1 {
        return Err(format!(
            "ring allreduce does not support cores > 1, got {cores}"
        ));
    }
    let Some(count) = devices else { return Ok(()) };
    let count = count as i64;
    if count > 16 {
        return Err(format!(
            "ring allreduce spans at most 16 devices, the domain has {count}"
        ));
    }
    let signal = DistributedTensorType::try_from(operands[1].r#type())
        .map_err(|e| e.to_string())?
        .shape();
    let rows = 2 * (count - 1) + 1;
    let fits = signal.len() == 2
        && signal[0].is_none_or(|r| r == rows)
        && signal[1].is_none_or(|c| c == count);
    if !fits {
        return Err(format!(
            "a ring signal over {count} devices must be [{rows}, {count}], got {}",
            operands[1].r#type()
        ));
    }
    let target =
        DistributedTensorType::try_from(operands[0].r#type()).map_err(|e| e.to_string())?;
    match target
        .shape()
        .into_iter()
        .try_fold(1i64, |acc, d| d.map(|d| acc * d))
    {
        Some(elements) if elements % count == 0 => Ok(()),
        _ => Err(format!(
            "a ring target must be static with an element count divisible by {count}, got {}",
            operands[0].r#type()
        )),
    }
}

/// The builtin's name and its attributes besides `device` and `directions`.
fn builtin<'c>(
    context: &'c Context,
    op: OperationRef<'c, '_>,
    kind: OpKind,
    element: Type<'c>,
) -> (OpKind, Vec<(Identifier<'c>, Attribute<'c>)>) {
    let attribute = |key: &str| {
        op.attribute(key)
            .ok()
            .map(|a| (Identifier::new(context, key), a))
    };
    let dtype = (
        Identifier::new(context, "dtype"),
        TypeAttribute::new(element).into(),
    );
    let is_ring = op
        .attribute("mode")
        .ok()
        .and_then(|a| IntegerAttribute::try_from(a).ok())
        .is_some_and(|a| a.value() == 1);
    match kind {
        OpKind::PldTensorAllreduce if is_ring => (
            OpKind::PldBuiltinAllreduceRing,
            [attribute("op"), Some(dtype)]
                .into_iter()
                .flatten()
                .collect(),
        ),
        OpKind::PldTensorAllreduce => (
            OpKind::PldBuiltinAllreduce,
            [attribute("op"), Some(dtype), attribute("cores")]
                .into_iter()
                .flatten()
                .collect(),
        ),
        OpKind::PldTensorBarrier => (OpKind::PldBuiltinBarrier, Vec::new()),
        OpKind::PldTensorBroadcast => (
            OpKind::PldBuiltinBroadcast,
            [attribute("root"), Some(dtype)]
                .into_iter()
                .flatten()
                .collect(),
        ),
        OpKind::PldTensorReduceScatter => (
            OpKind::PldBuiltinReduceScatter,
            [attribute("op"), Some(dtype)]
                .into_iter()
                .flatten()
                .collect(),
        ),
        OpKind::PldTensorAllgather => (OpKind::PldBuiltinAllgather, vec![dtype]),
        OpKind::PldTensorAllToAll => (OpKind::PldBuiltinAllToAll, vec![dtype]),
        OpKind::PldTensorAllToAllV => (OpKind::PldBuiltinAllToAllV, vec![dtype]),
        other => unreachable!(
            "{} has no host builtin (shape_of admits only collectives)",
            other.name()
        ),
    }
}

/// Replaces `op` with its builtin, once per device, then lets the aliased
/// buffer stand for its result.
fn emit<'c>(
    context: &'c Context,
    op: OperationRef<'c, '_>,
    kind: OpKind,
    shape: &Shape,
    operands: &[Value<'c, '_>],
    devices: Option<&[i64]>,
) {
    let location: Location = op.location();
    let element = DistributedTensorType::try_from(operands[shape.data].r#type())
        .map(|t| t.element())
        .unwrap_or_else(|_| Type::float32(context));
    let (builtin_kind, attributes) = builtin(context, op, kind, element);
    let directions =
        Attribute::parse(context, shape.directions).expect("direction attributes parse");
    let mut attributes = attributes;
    attributes.push((Identifier::new(context, "directions"), directions));
    let call = |block: &Block<'c>, device: Value<'c, '_>| {
        let operands: Vec<Value> = operands.iter().copied().chain([device]).collect();
        block.append_operation(
            OperationBuilder::new(builtin_kind.name(), location)
                .add_operands(&operands)
                .add_attributes(&attributes)
                .build()
                .expect("builtin builds"),
        );
    };
    let index = Type::index(context);
    let scratch = Block::new(&[]);
    let constant = |block: &Block<'c>, value: i64| -> Value<'c, '_> {
        block
            .append_operation(arith::constant(
                context,
                IntegerAttribute::new(index, value).into(),
                location,
            ))
            .result(0)
            .unwrap()
            .into()
    };
    match devices {
        Some(devices) => {
            for &device in devices {
                let device = constant(&scratch, device);
                call(&scratch, device);
            }
        }
        None => {
            let world = scratch
                .append_operation(
                    OperationBuilder::new(OpKind::PldSystemWorldSize.name(), location)
                        .add_results(&[melior::ir::r#type::IntegerType::new(context, 64).into()])
                        .build()
                        .expect("world_size builds"),
                )
                .result(0)
                .unwrap()
                .into();
            let count: Value = scratch
                .append_operation(arith::index_cast(world, index, location))
                .result(0)
                .unwrap()
                .into();
            let (zero, one) = (constant(&scratch, 0), constant(&scratch, 1));
            let body = Block::new(&[(index, location)]);
            call(&body, body.argument(0).unwrap().into());
            body.append_operation(scf::r#yield(&[], location));
            let region = Region::new();
            region.append_block(body);
            scratch.append_operation(scf::r#for(zero, count, one, region, location));
        }
    }
    let ir_rewriter = IrRewriter::new(context);
    let rewriter = ir_rewriter.as_rewriter_base();
    splice_before(&scratch, op);
    let aliased = kind
        .info()
        .tied_operand
        .expect("collectives return their target");
    rewriter.replace_op_with_values(op, &[operands[aliased]]);
}
