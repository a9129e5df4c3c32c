//! `pld-comm-stats`: what each rank sends, receives and synchronises in each
//! kernel, for a given rank count. What it does and why: [`PASS`]`.description`
//! (also docs/passes/pld-comm-stats.md).

use melior::ir::{BlockLike, OperationRef, RegionLike, Type, ValueLike, operation::OperationLike};
use pto_dialects::{
    attrs::{self, FunctionAttr},
    diag::{OpDiagnostic, Severity},
    enums::Level,
    op_table::OpKind,
    ops::operand_segments,
    types::{TensorLike, TileType},
};

use super::{
    ir::op_name,
    rank_execution::{Effects, Failure, RankMachine},
};
use crate::{
    options::{OptionKind, OptionSpec, OptionValues},
    registry::{PassDefinition, PassFailed, Run},
};

/// The registry entry.
pub static PASS: PassDefinition = PassDefinition {
    argument: "pld-comm-stats",
    class_name: "CommStats",
    summary: "Report per rank the traffic and synchronisation of each kernel",
    description: r#"An analysis: for every function outside host orchestrators that
communicates, it executes the control flow abstractly for each rank
r = 0..P-1 (P = `nranks`; `pld.system.nranks` is P, `pld.system.rank` is
r; `scf.for` bounds and `scf.if` conditions are evaluated from `arith`
integer ops) and reports, as a remark on the function:

- `sent`: elements moved to *other* ranks (`pld.tile.put`/`pld.tensor.put`
  to a peer, `pld.tile.remote_store`), `received`: elements moved from
  other ranks (`pld.tile.get`/`pld.tensor.get`, `pld.tile.remote_load`);
  the shape is the transfer's `region` shape, else the window's static
  shape, and a tile's valid extents;
- `puts`, `gets`, `remote_loads`, `remote_stores`: those transfers with a
  peer other than the rank itself (a rank's transfers to itself are
  `local` copies);
- `notifies`, `waits`: every signal operation.

Values the analysis cannot evaluate (a loop bound read from memory, a
dynamic extent) are diagnosed. So is work past two bounds, both options:
`nranks` above `max-ranks` (default 1024) is diagnosed at each function
instead of evaluated, and a loop that would take one rank past `max-trips`
loop iterations in one function (default 1000000, all loops together, nested
ones included) is diagnosed at the loop, before it runs; raise them to
evaluate more. It does not change the IR. Run it after
`pld-lower-composite-ops` to see what the collectives cost: a mesh
allreduce of N elements receives (P-1)·N per rank, a ring allreduce
2(P-1)/P·N, an allgather (P-1)·SIZE.

```mlir
// pto-opt --pld-lower-composite-ops --pld-comm-stats=nranks=4
func.func @f(%d: !pld.dtensor<4x256xf32>, %s: !pld.dtensor<?x1xi32>) {
  %r = pld.tensor.allreduce %d, %s sum mesh cores 1 : ...
  return
}
// remark: @f rank 0 of 4: sent 0, received 3072, puts 0, gets 0,
//   remote_loads 3, remote_stores 0, local 0, notifies 9, waits 6
```

What the lowered collectives cost per rank (elements; test/Transforms/
pld-comm-stats.mlir checks every figure): mesh and ring allreduce of
N = 8192 f32 (mesh: two 4096-element chunks; ring: one sub-chunk per
step, segments from the run-time P), allgather / all_to_all / reduce_scatter rows of
SIZE = 256, broadcast of 1024 (a non-root rank; the root copies locally).
Barrier rounds = waits / (P-1).

| collective | P = 2 | P = 4 | P = 8 | formula | rounds |
|---|---|---|---|---|---|
| mesh allreduce, received | 8192 | 24576 | 57344 | (P-1)·N | 1 + chunks = 3 |
| ring allreduce, received | 8192 | 12288 | 14336 | 2(P-1)/P·N | 4(P-1)·sub-chunks = 4, 12, 28 |
| allgather, sent | 256 | 768 | 1792 | (P-1)·SIZE | 1 |
| all_to_all, sent | 256 | 768 | 1792 | (P-1)·SIZE | 1 |
| reduce_scatter, received | 256 | 768 | 1792 | (P-1)·SIZE | 2 |
| broadcast, received | 1024 | 1024 | 1024 | N | 1 |
| barrier | 0 | 0 | 0 | 0 | 1 |

Notifies per call are rounds·(P-1) credits plus (P-1) refunds."#,
    example_options: "nranks=4",
    anchor: Some("builtin.module"),
    options: &[
        OptionSpec {
            name: "nranks",
            kind: OptionKind::Int { min: 1 },
            description: "The rank count P to evaluate for (required, >= 1)",
            default: "0",
        },
        OptionSpec {
            name: "max-ranks",
            kind: OptionKind::Int { min: 1 },
            description: "The largest nranks evaluated; above it each function is diagnosed",
            default: "1024",
        },
        OptionSpec {
            name: "max-trips",
            kind: OptionKind::Int { min: 1 },
            description: "The loop iterations one rank may execute in one function (all loops together); a loop that would exceed them is diagnosed",
            default: "1000000",
        },
    ],
    dependent_dialects: Vec::new,
    run: Run::Op(run),
};

fn run(root: OperationRef, options: &OptionValues) -> Result<(), PassFailed> {
    let nranks = options.int("nranks");
    let max_ranks = options.int("max-ranks");
    let max_trips = options.int("max-trips");
    if nranks < 1 {
        OpDiagnostic::new("pld-comm-stats needs nranks >= 1").emit(root, Severity::Error);
        return Err(PassFailed);
    }
    let mut failed = false;
    for function in functions(root) {
        if nranks > max_ranks {
            OpDiagnostic::new(format!(
                "pld-comm-stats: nranks={nranks} is more ranks than max-ranks ({max_ranks}) to evaluate; raise max-ranks"
            ))
            .emit(function, Severity::Error);
            failed = true;
            continue;
        }
        let mut per_rank = Vec::new();
        for rank in 0..nranks {
            match comm_stats(function, rank, nranks, max_trips) {
                Ok(stats) => per_rank.push(stats),
                Err((op, message)) => {
                    OpDiagnostic::new(format!("pld-comm-stats: {message}"))
                        .emit(op, Severity::Error);
                    failed = true;
                    break;
                }
            }
        }
        if per_rank.iter().all(CommStats::is_empty) {
            continue;
        }
        let name = attrs::text_of(function, "sym_name").unwrap_or_default();
        for (rank, stats) in per_rank.iter().enumerate() {
            OpDiagnostic::new(format!("@{name} rank {rank} of {nranks}: {stats}"))
                .emit(function, Severity::Remark);
        }
    }
    if failed { Err(PassFailed) } else { Ok(()) }
}

/// The `func.func`s under `root` outside host orchestrators, in order.
fn functions<'c, 'a>(root: OperationRef<'c, 'a>) -> Vec<OperationRef<'c, 'a>> {
    let mut out = Vec::new();
    let Some(body) = root.regions().next().and_then(|r| r.first_block()) else {
        return out;
    };
    let mut next = body.first_operation();
    while let Some(op) = next {
        let host = op.attribute("pl.level").ok().and_then(attrs::read)
            == Some(FunctionAttr::Level(Level::Host));
        if op_name(op) == "func.func" && !host {
            out.push(op);
        }
        next = op.next_in_block();
    }
    out
}

/// What one rank does in one call of a function.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CommStats {
    /// Elements moved to other ranks.
    pub sent: i64,
    /// Elements moved from other ranks.
    pub received: i64,
    pub puts: i64,
    pub gets: i64,
    pub remote_loads: i64,
    pub remote_stores: i64,
    /// Transfers whose peer is the rank itself.
    pub local: i64,
    pub notifies: i64,
    pub waits: i64,
}

impl CommStats {
    fn is_empty(&self) -> bool {
        *self == Self::default()
    }
}

impl std::fmt::Display for CommStats {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "sent {}, received {}, puts {}, gets {}, remote_loads {}, remote_stores {}, local {}, notifies {}, waits {}",
            self.sent,
            self.received,
            self.puts,
            self.gets,
            self.remote_loads,
            self.remote_stores,
            self.local,
            self.notifies,
            self.waits
        )
    }
}

/// Executes `function`'s control flow for `rank` of `nranks`, at most
/// `max_trips` loop iterations in all.
pub fn comm_stats<'c, 'a>(
    function: OperationRef<'c, 'a>,
    rank: i64,
    nranks: i64,
    max_trips: i64,
) -> Result<CommStats, Failure<'c, 'a>> {
    let mut stats = CommStats::default();
    RankMachine::new(rank, nranks)
        .with_max_trips(max_trips)
        .run_function(function, &mut stats)?;
    Ok(stats)
}

impl<'c, 'a> Effects<'c, 'a> for CommStats {
    fn effect(
        &mut self,
        machine: &RankMachine,
        op: OperationRef<'c, 'a>,
    ) -> Result<Option<i64>, Failure<'c, 'a>> {
        let kind = OpKind::of(&op);
        match kind {
            Some(OpKind::PldSystemNotify) => self.notifies += 1,
            Some(OpKind::PldSystemWait) => self.waits += 1,
            Some(OpKind::PldTileRemoteLoad | OpKind::PldTileRemoteStore) => {
                let load = kind == Some(OpKind::PldTileRemoteLoad);
                let segments = operand_segments(op);
                let tile = if load {
                    op.result(0).expect("a tile").r#type()
                } else {
                    op.operand(0).expect("a tile").r#type()
                };
                let valid = if load {
                    segments.get(3).copied().unwrap_or((0, 0))
                } else {
                    (0, 0)
                };
                let elements = tile_elements(machine, op, tile, valid)?;
                // remote_store has one variadic group: its peer is last.
                let peer_index = if load {
                    segments[2].0
                } else {
                    op.operand_count() - 1
                };
                let peer = machine.operand(op, peer_index)?;
                if peer == machine.rank {
                    self.local += 1;
                } else if load {
                    self.remote_loads += 1;
                    self.received = self.received.saturating_add(elements);
                } else {
                    self.remote_stores += 1;
                    self.sent = self.sent.saturating_add(elements);
                }
            }
            Some(
                OpKind::PldTilePut
                | OpKind::PldTensorPut
                | OpKind::PldTileGet
                | OpKind::PldTensorGet,
            ) => {
                let put = matches!(kind, Some(OpKind::PldTilePut | OpKind::PldTensorPut));
                let segments = operand_segments(op);
                let shape = segments.last().copied().unwrap_or((0, 0));
                // The window is dst for a put, src for a get.
                let window = op
                    .operand(if put { 0 } else { 2 })
                    .expect("verified operand")
                    .r#type();
                let elements = if shape.1 > 0 {
                    machine
                        .operands(op, shape.0..shape.0 + shape.1)?
                        .into_iter()
                        .fold(1i64, i64::saturating_mul)
                } else {
                    static_elements(window).ok_or_else(|| {
                        (
                            op,
                            format!("a whole-window transfer of {window} needs a static shape"),
                        )
                    })?
                };
                let peer = machine.operand(op, 1)?;
                if peer == machine.rank {
                    self.local += 1;
                } else if put {
                    self.puts += 1;
                    self.sent = self.sent.saturating_add(elements);
                } else {
                    self.gets += 1;
                    self.received = self.received.saturating_add(elements);
                }
            }
            _ => {}
        }
        Ok(None)
    }
}

/// Valid elements of a tile: static valid extents, else the values of the
/// op's `valid(...)` operands for the dynamic ones.
pub fn tile_elements<'c, 'a>(
    machine: &RankMachine,
    op: OperationRef<'c, 'a>,
    tile: Type,
    valid: (usize, usize),
) -> Result<i64, Failure<'c, 'a>> {
    Ok(tile_valid_shape(machine, op, tile, valid)?
        .into_iter()
        .fold(1i64, i64::saturating_mul))
}

/// A tile's valid extents: static ones from its type, dynamic ones from the
/// op's `valid(...)` operands (`valid`: their operand range).
pub fn tile_valid_shape<'c, 'a>(
    machine: &RankMachine,
    op: OperationRef<'c, 'a>,
    tile: Type,
    valid: (usize, usize),
) -> Result<Vec<i64>, Failure<'c, 'a>> {
    let tile = TileType::try_from(tile).map_err(|e| (op, e.to_string()))?;
    let mut dynamic = valid.0..valid.0 + valid.1;
    tile.effective_view()
        .valid_shape
        .into_iter()
        .map(|extent| match extent {
            Some(e) => Ok(e),
            None => match dynamic.next() {
                Some(i) => machine.operand(op, i),
                None => Err((op, "a dynamic valid extent without a value".to_string())),
            },
        })
        .collect()
}

/// The elements of a static shape (saturating: the counts are a report).
fn static_elements(r#type: Type) -> Option<i64> {
    TensorLike::try_from(r#type)
        .ok()?
        .shape()
        .into_iter()
        .try_fold(1i64, |acc, d| d.map(|d| acc.saturating_mul(d)))
}
