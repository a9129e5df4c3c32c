// The expansions with P given statically: pld-specialize-nranks replaces
// pld.system.nranks by P, and canonicalize folds the rank arithmetic.
// (pld-lower-composite-ops.mlir checks the same expansions with P dynamic.)
// RUN: pto-opt --verify-roundtrip %s --pld-lower-composite-ops --pld-specialize-nranks="nranks=2" --canonicalize | FileCheck %s --check-prefix=P2
// RUN: pto-opt --verify-roundtrip %s --pld-lower-composite-ops --pld-specialize-nranks="nranks=4" --canonicalize | FileCheck %s --check-prefix=P4

// P = 2: one +1 to the other rank, a wait for generation 1, the refund.
// P2-LABEL: func.func @barrier
// P2-SAME: (%[[SIG:.*]]: !pld.dtensor<?x1xi32>)
// P2-DAG: %[[C2:.*]] = arith.constant 2 : index
// P2-DAG: %[[REFUND:.*]] = arith.constant -1 : i32
// P2-DAG: %[[ONE:.*]] = arith.constant 1 : i32
// P2-DAG: %[[C1:.*]] = arith.constant 1 : index
// P2-DAG: %[[C0:.*]] = arith.constant 0 : index
// P2: %[[CTX:.*]] = pld.system.get_comm_ctx %[[SIG]]
// P2-NEXT: %[[ME:.*]] = pld.system.rank %[[CTX]] : i32
// P2-NEXT: %[[MEIDX:.*]] = arith.index_cast %[[ME]] : i32 to index
// P2-NEXT: scf.for %[[P:.*]] = %[[C0]] to %[[C2]] step %[[C1]] {
// P2-NEXT: %[[PI:.*]] = arith.index_cast %[[P]] : index to i32
// P2-NEXT: %[[NE:.*]] = arith.cmpi ne, %[[PI]], %[[ME]] : i32
// P2-NEXT: scf.if %[[NE]] {
// P2-NEXT: pld.system.notify %[[SIG]][%[[MEIDX]], %[[C0]]] to %[[PI]], %[[ONE]] atomic_add
// P2-NEXT: }
// P2-NEXT: }
// P2-NEXT: scf.for %[[S:.*]] = %[[C0]] to %[[C2]] step %[[C1]] {
// P2-NEXT: %[[SI:.*]] = arith.index_cast %[[S]] : index to i32
// P2-NEXT: %[[NE2:.*]] = arith.cmpi ne, %[[SI]], %[[ME]] : i32
// P2-NEXT: scf.if %[[NE2]] {
// P2-NEXT: pld.system.wait %[[SIG]][%[[S]], %[[C0]]], %[[ONE]] ge
// P2-NEXT: }
// P2-NEXT: }
// P2-NEXT: scf.for %[[R:.*]] = %[[C0]] to %[[C2]] step %[[C1]] {
// P2-NEXT: %[[RI:.*]] = arith.index_cast %[[R]] : index to i32
// P2-NEXT: %[[NE3:.*]] = arith.cmpi ne, %[[RI]], %[[ME]] : i32
// P2-NEXT: scf.if %[[NE3]] {
// P2-NEXT: pld.system.notify %[[SIG]][%[[R]], %[[C0]]] to %[[ME]], %[[REFUND]] atomic_add
// P2-NEXT: }
// P2-NEXT: }
// P2-NEXT: return
func.func @barrier(%s: !pld.dtensor<?x1xi32>) attributes {pl.kind = #pl.kind<aiv>} {
  %r = pld.tensor.barrier %s : !pld.dtensor<?x1xi32>
  return
}

// P = 2 allgather: a put to both ranks (itself included), then the barrier.
// P2-LABEL: func.func @allgather
// P2: %[[STAGE:.*]] = pl.tile.create : !pl.tile<1x64xf32, vec>
// P2-NEXT: scf.for %[[P:.*]] = %{{.*}} to %[[C2:.*]] step
// P2-NEXT: %[[PI:.*]] = arith.index_cast %[[P]] : index to i32
// P2-NEXT: pld.tile.put %{{.*}} to %[[PI]] from %{{.*}} stage %[[STAGE]] region
// P2-NEXT: }
// P2: pld.system.notify
// P2: pld.system.wait
func.func @allgather(%i: !pl.tensor<1x64xf32>, %d: !pld.dtensor<2x64xf32>, %s: !pld.dtensor<?x1xi32>) attributes {pl.kind = #pl.kind<aiv>} {
  %r = pld.tensor.allgather %i, %d, %s : !pl.tensor<1x64xf32>, !pld.dtensor<2x64xf32>, !pld.dtensor<?x1xi32>
  return
}

// P = 4 ring over [6, 4]: 3 steps per phase, the left neighbour
// (me + 3) mod 4, segment bounds i*1024/4, the refund over 6 rows.
// P4-LABEL: func.func @ring
// P4-DAG: %[[C3:.*]] = arith.constant 3 : index
// P4-DAG: %[[C6:.*]] = arith.constant 6 : index
// P4-DAG: %[[REFUND:.*]] = arith.constant -2 : i32
// P4-DAG: %[[C4:.*]] = arith.constant 4 : index
// P4-DAG: %[[C1024:.*]] = arith.constant 1024 : index
// P4: %[[ME:.*]] = pld.system.rank
// P4-NEXT: %[[MEIDX:.*]] = arith.index_cast %[[ME]] : i32 to index
// P4-NEXT: pl.tensor.view
// P4-NEXT: %[[L0:.*]] = arith.addi %[[MEIDX]], %[[C3]] : index
// P4-NEXT: %[[L1:.*]] = arith.remui %[[L0]], %[[C4]] : index
// P4-NEXT: %[[LEFT:.*]] = arith.index_cast %[[L1]] : index to i32
// P4-NEXT: scf.for %[[K:.*]] = %{{.*}} to %[[C3]] step
// P4: arith.muli %{{.*}}, %[[C1024]] : index
// P4-NEXT: arith.divui %{{.*}}, %[[C4]] : index
// P4: pld.tile.remote_load {{.*}} from %[[LEFT]]
// P4: scf.for %[[ROW:.*]] = %{{.*}} to %[[C6]] step
// P4: pld.system.notify %{{.*}}[%[[ROW]], %{{.*}}] to %[[ME]], %[[REFUND]] atomic_add
func.func @ring(%d: !pld.dtensor<4x256xf32>, %s: !pld.dtensor<6x4xi32>) attributes {pl.kind = #pl.kind<aiv>} {
  %r = pld.tensor.allreduce %d, %s sum ring cores 1 : !pld.dtensor<4x256xf32>, !pld.dtensor<6x4xi32>
  return
}
