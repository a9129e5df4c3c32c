// Host builtin broadcast: every device stages its own weights w[r] into a
// window, the host broadcasts rank 1's copy to all devices, and each device
// computes out[r] = relu(x[r] * w[1]). PyPTO: a host collective (broadcast,
// root 1) on a [W] signal between two per-device dispatch loops.

!S = !pl.tensor<?x16x32xf32>
!Slice3 = !pl.tensor<1x16x32xf32>
!Local = !pl.tensor<16x32xf32>
!Win = !pld.dtensor<16x32xf32>
!Sig = !pld.dtensor<?xi32>
!T = !pl.tile<16x32xf32, vec>

func.func @main(%x: !S, %w: !S, %out: !S {pl.direction = #pl.direction<out>})
    attributes {pl.level = #pl.level<host>, pl.role = #pl.role<orchestrator>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %bytes = arith.constant 2048 : i64
  %cell = arith.constant 4 : i64
  %world = pld.system.world_size : i64
  %sig_bytes = arith.muli %world, %cell : i64
  %wbuf = pld.tensor.alloc_window_buffer %bytes name "weights" : i64 -> !pl.ptr
  %sbuf = pld.tensor.alloc_window_buffer %sig_bytes name "signal" : i64 -> !pl.ptr
  %win = pld.tensor.window %wbuf : !pl.ptr -> !Win
  %sig = pld.tensor.window %sbuf : !pl.ptr -> !Sig
  %devices = arith.index_cast %world : i64 to index
  scf.for %r = %c0 to %devices step %c1 {
    %ws = pl.tensor.slice %w[%r, %c0, %c0] : !S -> !Slice3
    %wr = pl.tensor.view %ws : !Slice3 -> !Local
    pld.dispatch @stage(%wr, %win) on %r : (!Local, !Win) -> ()
  }
  %shared = pld.tensor.broadcast %win, %sig root 1 : !Win, !Sig
  scf.for %r = %c0 to %devices step %c1 {
    %xs = pl.tensor.slice %x[%r, %c0, %c0] : !S -> !Slice3
    %xr = pl.tensor.view %xs : !Slice3 -> !Local
    %os = pl.tensor.slice %out[%r, %c0, %c0] : !S -> !Slice3
    %or = pl.tensor.view %os : !Slice3 -> !Local
    pld.dispatch @apply(%xr, %shared, %or) on %r : (!Local, !Win, !Local) -> ()
  }
  return
}

func.func @stage(%w: !Local, %win: !Win) attributes {pl.kind = #pl.kind<orchestration>} {
  pl.call @copy_in(%w, %win) : (!Local, !Win) -> ()
  return
}

func.func @copy_in(%w: !Local, %win: !Win {pl.direction = #pl.direction<out>}) attributes {pl.kind = #pl.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %t = pl.tile.load %w[%c0, %c0] : !Local -> !T
  %s = pl.tile.store %t, %win[%c0, %c0] : !T, !Win
  return
}

func.func @apply(%x: !Local, %win: !Win, %out: !Local) attributes {pl.kind = #pl.kind<orchestration>} {
  pl.call @scale_relu(%x, %win, %out) : (!Local, !Win, !Local) -> ()
  return
}

func.func @scale_relu(%x: !Local, %win: !Win, %out: !Local {pl.direction = #pl.direction<out>}) attributes {pl.kind = #pl.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %xt = pl.tile.load %x[%c0, %c0] : !Local -> !T
  %wt = pl.tile.load %win[%c0, %c0] : !Win -> !T
  %p = pl.tile.mul %xt, %wt : !T, !T -> !T
  %r = pl.tile.relu %p : !T
  %s = pl.tile.store %r, %out[%c0, %c0] : !T, !Local
  return
}
