//! A small executable model of lowered collectives, for tests: each rank's
//! control flow is executed by `RankMachine` into a trace of memory and
//! signal events (the lowered collectives' control flow depends only on the
//! rank, P and constants), then the P traces are replayed together over
//! per-rank memories, a wait blocking its rank until its signal cell holds
//! the expected value. Schedules are adversarial: one rank runs as far as
//! it can before the next starts, so a missing barrier shows up as a wrong
//! value, a read of an unwritten tile, or a deadlock report.
//!
//! Values are f32 (an f16 target is modelled without rounding: the tests
//! use small integers, exact in both).

use std::collections::HashMap;

use melior::ir::{
    BlockLike, OperationRef, RegionLike, Type, Value, ValueLike, attribute::IntegerAttribute,
    operation::OperationLike,
};
use pto_dialects::{
    ops::operand_segments,
    types::{TensorLike, TileType},
};
use pto_passes::pld::{
    comm_stats::tile_valid_shape,
    rank_execution::{Effects, Failure, RankMachine, value_key},
};

/// A function argument seen through a (possibly reshaped) 2-D view.
#[derive(Clone, Debug)]
struct Buffer {
    argument: usize,
    shape: Vec<i64>,
}

#[derive(Clone, Copy, Debug)]
enum Combine {
    Add,
    Max,
    Min,
    Mul,
}

impl Combine {
    fn apply(self, a: f32, b: f32) -> f32 {
        match self {
            Combine::Add => a + b,
            Combine::Max => a.max(b),
            Combine::Min => a.min(b),
            Combine::Mul => a * b,
        }
    }
}

/// A register: an SSA value's key.
type Reg = pto_dialects::ir::ValueKey;

/// One step of a rank's trace; registers are SSA value keys.
#[derive(Clone, Debug)]
enum Event {
    Notify {
        signal: usize,
        cell: Vec<i64>,
        peer: i64,
        value: i64,
        set: bool,
    },
    Wait {
        signal: usize,
        cell: Vec<i64>,
        expected: i64,
        ge: bool,
        at: String,
    },
    Load {
        dst: Reg,
        buffer: Buffer,
        peer: Option<i64>,
        offsets: Vec<i64>,
        shape: [i64; 2],
        valid: Vec<i64>,
        tail_padding: bool,
    },
    Store {
        src: Reg,
        buffer: Buffer,
        offsets: Vec<i64>,
        at: String,
    },
    Create {
        dst: Reg,
        shape: [i64; 2],
    },
    Fillpad {
        dst: Reg,
        src: Reg,
    },
    SetValid {
        dst: Reg,
        src: Reg,
        valid: Vec<i64>,
    },
    Combine {
        dst: Reg,
        a: Reg,
        b: Reg,
        how: Combine,
    },
    Bind {
        pairs: Vec<(Reg, Reg)>,
    },
    /// `put` (to `peer`'s dst) or `get` (from `peer`'s src) of a 2-D region.
    Copy {
        put: bool,
        peer: i64,
        dst: Buffer,
        src: Buffer,
        dst_offsets: Vec<i64>,
        src_offsets: Vec<i64>,
        shape: Vec<i64>,
    },
}

/// A tile: `None` elements were never written.
#[derive(Clone, Debug)]
struct Tile {
    shape: [i64; 2],
    valid: [i64; 2],
    data: Vec<Option<f32>>,
}

/// Records one rank's events.
struct Tracer<'m> {
    buffers: HashMap<Reg, Buffer>,
    memory: &'m Memory,
    rank: i64,
    events: Vec<Event>,
}

fn attribute_int(op: OperationRef, name: &str) -> Option<i64> {
    op.attribute(name)
        .ok()
        .and_then(|a| IntegerAttribute::try_from(a).ok())
        .map(|a| a.value())
}

fn tile_shape(r#type: Type) -> [i64; 2] {
    let shape = TileType::try_from(r#type).expect("a tile").shape();
    [shape[0], shape[1]]
}

impl<'m> Tracer<'m> {
    fn buffer<'c, 'a>(
        &self,
        op: OperationRef<'c, 'a>,
        value: Value,
    ) -> Result<Buffer, Failure<'c, 'a>> {
        self.buffers.get(&value_key(value)).cloned().ok_or_else(|| {
            (
                op,
                format!("{value} is not a function argument or a view of one"),
            )
        })
    }
}

impl<'c, 'a> Effects<'c, 'a> for Tracer<'_> {
    fn effect(
        &mut self,
        machine: &RankMachine,
        op: OperationRef<'c, 'a>,
    ) -> Result<Option<i64>, Failure<'c, 'a>> {
        let name = pto_dialects::ops::op_name(op);
        let key = |v: Value| value_key(v);
        let result = || key(op.result(0).expect("a result").into());
        let operand = |i: usize| op.operand(i).expect("verified operand");
        let at = format!("{}", op.location());
        let event = match name {
            "pl.tensor.view" => {
                let source = self.buffer(op, operand(0))?;
                let shape = TensorLike::try_from(op.result(0).unwrap().r#type())
                    .unwrap()
                    .shape();
                let shape = shape
                    .into_iter()
                    .collect::<Option<Vec<i64>>>()
                    .ok_or((op, "a dynamic view".to_string()))?;
                self.buffers.insert(
                    result(),
                    Buffer {
                        argument: source.argument,
                        shape,
                    },
                );
                return Ok(None);
            }
            "pl.tensor.read" => {
                let buffer = self.buffer(op, operand(0))?;
                let indices = machine.operands(op, 1..op.operand_count())?;
                let value = self
                    .memory
                    .read(self.rank, &buffer, &indices)
                    .ok_or((op, "a read out of bounds".to_string()))?;
                return Ok(Some(value as i64));
            }
            "pld.system.notify" => Event::Notify {
                signal: self.buffer(op, operand(0))?.argument,
                cell: machine.operands(op, 1..3)?,
                peer: machine.operand(op, 3)?,
                value: machine.operand(op, 4)?,
                set: attribute_int(op, "op") == Some(1),
            },
            "pld.system.wait" => Event::Wait {
                signal: self.buffer(op, operand(0))?.argument,
                cell: machine.operands(op, 1..3)?,
                expected: machine.operand(op, 3)?,
                ge: attribute_int(op, "cmp") == Some(1),
                at,
            },
            "pl.tile.load" | "pld.tile.remote_load" => {
                let segments = operand_segments(op);
                let remote = name == "pld.tile.remote_load";
                let tile = op.result(0).unwrap().r#type();
                let valid_segment = segments[if remote { 3 } else { 2 }];
                Event::Load {
                    dst: result(),
                    buffer: self.buffer(op, operand(0))?,
                    peer: if remote {
                        Some(machine.operand(op, segments[2].0)?)
                    } else {
                        None
                    },
                    offsets: machine.operands(op, segments[1].0..segments[1].0 + segments[1].1)?,
                    shape: tile_shape(tile),
                    valid: tile_valid_shape(machine, op, tile, valid_segment)?,
                    tail_padding: op.attribute("tail_padding").is_ok(),
                }
            }
            "pl.tile.store" => Event::Store {
                src: key(operand(0)),
                buffer: self.buffer(op, operand(1))?,
                offsets: machine.operands(op, 2..op.operand_count())?,
                at,
            },
            "pl.tile.create" => Event::Create {
                dst: result(),
                shape: tile_shape(op.result(0).unwrap().r#type()),
            },
            "pl.tile.fillpad" => Event::Fillpad {
                dst: result(),
                src: key(operand(0)),
            },
            "pl.tile.set_validshape" => Event::SetValid {
                dst: result(),
                src: key(operand(0)),
                valid: machine.operands(op, 1..3)?,
            },
            "pl.tile.add" | "pl.tile.maximum" | "pl.tile.minimum" | "pl.tile.mul" => {
                Event::Combine {
                    dst: result(),
                    a: key(operand(0)),
                    b: key(operand(1)),
                    how: match name {
                        "pl.tile.add" => Combine::Add,
                        "pl.tile.maximum" => Combine::Max,
                        "pl.tile.minimum" => Combine::Min,
                        _ => Combine::Mul,
                    },
                }
            }
            "pld.tile.put" | "pld.tile.get" => {
                let segments = operand_segments(op);
                let range = |i: usize| segments[i].0..segments[i].0 + segments[i].1;
                let dst = self.buffer(op, operand(0))?;
                let src = self.buffer(op, operand(2))?;
                let shape = if segments[7].1 > 0 {
                    machine.operands(op, range(7))?
                } else {
                    dst.shape.clone()
                };
                let zeros = vec![0; shape.len()];
                Event::Copy {
                    put: name == "pld.tile.put",
                    peer: machine.operand(op, 1)?,
                    dst_offsets: if segments[5].1 > 0 {
                        machine.operands(op, range(5))?
                    } else {
                        zeros.clone()
                    },
                    src_offsets: if segments[6].1 > 0 {
                        machine.operands(op, range(6))?
                    } else {
                        zeros
                    },
                    dst,
                    src,
                    shape,
                }
            }
            "pld.system.nranks" | "pld.system.rank" | "pld.system.get_comm_ctx" => return Ok(None),
            other => {
                return Err((
                    op,
                    format!("the collective model does not execute '{other}'"),
                ));
            }
        };
        self.events.push(event);
        Ok(None)
    }

    fn bind(&mut self, pairs: &[(Value<'c, 'a>, Value<'c, 'a>)]) {
        let pairs: Vec<(Reg, Reg)> = pairs
            .iter()
            .filter(|(dst, _)| TileType::try_from(dst.r#type()).is_ok())
            .map(|(dst, src)| (value_key(*dst), value_key(*src)))
            .collect();
        if !pairs.is_empty() {
            self.events.push(Event::Bind { pairs });
        }
    }
}

/// Every rank's copy of every function argument, row-major, as f32.
#[derive(Clone, Debug, PartialEq)]
pub struct Memory {
    /// `[rank][argument]`.
    pub arguments: Vec<Vec<Vec<f32>>>,
    shapes: Vec<Vec<i64>>,
}

fn linear(shape: &[i64], indices: &[i64]) -> Option<usize> {
    if shape.len() != indices.len() {
        return None;
    }
    let mut at = 0i64;
    for (extent, index) in shape.iter().zip(indices) {
        if *index < 0 || index >= extent {
            return None;
        }
        at = at * extent + index;
    }
    Some(at as usize)
}

impl Memory {
    /// Arguments of `shapes`, filled per rank by `init(rank, argument, flat index)`.
    pub fn new(
        nranks: i64,
        shapes: Vec<Vec<i64>>,
        init: impl Fn(i64, usize, usize) -> f32,
    ) -> Self {
        let arguments = (0..nranks)
            .map(|rank| {
                shapes
                    .iter()
                    .enumerate()
                    .map(|(argument, shape)| {
                        (0..shape.iter().product::<i64>() as usize)
                            .map(|i| init(rank, argument, i))
                            .collect()
                    })
                    .collect()
            })
            .collect();
        Self { arguments, shapes }
    }

    /// The element at `indices` of `buffer` (a view of an argument).
    fn read(&self, rank: i64, buffer: &Buffer, indices: &[i64]) -> Option<f32> {
        let at = linear(&buffer.shape, indices)?;
        self.arguments[rank as usize][buffer.argument]
            .get(at)
            .copied()
    }

    fn write(&mut self, rank: i64, buffer: &Buffer, indices: &[i64], value: f32) -> Option<()> {
        let at = linear(&buffer.shape, indices)?;
        *self.arguments[rank as usize][buffer.argument].get_mut(at)? = value;
        Some(())
    }

    fn cell(&mut self, rank: i64, signal: usize, cell: &[i64]) -> Option<&mut f32> {
        let at = linear(&self.shapes[signal], cell)?;
        self.arguments[rank as usize][signal].get_mut(at)
    }
}

/// How ranks take turns.
#[derive(Clone, Copy, Debug)]
pub enum Schedule {
    /// Rank 0 runs until it blocks, then rank 1, ...
    Forward,
    /// The highest rank first.
    Backward,
    /// One event per rank per turn.
    Lockstep,
}

/// Runs `function` (lowered) at P = `nranks` over `memory`: traces each
/// rank, then replays them under `schedule`. Errors describe a deadlock, an
/// out-of-bounds access, or a read of an unwritten element.
pub fn run(
    function: OperationRef,
    nranks: i64,
    memory: &mut Memory,
    schedule: Schedule,
) -> Result<(), String> {
    let body = function.region(0).unwrap().first_block().unwrap();
    let mut traces = Vec::new();
    for rank in 0..nranks {
        let mut tracer = Tracer {
            buffers: HashMap::new(),
            memory,
            rank,
            events: Vec::new(),
        };
        for (argument, shape) in memory.shapes.iter().enumerate() {
            let value: Value = body.argument(argument).unwrap().into();
            tracer.buffers.insert(
                value_key(value),
                Buffer {
                    argument,
                    shape: shape.clone(),
                },
            );
        }
        RankMachine::new(rank, nranks)
            .run_function(function, &mut tracer)
            .map_err(|(op, message)| format!("rank {rank}: {message} at {}", op.location()))?;
        traces.push(tracer.events);
    }
    let mut tiles: Vec<HashMap<Reg, Tile>> = vec![HashMap::new(); nranks as usize];
    let mut pc = vec![0usize; nranks as usize];
    let order: Vec<i64> = match schedule {
        Schedule::Backward => (0..nranks).rev().collect(),
        _ => (0..nranks).collect(),
    };
    loop {
        let mut progress = false;
        for &rank in &order {
            let r = rank as usize;
            let budget = if matches!(schedule, Schedule::Lockstep) {
                1
            } else {
                usize::MAX
            };
            let mut steps = 0;
            while pc[r] < traces[r].len() && steps < budget {
                if !step(rank, &traces[r][pc[r]], memory, &mut tiles[r])? {
                    break;
                }
                pc[r] += 1;
                steps += 1;
                progress = true;
            }
        }
        if (0..nranks as usize).all(|r| pc[r] == traces[r].len()) {
            return Ok(());
        }
        if !progress {
            let mut report = String::from("deadlock:");
            for rank in 0..nranks as usize {
                if let Some(Event::Wait {
                    signal,
                    cell,
                    expected,
                    at,
                    ..
                }) = traces[rank].get(pc[rank])
                {
                    let held = memory.cell(rank as i64, *signal, cell).map(|v| *v);
                    report += &format!(
                        "\n  rank {rank} waits at {at} for cell {cell:?} >= {expected}, holding {held:?}"
                    );
                } else {
                    report += &format!("\n  rank {rank} finished");
                }
            }
            return Err(report);
        }
    }
}

/// Executes one event; `Ok(false)` when it is a wait that cannot pass yet.
fn step(
    rank: i64,
    event: &Event,
    memory: &mut Memory,
    tiles: &mut HashMap<Reg, Tile>,
) -> Result<bool, String> {
    let tile = |tiles: &HashMap<Reg, Tile>, key: &Reg| {
        tiles
            .get(key)
            .cloned()
            .ok_or_else(|| format!("rank {rank}: a tile used before it was made"))
    };
    match event {
        Event::Notify {
            signal,
            cell,
            peer,
            value,
            set,
        } => {
            let target = memory.cell(*peer, *signal, cell).ok_or_else(|| {
                format!("rank {rank}: notify of cell {cell:?} on {peer} out of bounds")
            })?;
            *target = if *set {
                *value as f32
            } else {
                *target + *value as f32
            };
        }
        Event::Wait {
            signal,
            cell,
            expected,
            ge,
            ..
        } => {
            let held = *memory
                .cell(rank, *signal, cell)
                .ok_or_else(|| format!("rank {rank}: wait on cell {cell:?} out of bounds"))?;
            let passes = if *ge {
                held >= *expected as f32
            } else {
                held == *expected as f32
            };
            return Ok(passes);
        }
        Event::Load {
            dst,
            buffer,
            peer,
            offsets,
            shape,
            valid,
            tail_padding,
        } => {
            let source = peer.unwrap_or(rank);
            let mut data = vec![None; (shape[0] * shape[1]) as usize];
            for row in 0..valid[0] {
                for col in 0..valid[1] {
                    let at = element_indices(offsets, row, col);
                    match memory.read(source, buffer, &at) {
                        Some(v) => data[(row * shape[1] + col) as usize] = Some(v),
                        None if *tail_padding => {}
                        None => {
                            return Err(format!(
                                "rank {rank}: a load of {at:?} outside {:?} (rank {source})",
                                buffer.shape
                            ));
                        }
                    }
                }
            }
            tiles.insert(
                *dst,
                Tile {
                    shape: *shape,
                    valid: [valid[0], valid[1]],
                    data,
                },
            );
        }
        Event::Store {
            src,
            buffer,
            offsets,
            at,
        } => {
            let t = tile(tiles, src)?;
            for row in 0..t.valid[0] {
                for col in 0..t.valid[1] {
                    let value = t.data[(row * t.shape[1] + col) as usize].ok_or_else(|| {
                        format!("rank {rank}: stores an unwritten element [{row}, {col}] at {at}")
                    })?;
                    let indices = element_indices(offsets, row, col);
                    memory.write(rank, buffer, &indices, value).ok_or_else(|| {
                        format!(
                            "rank {rank}: a store to {indices:?} outside {:?} at {at}",
                            buffer.shape
                        )
                    })?;
                }
            }
        }
        Event::Create { dst, shape } => {
            tiles.insert(
                *dst,
                Tile {
                    shape: *shape,
                    valid: *shape,
                    data: vec![None; (shape[0] * shape[1]) as usize],
                },
            );
        }
        Event::Fillpad { dst, src } => {
            let mut t = tile(tiles, src)?;
            for row in 0..t.shape[0] {
                for col in 0..t.shape[1] {
                    let at = (row * t.shape[1] + col) as usize;
                    if row >= t.valid[0] || col >= t.valid[1] || t.data[at].is_none() {
                        t.data[at] = Some(0.0);
                    }
                }
            }
            t.valid = t.shape;
            tiles.insert(*dst, t);
        }
        Event::SetValid { dst, src, valid } => {
            let mut t = tile(tiles, src)?;
            t.valid = [valid[0], valid[1]];
            tiles.insert(*dst, t);
        }
        Event::Combine { dst, a, b, how } => {
            let (a, b) = (tile(tiles, a)?, tile(tiles, b)?);
            let data = a
                .data
                .iter()
                .zip(&b.data)
                .map(|(x, y)| Some(how.apply((*x)?, (*y)?)))
                .collect();
            tiles.insert(*dst, Tile { data, ..a });
        }
        Event::Bind { pairs } => {
            let values: Vec<Option<Tile>> = pairs
                .iter()
                .map(|(_, src)| tiles.get(src).cloned())
                .collect();
            for ((dst, _), value) in pairs.iter().zip(values) {
                match value {
                    Some(t) => tiles.insert(*dst, t),
                    None => tiles.remove(dst),
                };
            }
        }
        Event::Copy {
            put,
            peer,
            dst,
            src,
            dst_offsets,
            src_offsets,
            shape,
        } => {
            let (from, to) = if *put { (rank, *peer) } else { (*peer, rank) };
            let (rows, cols) = match shape.as_slice() {
                [rows, cols] => (*rows, *cols),
                _ => return Err(format!("rank {rank}: a {}-D transfer", shape.len())),
            };
            for row in 0..rows {
                for col in 0..cols {
                    let s = element_indices(src_offsets, row, col);
                    let d = element_indices(dst_offsets, row, col);
                    let value = memory.read(from, src, &s).ok_or_else(|| {
                        format!(
                            "rank {rank}: a transfer reads {s:?} outside {:?}",
                            src.shape
                        )
                    })?;
                    memory.write(to, dst, &d, value).ok_or_else(|| {
                        format!(
                            "rank {rank}: a transfer writes {d:?} outside {:?}",
                            dst.shape
                        )
                    })?;
                }
            }
        }
    }
    Ok(true)
}

/// `offsets + [row, col]` (a 2-D access).
fn element_indices(offsets: &[i64], row: i64, col: i64) -> Vec<i64> {
    vec![offsets[0] + row, offsets[1] + col]
}
