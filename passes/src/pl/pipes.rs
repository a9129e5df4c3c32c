//! Which hardware pipe executes each op of a planned kernel, and which
//! buffers it reads and writes (docs/a2a3-lowering.md, "The machine the
//! passes model"): the model `pl-insert-sync` places synchronisation by
//! and `pl-verify-sync` checks it against.
//!
//! On-chip buffers are address ranges per memory space (from
//! `pl-plan-memory`); global memory is one buffer per root tensor (a
//! kernel parameter, or a tensor the kernel creates), or all of it when
//! the root is unknown. Communication ops are two steps: an MTE2 read
//! into the staging tile, an MTE3 write out of it (the library orders the
//! two internally). A vector op's scratch tile is written as well as read.

use pto_dialects::ir::ValueKey;
use pto_dialects::ops::Checked;
use rustc_hash::FxHashMap;
use std::borrow::Cow;

use melior::ir::{
    BlockLike, BlockRef, OperationRef, RegionLike, Value, ValueLike,
    attribute::DenseI64ArrayAttribute, operation::OperationLike,
};
use pto_dialects::{
    enums::{EnumAttr, Pipe},
    op_table::{Family, Group, OpKind, PipeRule},
    ops::{op_name, operand_at, operand_segments},
    types::{MemorySpace, TileType},
};

use super::{
    linear::{Linear, value_key},
    parameter_aliases::ParameterAliases,
    plan_memory::tile_bytes,
};

/// The operand of a vector op that is its scratch (`tmp`): the instruction
/// writes it (a buffer planning may have just freed from another pipe's
/// use), whatever the op's pl semantics say.
pub fn scratch_operand(op: OperationRef) -> Option<usize> {
    OpKind::of(&op)?.info().scratch_operand
}

/// The pipes a kernel's instructions run on (`Pipe::All` excluded).
pub const PIPES: [Pipe; 7] = [
    Pipe::Mte1,
    Pipe::Mte2,
    Pipe::Mte3,
    Pipe::M,
    Pipe::V,
    Pipe::S,
    Pipe::Fix,
];

/// A pipe's slot in [`PIPES`]: its code (the table lists the pipes in
/// code order, which the assertion below keeps true).
pub fn slot(pipe: Pipe) -> usize {
    let code = pipe as usize;
    assert!(code < PIPES.len(), "a real pipe");
    code
}

const _: () = {
    let mut i = 0;
    while i < PIPES.len() {
        assert!(PIPES[i] as usize == i);
        i += 1;
    }
};

const SCALAR: usize = Pipe::S as usize;

/// Whether pipe `p`'s next instruction is ordered after instruction `index`
/// of pipe `q`, given what each pipe knows of the others (`known[p][q]`)
/// and how far each pipe's own instructions are done (`done[p]`). The
/// scalar pipe runs in order.
pub fn ordered(known: &[[u64; 7]; 7], done: &[u64; 7], p: usize, q: usize, index: u64) -> bool {
    if p == q {
        p == SCALAR || index <= done[p]
    } else {
        index <= known[p][q]
    }
}

/// Whether every pipe of `used` (the pipes the kernel issues on; the
/// others never access anything) is ordered after instruction `index` of
/// pipe `q`: it can no longer take part in a hazard.
pub fn settled(
    known: &[[u64; 7]; 7],
    done: &[u64; 7],
    used: &[bool; 7],
    q: usize,
    index: u64,
) -> bool {
    (0..PIPES.len()).all(|p| !used[p] || ordered(known, done, p, q, index))
}

/// Whether a later access `newer` of the same pipe makes `older` needless
/// for finding hazards: every later access that conflicts with `older`
/// conflicts with `newer`, and whatever orders it after `newer` orders it
/// after `older` (a pipe's progress is monotone).
pub fn supersedes(newer: &Access, older: &Access) -> bool {
    newer.resource == older.resource && (newer.write || !older.write)
}

/// A buffer an instruction touches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Resource {
    /// Bytes `[start, end)` of an on-chip memory space.
    Chip {
        space: MemorySpace,
        start: u64,
        end: u64,
    },
    /// A global tensor by its root (`None`: unknown, all of global memory).
    Gm(Option<ValueKey>),
}

impl Resource {
    pub fn overlaps(&self, other: &Resource) -> bool {
        match (self, other) {
            (
                Resource::Chip {
                    space: a,
                    start: s1,
                    end: e1,
                },
                Resource::Chip {
                    space: b,
                    start: s2,
                    end: e2,
                },
            ) => a == b && s1 < e2 && s2 < e1,
            (Resource::Gm(a), Resource::Gm(b)) => a.is_none() || b.is_none() || a == b,
            _ => false,
        }
    }
}

impl std::fmt::Display for Resource {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Resource::Chip { space, start, end } => write!(f, "{space}[{start}, {end})"),
            Resource::Gm(Some(_)) => write!(f, "a global tensor"),
            Resource::Gm(None) => write!(f, "global memory"),
        }
    }
}

/// One access of an instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Access {
    pub resource: Resource,
    pub write: bool,
}

/// One instruction: its pipe and accesses.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    pub pipe: Pipe,
    pub accesses: Vec<Access>,
}

/// What an op is, for synchronisation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Kind {
    /// No instruction (views, scalars, control flow handled structurally).
    None,
    /// Instructions, in issue order.
    Steps(Vec<Step>),
    /// Synchronisation already in the IR.
    SetFlag {
        from: Pipe,
        to: Pipe,
        event: i64,
    },
    WaitFlag {
        from: Pipe,
        to: Pipe,
        event: i64,
    },
    Barrier(Pipe),
}

/// The operand whose memory an op's (first) tensor result is: a view's or
/// an in-place padding's source, a store's or a write's destination.
pub fn same_memory_operand(kind: OpKind) -> Option<usize> {
    match kind {
        OpKind::PlTileStore => Some(1),
        OpKind::PlTensorWrite | OpKind::PlTensorFillpad => Some(0),
        _ if kind.family() == Family::TensorView => Some(0),
        _ => None,
    }
}

/// The pipes `op` issues its instructions on, in order, by the op table
/// alone (no memory plan needed): none for upstream ops and ops that
/// issue nothing; a transfer through a staging tile is MTE2 then MTE3.
pub fn issued_pipes(op: OperationRef) -> Vec<Pipe> {
    let Some(op_kind) = OpKind::of(&op) else {
        return Vec::new();
    };
    match op_kind.info().pipe {
        PipeRule::None => Vec::new(),
        PipeRule::Fixed(pipe) => vec![pipe],
        PipeRule::BySourceSpace(otherwise) => vec![match op
            .operand_opt(0)
            .and_then(|source| TileType::try_from(source.r#type()).ok())
            .and_then(|t| t.memory_space())
        {
            Some(MemorySpace::Acc) => Pipe::Fix,
            Some(MemorySpace::Mat) => Pipe::Mte1,
            _ => otherwise,
        }],
        PipeRule::Staged => vec![Pipe::Mte2, Pipe::Mte3],
    }
}

/// A kernel's body, its ops in linear order and its pipe model: what the
/// passes that reason about pipes start from. `None` for a function that
/// is no kernel or has no body (nothing of it runs on a pipe).
pub fn kernel_model<'c, 'a>(
    function: OperationRef<'c, 'a>,
    aliases: &ParameterAliases,
) -> Option<(BlockRef<'c, 'a>, Linear<'c, 'a>, Model)> {
    let body = function.region_opt(0).and_then(|r| r.first_block())?;
    if !super::is_kernel(function) {
        return None;
    }
    let linear = Linear::of(function);
    let model = Model::new(&linear, aliases.of_function(function));
    Some((body, linear, model))
}

/// Roots of global tensors and addresses of tiles, per value, and what
/// each op of the linearization is (computed once: the passes replaying a
/// kernel visit a loop body several times).
pub struct Model {
    roots: FxHashMap<ValueKey, Option<ValueKey>>,
    kinds: Vec<Result<Kind, String>>,
    used: [bool; 7],
}

fn pipe_attr(op: OperationRef, name: &str) -> Option<Pipe> {
    op.enum_attr::<Pipe>(name)
}

impl Model {
    /// Traces each global tensor of `linear`'s function to its root;
    /// `aliased` are the pairs of the function's parameters its callers
    /// may pass one tensor to ([`ParameterAliases`]).
    pub fn new(linear: &Linear, aliased: &[(usize, usize)]) -> Self {
        let mut model = Model {
            roots: FxHashMap::default(),
            kinds: Vec::new(),
            used: [false; 7],
        };
        if let Some(function) = linear.ops.first().and_then(|op| op.parent_operation()) {
            let mut top = Some(function);
            while let Some(op) = top {
                if op_name(op) == "func.func" {
                    if let Some(block) = op.region_opt(0).and_then(|r| r.first_block()) {
                        // Parameters a call passes one tensor to share a
                        // root: the smallest one of their class.
                        let count = block.argument_count();
                        let mut class: Vec<usize> = (0..count).collect();
                        let find = |class: &Vec<usize>, mut i: usize| {
                            while class[i] != i {
                                i = class[i];
                            }
                            i
                        };
                        for &(i, j) in aliased {
                            if i < count && j < count {
                                let (a, b) = (find(&class, i), find(&class, j));
                                class[a.max(b)] = a.min(b);
                            }
                        }
                        let key = |i: usize| value_key(block.argument(i).unwrap().into());
                        for i in 0..count {
                            model.roots.insert(key(i), Some(key(find(&class, i))));
                        }
                    }
                    break;
                }
                top = op.parent_operation();
            }
        }
        for op in &linear.ops {
            let name = op_name(*op);
            let root_of =
                |model: &Model, index: usize| operand_at(*op, index).and_then(|v| model.root(v));
            let op_kind = OpKind::of(op);
            match (op_kind, name) {
                // Views, in-place padding, stores and writes: the root of
                // the memory they are.
                (Some(kind), _) if let Some(operand) = same_memory_operand(kind) => {
                    let root = root_of(&model, operand);
                    model.set_result(*op, 0, root);
                }
                (Some(OpKind::PlTensorCreate | OpKind::PlTensorFull), _) => {
                    let key = op.result_opt(0).map(|r| value_key(r.into()));
                    model.set_result(*op, 0, key);
                }
                (None, "scf.for") => {
                    let body = op.region(0).unwrap().first_block().unwrap();
                    for i in 0..op.result_count() {
                        let root = root_of(&model, 3 + i);
                        model.set_result(*op, i, root);
                        model
                            .roots
                            .insert(value_key(body.argument(i + 1).unwrap().into()), root);
                    }
                }
                _ => {}
            }
        }
        model.kinds = linear
            .ops
            .iter()
            .map(|op| model.compute_kind(linear, *op))
            .collect();
        for kind in &model.kinds {
            if let Ok(Kind::Steps(steps)) = kind {
                for step in steps {
                    model.used[slot(step.pipe)] = true;
                }
            }
        }
        model
    }

    /// The pipes the kernel's instructions run on.
    pub fn used_pipes(&self) -> &[bool; 7] {
        &self.used
    }

    fn set_result(&mut self, op: OperationRef, index: usize, root: Option<ValueKey>) {
        if let Ok(result) = op.result(index) {
            self.roots.insert(value_key(result.into()), root);
        }
    }

    /// The root of a global tensor value (`None`: unknown).
    pub fn root(&self, value: Value) -> Option<ValueKey> {
        self.roots.get(&value_key(value)).copied().flatten()
    }

    /// The on-chip buffer of a tile value, `Err` when it has no planned
    /// address.
    pub fn tile(&self, linear: &Linear, value: Value) -> Result<Option<Resource>, String> {
        let Ok(tile) = TileType::try_from(value.r#type()) else {
            return Ok(None);
        };
        let space = match tile.memory_space() {
            Some(MemorySpace::Ddr) | None => return Ok(None),
            Some(space) => space,
        };
        let (op, is_argument) = linear.definer(value).ok_or("a tile without a definition")?;
        let index = if is_argument {
            // An scf.for iteration argument shares its result's buffer.
            (0..op
                .region(0)
                .map(|r| r.first_block().map_or(0, |b| b.argument_count()))
                .unwrap_or(0))
                .find(|&i| {
                    value_key(
                        op.region(0)
                            .unwrap()
                            .first_block()
                            .unwrap()
                            .argument(i)
                            .unwrap()
                            .into(),
                    ) == value_key(value)
                })
                .map(|i| i.saturating_sub(1))
                .unwrap_or(0)
        } else {
            (0..op.result_count())
                .find(|&i| value_key(op.result(i).unwrap().into()) == value_key(value))
                .unwrap_or(0)
        };
        let address = op
            .attribute("pl.addresses")
            .ok()
            .and_then(|a| DenseI64ArrayAttribute::try_from(a).ok())
            .and_then(|a| a.element(index).ok())
            .filter(|&a| a >= 0)
            .ok_or("a tile without a planned address; run pl-plan-memory first")?;
        let start = address as u64;
        Ok(Some(Resource::Chip {
            space,
            start,
            end: start.saturating_add(tile_bytes(tile)),
        }))
    }

    fn gm(&self, value: Value) -> Resource {
        Resource::Gm(self.root(value))
    }

    /// What `op` is for synchronisation (`Err`: why that is unknown).
    pub fn kind<'m>(&'m self, linear: &Linear, op: OperationRef) -> Result<Cow<'m, Kind>, String> {
        match linear.position_opt(op).and_then(|at| self.kinds.get(at)) {
            Some(Ok(kind)) => Ok(Cow::Borrowed(kind)),
            Some(Err(message)) => Err(message.clone()),
            // An op made after the model (none of the passes asks).
            None => self.compute_kind(linear, op).map(Cow::Owned),
        }
    }

    fn compute_kind(&self, linear: &Linear, op: OperationRef) -> Result<Kind, String> {
        // Upstream ops (arith, scf, func) issue no pipe instruction.
        let Some(op_kind) = OpKind::of(&op) else {
            return Ok(Kind::None);
        };
        let info = op_kind.info();
        let event = || {
            op.attribute("event")
                .ok()
                .and_then(|a| melior::ir::attribute::IntegerAttribute::try_from(a).ok())
                .map_or(0, |a| a.value())
        };
        match op_kind {
            OpKind::PlSystemSyncSrc | OpKind::PlSystemSyncDst => {
                let (from, to) = (
                    pipe_attr(op, "set_pipe").unwrap_or(Pipe::S),
                    pipe_attr(op, "wait_pipe").unwrap_or(Pipe::S),
                );
                return Ok(if op_kind == OpKind::PlSystemSyncSrc {
                    Kind::SetFlag {
                        from,
                        to,
                        event: event(),
                    }
                } else {
                    Kind::WaitFlag {
                        from,
                        to,
                        event: event(),
                    }
                });
            }
            OpKind::PlSystemPipeBarrier => {
                return Ok(Kind::Barrier(pipe_attr(op, "pipe").unwrap_or(Pipe::All)));
            }
            OpKind::PlSystemBarAll => return Ok(Kind::Barrier(Pipe::All)),
            OpKind::PlSystemBarV => return Ok(Kind::Barrier(Pipe::V)),
            OpKind::PlSystemBarM => return Ok(Kind::Barrier(Pipe::M)),
            _ => {}
        }
        let tile = |value: Value| self.tile(linear, value);
        let read = |resource: Resource| Access {
            resource,
            write: false,
        };
        let write = |resource: Resource| Access {
            resource,
            write: true,
        };
        let operand = |index: usize| {
            op.operand_opt(index)
                .ok_or_else(|| format!("{} has no operand {index}", info.name))
        };
        let step =
            |pipe: Pipe, accesses: Vec<Access>| Ok(Kind::Steps(vec![Step { pipe, accesses }]));
        let tiles_read = || -> Result<Vec<Access>, String> {
            let mut accesses = Vec::new();
            for value in op.operands() {
                if let Some(resource) = tile(value)? {
                    accesses.push(read(resource));
                }
            }
            Ok(accesses)
        };
        let tiles_written = || -> Result<Vec<Access>, String> {
            let mut accesses = Vec::new();
            for result in op.results() {
                if let Some(resource) = tile(result.into())? {
                    accesses.push(write(resource));
                }
            }
            Ok(accesses)
        };
        // The pipe from the table; the accesses from what the op's family
        // reads and writes.
        let pipe = match info.pipe {
            PipeRule::None => return Ok(Kind::None),
            PipeRule::Staged => return self.staged(op, op_kind, &tile),
            PipeRule::Fixed(pipe) => pipe,
            PipeRule::BySourceSpace(_) => {
                operand(0)?;
                issued_pipes(op)[0]
            }
        };
        match info.family {
            // Global memory into a tile (MTE2 is the inbound pipe).
            Family::TileTransfer | Family::RemoteAccess
                if info.pipe == PipeRule::Fixed(Pipe::Mte2) =>
            {
                let mut accesses = vec![read(self.gm(operand(0)?))];
                accesses.extend(tiles_written()?);
                step(pipe, accesses)
            }
            // A tile into global memory (atomically: read as well).
            Family::TileTransfer | Family::RemoteAccess => {
                let source = operand(0)?;
                let destination = self.gm(operand(1)?);
                let mut accesses: Vec<Access> = tile(source)?.into_iter().map(read).collect();
                accesses.push(write(destination));
                if op.attribute("atomic_add").is_ok() {
                    accesses.push(read(destination));
                }
                step(pipe, accesses)
            }
            // Scalar accesses to global memory and signals.
            Family::TensorAccess | Family::Signal | Family::MemoryOrder
                if op_kind != OpKind::PlSystemFence =>
            {
                let target = operand_at(op, 0).map_or(Resource::Gm(None), |v| self.gm(v));
                let write_too = matches!(
                    op_kind,
                    OpKind::PlTensorWrite | OpKind::PldSystemNotify | OpKind::PlSystemCacheinvalid
                );
                let mut accesses = vec![read(target)];
                if write_too {
                    accesses.push(write(target));
                }
                step(pipe, accesses)
            }
            // A fence orders every earlier global access before later ones.
            Family::MemoryOrder => step(
                pipe,
                vec![read(Resource::Gm(None)), write(Resource::Gm(None))],
            ),
            // Tile computations: their tiles, and the scratch tile the
            // instruction writes too.
            _ => {
                let mut accesses: Vec<Access> =
                    tiles_read()?.into_iter().chain(tiles_written()?).collect();
                if let Some(scratch) = info.scratch_operand.and_then(|i| operand_at(op, i))
                    && let Some(resource) = tile(scratch)?
                {
                    accesses.push(write(resource));
                }
                if accesses.is_empty() {
                    Ok(Kind::None)
                } else {
                    step(pipe, accesses)
                }
            }
        }
    }

    /// A transfer through a staging tile: an MTE2 read of the source into
    /// the stage, an MTE3 write of the stage into the destination.
    fn staged(
        &self,
        op: OperationRef,
        op_kind: OpKind,
        tile: &dyn Fn(Value) -> Result<Option<Resource>, String>,
    ) -> Result<Kind, String> {
        let read = |resource: Resource| Access {
            resource,
            write: false,
        };
        let write = |resource: Resource| Access {
            resource,
            write: true,
        };
        let operand = |index: usize| {
            op.operand_opt(index)
                .ok_or_else(|| format!("{} has no operand {index}", op_kind.name()))
        };
        let (dst, src, stages) = if op_kind.info().operand_segments {
            let segments = operand_segments(op);
            let value = |segment: usize| {
                segments
                    .get(segment)
                    .filter(|s| s.1 > 0)
                    .and_then(|s| op.operand_opt(s.0))
            };
            let (dst, src) = (
                value(0).ok_or("a transfer without dst")?,
                value(2).ok_or("a transfer without src")?,
            );
            let mut stages = Vec::new();
            if op_kind.info().group == Group::Tile {
                for segment in [3, 4] {
                    if let Some(stage) = value(segment)
                        && let Some(resource) = tile(stage)?
                    {
                        stages.push(resource);
                    }
                }
            }
            (dst, src, stages)
        } else {
            // pld.tensor.remote_store: (source, destination, ...).
            (operand(1)?, operand(0)?, Vec::new())
        };
        let mut first = vec![read(self.gm(src))];
        first.extend(stages.iter().map(|r| write(*r)));
        let mut second: Vec<Access> = stages.iter().map(|r| read(*r)).collect();
        second.push(write(self.gm(dst)));
        Ok(Kind::Steps(vec![
            Step {
                pipe: Pipe::Mte2,
                accesses: first,
            },
            Step {
                pipe: Pipe::Mte3,
                accesses: second,
            },
        ]))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chip(start: u64, write: bool) -> Access {
        Access {
            resource: Resource::Chip {
                space: MemorySpace::Vec,
                start,
                end: start + 64,
            },
            write,
        }
    }

    #[test]
    fn a_later_access_supersedes_what_it_conflicts_with_at_least_as_often() {
        // A write conflicts with every access of its buffer; a read with
        // writes only.
        assert!(supersedes(&chip(0, true), &chip(0, false)));
        assert!(supersedes(&chip(0, true), &chip(0, true)));
        assert!(supersedes(&chip(0, false), &chip(0, false)));
        assert!(!supersedes(&chip(0, false), &chip(0, true)));
        // Another buffer, even an overlapping one, says nothing.
        assert!(!supersedes(&chip(32, true), &chip(0, false)));
        assert!(!supersedes(
            &Access {
                resource: Resource::Gm(None),
                write: true
            },
            &chip(0, false)
        ));
    }

    #[test]
    fn settled_asks_only_the_pipes_the_kernel_uses() {
        let (v, mte3, m) = (slot(Pipe::V), slot(Pipe::Mte3), slot(Pipe::M));
        let mut known = [[0; 7]; 7];
        let mut done = [0; 7];
        // V's instruction 5 is done on V and known to MTE3; M knows nothing.
        done[v] = 5;
        known[mte3][v] = 5;
        let mut used = [false; 7];
        used[v] = true;
        used[mte3] = true;
        assert!(settled(&known, &done, &used, v, 5));
        assert!(!settled(&known, &done, &used, v, 6));
        used[m] = true;
        assert!(!settled(&known, &done, &used, v, 5));
        assert!(settled(&known, &done, &[true; 7], v, 0));
    }

    #[test]
    fn slots_follow_the_table() {
        for (i, pipe) in PIPES.iter().enumerate() {
            assert_eq!(slot(*pipe), i);
        }
    }
}
