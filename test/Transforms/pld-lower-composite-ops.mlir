// RUN: pto-opt --verify-roundtrip %s --pld-lower-composite-ops | FileCheck %s
// RUN: mlir-opt --load-dialect-plugin=%plugin --load-pass-plugin=%plugin %s --pass-pipeline='builtin.module(pld-lower-composite-ops)' | FileCheck %s

!Sig = !pld.dtensor<?x1xi32>

// A barrier: notify every peer (+1 at [me, 0]), wait for generation 1 on every
// peer's cell, then refund the credit so the signal is all-zero again.
// CHECK-LABEL: func.func @barrier
// CHECK-SAME: (%[[SIG:.*]]: !pld.dtensor<?x1xi32>)
// CHECK: %[[CTX:.*]] = pld.system.get_comm_ctx %[[SIG]]
// CHECK: %[[N:.*]] = pld.system.nranks %[[CTX]] : i32
// CHECK: %[[NIDX:.*]] = arith.index_cast %[[N]] : i32 to index
// CHECK: %[[ME:.*]] = pld.system.rank %[[CTX]] : i32
// CHECK: %[[MEIDX:.*]] = arith.index_cast %[[ME]] : i32 to index
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG: %[[CREDIT:.*]] = arith.constant 1 : i32
// CHECK-DAG: %[[GEN:.*]] = arith.constant 1 : i32
// CHECK: scf.for %[[P:.*]] = %[[C0]] to %[[NIDX]] step %[[C1]] {
// CHECK-NEXT: %[[PI:.*]] = arith.index_cast %[[P]] : index to i32
// CHECK-NEXT: %[[NE:.*]] = arith.cmpi ne, %[[PI]], %[[ME]] : i32
// CHECK-NEXT: scf.if %[[NE]] {
// CHECK-NEXT: pld.system.notify %[[SIG]][%[[MEIDX]], %[[C0]]] to %[[PI]], %[[CREDIT]] atomic_add
// CHECK: scf.for %[[S:.*]] = %[[C0]] to %[[NIDX]] step %[[C1]] {
// CHECK: scf.if
// CHECK-NEXT: pld.system.wait %[[SIG]][%[[S]], %[[C0]]], %[[GEN]] ge
// CHECK: %[[REFUND:.*]] = arith.constant -1 : i32
// CHECK: scf.for %[[R:.*]] = %[[C0]] to %[[NIDX]] step %[[C1]] {
// CHECK: scf.if
// CHECK-NEXT: pld.system.notify %[[SIG]][%[[R]], %[[C0]]] to %[[ME]], %[[REFUND]] atomic_add
// CHECK: return %[[SIG]]
// CHECK-NOT: pld.tensor.barrier
func.func @barrier(%s: !Sig) -> !Sig attributes {pl.kind = #pl.kind<aiv>} {
  %r = pld.tensor.barrier %s : !Sig
  return %r : !Sig
}

// A broadcast: a barrier, then a pull of the root's whole target through a
// vector stage, then the refund; uses of the result see the target.
// CHECK-LABEL: func.func @broadcast
// CHECK-SAME: (%[[D:.*]]: !pld.dtensor<4x256xf32>, %[[SIG:.*]]: !pld.dtensor<?x1xi32>)
// CHECK: pld.system.wait %[[SIG]]
// CHECK: %[[STAGE:.*]] = pl.tile.create : !pl.tile<4x256xf32, vec>
// CHECK-NEXT: %[[ROOT:.*]] = arith.constant 2 : i32
// CHECK-NEXT: pld.tile.get %[[D]] to %[[ROOT]] from %[[D]] stage %[[STAGE]]
// CHECK: pld.system.notify %[[SIG]]{{.*}}, %{{.*}} atomic_add
// CHECK: return %[[D]]
func.func @broadcast(%d: !pld.dtensor<4x256xf32>, %s: !Sig) -> !pld.dtensor<4x256xf32> attributes {pl.kind = #pl.kind<aiv>} {
  %r = pld.tensor.broadcast %d, %s root 2 : !pld.dtensor<4x256xf32>, !Sig
  return %r : !pld.dtensor<4x256xf32>
}

// An allgather pushes the local row into row `me` of every rank's target
// (itself included), then a barrier and the refund.
// CHECK-LABEL: func.func @allgather
// CHECK-SAME: (%[[IN:.*]]: !pl.tensor<1x256xf32>, %[[D:.*]]: !pld.dtensor<?x256xf32>, %[[SIG:.*]]: !pld.dtensor<?x1xi32>)
// CHECK: %[[ME:.*]] = pld.system.rank
// CHECK-NEXT: %[[MEIDX:.*]] = arith.index_cast %[[ME]] : i32 to index
// CHECK: %[[STAGE:.*]] = pl.tile.create : !pl.tile<1x256xf32, vec>
// CHECK: %[[SIZE:.*]] = arith.constant 256 : index
// CHECK: scf.for %[[P:.*]] =
// CHECK-NEXT: %[[PI:.*]] = arith.index_cast %[[P]] : index to i32
// CHECK-NEXT: pld.tile.put %[[D]] to %[[PI]] from %[[IN]] stage %[[STAGE]] region [%[[MEIDX]], %{{.*}}] [%{{.*}}, %{{.*}}] [%{{.*}}, %[[SIZE]]] none
// CHECK: pld.system.notify %[[SIG]]
// CHECK: pld.system.wait %[[SIG]]
// CHECK: pld.system.notify %[[SIG]]
// CHECK-NOT: pld.tensor.allgather
func.func @allgather(%i: !pl.tensor<1x256xf32>, %d: !pld.dtensor<?x256xf32>, %s: !Sig) attributes {pl.kind = #pl.kind<aiv>} {
  %r = pld.tensor.allgather %i, %d, %s : !pl.tensor<1x256xf32>, !pld.dtensor<?x256xf32>, !Sig
  return
}

// all_to_all sends row `dest` of the input to row `me` of rank dest's target.
// CHECK-LABEL: func.func @all_to_all
// CHECK-SAME: (%[[IN:.*]]: !pl.tensor<4x64xf32>, %[[D:.*]]: !pld.dtensor<4x64xf32>, %[[SIG:.*]]: !pld.dtensor<?x1xi32>)
// CHECK: %[[ME:.*]] = pld.system.rank
// CHECK-NEXT: %[[MEIDX:.*]] = arith.index_cast %[[ME]] : i32 to index
// CHECK: scf.for %[[DEST:.*]] =
// CHECK-NEXT: %[[DI:.*]] = arith.index_cast %[[DEST]] : index to i32
// CHECK-NEXT: pld.tile.put %[[D]] to %[[DI]] from %[[IN]] stage %{{.*}} region [%[[MEIDX]], %[[C0:.*]]] [%[[DEST]], %[[C0]]] [%{{.*}}, %{{.*}}] none
// CHECK: pld.system.wait %[[SIG]]
// CHECK: arith.constant -1 : i32
// CHECK-NOT: pld.tensor.all_to_all
func.func @all_to_all(%i: !pl.tensor<4x64xf32>, %d: !pld.dtensor<4x64xf32>, %s: !Sig) attributes {pl.kind = #pl.kind<aiv>} {
  %r = pld.tensor.all_to_all %i, %d, %s : !pl.tensor<4x64xf32>, !pld.dtensor<4x64xf32>, !Sig
  return
}

// all_to_all_v: MAX_RECV = 8 / 4 = 2 rows per rank. Each dest learns the real
// row count through a `set` notify into recv_counts[me, 0]; the whole static
// [2, 64] block moves.
// CHECK-LABEL: func.func @all_to_all_v
// CHECK-SAME: (%[[IN:.*]]: !pl.tensor<8x64xf32>, %[[D:.*]]: !pld.dtensor<8x64xf32>, %[[SIG:.*]]: !pld.dtensor<4x1xi32>, %[[SEND:.*]]: !pl.tensor<4xi32>, %[[RECV:.*]]: !pld.dtensor<4x1xi32>)
// CHECK: %[[ME:.*]] = pld.system.rank
// CHECK-NEXT: %[[MEIDX:.*]] = arith.index_cast %[[ME]] : i32 to index
// CHECK-NEXT: %[[C0:.*]] = arith.constant 0 : index
// CHECK: %[[STAGE:.*]] = pl.tile.create : !pl.tile<1x64xf32, vec>
// CHECK-NEXT: %[[MAX:.*]] = arith.constant 2 : index
// CHECK-NEXT: %[[SIZE:.*]] = arith.constant 64 : index
// CHECK-NEXT: %[[MYROW:.*]] = arith.muli %[[MEIDX]], %[[MAX]] : index
// CHECK-NEXT: scf.for %[[DEST:.*]] =
// CHECK-NEXT: %[[DI:.*]] = arith.index_cast %[[DEST]] : index to i32
// CHECK-NEXT: %[[CNT:.*]] = pl.tensor.read %[[SEND]][%[[DEST]]] : !pl.tensor<4xi32> -> i32
// CHECK-NEXT: %[[CNTIDX:.*]] = arith.index_cast %[[CNT]] : i32 to index
// CHECK-NEXT: %[[ROWS:.*]] = arith.minsi %[[CNTIDX]], %[[MAX]] : index
// CHECK-NEXT: %[[ROWS32:.*]] = arith.index_cast %[[ROWS]] : index to i32
// CHECK-NEXT: pld.system.notify %[[RECV]][%[[MEIDX]], %[[C0]]] to %[[DI]], %[[ROWS32]] set
// CHECK-NEXT: %[[DESTROW:.*]] = arith.muli %[[DEST]], %[[MAX]] : index
// CHECK-NEXT: pld.tile.put %[[D]] to %[[DI]] from %[[IN]] stage %[[STAGE]] region [%[[MYROW]], %[[C0]]] [%[[DESTROW]], %[[C0]]] [%[[MAX]], %[[SIZE]]] none
// CHECK: pld.system.wait %[[SIG]]
// CHECK: arith.constant -1 : i32
// CHECK-NOT: pld.tensor.all_to_all_v
func.func @all_to_all_v(%in: !pl.tensor<8x64xf32>, %out: !pld.dtensor<8x64xf32>, %s4: !pld.dtensor<4x1xi32>, %send: !pl.tensor<4xi32>, %recv: !pld.dtensor<4x1xi32>) attributes {pl.kind = #pl.kind<aiv>} {
  %v = pld.tensor.all_to_all_v %in, %out, %s4, %send, %recv : !pl.tensor<8x64xf32>, !pld.dtensor<8x64xf32>, !pld.dtensor<4x1xi32>, !pl.tensor<4xi32>, !pld.dtensor<4x1xi32>
  return
}

// reduce_scatter: ready barrier (generation 1), sum of row `me` over the
// peers' copies, read-complete barrier (generation 2) before the store, then
// a refund of 2 credits.
// CHECK-LABEL: func.func @reduce_scatter
// CHECK-SAME: (%[[D:.*]]: !pld.dtensor<?x64xf32>, %[[SIG:.*]]: !pld.dtensor<?x1xi32>)
// CHECK: %[[ME:.*]] = pld.system.rank
// CHECK-NEXT: %[[MEIDX:.*]] = arith.index_cast %[[ME]] : i32 to index
// CHECK: %[[CREDIT:.*]] = arith.constant 1 : i32
// CHECK-NEXT: %[[G1:.*]] = arith.constant 1 : i32
// CHECK: pld.system.wait %[[SIG]][%{{.*}}, %{{.*}}], %[[G1]] ge
// CHECK: %[[OWN:.*]] = pl.tile.load %[[D]][%[[MEIDX]], %[[C0:.*]]] : !pld.dtensor<?x64xf32> -> !pl.tile<1x64xf32, vec>
// CHECK-NEXT: %[[SUM:.*]] = scf.for %[[P:.*]] = %[[C0]] to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %[[OWN]]) -> (!pl.tile<1x64xf32, vec>) {
// CHECK-NEXT: %[[PI:.*]] = arith.index_cast %[[P]] : index to i32
// CHECK-NEXT: %[[NE:.*]] = arith.cmpi ne, %[[PI]], %[[ME]] : i32
// CHECK-NEXT: %[[NEXT:.*]] = scf.if %[[NE]] -> (!pl.tile<1x64xf32, vec>) {
// CHECK-NEXT: %[[PEER:.*]] = pld.tile.remote_load %[[D]][%[[MEIDX]], %[[C0]]] from %[[PI]]
// CHECK-NEXT: %[[ADD:.*]] = pl.tile.add %[[ACC]], %[[PEER]]
// CHECK-NEXT: scf.yield %[[ADD]]
// CHECK-NEXT: } else {
// CHECK-NEXT: scf.yield %[[ACC]]
// CHECK: scf.yield %[[NEXT]]
// CHECK: %[[G2:.*]] = arith.constant 2 : i32
// CHECK: pld.system.wait %[[SIG]][%{{.*}}, %{{.*}}], %[[G2]] ge
// CHECK: %[[STORED:.*]] = pl.tile.store %[[SUM]], %[[D]][%[[MEIDX]], %[[C0]]]
// CHECK-NEXT: %[[REFUND:.*]] = arith.constant -2 : i32
// CHECK: pld.system.notify %[[SIG]][%{{.*}}, %[[C0]]] to %[[ME]], %[[REFUND]] atomic_add
// CHECK: return %[[STORED]]
func.func @reduce_scatter(%d: !pld.dtensor<?x64xf32>, %s: !Sig) -> !pld.dtensor<?x64xf32> attributes {pl.kind = #pl.kind<aiv>} {
  %r = pld.tensor.reduce_scatter %d, %s sum : !pld.dtensor<?x64xf32>, !Sig
  return %r : !pld.dtensor<?x64xf32>
}

// Collectives in loops expand in place: the refund makes every call start
// from an all-zero signal again.
// CHECK-LABEL: func.func @in_loop
// CHECK: scf.for
// CHECK: pld.system.get_comm_ctx
// CHECK: pld.system.wait
// CHECK: arith.constant -1 : i32
// CHECK-NOT: pld.tensor.barrier
func.func @in_loop(%s: !Sig, %n: index) attributes {pl.kind = #pl.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %r = pld.tensor.barrier %s : !Sig
  }
  return
}

// Host orchestrators keep their collectives (they lower to host calls).
// CHECK-LABEL: func.func @host
// CHECK-NEXT: pld.tensor.barrier
func.func @host(%s: !pld.dtensor<?xi32>) attributes {pl.level = #pl.level<host>, pl.role = #pl.role<orchestrator>} {
  %r = pld.tensor.barrier %s : !pld.dtensor<?xi32>
  return
}

// Ring allreduce, f32, N = 1024 over a [6, 4] signal (NR = 4): segments
// b(i) = i*1024/4, the longest 256 columns, so one 256-column sub-chunk per
// step. Reduce-scatter step k (row k) pulls segment (me + P - k - 2) mod P
// from the left neighbour (me + P - 1) mod P and adds it to our own copy;
// allgather step k (row P-1+k) copies segment (me + P - k - 1) mod P. Every
// sub-chunk c barriers on its row at 2c+1 (ready) and 2c+2 (read complete,
// before the store) over all peers; an inactive sub-chunk (a shorter
// segment) only joins the barriers. The epilogue refunds 2 per row.
// CHECK-LABEL: func.func @allreduce_ring
// CHECK-SAME: (%[[D:.*]]: !pld.dtensor<4x256xf32>, %[[SIG:.*]]: !pld.dtensor<6x4xi32>)
// CHECK: %[[N:.*]] = arith.index_cast %{{.*}} : i32 to index
// CHECK: %[[ME:.*]] = pld.system.rank
// CHECK-NEXT: %[[MEIDX:.*]] = arith.index_cast %[[ME]] : i32 to index
// CHECK-NEXT: %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT: %[[C1:.*]] = arith.constant 1 : index
// CHECK-NEXT: %[[V:.*]] = pl.tensor.view %[[D]] : !pld.dtensor<4x256xf32> -> !pld.dtensor<1x1024xf32>
// CHECK-NEXT: %[[STEPS:.*]] = arith.subi %[[N]], %[[C1]] : index
// CHECK-NEXT: %[[L0:.*]] = arith.addi %[[MEIDX]], %[[STEPS]] : index
// CHECK-NEXT: %[[L1:.*]] = arith.remui %[[L0]], %[[N]] : index
// CHECK-NEXT: %[[LEFT:.*]] = arith.index_cast %[[L1]] : index to i32
// CHECK-NEXT: %[[TOTAL:.*]] = arith.constant 1024 : index
// CHECK-NEXT: %[[CHUNK:.*]] = arith.constant 256 : index
// CHECK-NEXT: %[[TWO:.*]] = arith.constant 2 : index
// CHECK-NEXT: %[[NR:.*]] = arith.constant 4 : index
// CHECK-NEXT: %[[MAXSEG:.*]] = arith.constant 256 : index
// CHECK-NEXT: %[[CREDIT:.*]] = arith.constant 1 : i32
// CHECK-NEXT: scf.for %[[K:.*]] = %[[C0]] to %[[STEPS]] step %[[C1]] {
// CHECK-NEXT: %[[A0:.*]] = arith.addi %[[MEIDX]], %[[N]] : index
// CHECK-NEXT: %[[A1:.*]] = arith.subi %[[A0]], %[[K]] : index
// CHECK-NEXT: %[[A2:.*]] = arith.subi %[[A1]], %[[TWO]] : index
// CHECK-NEXT: %[[SEG:.*]] = arith.remui %[[A2]], %[[N]] : index
// CHECK-NEXT: %[[B0:.*]] = arith.muli %[[SEG]], %[[TOTAL]] : index
// CHECK-NEXT: %[[START:.*]] = arith.divui %[[B0]], %[[NR]] : index
// CHECK-NEXT: %[[NEXT:.*]] = arith.addi %[[SEG]], %[[C1]] : index
// CHECK-NEXT: %[[B1:.*]] = arith.muli %[[NEXT]], %[[TOTAL]] : index
// CHECK-NEXT: %[[END:.*]] = arith.divui %[[B1]], %[[NR]] : index
// CHECK-NEXT: %[[LEN:.*]] = arith.subi %[[END]], %[[START]] : index
// CHECK-NEXT: scf.for %[[SUB:.*]] = %[[C0]] to %[[MAXSEG]] step %[[CHUNK]] {
// CHECK-NEXT: %[[REM:.*]] = arith.subi %[[LEN]], %[[SUB]] : index
// CHECK-NEXT: %[[VC:.*]] = arith.minsi %[[CHUNK]], %[[REM]] : index
// CHECK-NEXT: %[[ACTIVE:.*]] = arith.cmpi slt, %[[SUB]], %[[LEN]] : index
// CHECK-NEXT: %[[COL:.*]] = arith.addi %[[START]], %[[SUB]] : index
// CHECK-NEXT: %[[CI:.*]] = arith.divui %[[SUB]], %[[CHUNK]] : index
// CHECK-NEXT: %[[TWICE:.*]] = arith.addi %[[CI]], %[[CI]] : index
// CHECK-NEXT: %[[READY0:.*]] = arith.addi %[[TWICE]], %[[C1]] : index
// CHECK-NEXT: %[[READY:.*]] = arith.index_cast %[[READY0]] : index to i32
// CHECK-NEXT: %[[READ0:.*]] = arith.addi %[[TWICE]], %[[TWO]] : index
// CHECK-NEXT: %[[READ:.*]] = arith.index_cast %[[READ0]] : index to i32
// CHECK: pld.system.notify %[[SIG]][%[[K]], %[[MEIDX]]] to %{{.*}}, %[[CREDIT]] atomic_add
// CHECK: pld.system.wait %[[SIG]][%[[K]], %{{.*}}], %[[READY]] ge
// CHECK: %[[ACC:.*]] = scf.if %[[ACTIVE]] -> (!pl.tile<1x256xf32, vec, pad = zero>) {
// CHECK-NEXT: %[[OWN:.*]] = pl.tile.load %[[V]][%[[C0]], %[[COL]]] valid(%[[VC]])
// CHECK-NEXT: %[[OWNP:.*]] = pl.tile.fillpad %[[OWN]] zero
// CHECK-NEXT: %[[R:.*]] = pld.tile.remote_load %[[V]][%[[C0]], %[[COL]]] from %[[LEFT]] valid(%[[VC]])
// CHECK-NEXT: %[[RP:.*]] = pl.tile.fillpad %[[R]] zero
// CHECK-NEXT: %[[SUM:.*]] = pl.tile.add %[[OWNP]], %[[RP]]
// CHECK-NEXT: scf.yield %[[SUM]]
// CHECK-NEXT: } else {
// CHECK-NEXT: %[[PLACEHOLDER:.*]] = pl.tile.create : !pl.tile<1x256xf32, vec, pad = zero>
// CHECK-NEXT: scf.yield %[[PLACEHOLDER]]
// CHECK: pld.system.wait %[[SIG]][%[[K]], %{{.*}}], %[[READ]] ge
// CHECK: scf.if %[[ACTIVE]] {
// CHECK-NEXT: %[[OUT:.*]] = pl.tile.set_validshape %[[ACC]], %[[C1]], %[[VC]]
// CHECK-NEXT: pl.tile.store %[[OUT]], %[[V]][%[[C0]], %[[COL]]]
// Allgather: row P-1+k, segment (me + P - k - 1) mod P, no local load.
// CHECK: scf.for %[[K2:.*]] = %[[C0]] to %[[STEPS]] step %[[C1]] {
// CHECK-NEXT: %[[G0:.*]] = arith.addi %[[MEIDX]], %[[N]] : index
// CHECK-NEXT: %[[G1:.*]] = arith.subi %[[G0]], %[[K2]] : index
// CHECK-NEXT: %[[G2:.*]] = arith.subi %[[G1]], %[[C1]] : index
// CHECK-NEXT: %[[SEG2:.*]] = arith.remui %[[G2]], %[[N]] : index
// CHECK-NEXT: %[[ROW:.*]] = arith.addi %[[K2]], %[[STEPS]] : index
// CHECK: pld.system.wait %[[SIG]][%[[ROW]], %{{.*}}]
// CHECK: scf.if %{{.*}} -> (!pl.tile<1x256xf32, vec, pad = zero>) {
// CHECK-NEXT: pld.tile.remote_load %[[V]]{{.*}} from %[[LEFT]]
// CHECK-NEXT: pl.tile.fillpad
// CHECK-NEXT: scf.yield
// CHECK: %[[REFUND:.*]] = arith.constant -2 : i32
// CHECK-NEXT: %[[ROWS:.*]] = arith.constant 6 : index
// CHECK-NEXT: scf.for %[[R2:.*]] = %[[C0]] to %[[ROWS]] step %[[C1]] {
// CHECK: pld.system.notify %[[SIG]][%[[R2]], %{{.*}}] to %[[ME]], %[[REFUND]] atomic_add
// CHECK-NOT: pld.tensor.allreduce
func.func @allreduce_ring(%d: !pld.dtensor<4x256xf32>, %s: !pld.dtensor<6x4xi32>) attributes {pl.kind = #pl.kind<aiv>} {
  %r = pld.tensor.allreduce %d, %s sum ring cores 1 : !pld.dtensor<4x256xf32>, !pld.dtensor<6x4xi32>
  return
}

// f16 ring with a `?x?` signal: NR is the run-time rank count P. The
// longest segment is min(N, ceil(N/P) + 15) columns, boundaries round up to
// 16 elements (b(i) = min(N, ceil(i*N/(16P))*16)), sub-chunks are sized for
// the whole target (1024 < 8192), and the epilogue refunds
// 2*ceil(max_seg/1024) on each of the 2(P-1) rows.
// CHECK-LABEL: func.func @allreduce_ring_dynamic
// CHECK: %[[N:.*]] = arith.index_cast %{{.*}} : i32 to index
// CHECK: %[[STEPS:.*]] = arith.subi %[[N]], %{{.*}} : index
// CHECK: %[[TOTAL:.*]] = arith.constant 1024 : index
// CHECK-NEXT: %[[CHUNK:.*]] = arith.constant 1024 : index
// CHECK-NEXT: arith.constant 2 : index
// CHECK-NEXT: %[[W0:.*]] = arith.addi %[[TOTAL]], %[[STEPS]] : index
// CHECK-NEXT: %[[W1:.*]] = arith.divui %[[W0]], %[[N]] : index
// CHECK-NEXT: %[[C16:.*]] = arith.constant 16 : index
// CHECK-NEXT: %[[DIV:.*]] = arith.muli %[[N]], %[[C16]] : index
// CHECK-NEXT: %[[BUMP:.*]] = arith.subi %[[DIV]], %{{.*}} : index
// CHECK-NEXT: %[[C15:.*]] = arith.constant 15 : index
// CHECK-NEXT: %[[W2:.*]] = arith.addi %[[W1]], %[[C15]] : index
// CHECK-NEXT: %[[MAXSEG:.*]] = arith.minsi %[[W2]], %[[TOTAL]] : index
// CHECK: %[[SEG:.*]] = arith.remui
// CHECK-NEXT: %[[S0:.*]] = arith.muli %[[SEG]], %[[TOTAL]] : index
// CHECK-NEXT: %[[S1:.*]] = arith.addi %[[S0]], %[[BUMP]] : index
// CHECK-NEXT: %[[S2:.*]] = arith.divui %[[S1]], %[[DIV]] : index
// CHECK-NEXT: %[[S3:.*]] = arith.muli %[[S2]], %[[C16]] : index
// CHECK-NEXT: arith.minsi %[[TOTAL]], %[[S3]] : index
// CHECK: scf.for %{{.*}} = %{{.*}} to %[[MAXSEG]] step %[[CHUNK]] {
// CHECK: pld.tile.remote_load {{.*}} tail_padding
// CHECK: %[[LAST:.*]] = arith.constant 1023 : index
// CHECK-NEXT: %[[E0:.*]] = arith.addi %[[MAXSEG]], %[[LAST]] : index
// CHECK-NEXT: %[[SUBS:.*]] = arith.divui %[[E0]], %[[CHUNK]] : index
// CHECK-NEXT: %[[E1:.*]] = arith.addi %[[SUBS]], %[[SUBS]] : index
// CHECK-NEXT: %[[E2:.*]] = arith.index_cast %[[E1]] : index to i32
// CHECK-NEXT: %[[Z:.*]] = arith.constant 0 : i32
// CHECK-NEXT: %[[REFUND:.*]] = arith.subi %[[Z]], %[[E2]] : i32
// CHECK-NEXT: %[[ROWS:.*]] = arith.addi %[[STEPS]], %[[STEPS]] : index
// CHECK-NEXT: scf.for %{{.*}} = %{{.*}} to %[[ROWS]]
// CHECK: pld.system.notify {{.*}}, %[[REFUND]] atomic_add
func.func @allreduce_ring_dynamic(%d: !pld.dtensor<4x256xf16>, %s: !pld.dtensor<?x?xi32>) attributes {pl.kind = #pl.kind<aiv>} {
  %r = pld.tensor.allreduce %d, %s sum ring cores 1 : !pld.dtensor<4x256xf16>, !pld.dtensor<?x?xi32>
  return
}

// Mesh allreduce, f32, N = 1024 < 4096: one chunk of round_up(1024, 8) =
// 1024 columns through the linear [1, N] view. The ready barrier is
// generation 1, chunk k's read-done barrier generation k + 2 (before the
// store), and the refund 1 + 1 = 2.
// CHECK-LABEL: func.func @allreduce_mesh
// CHECK-SAME: (%[[D:.*]]: !pld.dtensor<4x256xf32>, %[[SIG:.*]]: !pld.dtensor<?x1xi32>)
// CHECK: %[[ME:.*]] = pld.system.rank
// CHECK: %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT: %[[C1:.*]] = arith.constant 1 : index
// CHECK-NEXT: %[[V:.*]] = pl.tensor.view %[[D]] : !pld.dtensor<4x256xf32> -> !pld.dtensor<1x1024xf32>
// CHECK: pld.system.wait %[[SIG]]
// CHECK: %[[N:.*]] = arith.constant 1024 : index
// CHECK-NEXT: %[[CHUNK:.*]] = arith.constant 1024 : index
// CHECK-NEXT: %[[TWO:.*]] = arith.constant 2 : index
// CHECK-NEXT: scf.for %[[COL:.*]] = %[[C0]] to %[[N]] step %[[CHUNK]] {
// CHECK-NEXT: %[[REM:.*]] = arith.subi %[[N]], %[[COL]] : index
// CHECK-NEXT: %[[VC:.*]] = arith.minsi %[[CHUNK]], %[[REM]] : index
// CHECK-NEXT: %[[OWN:.*]] = pl.tile.load %[[V]][%[[C0]], %[[COL]]] valid(%[[VC]]) : !pld.dtensor<1x1024xf32> -> !pl.tile<1x1024xf32, vec, valid = 1x?>
// CHECK-NEXT: %[[ACC0:.*]] = pl.tile.fillpad %[[OWN]] zero : {{.*}} -> !pl.tile<1x1024xf32, vec, pad = zero>
// CHECK-NEXT: %[[SUM:.*]] = scf.for {{.*}} iter_args(%[[ACC:.*]] = %[[ACC0]])
// CHECK: %[[R:.*]] = pld.tile.remote_load %[[V]][%[[C0]], %[[COL]]] from %{{.*}} valid(%[[VC]]) :
// CHECK-NEXT: %[[RP:.*]] = pl.tile.fillpad %[[R]] zero
// CHECK-NEXT: pl.tile.add %[[ACC]], %[[RP]]
// CHECK: %[[K:.*]] = arith.divui %[[COL]], %[[CHUNK]] : index
// CHECK-NEXT: %[[GI:.*]] = arith.addi %[[K]], %[[TWO]] : index
// CHECK-NEXT: %[[G:.*]] = arith.index_cast %[[GI]] : index to i32
// CHECK: pld.system.notify %[[SIG]]
// CHECK: pld.system.wait %[[SIG]][%{{.*}}, %[[C0]]], %[[G]] ge
// CHECK: %[[OUT:.*]] = pl.tile.set_validshape %[[SUM]], %[[C1]], %[[VC]]
// CHECK-NEXT: pl.tile.store %[[OUT]], %[[V]][%[[C0]], %[[COL]]]
// CHECK: arith.constant -2 : i32
// CHECK-NOT: pld.tensor.allreduce
func.func @allreduce_mesh(%d: !pld.dtensor<4x256xf32>, %s: !Sig) attributes {pl.kind = #pl.kind<aiv>} {
  %r = pld.tensor.allreduce %d, %s sum mesh cores 1 : !pld.dtensor<4x256xf32>, !Sig
  return
}

// f16, N = 16000: 8192-column chunks (16 KiB), so two chunks and a refund of
// 3; peers' rows load rounded up to 16 elements with tail padding, then the
// valid shape narrows back. max reduces with pl.tile.maximum.
// CHECK-LABEL: func.func @allreduce_mesh_f16
// CHECK: %[[N:.*]] = arith.constant 16000 : index
// CHECK-NEXT: %[[CHUNK:.*]] = arith.constant 8192 : index
// CHECK: scf.for %[[COL:.*]] = %{{.*}} to %[[N]] step %[[CHUNK]] {
// CHECK: %[[VC:.*]] = arith.minsi %[[CHUNK]], %{{.*}} : index
// CHECK: %[[C15:.*]] = arith.constant 15 : index
// CHECK-NEXT: %[[C16:.*]] = arith.constant 16 : index
// CHECK-NEXT: %[[B:.*]] = arith.addi %[[VC]], %[[C15]] : index
// CHECK-NEXT: %[[Q:.*]] = arith.divui %[[B]], %[[C16]] : index
// CHECK-NEXT: %[[UP:.*]] = arith.muli %[[Q]], %[[C16]] : index
// CHECK-NEXT: %[[R:.*]] = pld.tile.remote_load %{{.*}} valid(%[[UP]]) tail_padding : !pld.dtensor<1x16000xf16> -> !pl.tile<1x8192xf16, vec, valid = 1x?>
// CHECK-NEXT: %[[RV:.*]] = pl.tile.set_validshape %[[R]], %{{.*}}, %[[VC]]
// CHECK-NEXT: %[[RP:.*]] = pl.tile.fillpad %[[RV]] zero
// CHECK-NEXT: pl.tile.maximum %{{.*}}, %[[RP]]
// CHECK: arith.constant -3 : i32
func.func @allreduce_mesh_f16(%d: !pld.dtensor<16x1000xf16>, %s: !Sig) attributes {pl.kind = #pl.kind<aiv>} {
  %r = pld.tensor.allreduce %d, %s max mesh cores 1 : !pld.dtensor<16x1000xf16>, !Sig
  return
}
