// RUN: pto-opt --verify-roundtrip %s --split-input-file --convert-pl-orchestration-to-emitc=runtime=sim | FileCheck %s
// RUN: pto-opt %s --split-input-file --pass-pipeline='builtin.module(convert-pl-orchestration-to-emitc{runtime=sim}, convert-arith-to-emitc, convert-scf-to-emitc, reconcile-unrealized-casts)' | mlir-translate --split-input-file --mlir-to-cpp | FileCheck %s --check-prefix=CPP

// A chip orchestration as a function of the simulator's host program
// (docs/translate.md): a host tensor arrives whole and passes its data (and
// its extent, the kernel's leading one being dynamic), a window view and a
// comm context as this rank's pointers, the window's dynamic extent as a
// trailing size_t; the extents follow the kernel's other arguments. The
// kernels are erased.

// CHECK-LABEL: emitc.func @chip(
// CHECK-SAME: %[[H:.*]]: !emitc.ptr<!emitc.opaque<"pto::sim::Buffer<float>">>, %[[W:.*]]: !emitc.ptr<!emitc.opaque<"float">>, %[[C:.*]]: !emitc.ptr<!emitc.opaque<"int64_t">>, %[[E:.*]]: !emitc.size_t) attributes {specifiers = ["static"]}
// CHECK: arith.constant 0 : index
// CHECK: %[[D:.*]] = call_opaque "pto::sim::data"(%[[H]])
// CHECK: %[[N:.*]] = call_opaque "pto::sim::dim"(%[[H]]) {args = [0 : index, #emitc.opaque<"0">]}
// CHECK: call_opaque "scale"(%[[D]], %[[W]], %[[C]], %[[N]], %[[E]])
// CHECK-NEXT: return
// CHECK-NOT: @scale
// CPP-LABEL: static void chip(pto::sim::Buffer<float>* v1, float* v2, int64_t* v3, size_t v4) {
// CPP: float* v6 = pto::sim::data(v1);
// CPP: size_t v7 = pto::sim::dim(v1, 0);
// CPP: scale(v6, v2, v3, v7, v4);
// CPP-NEXT: return;
func.func @chip(%h: !pl.tensor<?x64xf32>, %w: !pld.dtensor<?x64xf32>, %c: !pld.comm_ctx) attributes {pl.kind = #pl.kind<orchestration>} {
  %c0 = arith.constant 0 : index
  pl.call @scale(%h, %w, %c) : (!pl.tensor<?x64xf32>, !pld.dtensor<?x64xf32>, !pld.comm_ctx) -> ()
  return
}
func.func @scale(%h: !pl.tensor<?x64xf32>, %w: !pld.dtensor<?x64xf32> {pl.direction = #pl.direction<inout>}, %c: !pld.comm_ctx) attributes {pl.kind = #pl.kind<aiv>} {
  return
}

// -----

// Static extents pass nothing more; two chips, each a function, in order.

// CHECK-LABEL: emitc.func @first(
// CHECK-SAME: %[[X:.*]]: !emitc.ptr<!emitc.opaque<"pto::sim::Buffer<int32_t>">>, %[[Y:.*]]: !emitc.ptr<!emitc.opaque<"int32_t">>) attributes {specifiers = ["static"]}
// CHECK: %[[D:.*]] = call_opaque "pto::sim::data"(%[[X]])
// CHECK-NEXT: call_opaque "copy"(%[[D]], %[[Y]]) : (!emitc.ptr<!emitc.opaque<"int32_t">>, !emitc.ptr<!emitc.opaque<"int32_t">>) -> ()
// CHECK-LABEL: emitc.func @second(
// CHECK-SAME: %[[X:.*]]: !emitc.ptr<!emitc.opaque<"pto::sim::Buffer<int32_t>">>, %[[Y:.*]]: !emitc.ptr<!emitc.opaque<"int32_t">>)
// CHECK: call_opaque "copy"
// CPP-LABEL: static void first(pto::sim::Buffer<int32_t>* v1, int32_t* v2) {
// CPP: copy(v3, v2);
// CPP-LABEL: static void second(pto::sim::Buffer<int32_t>* v1, int32_t* v2) {
func.func @copy(%x: !pl.tensor<8x8xi32>, %y: !pld.dtensor<8x8xi32> {pl.direction = #pl.direction<out>}) attributes {pl.kind = #pl.kind<aiv>} {
  return
}
func.func @first(%x: !pl.tensor<8x8xi32>, %y: !pld.dtensor<8x8xi32>) attributes {pl.kind = #pl.kind<orchestration>} {
  pl.call @copy(%x, %y) : (!pl.tensor<8x8xi32>, !pld.dtensor<8x8xi32>) -> ()
  return
}
func.func @second(%x: !pl.tensor<8x8xi32>, %y: !pld.dtensor<8x8xi32>) attributes {pl.kind = #pl.kind<orchestration>} {
  pl.call @copy(%x, %y) : (!pl.tensor<8x8xi32>, !pld.dtensor<8x8xi32>) -> ()
  return
}

// -----

// Scalar parameters are passed on by value: an index as the kernels'
// size_t, other scalars as their C++ type.

// CHECK-LABEL: emitc.func @scalar_chip(
// CHECK-SAME: %[[H:.*]]: !emitc.ptr<!emitc.opaque<"pto::sim::Buffer<float>">>, %[[N:.*]]: !emitc.size_t, %[[S:.*]]: !emitc.opaque<"float">) attributes {specifiers = ["static"]}
// CHECK: %[[D:.*]] = call_opaque "pto::sim::data"(%[[H]])
// CHECK: call_opaque "shift"(%[[D]], %[[N]], %[[S]])
// CPP-LABEL: static void scalar_chip(pto::sim::Buffer<float>* v1, size_t v2, float v3) {
// CPP: shift({{v[0-9]+}}, v2, v3);
func.func @scalar_chip(%h: !pl.tensor<8xf32>, %n: index, %s: f32) attributes {pl.kind = #pl.kind<orchestration>} {
  pl.call @shift(%h, %n, %s) : (!pl.tensor<8xf32>, index, f32) -> ()
  return
}
func.func @shift(%h: !pl.tensor<8xf32> {pl.direction = #pl.direction<inout>}, %n: index, %s: f32) attributes {pl.kind = #pl.kind<aiv>} {
  return
}

// -----

// A chip computes with an index scalar (taken back as an index for the
// EmitC conversions) and branches on it; the values that name a window's
// buffer are the window's pointer: a kernel's result it returns, both
// branches of an scf.if updating it in place, and its views.

// CHECK-LABEL: emitc.func @aliases(
// CHECK-SAME: %[[W:[^:]*]]: !emitc.ptr<!emitc.opaque<"float">>, %[[R:[^:]*]]: !emitc.size_t)
// CHECK: %[[I:.*]] = builtin.unrealized_conversion_cast %[[R]] : !emitc.size_t to index
// CHECK: call_opaque "post"(%[[W]])
// CHECK: %[[ODD:.*]] = arith.cmpi eq, %[[I]]
// CHECK-NOT: pl.tensor.view
// CHECK: scf.if %[[ODD]]
// CHECK: emitc.call_opaque "read"(%[[W]], %[[R]])
// CPP-LABEL: static void aliases(float* v1, size_t v2) {
// CPP: post(v1);
// CPP: if (
// CPP: read(v1, v2);
func.func @post(%w: !pld.dtensor<4x64xf32> {pl.direction = #pl.direction<inout>}) -> !pld.dtensor<4x64xf32> attributes {pl.kind = #pl.kind<aiv>} {
  return %w : !pld.dtensor<4x64xf32>
}
func.func @read(%f: !pld.dtensor<1x256xf32>, %r: index) attributes {pl.kind = #pl.kind<aiv>} {
  return
}
func.func @aliases(%w: !pld.dtensor<4x64xf32>, %r: index) attributes {pl.kind = #pl.kind<orchestration>} {
  %c1 = arith.constant 1 : index
  %posted = pl.call @post(%w) : (!pld.dtensor<4x64xf32>) -> !pld.dtensor<4x64xf32>
  %odd = arith.cmpi eq, %r, %c1 : index
  %either = scf.if %odd -> !pld.dtensor<4x64xf32> {
    scf.yield %posted : !pld.dtensor<4x64xf32>
  } else {
    %flat = pl.tensor.view %posted : !pld.dtensor<4x64xf32> -> !pld.dtensor<1x256xf32>
    %back = pl.tensor.view %flat : !pld.dtensor<1x256xf32> -> !pld.dtensor<4x64xf32>
    scf.yield %back : !pld.dtensor<4x64xf32>
  }
  %view = pl.tensor.view %either : !pld.dtensor<4x64xf32> -> !pld.dtensor<1x256xf32>
  scf.if %odd {
    pl.call @read(%view, %r) : (!pld.dtensor<1x256xf32>, index) -> ()
  }
  return
}

// -----

// A runtime scope is its body: tasks run at once, in order; its results
// are what the body yields.
// CHECK-LABEL: emitc.func @scoped(
// CHECK-NOT: pl.runtime_scope
// CHECK: call_opaque "scale"
// CHECK-NEXT: call_opaque "scale"
// CHECK-NEXT: return
func.func @scoped(%w: !pld.dtensor<16x64xf32>, %c: !pld.comm_ctx) attributes {pl.kind = #pl.kind<orchestration>} {
  %r = pl.runtime_scope manual -> !pld.dtensor<16x64xf32> {
    %s = pl.call @scale(%w, %c) : (!pld.dtensor<16x64xf32>, !pld.comm_ctx) -> !pld.dtensor<16x64xf32>
    pl.yield %s : !pld.dtensor<16x64xf32>
  }
  pl.call @scale(%r, %c) : (!pld.dtensor<16x64xf32>, !pld.comm_ctx) -> !pld.dtensor<16x64xf32>
  return
}
func.func @scale(%w: !pld.dtensor<16x64xf32> {pl.direction = #pl.direction<inout>}, %c: !pld.comm_ctx) -> !pld.dtensor<16x64xf32> attributes {pl.kind = #pl.kind<aiv>} {
  return %w : !pld.dtensor<16x64xf32>
}
