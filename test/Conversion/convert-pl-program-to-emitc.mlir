// RUN: pto-opt --verify-roundtrip %s --split-input-file --convert-pl-program-to-emitc=entry=main | FileCheck %s
// RUN: pto-opt %s --split-input-file --pass-pipeline='builtin.module(convert-pl-program-to-emitc{entry=main}, canonicalize, cse, arith-expand, convert-arith-to-emitc, convert-scf-to-emitc, reconcile-unrealized-casts)' | mlir-translate --split-input-file --mlir-to-cpp | FileCheck %s --check-prefix=CPP

// An entry orchestration as its simulator program
// (docs/passes/convert-pl-program-to-emitc.md): the kernels it can drive
// are included by name, the parameter is read into a buffer, the
// pl.tensor.create is a temporary, the call passes the buffers' data and
// then their extents (the kernel's leading dimension is dynamic), and the
// return writes the result and the parameter. Every kernel is included,
// called or not (two or more with `kernel_entry` renamed, which each defines
// when translated for the runtime); the kernels are erased.

// CHECK-LABEL: module {
// CHECK-NEXT: emitc.include "pto/sim/host.hpp"
// CHECK-NEXT: emitc.verbatim "#define kernel_entry pto_kernel_entry_0"
// CHECK-NEXT: emitc.include "scale.cpp"
// CHECK-NEXT: emitc.verbatim "#undef kernel_entry"
// CHECK-NEXT: emitc.verbatim "#define kernel_entry pto_kernel_entry_1"
// CHECK-NEXT: emitc.include "unused.cpp"
// CHECK-NEXT: emitc.verbatim "#undef kernel_entry"
// CHECK-NEXT: emitc.include "pto/sim/comm.hpp"
// CHECK-NEXT: emitc.func @main(%[[ARGC:.*]]: i32, %[[ARGV:.*]]: !emitc.ptr<!emitc.ptr<!emitc.opaque<"char">>>) -> i32 {
// CHECK-NEXT: %[[ARGS:.*]] = call_opaque "pto::sim::parse_args"(%[[ARGC]], %[[ARGV]])
// CHECK-NEXT: %[[X:.*]] = call_opaque "pto::sim::input<float>"(%[[ARGS]]) {args = [0 : index, #emitc.opaque<"\22arg0\22">, #emitc.opaque<"{-1, 64}">]}
// CHECK: call_opaque "pto::sim::dim"(%[[X]]) {args = [0 : index, #emitc.opaque<"0">]}
// CHECK: %[[Y:.*]] = call_opaque "pto::sim::make<float>"(%{{.*}}, %{{.*}}) {args = [#emitc.opaque<"\22tmp1\22">, 0 : index, 1 : index]}
// CHECK-NEXT: %[[XD:.*]] = call_opaque "pto::sim::data"(%[[X]])
// CHECK-NEXT: %[[XN:.*]] = call_opaque "pto::sim::dim"(%[[X]])
// CHECK-NEXT: %[[YD:.*]] = call_opaque "pto::sim::data"(%[[Y]])
// CHECK-NEXT: %[[YN:.*]] = call_opaque "pto::sim::dim"(%[[Y]])
// CHECK-NEXT: call_opaque "scale"(%[[XD]], %[[YD]], %[[XN]], %[[YN]])
// CHECK-NEXT: call_opaque "pto::sim::finish"(%[[ARGS]], %[[Y]]) {args = [0 : index, 1 : index, #emitc.opaque<"\22result0\22">]}
// CHECK-NEXT: call_opaque "pto::sim::finish"(%[[ARGS]], %[[X]]) {args = [0 : index, 1 : index, #emitc.opaque<"\22arg0\22">]}
// CHECK-NEXT: %[[CODE:.*]] = call_opaque "pto::sim::exit_code"(%[[ARGS]])
// CHECK-NEXT: return %[[CODE]] : i32
// CHECK-NOT: @scale
// CHECK-NOT: @unused
// CPP-LABEL: #include "pto/sim/host.hpp"
// CPP: int32_t main(int32_t v1, char** v2) {
// CPP: pto::sim::Buffer<float> v5 = pto::sim::input<float>(v4, "arg0", {-1, 64});
// CPP: pto::sim::Buffer<float> v9 = pto::sim::make<float>("tmp1", v8, v3);
// CPP: scale(v10, v12, v11, v13);
// CPP-NEXT: pto::sim::finish(v4, v9, "result0");
// CPP-NEXT: pto::sim::finish(v4, v5, "arg0");
func.func @main(%x: !pl.tensor<?x64xf32>) -> !pl.tensor<?x64xf32> attributes {pl.kind = #pl.kind<orchestration>} {
  %c0 = arith.constant 0 : index
  %n = pl.tensor.dim %x, 0 : !pl.tensor<?x64xf32>
  %y = pl.tensor.create(%n) : !pl.tensor<?x64xf32>
  %r = pl.call @scale(%x, %y) : (!pl.tensor<?x64xf32>, !pl.tensor<?x64xf32>) -> !pl.tensor<?x64xf32>
  return %r : !pl.tensor<?x64xf32>
}
func.func @scale(%x: !pl.tensor<?x64xf32>, %y: !pl.tensor<?x64xf32> {pl.direction = #pl.direction<out>}) -> !pl.tensor<?x64xf32> attributes {pl.kind = #pl.kind<aiv>} {
  return %y : !pl.tensor<?x64xf32>
}
func.func @unused(%s: f32) attributes {pl.kind = #pl.kind<aiv>} {
  return
}

// -----

// Scalar parameters of the entry are read from one-element .npy files (an
// index as an int64, cast for the index arithmetic that uses it); a call
// passes scalars by value in their places, an index as an int64 (the
// kernel's size_t).

// CHECK-LABEL: module {
// CHECK-NEXT: emitc.include "pto/sim/host.hpp"
// CHECK-NEXT: emitc.include "shift.cpp"
// CHECK: %[[S:.*]] = call_opaque "pto::sim::scalar<float>"(%{{.*}}) {args = [0 : index, #emitc.opaque<"\22arg1\22">]} : (!emitc.opaque<"pto::sim::Args">) -> f32
// CHECK-NEXT: %[[N64:.*]] = call_opaque "pto::sim::scalar<int64_t>"(%{{.*}}) {args = [0 : index, #emitc.opaque<"\22arg2\22">]} : (!emitc.opaque<"pto::sim::Args">) -> i64
// CHECK-NEXT: %[[N:.*]] = arith.index_cast %[[N64]] : i64 to index
// CHECK: %[[M:.*]] = arith.addi %[[N]], %{{.*}} : index
// CHECK: %[[M64:.*]] = arith.index_cast %[[M]] : index to i64
// CHECK: call_opaque "shift"(%{{.*}}, %[[S]], %[[M64]], %{{.*}})
// CPP-LABEL: #include "shift.cpp"
// CPP: float [[S:v[0-9]+]] = pto::sim::scalar<float>([[ARGS:v[0-9]+]], "arg1");
// CPP-NEXT: int64_t [[N:v[0-9]+]] = pto::sim::scalar<int64_t>([[ARGS]], "arg2");
// CPP: shift({{v[0-9]+}}, [[S]], {{v[0-9]+}}, {{v[0-9]+}});
func.func @main(%x: !pl.tensor<8xf32>, %s: f32, %n: index) -> !pl.tensor<8xf32> attributes {pl.kind = #pl.kind<orchestration>} {
  %c1 = arith.constant 1 : index
  %m = arith.addi %n, %c1 : index
  %y = pl.tensor.create() : !pl.tensor<8xf32>
  %r = pl.call @shift(%x, %s, %m, %y) : (!pl.tensor<8xf32>, f32, index, !pl.tensor<8xf32>) -> !pl.tensor<8xf32>
  return %r : !pl.tensor<8xf32>
}
func.func @shift(%x: !pl.tensor<8xf32>, %s: f32, %m: index, %y: !pl.tensor<8xf32> {pl.direction = #pl.direction<out>}) -> !pl.tensor<8xf32> attributes {pl.kind = #pl.kind<aiv>} {
  return %y : !pl.tensor<8xf32>
}


// -----

// A host program: the comm domain is a domain object whose body runs
// inline; the window buffers are its slots and the views typed windows of
// them; the dispatch launches the chip (a static function of the program,
// before main) on the device's thread with the host tensor by reference
// and the window's dynamic extent last; the builtin allreduce launches its
// builtin kernel (and includes the builtins); at the domain's end it is
// joined and each slot written (a synthesized `__` slot checked released).

// CHECK-LABEL: module {
// CHECK-NEXT: emitc.include "pto/sim/host.hpp"
// CHECK-NEXT: emitc.include "pto_builtin_collectives.hpp"
// CHECK-NEXT: emitc.include "put.cpp"
// CHECK-NEXT: emitc.include "pto/sim/comm.hpp"
// CHECK-NEXT: emitc.func @chip(%{{.*}}: !emitc.ptr<!emitc.opaque<"pto::sim::Buffer<float>">>, %{{.*}}: !emitc.ptr<!emitc.opaque<"float">>, %{{.*}}: !emitc.ptr<!emitc.opaque<"int64_t">>, %{{.*}}: !emitc.size_t) attributes {specifiers = ["static"]}
// CHECK: call_opaque "put"
// CHECK: emitc.func @main(
// CHECK: %[[ARGS:.*]] = call_opaque "pto::sim::parse_args"
// CHECK-NEXT: %[[IN:.*]] = call_opaque "pto::sim::input<float>"(%[[ARGS]]) {args = [0 : index, #emitc.opaque<"\22arg0\22">, #emitc.opaque<"{1, 256}">]}
// CHECK-NEXT: %[[D:.*]] = call_opaque "pto::sim::domain"(%[[ARGS]]) {args = [0 : index, #emitc.opaque<"\22comm_d0\22">]}
// CHECK: %[[WORLD:.*]] = call_opaque "pto::sim::world_size"(%[[ARGS]])
// CHECK: %[[DATA:.*]] = call_opaque "pto::sim::window_buffer"(%[[D]], %{{.*}}) {args = [0 : index, 1 : index, #emitc.opaque<"\22data\22">]}
// CHECK-NEXT: %[[W:.*]] = call_opaque "pto::sim::window<float>"(%[[DATA]]) {args = [0 : index, #emitc.opaque<"-1">, #emitc.opaque<"256">]}
// CHECK: %[[SIG:.*]] = call_opaque "pto::sim::window_buffer"(%[[D]], %{{.*}}) {args = [0 : index, 1 : index, #emitc.opaque<"\22__signal\22">]}
// CHECK-NEXT: %[[S:.*]] = call_opaque "pto::sim::window<int32_t>"(%[[SIG]])
// CHECK: scf.for %[[RANK:.*]] = 
// CHECK-NEXT: %[[CTX:.*]] = emitc.call_opaque "pto::sim::comm_ctx"(%[[W]])
// CHECK-NEXT: %[[DEV:.*]] = arith.index_cast %[[RANK]] : index to i64
// CHECK-NEXT: %[[REF:.*]] = emitc.call_opaque "pto::sim::ref"(%[[IN]])
// CHECK-NEXT: %[[N:.*]] = emitc.call_opaque "pto::sim::dim"(%[[W]]) {args = [0 : index, #emitc.opaque<"0">]}
// CHECK-NEXT: emitc.call_opaque "pto::sim::launch"(%[[D]], %[[DEV]], %[[REF]], %[[W]], %[[CTX]], %[[N]]) {args = [0 : index, 1 : index, #emitc.opaque<"chip">, 2 : index, 3 : index, 4 : index, 5 : index]}
// CHECK-NEXT: %[[COUNT:.*]] = emitc.call_opaque "pto::sim::elements"(%[[W]])
// CHECK-NEXT: %[[SCTX:.*]] = emitc.call_opaque "pto::sim::comm_ctx"(%[[S]])
// CHECK-NEXT: %[[DEV2:.*]] = arith.index_cast %[[RANK]] : index to i64
// CHECK-NEXT: emitc.call_opaque "pto::sim::launch"(%[[D]], %[[DEV2]], %[[W]], %[[S]], %[[SCTX]], %[[COUNT]]) {args = [0 : index, 1 : index, #emitc.opaque<"pto_builtin::allreduce<float, 0>">, 2 : index, 3 : index, 4 : index, 5 : index, #emitc.opaque<"1">]}
// CHECK: call_opaque "pto::sim::join"(%[[D]])
// CHECK-NEXT: call_opaque "pto::sim::finish_window"(%[[ARGS]], %[[W]]) {args = [0 : index, 1 : index, #emitc.opaque<"\22data\22">]}
// CHECK-NEXT: call_opaque "pto::sim::expect_released"(%[[ARGS]], %[[S]]) {args = [0 : index, 1 : index, #emitc.opaque<"\22__signal\22">]}
// CHECK-NEXT: call_opaque "pto::sim::finish"(%[[ARGS]], %[[IN]]) {args = [0 : index, 1 : index, #emitc.opaque<"\22arg0\22">]}
// CHECK-NOT: @put
// CPP-LABEL: #include "pto/sim/host.hpp"
// CPP-NEXT: #include "pto_builtin_collectives.hpp"
// CPP: static void chip(pto::sim::Buffer<float>* v1, float* v2, int64_t* v3, size_t v4) {
// CPP: int32_t main(int32_t v1, char** v2) {
// CPP: pto::sim::launch(v9, v28, chip, v29, v16, v26, v30);
// CPP: pto::sim::launch(v9, v28, pto_builtin::allreduce<float, 0>, v16, v22, v32, v31, 1);
// CPP: pto::sim::join(v9);
// CPP-NEXT: pto::sim::finish_window(v7, v16, "data");
// CPP-NEXT: pto::sim::expect_released(v7, v22, "__signal");

func.func @main(%input: !pl.tensor<1x256xf32>) attributes {pl.level = #pl.level<host>} {
  pld.comm_domain "comm_d0" devices [] slots ["data", "signal"] {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4_i64 = arith.constant 4 : i64
    %c1024_i64 = arith.constant 1024 : i64
    %world = pld.system.world_size : i64
    %bytes = arith.muli %world, %c1024_i64 : i64
    %data = pld.tensor.alloc_window_buffer %bytes name "data" : i64 -> !pl.ptr
    %w = pld.tensor.window %data : !pl.ptr -> !pld.dtensor<?x256xf32>
    %sbytes = arith.muli %world, %c4_i64 : i64
    %signal = pld.tensor.alloc_window_buffer %sbytes name "__signal" : i64 -> !pl.ptr
    %s = pld.tensor.window %signal : !pl.ptr -> !pld.dtensor<?x1xi32>
    %n = arith.index_cast %world : i64 to index
    scf.for %rank = %c0 to %n step %c1 {
      %ctx = pld.system.get_comm_ctx %w : !pld.dtensor<?x256xf32>
      pld.dispatch @chip(%input, %w, %ctx) on %rank : (!pl.tensor<1x256xf32>, !pld.dtensor<?x256xf32>, !pld.comm_ctx) -> ()
      pld.builtin.allreduce %w, %s sum f32 cores 1 on %rank directions [#pl.direction<inout>, #pl.direction<inout>] : !pld.dtensor<?x256xf32>, !pld.dtensor<?x1xi32>, index
    }
  }
  return
}
func.func @chip(%x: !pl.tensor<1x256xf32>, %w: !pld.dtensor<?x256xf32>, %c: !pld.comm_ctx) attributes {pl.kind = #pl.kind<orchestration>} {
  pl.call @put(%x, %w, %c) : (!pl.tensor<1x256xf32>, !pld.dtensor<?x256xf32>, !pld.comm_ctx) -> ()
  return
}
func.func @put(%x: !pl.tensor<1x256xf32>, %w: !pld.dtensor<?x256xf32> {pl.direction = #pl.direction<inout>}, %c: !pld.comm_ctx) attributes {pl.kind = #pl.kind<aiv>} {
  return
}

// -----

// A comm domain over a fixed device list: the listed devices are its
// ranks, in list order (device 2 is rank 1). A dispatch outside every comm domain (it has no
// windows to share) runs in a window-less domain of every device, made
// at the top, and is joined where it is.

// CHECK-LABEL: module {
// CHECK: emitc.func @main(
// CHECK: %[[ARGS:.*]] = call_opaque "pto::sim::parse_args"
// CHECK: %[[LONE:.*]] = call_opaque "pto::sim::lone_domain"(%[[ARGS]])
// CHECK: %[[D:.*]] = call_opaque "pto::sim::domain"(%[[ARGS]]) {args = [0 : index, #emitc.opaque<"\22pair\22">, #emitc.opaque<"int64_t(0)">, #emitc.opaque<"int64_t(2)">]}
// CHECK: call_opaque "pto::sim::launch"(%[[D]], %{{.*}}) {args = [0 : index, 1 : index, #emitc.opaque<"chip">]}
// CHECK: call_opaque "pto::sim::join"(%[[D]])
// CHECK: call_opaque "pto::sim::launch"(%[[LONE]], %{{.*}}) {args = [0 : index, 1 : index, #emitc.opaque<"chip">]}
// CHECK-NEXT: call_opaque "pto::sim::join"(%[[LONE]])
// CPP-LABEL: #include "pto/sim/host.hpp"
// CPP: pto::sim::domain({{.*}}, "pair", int64_t(0), int64_t(2));
func.func @main() attributes {pl.level = #pl.level<host>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  pld.comm_domain "pair" devices [0, 2] slots [] {
    pld.dispatch @chip() on %c0 : () -> ()
  }
  pld.dispatch @chip() on %c1 : () -> ()
  return
}
func.func @chip() attributes {pl.kind = #pl.kind<orchestration>} {
  return
}

// -----

// Views of host tensors (a device's slice of a stacked input, viewed
// without its leading axis) are buffers that own no elements: slices take
// their offsets then their sizes as int64s, views their new extents.

// CHECK-LABEL: module {
// CHECK-NEXT: emitc.include "pto/sim/host.hpp"
// CHECK-NEXT: emitc.include "rowk.cpp"
// CHECK: %[[X:.*]] = call_opaque "pto::sim::input<float>"
// CHECK: %[[S:.*]] = call_opaque "pto::sim::slice<float>"(%[[X]], %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) {args = [0 : index, 1 : index, 2 : index, 3 : index, 4 : index, 5 : index, 6 : index]} : (!emitc.opaque<"pto::sim::Buffer<float>">, i64, i64, i64, i64, i64, i64) -> !emitc.ptr<!emitc.opaque<"pto::sim::Buffer<float>">>
// CHECK: %[[V:.*]] = call_opaque "pto::sim::reshape<float>"(%[[S]], %{{.*}}, %{{.*}}) {args = [0 : index, 1 : index, 2 : index]}
// CHECK: %[[D:.*]] = call_opaque "pto::sim::data"(%[[V]])
// CHECK-NEXT: call_opaque "rowk"(%[[D]])
// CPP-LABEL: #include "rowk.cpp"
// CPP: pto::sim::Buffer<float>* [[S:v[0-9]+]] = pto::sim::slice<float>({{v[0-9]+}}, {{v[0-9]+}}, {{v[0-9]+}}, {{v[0-9]+}}, {{v[0-9]+}}, {{v[0-9]+}}, {{v[0-9]+}});
// CPP: pto::sim::Buffer<float>* [[V:v[0-9]+]] = pto::sim::reshape<float>([[S]], {{v[0-9]+}}, {{v[0-9]+}});
func.func @main(%x: !pl.tensor<4x16x64xf32>) attributes {pl.kind = #pl.kind<orchestration>} {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %s = pl.tensor.slice %x[%c2, %c0, %c0] : !pl.tensor<4x16x64xf32> -> !pl.tensor<1x16x64xf32>
  %v = pl.tensor.view %s : !pl.tensor<1x16x64xf32> -> !pl.tensor<16x64xf32>
  pl.call @rowk(%v) : (!pl.tensor<16x64xf32>) -> ()
  return
}
func.func @rowk(%x: !pl.tensor<16x64xf32> {pl.direction = #pl.direction<inout>}) attributes {pl.kind = #pl.kind<aiv>} {
  return
}

// -----

// Scalar accesses to host tensors: an element read (pto::sim::read) and
// written in place (pto::sim::write) at int64 indices.

// CHECK-LABEL: module {
// CHECK-NEXT: emitc.include "pto/sim/host.hpp"
// CHECK-NEXT: emitc.include "bump.cpp"
// CHECK: %[[M:.*]] = call_opaque "pto::sim::input<int32_t>"
// CHECK: %[[N:.*]] = call_opaque "pto::sim::read<int32_t>"(%[[M]], %{{.*}}) : (!emitc.opaque<"pto::sim::Buffer<int32_t>">, i64) -> i32
// CHECK: call_opaque "pto::sim::write<int32_t>"(%[[M]], %{{.*}}, %{{.*}}) : (!emitc.opaque<"pto::sim::Buffer<int32_t>">, i32, i64) -> ()
// CPP-LABEL: #include "bump.cpp"
// CPP: int32_t [[N:v[0-9]+]] = pto::sim::read<int32_t>([[M:v[0-9]+]], {{v[0-9]+}});
// CPP: pto::sim::write<int32_t>([[M]], {{v[0-9]+}}, {{v[0-9]+}});
func.func @main(%meta: !pl.tensor<2xi32> {pl.direction = #pl.direction<inout>}, %x: !pl.tensor<8xf32> {pl.direction = #pl.direction<inout>}) attributes {pl.kind = #pl.kind<orchestration>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = pl.tensor.read %meta[%c0] : !pl.tensor<2xi32> -> i32
  %ni = arith.index_cast %n : i32 to index
  scf.for %i = %c0 to %ni step %c1 {
    pl.call @bump(%x) : (!pl.tensor<8xf32>) -> ()
  }
  %two = arith.constant 2 : i32
  %m = arith.muli %n, %two : i32
  %meta2 = pl.tensor.write %meta[%c1], %m : !pl.tensor<2xi32>, i32
  return
}
func.func @bump(%x: !pl.tensor<8xf32> {pl.direction = #pl.direction<inout>}) attributes {pl.kind = #pl.kind<aiv>} {
  return
}

// -----

// A loop that assembles into the tensor it carries updates one buffer: the
// carried value is dropped and the body assembles into the init, a
// pl.tensor.full temporary (pto::sim::full); pto::sim::assemble copies the
// source into the target's window at int64 offsets.

// CHECK-LABEL: module {
// CHECK-NEXT: emitc.include "pto/sim/host.hpp"
// CHECK-NEXT: emitc.include "blockk.cpp"
// CHECK: %[[ACC:.*]] = call_opaque "pto::sim::full<float>"(%{{.*}}, %{{.*}}, %{{.*}}) {args = [#emitc.opaque<"\22tmp1\22">, 0 : index, 1 : index, 2 : index]}
// CHECK: scf.for
// CHECK-NOT: iter_args
// CHECK: call_opaque "pto::sim::assemble<float, false>"(%[[ACC]], %{{.*}}, %{{.*}}, %{{.*}})
// CHECK: call_opaque "pto::sim::finish"(%{{.*}}, %[[ACC]]) {args = [0 : index, 1 : index, #emitc.opaque<"\22result0\22">]}
// CPP-LABEL: #include "blockk.cpp"
// CPP: pto::sim::Buffer<float> [[ACC:v[0-9]+]] = pto::sim::full<float>("tmp1", {{v[0-9]+}}, {{v[0-9]+}}, {{v[0-9]+}});
// CPP: pto::sim::assemble<float, false>([[ACC]], {{v[0-9]+}}, {{v[0-9]+}}, {{v[0-9]+}});
func.func @main(%x: !pl.tensor<64x16xf32>) -> !pl.tensor<64x16xf32> attributes {pl.kind = #pl.kind<orchestration>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %zero = arith.constant 0.0 : f32
  %init = pl.tensor.full %zero() : f32 -> !pl.tensor<64x16xf32>
  %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %init) -> (!pl.tensor<64x16xf32>) {
    %row = arith.muli %i, %c16 : index
    %xs = pl.tensor.slice %x[%row, %c0] : !pl.tensor<64x16xf32> -> !pl.tensor<16x16xf32>
    %t = pl.tensor.create() : !pl.tensor<16x16xf32>
    %b = pl.call @blockk(%xs, %t) : (!pl.tensor<16x16xf32>, !pl.tensor<16x16xf32>) -> !pl.tensor<16x16xf32>
    %acc2 = pl.tensor.assemble %b into %acc[%row, %c0] : !pl.tensor<16x16xf32>, !pl.tensor<64x16xf32>
    scf.yield %acc2 : !pl.tensor<64x16xf32>
  }
  return %r : !pl.tensor<64x16xf32>
}
func.func @blockk(%x: !pl.tensor<16x16xf32>, %y: !pl.tensor<16x16xf32> {pl.direction = #pl.direction<out>}) -> !pl.tensor<16x16xf32> attributes {pl.kind = #pl.kind<aiv>} {
  return %y : !pl.tensor<16x16xf32>
}

// -----

// A branch result assembled after the branch is assembled in each branch,
// and a loop accumulating through a kernel that reads the accumulator
// before it writes its output passes the accumulator as the output.

// CHECK-LABEL: emitc.include "accumulate.cpp"
// CHECK: emitc.func @main(
// CHECK: %[[X:.*]] = call_opaque "pto::sim::input<float>"
// CHECK: %[[OUT:.*]] = call_opaque "pto::sim::make<float>"
// CHECK: scf.if %{{.*}} {
// CHECK: emitc.call_opaque "square"(
// CHECK: emitc.call_opaque "pto::sim::assemble<float, false>"(%[[OUT]],
// CHECK: } else {
// CHECK: emitc.call_opaque "relu"(
// CHECK: emitc.call_opaque "pto::sim::assemble<float, false>"(%[[OUT]],
// CHECK: }
// CHECK: scf.for
// CHECK-NOT: iter_args
// CHECK: %[[A:.*]] = emitc.call_opaque "pto::sim::data"(%[[OUT]])
// CHECK: %[[B:.*]] = emitc.call_opaque "pto::sim::data"(%[[X]])
// CHECK: %[[C:.*]] = emitc.call_opaque "pto::sim::data"(%[[OUT]])
// CHECK: emitc.call_opaque "accumulate"(%[[A]], %[[B]], %[[C]])
// CHECK: call_opaque "pto::sim::finish"(%{{.*}}, %[[OUT]]) {args = [0 : index, 1 : index, #emitc.opaque<"\22result0\22">]}
func.func @relu(%x: !pl.tensor<64x32xf32>, %out: !pl.tensor<64x32xf32> {pl.direction = #pl.direction<out>}) -> !pl.tensor<64x32xf32> attributes {pl.kind = #pl.kind<aiv>} {
  return %out : !pl.tensor<64x32xf32>
}
func.func @square(%x: !pl.tensor<64x32xf32>, %out: !pl.tensor<64x32xf32> {pl.direction = #pl.direction<out>}) -> !pl.tensor<64x32xf32> attributes {pl.kind = #pl.kind<aiv>} {
  return %out : !pl.tensor<64x32xf32>
}
func.func @accumulate(%acc: !pl.tensor<64x32xf32>, %x: !pl.tensor<64x32xf32>, %out: !pl.tensor<64x32xf32> {pl.direction = #pl.direction<out>}) -> !pl.tensor<64x32xf32> attributes {pl.kind = #pl.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %a = pl.tile.load %acc[%c0, %c0] : !pl.tensor<64x32xf32> -> !pl.tile<64x32xf32, vec>
  %b = pl.tile.load %x[%c0, %c0] : !pl.tensor<64x32xf32> -> !pl.tile<64x32xf32, vec>
  %s = pl.tile.add %a, %b : !pl.tile<64x32xf32, vec>, !pl.tile<64x32xf32, vec> -> !pl.tile<64x32xf32, vec>
  %r = pl.tile.store %s, %out[%c0, %c0] : !pl.tile<64x32xf32, vec>, !pl.tensor<64x32xf32>
  return %r : !pl.tensor<64x32xf32>
}
func.func @main(%x: !pl.tensor<64x32xf32>, %flag: i1) -> !pl.tensor<64x32xf32> attributes {pl.kind = #pl.kind<orchestration>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %out = pl.tensor.create() : !pl.tensor<64x32xf32>
  %r = scf.if %flag -> (!pl.tensor<64x32xf32>) {
    %t = pl.tensor.create() : !pl.tensor<64x32xf32>
    %a = pl.call @square(%x, %t) : (!pl.tensor<64x32xf32>, !pl.tensor<64x32xf32>) -> !pl.tensor<64x32xf32>
    scf.yield %a : !pl.tensor<64x32xf32>
  } else {
    %t = pl.tensor.create() : !pl.tensor<64x32xf32>
    %b = pl.call @relu(%x, %t) : (!pl.tensor<64x32xf32>, !pl.tensor<64x32xf32>) -> !pl.tensor<64x32xf32>
    scf.yield %b : !pl.tensor<64x32xf32>
  }
  %o = pl.tensor.assemble %r into %out[%c0, %c0] : !pl.tensor<64x32xf32>, !pl.tensor<64x32xf32>
  %s = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %o) -> (!pl.tensor<64x32xf32>) {
    %t = pl.tensor.create() : !pl.tensor<64x32xf32>
    %n = pl.call @accumulate(%acc, %x, %t) : (!pl.tensor<64x32xf32>, !pl.tensor<64x32xf32>, !pl.tensor<64x32xf32>) -> !pl.tensor<64x32xf32>
    scf.yield %n : !pl.tensor<64x32xf32>
  }
  return %s : !pl.tensor<64x32xf32>
}

// -----

// Task ids in a simulator program are whether they name a task (its
// tasks run when submitted): a submit's is true, the invalid id false, a
// dummy task's the or of its dependencies'; an array of ids is an array
// of i1 (zeroed: invalid), a carried id an i1 the loop carries.
// CHECK: %[[IDS:.*]] = {{"?}}{{(emitc.)?}}variable{{"?}}() <{value = #emitc.opaque<"{0}">}> : () -> !emitc.array<2xi1>
// CHECK: %[[FALSE:.*]] = arith.constant false
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%{{.*}} = %[[FALSE]]) -> (i1) {
// CHECK: {{(emitc.)?}}call_opaque "twice"
// CHECK: %[[TRUE:.*]] = arith.constant true
// CHECK: %[[CELL:.*]] = {{(emitc.)?}}subscript %[[IDS]][%{{.*}}] : (!emitc.array<2xi1>, i64) -> !emitc.lvalue<i1>
// CHECK-NEXT: {{(emitc.)?}}assign %[[TRUE]] : i1 to %[[CELL]]
// CHECK: scf.yield %[[TRUE]] : i1
// CHECK: %[[FIRST:.*]] = {{(emitc.)?}}load
// CHECK: %[[NONE:.*]] = arith.constant false
// CHECK: %[[ANY:.*]] = arith.ori %[[FIRST]], %[[NONE]] : i1
// CHECK: scf.if %[[ANY]] {
// CHECK: {{(emitc.)?}}call_opaque "twice"
// CPP: int32_t main(
// CPP: bool [[IDS:v[0-9]+]][2] = {0};
// CPP: [[IDS]][{{v[0-9]+}}] = {{v[0-9]+}};
!M = !pl.tensor<64x64xf32>
func.func @twice(%a: !M, %y: !M {pl.direction = #pl.direction<inout>}) -> !M attributes {pl.kind = #pl.kind<aiv>} {
  return %y : !M
}
func.func @main(%x: !M) -> !M attributes {pl.kind = #pl.kind<orchestration>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %empty = pl.array.create : !pl.array<!pl.task_id, 2>
  %o = pl.tensor.create() : !M
  %start = pl.system.task_invalid
  %r, %ids, %last = scf.for %i = %c0 to %c2 step %c1 iter_args(%t = %o, %a = %empty, %prev = %start) -> (!M, !pl.array<!pl.task_id, 2>, !pl.task_id) {
    %t2, %id = pl.submit @twice(%x, %t) deps(%prev) : (!M, !M) -> !M
    %a2 = pl.array.update_element %a[%i], %id : !pl.array<!pl.task_id, 2>, !pl.task_id
    scf.yield %t2, %a2, %id : !M, !pl.array<!pl.task_id, 2>, !pl.task_id
  }
  %first = pl.array.get_element %ids[%c0] : !pl.array<!pl.task_id, 2> -> !pl.task_id
  %none = pl.system.task_invalid
  %join = pl.system.task_dummy deps(%first, %none)
  %ok = pl.system.task_is_valid %join
  %s = scf.if %ok -> (!M) {
    %b = pl.call @twice(%x, %r) : (!M, !M) -> !M
    scf.yield %b : !M
  } else {
    scf.yield %r : !M
  }
  return %s : !M
}

// -----

// A loop rebinding a tensor points at its iteration's tensor: the init
// where it lies (`carry_at`), each iteration's fresh tensor kept for the
// rest of the program (`carry_kept`); kernels take the pointed-at data and
// a returned carry is finished through the pointer.
// CPP: #include "pto/sim/host.hpp"
// CPP: pto::sim::Buffer<float> [[X:v[0-9]+]] = pto::sim::input<float>({{.*}}, "arg0", {16, 64});
// CPP: pto::sim::Buffer<float>* [[INIT:v[0-9]+]] = pto::sim::carry_at([[X]]);
// CPP: pto::sim::Buffer<float>* [[H:v[0-9]+]];
// CPP-NEXT: [[H]] = [[INIT]];
// CPP: for (
// CPP: pto::sim::Buffer<float>* [[CUR:v[0-9]+]] = [[H]];
// CPP: pto::sim::Buffer<float> [[T:v[0-9]+]] = pto::sim::make<float>(
// CPP: pto::sim::data([[CUR]]);
// CPP: pto::sim::Buffer<float>* [[NEXT:v[0-9]+]] = pto::sim::carry_kept([[T]]);
// CPP-NEXT: [[H]] = [[NEXT]];
// CPP: pto::sim::Buffer<float>* [[LAST:v[0-9]+]] = [[H]];
// CPP: pto::sim::finish({{.*}}, [[LAST]], "result0");
!T = !pl.tensor<16x64xf32>
func.func @main(%x: !T) -> !T attributes {pl.kind = #pl.kind<orchestration>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %h = scf.for %i = %c0 to %c3 step %c1 iter_args(%cur = %x) -> (!T) {
    %t = pl.tensor.create() : !T
    %next = pl.call @layer(%cur, %t) : (!T, !T) -> !T
    scf.yield %next : !T
  }
  return %h : !T
}
func.func @layer(%x: !T, %y: !T {pl.direction = #pl.direction<out>}) -> !T attributes {pl.kind = #pl.kind<aiv>} {
  return %y : !T
}
