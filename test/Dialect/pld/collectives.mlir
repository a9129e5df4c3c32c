// Window buffers, remote access, collectives and comm domains round-trip
// (custom and generic form), in pto-opt and in stock mlir-opt.
// RUN: pto-opt %s | pto-opt | FileCheck %s
// RUN: pto-opt %s --mlir-print-op-generic | pto-opt | FileCheck %s
// RUN: mlir-opt --load-dialect-plugin=%plugin %s | mlir-opt --load-dialect-plugin=%plugin | FileCheck %s
// Communication is never merged or dropped by generic passes.
// RUN: pto-opt %s --cse --canonicalize | FileCheck %s --check-prefix=KEPT

!Sig = !pld.dtensor<?x1xi32>
!Data = !pld.dtensor<4x256xf32>

// CHECK-LABEL: func.func @host
// CHECK: pld.system.world_size : i64
// CHECK: pld.tensor.alloc_window_buffer %{{.*}} name "signal" : i64 -> !pl.ptr
// CHECK: pld.tensor.window %{{.*}} : !pl.ptr -> !pld.dtensor<?x1xi32>
// CHECK: pld.tensor.window %{{.*}} sizes(%{{.*}}, %{{.*}}) : !pl.ptr -> !pld.dtensor<?x?xi32>
// CHECK: pld.tensor.allreduce %{{.*}} sum mesh cores 2 : !pld.dtensor<4x256xf32>
// CHECK: pld.tensor.barrier %{{.*}} : !pld.dtensor<8xi32>
// CHECK: pld.comm_domain "comm_d0" devices [0, 1] slots ["signal", "data"] {
// CHECK: !pld.dtensor<4x256xf32, window = "data">
func.func @host(%data: !Data, %flat: !pld.dtensor<8xi32>) attributes {pl.level = #pl.level<host>, pl.role = #pl.role<orchestrator>} {
  %w = pld.system.world_size : i64
  %bytes = arith.constant 4096 : i64
  %buf = pld.tensor.alloc_window_buffer %bytes name "signal" : i64 -> !pl.ptr
  %sig = pld.tensor.window %buf : !pl.ptr -> !Sig
  %rows = arith.constant 6 : index
  %cols = arith.constant 4 : index
  %ring = pld.tensor.window %buf sizes(%rows, %cols) : !pl.ptr -> !pld.dtensor<?x?xi32>
  %r = pld.tensor.allreduce %data sum mesh cores 2 : !Data
  %b = pld.tensor.barrier %flat : !pld.dtensor<8xi32>
  pld.comm_domain "comm_d0" devices [0, 1] slots ["signal", "data"] {
    %bound = pld.tensor.window %buf : !pl.ptr -> !pld.dtensor<4x256xf32, window = "data">
    pld.yield
  }
  return
}

// CHECK-LABEL: func.func @kernel
// CHECK: pld.tile.remote_load %{{.*}}[%{{.*}}, %{{.*}}] from %{{.*}} : !pld.dtensor<4x256xf32> -> !pl.tile<1x256xf32, vec>
// CHECK: pld.tile.remote_store %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] to %{{.*}} add : !pl.tile<1x256xf32, vec>, !pld.dtensor<4x256xf32>
// CHECK: pld.tensor.remote_store %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] to %{{.*}} none : !pl.tensor<1x256xf32>, !pld.dtensor<4x256xf32>
// CHECK: pld.system.defer_wait %{{.*}}[%{{.*}}, %{{.*}}], %{{.*}} ge : !pld.dtensor<?x1xi32>
// CHECK: pld.tensor.allreduce %{{.*}}, %{{.*}} max ring cores 1 : !pld.dtensor<4x256xf32>, !pld.dtensor<6x4xi32>
// CHECK: pld.tensor.allreduce %{{.*}}, %{{.*}} sum mesh cores 1 : !pld.dtensor<4x256xf32>, !pld.dtensor<?x1xi32>
// CHECK: pld.tensor.barrier %{{.*}} : !pld.dtensor<?x1xi32>
// CHECK: pld.tensor.broadcast %{{.*}}, %{{.*}} root 0 : !pld.dtensor<4x256xf32>, !pld.dtensor<?x1xi32>
// CHECK: pld.tensor.allgather %{{.*}}, %{{.*}}, %{{.*}} : !pl.tensor<1x256xf32>, !pld.dtensor<4x256xf32>, !pld.dtensor<?x1xi32>
// CHECK: pld.tensor.reduce_scatter %{{.*}}, %{{.*}} sum : !pld.dtensor<4x256xf32>, !pld.dtensor<?x1xi32>
// CHECK: pld.tensor.all_to_all %{{.*}}, %{{.*}}, %{{.*}} : !pl.tensor<4x256xf32>, !pld.dtensor<4x256xf32>, !pld.dtensor<?x1xi32>
// KEPT-LABEL: func.func @kernel
// KEPT-COUNT-2: pld.tensor.barrier
func.func @kernel(%data: !Data, %sig: !Sig, %ring: !pld.dtensor<6x4xi32>, %row: !pl.tensor<1x256xf32>,
                  %rows: !pl.tensor<4x256xf32>, %peer: i32, %gen: i32) attributes {pl.kind = #pl.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %t = pld.tile.remote_load %data[%c1, %c0] from %peer : !Data -> !pl.tile<1x256xf32, vec>
  pld.tile.remote_store %t, %data[%c1, %c0] to %peer add : !pl.tile<1x256xf32, vec>, !Data
  pld.tensor.remote_store %row, %data[%c1, %c0] to %peer none : !pl.tensor<1x256xf32>, !Data
  pld.system.defer_wait %sig[%c0, %c0], %gen ge : !Sig
  %a = pld.tensor.allreduce %data, %ring max ring cores 1 : !Data, !pld.dtensor<6x4xi32>
  %b = pld.tensor.allreduce %data, %sig sum mesh cores 1 : !Data, !Sig
  %s1 = pld.tensor.barrier %sig : !Sig
  %s2 = pld.tensor.barrier %sig : !Sig
  %c = pld.tensor.broadcast %data, %sig root 0 : !Data, !Sig
  %g = pld.tensor.allgather %row, %data, %sig : !pl.tensor<1x256xf32>, !Data, !Sig
  %rs = pld.tensor.reduce_scatter %data, %sig sum : !Data, !Sig
  %x = pld.tensor.all_to_all %rows, %data, %sig : !pl.tensor<4x256xf32>, !Data, !Sig
  return
}

// CHECK-LABEL: func.func @transfers
// CHECK: pld.tensor.put %{{.*}} to %{{.*}} from %{{.*}} none chunk 0, 0 : !pld.dtensor<4x256xf32>, !pl.tensor<4x256xf32>
// CHECK: pld.tensor.put %{{.*}} to %{{.*}} from %{{.*}} region [%{{.*}}, %{{.*}}] [%{{.*}}, %{{.*}}] [%{{.*}}, %{{.*}}] add chunk 1, 128 pipeline : !pld.dtensor<4x256xf32>, !pl.tensor<1x256xf32>
// CHECK: pld.tensor.get %{{.*}} to %{{.*}} from %{{.*}} chunk 0, 0 : !pl.tensor<4x256xf32>, !pld.dtensor<4x256xf32>
// CHECK: pld.tensor.get %{{.*}} to %{{.*}} from %{{.*}} chunk 2, 64 : !pl.tensor<?x256xf32>, !pld.dtensor<?x256xf32>
// CHECK: pld.tensor.all_to_all_v %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : !pl.tensor<8x64xf32>, !pld.dtensor<8x64xf32>, !pld.dtensor<4x1xi32>, !pl.tensor<4xi32>, !pld.dtensor<4x1xi32>
func.func @transfers(%dst: !Data, %src: !pl.tensor<4x256xf32>, %row: !pl.tensor<1x256xf32>, %peer: i32,
                     %dyn: !pl.tensor<?x256xf32>, %dynw: !pld.dtensor<?x256xf32>,
                     %in: !pl.tensor<8x64xf32>, %out: !pld.dtensor<8x64xf32>, %s4: !pld.dtensor<4x1xi32>,
                     %send: !pl.tensor<4xi32>, %recv: !pld.dtensor<4x1xi32>) attributes {pl.kind = #pl.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c256 = arith.constant 256 : index
  pld.tensor.put %dst to %peer from %src none chunk 0, 0 : !Data, !pl.tensor<4x256xf32>
  pld.tensor.put %dst to %peer from %row region [%c1, %c0] [%c0, %c0] [%c1, %c256] add chunk 1, 128 pipeline : !Data, !pl.tensor<1x256xf32>
  pld.tensor.get %src to %peer from %dst chunk 0, 0 : !pl.tensor<4x256xf32>, !Data
  pld.tensor.get %dyn to %peer from %dynw chunk 2, 64 : !pl.tensor<?x256xf32>, !pld.dtensor<?x256xf32>
  %v = pld.tensor.all_to_all_v %in, %out, %s4, %send, %recv : !pl.tensor<8x64xf32>, !pld.dtensor<8x64xf32>, !pld.dtensor<4x1xi32>, !pl.tensor<4xi32>, !pld.dtensor<4x1xi32>
  return
}

// CHECK-LABEL: func.func @chip
// CHECK-LABEL: func.func @host_dispatch
// CHECK: pld.dispatch @chip(%{{.*}}) on %{{.*}} : (!pld.dtensor<4x256xf32>) -> ()
func.func @chip(%d: !Data) attributes {pl.kind = #pl.kind<orchestration>} {
  return
}
func.func @host_dispatch(%d: !Data) attributes {pl.level = #pl.level<host>, pl.role = #pl.role<orchestrator>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %w = pld.system.world_size : i64
  %n = arith.index_cast %w : i64 to index
  scf.for %r = %c0 to %n step %c1 {
    pld.dispatch @chip(%d) on %r : (!Data) -> ()
  }
  return
}

// CHECK-LABEL: func.func @staged
// CHECK: pld.tile.put %{{.*}} to %{{.*}} from %{{.*}} stage %{{.*}}, %{{.*}} none : !pld.dtensor<4x256xf32>, !pl.tensor<4x256xf32>, !pl.tile<1x128xf32, vec>, !pl.tile<1x128xf32, vec>
// CHECK: pld.tile.get %{{.*}} to %{{.*}} from %{{.*}} stage %{{.*}} region [%{{.*}}, %{{.*}}] [%{{.*}}, %{{.*}}] [%{{.*}}, %{{.*}}] : !pl.tensor<4x256xf32>, !pld.dtensor<4x256xf32>, !pl.tile<1x256xf32, vec>
func.func @staged(%dst: !Data, %src: !pl.tensor<4x256xf32>, %peer: i32) attributes {pl.kind = #pl.kind<aiv>} {
  %s = pl.tile.create : !pl.tile<1x128xf32, vec>
  %w = pl.tile.create : !pl.tile<1x256xf32, vec>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c256 = arith.constant 256 : index
  pld.tile.put %dst to %peer from %src stage %s, %s none : !Data, !pl.tensor<4x256xf32>, !pl.tile<1x128xf32, vec>, !pl.tile<1x128xf32, vec>
  pld.tile.get %src to %peer from %dst stage %w region [%c1, %c0] [%c1, %c0] [%c1, %c256] : !pl.tensor<4x256xf32>, !Data, !pl.tile<1x256xf32, vec>
  return
}

// CHECK-LABEL: func.func @builtins
// CHECK: pld.builtin.allreduce %{{.*}}, %{{.*}} sum f32 cores 2 on %{{.*}} directions [#pl.direction<inout>, #pl.direction<inout>] : !pld.dtensor<4x256xf32>, !pld.dtensor<8x2xi32>, index
// CHECK: pld.builtin.allreduce_ring %{{.*}}, %{{.*}} sum f32 on
// CHECK: pld.builtin.barrier %{{.*}} on
// CHECK: pld.builtin.broadcast %{{.*}}, %{{.*}} root 0 f32 on
// CHECK: pld.builtin.reduce_scatter %{{.*}}, %{{.*}} sum f32 on
// CHECK: pld.builtin.allgather %{{.*}}, %{{.*}}, %{{.*}} f32 on
// CHECK: pld.builtin.all_to_all %{{.*}}, %{{.*}}, %{{.*}} f32 on
func.func @builtins(%d: !Data, %row: !pld.dtensor<1x256xf32>, %other: !Data, %lanes: !pld.dtensor<8x2xi32>,
                   %ring: !pld.dtensor<7x4xi32>, %flat: !pld.dtensor<8xi32>, %dev: index)
    attributes {pl.level = #pl.level<host>, pl.role = #pl.role<orchestrator>} {
  pld.builtin.allreduce %d, %lanes sum f32 cores 2 on %dev directions [#pl.direction<inout>, #pl.direction<inout>] : !Data, !pld.dtensor<8x2xi32>, index
  pld.builtin.allreduce_ring %d, %ring sum f32 on %dev directions [#pl.direction<inout>, #pl.direction<inout>] : !Data, !pld.dtensor<7x4xi32>, index
  pld.builtin.barrier %flat on %dev directions [#pl.direction<inout>] : !pld.dtensor<8xi32>, index
  pld.builtin.broadcast %d, %flat root 0 f32 on %dev directions [#pl.direction<inout>, #pl.direction<inout>] : !Data, !pld.dtensor<8xi32>, index
  pld.builtin.reduce_scatter %d, %flat sum f32 on %dev directions [#pl.direction<inout>, #pl.direction<inout>] : !Data, !pld.dtensor<8xi32>, index
  pld.builtin.allgather %row, %d, %flat f32 on %dev directions [#pl.direction<in>, #pl.direction<inout>, #pl.direction<inout>] : !pld.dtensor<1x256xf32>, !Data, !pld.dtensor<8xi32>, index
  pld.builtin.all_to_all %other, %d, %flat f32 on %dev directions [#pl.direction<in>, #pl.direction<inout>, #pl.direction<inout>] : !Data, !Data, !pld.dtensor<8xi32>, index
  return
}

// CHECK-LABEL: func.func @tails_and_vectors
// CHECK: pld.tile.remote_load %{{.*}}[%{{.*}}, %{{.*}}] from %{{.*}} valid(%{{.*}}) tail_padding : !pld.dtensor<4x250xf16> -> !pl.tile<1x256xf16, vec, valid = 1x?>
func.func @tails_and_vectors(%h: !pld.dtensor<4x250xf16>, %peer: i32, %cols: index) attributes {pl.kind = #pl.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %t = pld.tile.remote_load %h[%c0, %c0] from %peer valid(%cols) tail_padding : !pld.dtensor<4x250xf16> -> !pl.tile<1x256xf16, vec, valid = 1x?>
  return
}

// Its own device loop (what pld-lower-distributed builds) is not a host loop.
// CHECK-LABEL: func.func @host_a2av_per_device
// CHECK: scf.for
// CHECK-NEXT: pld.builtin.all_to_all_v
func.func @host_a2av_per_device(%in: !pld.dtensor<8x64xf32>, %out: !pld.dtensor<8x64xf32>, %sig: !pld.dtensor<4x1xi32>,
                                %send: !pld.dtensor<4xi32>, %recv: !pld.dtensor<4x1xi32>, %devices: index)
    attributes {pl.level = #pl.level<host>, pl.role = #pl.role<orchestrator>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %dev = %c0 to %devices step %c1 {
    pld.builtin.all_to_all_v %in, %out, %sig, %send, %recv f32 on %dev directions [#pl.direction<in>, #pl.direction<inout>, #pl.direction<inout>, #pl.direction<in>, #pl.direction<inout>] : !pld.dtensor<8x64xf32>, !pld.dtensor<8x64xf32>, !pld.dtensor<4x1xi32>, !pld.dtensor<4xi32>, !pld.dtensor<4x1xi32>, index
  }
  return
}

// CHECK-LABEL: func.func @host_a2av
// CHECK: pld.builtin.all_to_all_v %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} f32 on
func.func @host_a2av(%in: !pld.dtensor<8x64xf32>, %out: !pld.dtensor<8x64xf32>, %sig: !pld.dtensor<4x1xi32>,
                     %send: !pld.dtensor<4xi32>, %recv: !pld.dtensor<4x1xi32>, %dev: index)
    attributes {pl.level = #pl.level<host>, pl.role = #pl.role<orchestrator>} {
  pld.builtin.all_to_all_v %in, %out, %sig, %send, %recv f32 on %dev directions [#pl.direction<in>, #pl.direction<inout>, #pl.direction<inout>, #pl.direction<in>, #pl.direction<inout>] : !pld.dtensor<8x64xf32>, !pld.dtensor<8x64xf32>, !pld.dtensor<4x1xi32>, !pld.dtensor<4xi32>, !pld.dtensor<4x1xi32>, index
  return
}
