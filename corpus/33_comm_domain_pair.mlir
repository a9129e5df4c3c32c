// A comm domain over a subset of devices: devices 0 and 1 form "pair" and
// take the max of their slices with an InCore mesh allreduce (ranks 0, 1 of
// 2 inside it); other devices work alone, out[r] = 2 x[r]. PyPTO:
// pld.comm_domain with devices and slots, dispatches inside and outside it.

!X = !pl.tensor<?x8x64xf32>
!Slice3 = !pl.tensor<1x8x64xf32>
!Local = !pl.tensor<8x64xf32>
!Win = !pld.dtensor<8x64xf32>
!Sig = !pld.dtensor<2x1xi32>
!T = !pl.tile<8x64xf32, vec>

func.func @main(%x: !X, %out: !X {pl.direction = #pl.direction<out>})
    attributes {pl.level = #pl.level<host>, pl.role = #pl.role<orchestrator>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %world = pld.system.world_size : i64
  %devices = arith.index_cast %world : i64 to index
  pld.comm_domain "pair" devices [0, 1] slots ["pair_max", "pair_signal"] {
    %bytes = arith.constant 2048 : i64
    %sig_bytes = arith.constant 8 : i64
    %mbuf = pld.tensor.alloc_window_buffer %bytes name "pair_max" : i64 -> !pl.ptr
    %sbuf = pld.tensor.alloc_window_buffer %sig_bytes name "pair_signal" : i64 -> !pl.ptr
    %m = pld.tensor.window %mbuf : !pl.ptr -> !Win
    %sig = pld.tensor.window %sbuf : !pl.ptr -> !Sig
    scf.for %r = %c0 to %c2 step %c1 {
      %xs = pl.tensor.slice %x[%r, %c0, %c0] : !X -> !Slice3
      %xr = pl.tensor.view %xs : !Slice3 -> !Local
      %os = pl.tensor.slice %out[%r, %c0, %c0] : !X -> !Slice3
      %or = pl.tensor.view %os : !Slice3 -> !Local
      pld.dispatch @pair_chip(%xr, %or, %m, %sig) on %r : (!Local, !Local, !Win, !Sig) -> ()
    }
    pld.yield
  }
  scf.for %r = %c2 to %devices step %c1 {
    %xs = pl.tensor.slice %x[%r, %c0, %c0] : !X -> !Slice3
    %xr = pl.tensor.view %xs : !Slice3 -> !Local
    %os = pl.tensor.slice %out[%r, %c0, %c0] : !X -> !Slice3
    %or = pl.tensor.view %os : !Slice3 -> !Local
    pld.dispatch @solo_chip(%xr, %or) on %r : (!Local, !Local) -> ()
  }
  return
}

func.func @pair_chip(%x: !Local, %out: !Local, %m: !Win, %sig: !Sig) attributes {pl.kind = #pl.kind<orchestration>} {
  pl.call @pair_max(%x, %out, %m, %sig) : (!Local, !Local, !Win, !Sig) -> ()
  return
}

func.func @pair_max(%x: !Local, %out: !Local {pl.direction = #pl.direction<out>}, %m: !Win, %sig: !Sig)
    attributes {pl.kind = #pl.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %t = pl.tile.load %x[%c0, %c0] : !Local -> !T
  %st = pl.tile.store %t, %m[%c0, %c0] : !T, !Win
  %r = pld.tensor.allreduce %m, %sig max mesh cores 1 : !Win, !Sig
  %v = pl.tile.load %r[%c0, %c0] : !Win -> !T
  %o = pl.tile.store %v, %out[%c0, %c0] : !T, !Local
  return
}

func.func @solo_chip(%x: !Local, %out: !Local) attributes {pl.kind = #pl.kind<orchestration>} {
  pl.call @twice(%x, %out) : (!Local, !Local) -> ()
  return
}

func.func @twice(%x: !Local, %out: !Local {pl.direction = #pl.direction<out>}) attributes {pl.kind = #pl.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %two = arith.constant 2.0 : f32
  %t = pl.tile.load %x[%c0, %c0] : !Local -> !T
  %d = pl.tile.muls %t, %two : !T, f32
  %o = pl.tile.store %d, %out[%c0, %c0] : !T, !Local
  return
}
