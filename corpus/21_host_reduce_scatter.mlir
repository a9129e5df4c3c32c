// Host builtin reduce_scatter (sum): device r stages its W-row block x[r] of
// a stacked [W*W, 64] tensor; after the host collective row r of device r is
// sum_p x[p][r], and device r writes out[r] = (r + 1) * that row. PyPTO:
// dynamic-size per-device slices (`?` = world size), a rank-derived scalar.

!X = !pl.tensor<?x64xf32>
!Block = !pl.tensor<?x64xf32>
!ORow = !pl.tensor<1x64xf32>
!Parts = !pld.dtensor<?x64xf32>
!Sig = !pld.dtensor<?xi32>
!R = !pl.tile<1x64xf32, vec>

func.func @main(%x: !X, %out: !X {pl.direction = #pl.direction<out>})
    attributes {pl.level = #pl.level<host>, pl.role = #pl.role<orchestrator>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %row_bytes = arith.constant 256 : i64
  %cell = arith.constant 4 : i64
  %world = pld.system.world_size : i64
  %bytes = arith.muli %world, %row_bytes : i64
  %sig_bytes = arith.muli %world, %cell : i64
  %pbuf = pld.tensor.alloc_window_buffer %bytes name "parts" : i64 -> !pl.ptr
  %sbuf = pld.tensor.alloc_window_buffer %sig_bytes name "signal" : i64 -> !pl.ptr
  %parts = pld.tensor.window %pbuf : !pl.ptr -> !Parts
  %sig = pld.tensor.window %sbuf : !pl.ptr -> !Sig
  %devices = arith.index_cast %world : i64 to index
  scf.for %r = %c0 to %devices step %c1 {
    %first = arith.muli %r, %devices : index
    %block = pl.tensor.slice %x[%first, %c0] sizes(%devices) : !X -> !Block
    pld.dispatch @stage(%block, %parts) on %r : (!Block, !Parts) -> ()
  }
  %reduced = pld.tensor.reduce_scatter %parts, %sig sum : !Parts, !Sig
  scf.for %r = %c0 to %devices step %c1 {
    %orow = pl.tensor.slice %out[%r, %c0] : !X -> !ORow
    pld.dispatch @finish(%reduced, %orow) on %r : (!Parts, !ORow) -> ()
  }
  return
}

func.func @stage(%block: !Block, %parts: !Parts) attributes {pl.kind = #pl.kind<orchestration>} {
  pl.call @copy_rows(%block, %parts) : (!Block, !Parts) -> ()
  return
}

func.func @copy_rows(%block: !Block, %parts: !Parts {pl.direction = #pl.direction<out>}) attributes {pl.kind = #pl.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %ctx = pld.system.get_comm_ctx %parts : !Parts
  %n = pld.system.nranks %ctx : i32
  %rows = arith.index_cast %n : i32 to index
  scf.for %i = %c0 to %rows step %c1 {
    %t = pl.tile.load %block[%i, %c0] : !Block -> !R
    %s = pl.tile.store %t, %parts[%i, %c0] : !R, !Parts
  }
  return
}

func.func @finish(%parts: !Parts, %out: !ORow) attributes {pl.kind = #pl.kind<orchestration>} {
  pl.call @scale_mine(%parts, %out) : (!Parts, !ORow) -> ()
  return
}

func.func @scale_mine(%parts: !Parts, %out: !ORow {pl.direction = #pl.direction<out>}) attributes {pl.kind = #pl.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1 : i32
  %ctx = pld.system.get_comm_ctx %parts : !Parts
  %me = pld.system.rank %ctx : i32
  %row = arith.index_cast %me : i32 to index
  %k = arith.addi %me, %one : i32
  %kf = arith.sitofp %k : i32 to f32
  %t = pl.tile.load %parts[%row, %c0] : !Parts -> !R
  %s = pl.tile.muls %t, %kf : !R, f32
  %st = pl.tile.store %s, %out[%c0, %c0] : !R, !ORow
  return
}
