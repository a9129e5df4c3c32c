//! `pto-a2a3-pipeline`: from pl/pld programs to planned, synchronised tile
//! IR for a2a3 (the first half of the compiler; pto-translate emits C++
//! from its output).

use crate::registry::PipelineDefinition;

/// The registry entry.
pub static PIPELINE: PipelineDefinition = PipelineDefinition {
    argument: "pto-a2a3-pipeline",
    summary: "Lower pl/pld programs to planned, synchronised tile IR for a2a3",
    description: r#"The a2a3 lowering in order:

0. [`pl-inline-functions`](pl-inline-functions.md): every function of
   kind `inline` spliced into its callers;
1. per function, [`pl-unroll-loops`](pl-unroll-loops.md): every loop
   marked `pl.unroll` into copies of its body;
2. [`pl-verify-constants`](pl-verify-constants.md): the op rules that
   constant operands decide, on the program as written;
3. [`pl-outline-incore-scopes`](pl-outline-incore-scopes.md): every
   `pl.incore_scope` into an InCore kernel and a call;
4. [`pl-materialize-valid-shapes`](pl-materialize-valid-shapes.md):
   kernel parameters whose valid extents are known only at run time get
   them as `index` parameters from their callers;
5. [`pl-convert-tensor-to-tile`](pl-convert-tensor-to-tile.md): kernels'
   tensor computations into tile ops with loads, stores and out
   parameters;
6. [`pld-lower-distributed`](pld-lower-distributed.md): collectives into
   primitives, comm domains, host builtins, comm contexts and fences;
7. [`pl-derive-task-dependencies`](pl-derive-task-dependencies.md): the
   dependencies of the tasks of manual runtime scopes, from the tensors
   they read and write;
8. per function, [`pl-lower-math-ops`](pl-lower-math-ops.md): sines,
   cosines, carrying ops, row updates and row gathers into primitive tile
   ops;
9. per kernel, [`pl-flatten-tile-nd-to-2d`](pl-flatten-tile-nd-to-2d.md):
   tiles of rank > 2 into 2-D tiles;
10. per function, [`pl-legalize-tile-cast`](pl-legalize-tile-cast.md):
   casts a2a3 does not convert in one step into chains of steps;
11. per kernel, [`pl-tile-matmul-l0`](pl-tile-matmul-l0.md): matmuls too
   large for L0 into K loops over L1-resident operands;
12. per kernel, [`pl-infer-memory-space`](pl-infer-memory-space.md): a
   memory space for every tile, moves into L0 and across the cores,
   aic/aiv kernels;
13. per kernel, [`pl-lower-auto-vector-split`](pl-lower-auto-vector-split.md):
   the vector work of mixed kernels marked `pl.split` shared between the
   two vector cores, each on its half of every vector tile;
14. [`pl-expand-mixed-kernel`](pl-expand-mixed-kernel.md): every kernel
   that mixes cube and vector work into a core group (an aic and an aiv
   kernel joined by a cross-core pipe);
15. [`pl-inject-gm-pipe-buffer`](pl-inject-gm-pipe-buffer.md): each
   group's pipes their slot buffers in global memory, made by the group;
16. per kernel, [`pl-double-buffer`](pl-double-buffer.md): loops that
   bring tiles on chip unrolled by two, each copy marked for buffers of
   its own;
17. per kernel, [`pl-plan-memory`](pl-plan-memory.md) with `spread`: an
   address for every on-chip tile (a2a3 capacities), each its own while
   all fit, else the copies of a double-buffered loop apart when they
   fit;
18. per kernel, [`pl-insert-sync`](pl-insert-sync.md): set_flag/wait_flag
   and pipe barriers for every hazard.

Tensor-level kernels with dynamic shapes are not converted (a warning):
their tensor ops pass through unplanned. Check the result with
`pl-verify-sync`:

```sh
pto-opt --pto-a2a3-pipeline examples/tiles/tiled_matmul.mlir
pto-opt --pass-pipeline='builtin.module(pto-a2a3-pipeline, pl-verify-sync)' input.mlir
```"#,
    pipeline: "pl-inline-functions,func.func(pl-unroll-loops),pl-verify-constants,pl-outline-incore-scopes,pl-materialize-valid-shapes,pl-convert-tensor-to-tile,pld-lower-distributed,pl-derive-task-dependencies,func.func(pl-lower-math-ops,pl-flatten-tile-nd-to-2d,pl-legalize-tile-cast,pl-tile-matmul-l0,pl-infer-memory-space,pl-lower-auto-vector-split),pl-expand-mixed-kernel,pl-inject-gm-pipe-buffer,func.func(pl-double-buffer,pl-plan-memory{spread=true}),pl-insert-sync",
};
