// Step 04 — a hand-rolled barrier over a mesh signal (docs/pld-guide.md): every rank adds 1
// to its own cell [me, 0] in every peer's copy of the signal, then waits
// until each peer's cell in its local copy reached the generation.
//
// The rank count is read at run time (pld.system.nranks), so one kernel
// serves every P. Specialising it for P = 4 and canonicalising turns the
// loop bounds into constants:
//
//   pto-opt examples/distributed/04_barrier.mlir \
//     --pass-pipeline='builtin.module(func.func(pld-specialize-nranks{nranks=4}), canonicalize)'

func.func @barrier(%signal: !pld.dtensor<?x1xi32>, %generation: i32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1 : i32
  %ctx = pld.system.get_comm_ctx %signal : !pld.dtensor<?x1xi32>
  %me = pld.system.rank %ctx : i32
  %me_row = arith.index_cast %me : i32 to index
  %nranks = pld.system.nranks %ctx : i32
  %peers = arith.index_cast %nranks : i32 to index

  // Publish: one credit to every peer (including ourselves; a local atomic).
  scf.for %peer = %c0 to %peers step %c1 {
    %peer_rank = arith.index_cast %peer : index to i32
    pld.system.notify %signal[%me_row, %c0] to %peer_rank, %one atomic_add : !pld.dtensor<?x1xi32>
  }

  // Consume: wait until every rank's credit for this generation arrived.
  scf.for %src = %c0 to %peers step %c1 {
    pld.system.wait %signal[%src, %c0], %generation ge : !pld.dtensor<?x1xi32>
  }
  return
}
