// Host builtin allreduce (sum, mesh): devices stage their slices x[r] of a
// stacked host tensor into a window, the host sums it across devices, and each
// device writes out[r] = sum / W - x[r]. PyPTO: host `for r in range(world)`
// dispatch on slices x[r], a host collective between two dispatch rounds.

!X = !pl.tensor<?x16x64xf32>
!Slice3 = !pl.tensor<1x16x64xf32>
!Local = !pl.tensor<16x64xf32>
!Acc = !pld.dtensor<16x64xf32>
!T = !pl.tile<16x64xf32, vec>

func.func @main(%x: !X, %out: !X {pl.direction = #pl.direction<out>})
    attributes {pl.level = #pl.level<host>, pl.role = #pl.role<orchestrator>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %bytes = arith.constant 4096 : i64
  %world = pld.system.world_size : i64
  %buf = pld.tensor.alloc_window_buffer %bytes name "acc" : i64 -> !pl.ptr
  %acc = pld.tensor.window %buf : !pl.ptr -> !Acc
  %devices = arith.index_cast %world : i64 to index
  scf.for %r = %c0 to %devices step %c1 {
    %xs = pl.tensor.slice %x[%r, %c0, %c0] : !X -> !Slice3
    %xr = pl.tensor.view %xs : !Slice3 -> !Local
    pld.dispatch @stage(%xr, %acc) on %r : (!Local, !Acc) -> ()
  }
  %sum = pld.tensor.allreduce %acc sum mesh cores 1 : !Acc
  scf.for %r = %c0 to %devices step %c1 {
    %xs = pl.tensor.slice %x[%r, %c0, %c0] : !X -> !Slice3
    %xr = pl.tensor.view %xs : !Slice3 -> !Local
    %os = pl.tensor.slice %out[%r, %c0, %c0] : !X -> !Slice3
    %or = pl.tensor.view %os : !Slice3 -> !Local
    pld.dispatch @finish(%xr, %sum, %or) on %r : (!Local, !Acc, !Local) -> ()
  }
  return
}

func.func @stage(%x: !Local, %acc: !Acc) attributes {pl.kind = #pl.kind<orchestration>} {
  pl.call @copy_in(%x, %acc) : (!Local, !Acc) -> ()
  return
}

func.func @copy_in(%x: !Local, %acc: !Acc {pl.direction = #pl.direction<out>}) attributes {pl.kind = #pl.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %t = pl.tile.load %x[%c0, %c0] : !Local -> !T
  %s = pl.tile.store %t, %acc[%c0, %c0] : !T, !Acc
  return
}

func.func @finish(%x: !Local, %acc: !Acc, %out: !Local) attributes {pl.kind = #pl.kind<orchestration>} {
  pl.call @deviation(%x, %acc, %out) : (!Local, !Acc, !Local) -> ()
  return
}

func.func @deviation(%x: !Local, %acc: !Acc, %out: !Local {pl.direction = #pl.direction<out>}) attributes {pl.kind = #pl.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %ctx = pld.system.get_comm_ctx %acc : !Acc
  %n = pld.system.nranks %ctx : i32
  %nf = arith.sitofp %n : i32 to f32
  %one = arith.constant 1.0 : f32
  %inv = arith.divf %one, %nf : f32
  %s = pl.tile.load %acc[%c0, %c0] : !Acc -> !T
  %mine = pl.tile.load %x[%c0, %c0] : !Local -> !T
  %mean = pl.tile.muls %s, %inv : !T, f32
  %d = pl.tile.sub %mean, %mine : !T, !T -> !T
  %o = pl.tile.store %d, %out[%c0, %c0] : !T, !Local
  return
}
