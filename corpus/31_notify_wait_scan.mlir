// A prefix sum handed down the ranks with raw signals: rank r waits (eq) for
// the left carry, adds x[r], writes out[r], forwards it (remote_store + notify
// set) and reports to rank 0 (notify atomic_add), which waits (ge W-1) and reads
// the total from the last rank. PyPTO: notify/wait, kernel branches on the rank.

!X = !pl.tensor<?x8x32xf32>
!Slice3 = !pl.tensor<1x8x32xf32>
!Local = !pl.tensor<8x32xf32>
!Carry = !pld.dtensor<8x32xf32>
!Sig = !pld.dtensor<2x1xi32>
!T = !pl.tile<8x32xf32, vec>

func.func @main(%x: !X, %out: !X {pl.direction = #pl.direction<out>}, %grand: !Local {pl.direction = #pl.direction<out>})
    attributes {pl.level = #pl.level<host>, pl.role = #pl.role<orchestrator>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %bytes = arith.constant 1024 : i64
  %sig_bytes = arith.constant 8 : i64
  %world = pld.system.world_size : i64
  %carry_buf = pld.tensor.alloc_window_buffer %bytes name "carry" : i64 -> !pl.ptr
  %sig_buf = pld.tensor.alloc_window_buffer %sig_bytes name "signal" : i64 -> !pl.ptr
  %carry = pld.tensor.window %carry_buf : !pl.ptr -> !Carry
  %sig = pld.tensor.window %sig_buf : !pl.ptr -> !Sig
  %devices = arith.index_cast %world : i64 to index
  scf.for %r = %c0 to %devices step %c1 {
    %xs = pl.tensor.slice %x[%r, %c0, %c0] : !X -> !Slice3
    %xr = pl.tensor.view %xs : !Slice3 -> !Local
    %os = pl.tensor.slice %out[%r, %c0, %c0] : !X -> !Slice3
    %or = pl.tensor.view %os : !Slice3 -> !Local
    pld.dispatch @chip(%xr, %or, %grand, %carry, %sig) on %r : (!Local, !Local, !Local, !Carry, !Sig) -> ()
  }
  return
}

func.func @chip(%x: !Local, %out: !Local, %grand: !Local, %carry: !Carry, %sig: !Sig) attributes {pl.kind = #pl.kind<orchestration>} {
  pl.call @scan_step(%x, %out, %grand, %carry, %sig) : (!Local, !Local, !Local, !Carry, !Sig) -> ()
  return
}

func.func @scan_step(%x: !Local, %out: !Local {pl.direction = #pl.direction<out>}, %grand: !Local {pl.direction = #pl.direction<out>},
                     %carry: !Carry, %sig: !Sig) attributes {pl.kind = #pl.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %ctx = pld.system.get_comm_ctx %carry : !Carry
  %me = pld.system.rank %ctx : i32
  %n = pld.system.nranks %ctx : i32
  %last = arith.subi %n, %one : i32
  %is_first = arith.cmpi eq, %me, %zero : i32
  %mine = pl.tile.load %x[%c0, %c0] : !Local -> !T
  // The carry so far: nothing on rank 0, the left neighbour's otherwise.
  %acc = scf.if %is_first -> (!T) {
    scf.yield %mine : !T
  } else {
    pld.system.wait %sig[%c0, %c0], %one eq : !Sig
    %in = pl.tile.load %carry[%c0, %c0] : !Carry -> !T
    %sum = pl.tile.add %in, %mine : !T, !T -> !T
    scf.yield %sum : !T
  }
  %o = pl.tile.store %acc, %out[%c0, %c0] : !T, !Local
  pld.tile.remote_store %acc, %carry[%c0, %c0] to %me none : !T, !Carry
  %has_right = arith.cmpi slt, %me, %last : i32
  scf.if %has_right {
    %right = arith.addi %me, %one : i32
    pld.tile.remote_store %acc, %carry[%c0, %c0] to %right none : !T, !Carry
    pld.system.notify %sig[%c0, %c0] to %right, %one set : !Sig
  }
  scf.if %is_first {
    pld.system.wait %sig[%c1, %c0], %last ge : !Sig
    %total = pld.tile.remote_load %carry[%c0, %c0] from %last : !Carry -> !T
    %g = pl.tile.store %total, %grand[%c0, %c0] : !T, !Local
  } else {
    pld.system.notify %sig[%c1, %c0] to %zero, %one atomic_add : !Sig
  }
  return
}
