// InCore all_to_all: rank s holds W rows x[s] (one per destination), the
// composite puts row d into row s of rank d's "inbox" (out of place), then
// rank d writes out[d][s] = exp(inbox[s]) - 1. PyPTO: a composite collective
// with a plain GM input and a `?`-row window, a per-rank loop over NR rows.

!X = !pl.tensor<?x32xf32>
!Block = !pl.tensor<?x32xf32>
!Win = !pld.dtensor<?x32xf32>
!Sig = !pld.dtensor<?x1xi32>
!R = !pl.tile<1x32xf32, vec>

func.func @main(%x: !X, %out: !X {pl.direction = #pl.direction<out>})
    attributes {pl.level = #pl.level<host>, pl.role = #pl.role<orchestrator>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %row_bytes = arith.constant 128 : i64
  %cell = arith.constant 4 : i64
  %world = pld.system.world_size : i64
  %bytes = arith.muli %world, %row_bytes : i64
  %sig_bytes = arith.muli %world, %cell : i64
  %inbox_buf = pld.tensor.alloc_window_buffer %bytes name "inbox" : i64 -> !pl.ptr
  %sig_buf = pld.tensor.alloc_window_buffer %sig_bytes name "signal" : i64 -> !pl.ptr
  %inbox = pld.tensor.window %inbox_buf : !pl.ptr -> !Win
  %sig = pld.tensor.window %sig_buf : !pl.ptr -> !Sig
  %devices = arith.index_cast %world : i64 to index
  scf.for %r = %c0 to %devices step %c1 {
    %first = arith.muli %r, %devices : index
    %xb = pl.tensor.slice %x[%first, %c0] sizes(%devices) : !X -> !Block
    %ob = pl.tensor.slice %out[%first, %c0] sizes(%devices) : !X -> !Block
    pld.dispatch @chip(%xb, %ob, %inbox, %sig) on %r : (!Block, !Block, !Win, !Sig) -> ()
  }
  return
}

func.func @chip(%x: !Block, %out: !Block, %inbox: !Win, %sig: !Sig) attributes {pl.kind = #pl.kind<orchestration>} {
  pl.call @exchange_exp(%x, %out, %inbox, %sig) : (!Block, !Block, !Win, !Sig) -> ()
  return
}

func.func @exchange_exp(%x: !Block, %out: !Block {pl.direction = #pl.direction<out>}, %inbox: !Win, %sig: !Sig)
    attributes {pl.kind = #pl.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1.0 : f32
  %swapped = pld.tensor.all_to_all %x, %inbox, %sig : !Block, !Win, !Sig
  %ctx = pld.system.get_comm_ctx %inbox : !Win
  %n = pld.system.nranks %ctx : i32
  %rows = arith.index_cast %n : i32 to index
  scf.for %s = %c0 to %rows step %c1 {
    %t = pl.tile.load %swapped[%s, %c0] : !Win -> !R
    %e = pl.tile.exp %t : !R
    %m = pl.tile.subs %e, %one : !R, f32
    %st = pl.tile.store %m, %out[%s, %c0] : !R, !Block
  }
  return
}
