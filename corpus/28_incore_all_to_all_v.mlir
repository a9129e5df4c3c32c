// MoE-style token dispatch, InCore all_to_all_v: rank s sends block d (up to
// 2 token rows, a count each) to rank d; rank d sums the first recv_counts[s]
// rows of each received block into out[d] (pl.tensor.read bounds an scf.for).
// NR is static (4), as the op requires, so the program runs at P = 4 only.

!Tok = !pl.tensor<?x32xf32>
!Block = !pl.tensor<8x32xf32>
!Cnt = !pl.tensor<?x1xi32>
!Send = !pl.tensor<4x1xi32>
!ORow = !pl.tensor<1x32xf32>
!Target = !pld.dtensor<8x32xf32>
!Sig = !pld.dtensor<4x1xi32>
!R = !pl.tile<1x32xf32, vec>

func.func @main(%tokens: !Tok, %counts: !Cnt, %out: !Tok {pl.direction = #pl.direction<out>})
    attributes {pl.level = #pl.level<host>, pl.role = #pl.role<orchestrator>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %target_bytes = arith.constant 1024 : i64
  %cell_bytes = arith.constant 16 : i64
  %world = pld.system.world_size : i64
  %target_buf = pld.tensor.alloc_window_buffer %target_bytes name "received" : i64 -> !pl.ptr
  %recv_buf = pld.tensor.alloc_window_buffer %cell_bytes name "recv_counts" : i64 -> !pl.ptr
  %sig_buf = pld.tensor.alloc_window_buffer %cell_bytes name "signal" : i64 -> !pl.ptr
  %target = pld.tensor.window %target_buf : !pl.ptr -> !Target
  %recv = pld.tensor.window %recv_buf : !pl.ptr -> !Sig
  %sig = pld.tensor.window %sig_buf : !pl.ptr -> !Sig
  %devices = arith.index_cast %world : i64 to index
  scf.for %r = %c0 to %devices step %c1 {
    %tfirst = arith.muli %r, %c8 : index
    %cfirst = arith.muli %r, %c4 : index
    %tb = pl.tensor.slice %tokens[%tfirst, %c0] : !Tok -> !Block
    %cb = pl.tensor.slice %counts[%cfirst, %c0] : !Cnt -> !Send
    %orow = pl.tensor.slice %out[%r, %c0] : !Tok -> !ORow
    pld.dispatch @chip(%tb, %cb, %orow, %target, %recv, %sig) on %r : (!Block, !Send, !ORow, !Target, !Sig, !Sig) -> ()
  }
  return
}

func.func @chip(%tokens: !Block, %counts: !Send, %out: !ORow, %target: !Target, %recv: !Sig, %sig: !Sig)
    attributes {pl.kind = #pl.kind<orchestration>} {
  pl.call @dispatch_tokens(%tokens, %counts, %target, %recv, %sig) : (!Block, !Send, !Target, !Sig, !Sig) -> ()
  pl.call @combine(%target, %recv, %out) : (!Target, !Sig, !ORow) -> ()
  return
}

func.func @dispatch_tokens(%tokens: !Block, %counts: !Send, %target: !Target, %recv: !Sig, %sig: !Sig)
    attributes {pl.kind = #pl.kind<aiv>} {
  %v = pld.tensor.all_to_all_v %tokens, %target, %sig, %counts, %recv : !Block, !Target, !Sig, !Send, !Sig
  return
}

func.func @combine(%target: !Target, %recv: !Sig, %out: !ORow {pl.direction = #pl.direction<out>})
    attributes {pl.kind = #pl.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %zero = arith.constant 0.0 : f32
  %ctx = pld.system.get_comm_ctx %target : !Target
  %n = pld.system.nranks %ctx : i32
  %srcs = arith.index_cast %n : i32 to index
  %init = pl.tile.full %zero : f32 -> !R
  %sum = scf.for %s = %c0 to %srcs step %c1 iter_args(%acc = %init) -> (!R) {
    %cnt = pl.tensor.read %recv[%s, %c0] : !Sig -> i32
    %rows = arith.index_cast %cnt : i32 to index
    %base = arith.muli %s, %c2 : index
    %part = scf.for %i = %c0 to %rows step %c1 iter_args(%a = %acc) -> (!R) {
      %at = arith.addi %base, %i : index
      %t = pl.tile.load %target[%at, %c0] : !Target -> !R
      %a2 = pl.tile.add %a, %t : !R, !R -> !R
      scf.yield %a2 : !R
    }
    scf.yield %part : !R
  }
  %st = pl.tile.store %sum, %out[%c0, %c0] : !R, !ORow
  return
}
