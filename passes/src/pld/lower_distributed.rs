//! `pld-lower-distributed`: the distributed lowering passes in the order
//! PyPTO's default pipeline runs them.

use crate::registry::PipelineDefinition;

/// The registry entry.
pub static PIPELINE: PipelineDefinition = PipelineDefinition {
    argument: "pld-lower-distributed",
    summary: "Run the distributed lowering passes in pipeline order",
    description: r#"The pld passes in the order PyPTO's default pipeline runs them:

1. [`pld-lower-composite-ops`](pld-lower-composite-ops.md): InCore
   collectives into notify/wait, puts, gets and remote loads;
2. [`pld-synthesize-allreduce-signals`](pld-synthesize-allreduce-signals.md):
   an explicit signal for every host allreduce;
3. [`pld-materialize-comm-domains`](pld-materialize-comm-domains.md): comm
   domain scopes around host orchestrators;
4. [`pld-lower-host-collectives`](pld-lower-host-collectives.md): host
   collectives into per-device `pld.builtin.*` kernels;
5. [`pld-materialize-dist-tensor-ctx`](pld-materialize-dist-tensor-ctx.md):
   communication-context parameters through kernels and call sites;
6. [`pld-insert-comm-fence`](pld-insert-comm-fence.md): fences and cache
   invalidations between data and signals.

Afterwards no `pld.tensor.*` collective is left.

```sh
pto-opt --pld-lower-distributed input.mlir
pto-opt --pass-pipeline='builtin.module(pld-lower-distributed)' input.mlir
```"#,
    pipeline: "pld-lower-composite-ops,pld-synthesize-allreduce-signals,pld-materialize-comm-domains,pld-lower-host-collectives,pld-materialize-dist-tensor-ctx,pld-insert-comm-fence",
};
