// A two-phase allreduce from InCore composites: rank r stages W rows x[r],
// reduce_scatter (sum) leaves row r reduced on rank r, the rank halves it
// into red[r] (a GM row), and an allgather pushes red[r] to every rank's
// "full" window. PyPTO: reduce_scatter + allgather sharing one signal.

!X = !pl.tensor<?x64xf32>
!Block = !pl.tensor<?x64xf32>
!ORow = !pl.tensor<1x64xf32>
!Win = !pld.dtensor<?x64xf32>
!Sig = !pld.dtensor<?x1xi32>
!R = !pl.tile<1x64xf32, vec>

func.func @main(%x: !X, %red: !X {pl.direction = #pl.direction<out>})
    attributes {pl.level = #pl.level<host>, pl.role = #pl.role<orchestrator>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %row_bytes = arith.constant 256 : i64
  %cell = arith.constant 4 : i64
  %world = pld.system.world_size : i64
  %bytes = arith.muli %world, %row_bytes : i64
  %sig_bytes = arith.muli %world, %cell : i64
  %parts_buf = pld.tensor.alloc_window_buffer %bytes name "parts" : i64 -> !pl.ptr
  %full_buf = pld.tensor.alloc_window_buffer %bytes name "full" : i64 -> !pl.ptr
  %sig_buf = pld.tensor.alloc_window_buffer %sig_bytes name "signal" : i64 -> !pl.ptr
  %parts = pld.tensor.window %parts_buf : !pl.ptr -> !Win
  %full = pld.tensor.window %full_buf : !pl.ptr -> !Win
  %sig = pld.tensor.window %sig_buf : !pl.ptr -> !Sig
  %devices = arith.index_cast %world : i64 to index
  scf.for %r = %c0 to %devices step %c1 {
    %first = arith.muli %r, %devices : index
    %block = pl.tensor.slice %x[%first, %c0] sizes(%devices) : !X -> !Block
    %mine = pl.tensor.slice %red[%r, %c0] : !X -> !ORow
    pld.dispatch @chip(%block, %mine, %parts, %full, %sig) on %r : (!Block, !ORow, !Win, !Win, !Sig) -> ()
  }
  return
}

func.func @chip(%block: !Block, %mine: !ORow, %parts: !Win, %full: !Win, %sig: !Sig)
    attributes {pl.kind = #pl.kind<orchestration>} {
  pl.call @reduce_then_gather(%block, %mine, %parts, %full, %sig) : (!Block, !ORow, !Win, !Win, !Sig) -> ()
  return
}

func.func @reduce_then_gather(%block: !Block, %mine: !ORow {pl.direction = #pl.direction<inout>},
                              %parts: !Win, %full: !Win, %sig: !Sig) attributes {pl.kind = #pl.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %half = arith.constant 0.5 : f32
  %ctx = pld.system.get_comm_ctx %parts : !Win
  %me = pld.system.rank %ctx : i32
  %n = pld.system.nranks %ctx : i32
  %rows = arith.index_cast %n : i32 to index
  %row = arith.index_cast %me : i32 to index
  scf.for %i = %c0 to %rows step %c1 {
    %t = pl.tile.load %block[%i, %c0] : !Block -> !R
    %s = pl.tile.store %t, %parts[%i, %c0] : !R, !Win
  }
  %scattered = pld.tensor.reduce_scatter %parts, %sig sum : !Win, !Sig
  %sum = pl.tile.load %scattered[%row, %c0] : !Win -> !R
  %h = pl.tile.muls %sum, %half : !R, f32
  %st = pl.tile.store %h, %mine[%c0, %c0] : !R, !ORow
  %all = pld.tensor.allgather %mine, %full, %sig : !ORow, !Win, !Sig
  return
}
