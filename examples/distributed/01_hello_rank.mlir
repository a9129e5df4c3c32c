// Step 01 — hello rank: every device learns its rank and the rank count.
//
// The three levels of a distributed program:
// - @main, the host orchestrator, allocates a window buffer (symmetric
//   memory: one copy per rank, same offset) and runs @chip on every device;
// - @chip, the chip orchestration, dispatches the kernel;
// - @hello, the InCore kernel, reads its domain-local rank and the rank
//   count and writes them into its own row of the window.
// The rank count is dynamic: nothing here depends on P.

!Ranks = !pld.dtensor<?x2xi32>

func.func @main() attributes {pl.level = #pl.level<host>, pl.role = #pl.role<orchestrator>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %row_bytes = arith.constant 8 : i64
  %world = pld.system.world_size : i64
  %bytes = arith.muli %world, %row_bytes : i64
  %buf = pld.tensor.alloc_window_buffer %bytes name "ranks" : i64 -> !pl.ptr
  %ranks = pld.tensor.window %buf : !pl.ptr -> !Ranks
  %devices = arith.index_cast %world : i64 to index
  scf.for %device = %c0 to %devices step %c1 {
    pld.dispatch @chip(%ranks) on %device : (!Ranks) -> ()
  }
  return
}

func.func @chip(%ranks: !Ranks) attributes {pl.kind = #pl.kind<orchestration>} {
  pl.call @hello(%ranks) : (!Ranks) -> ()
  return
}

func.func @hello(%ranks: !Ranks) attributes {pl.kind = #pl.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %ctx = pld.system.get_comm_ctx %ranks : !Ranks
  %me = pld.system.rank %ctx : i32
  %n = pld.system.nranks %ctx : i32
  // A 1x2 tile holding (rank, count), stored into row `me` of our own copy.
  %t0 = pl.tile.create : !pl.tile<1x2xi32, vec>
  %t1 = pl.tile.write %t0[%c0, %c0], %me : !pl.tile<1x2xi32, vec>, i32
  %t2 = pl.tile.write %t1[%c0, %c1], %n : !pl.tile<1x2xi32, vec>, i32
  %row = arith.index_cast %me : i32 to index
  pld.tile.remote_store %t2, %ranks[%row, %c0] to %me none : !pl.tile<1x2xi32, vec>, !Ranks
  return
}
