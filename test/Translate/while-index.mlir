// An orchestration's scf.while with an index counter (upstream
// convert-scf-to-emitc fails on index carries; scf-while-index-to-i64
// carries them as int64_t): a do-while whose variables are int64_t, the
// counter cast back to size_t where index arithmetic uses it, and the
// loop's result passed on to the kernel as its index scalar.
// RUN: rm -rf %t && pto-translate --mlir-to-cce --target=a2a3 %s -o %t
// RUN: FileCheck %s < %t/main_orchestration.cpp
// RUN: rm -rf %t.sim && pto-translate --mlir-to-cce --target=a2a3sim %s -o %t.sim
// RUN: FileCheck %s --check-prefix=SIM < %t.sim/run_main.cpp

// CHECK: size_t [[N:v[0-9]+]] = pto_orch_scalar<size_t>(
// CHECK: int64_t [[RESULT:v[0-9]+]];
// CHECK-NEXT: int64_t [[COUNTER:v[0-9]+]];
// CHECK: do {
// CHECK: ptrdiff_t {{v[0-9]+}} = (ptrdiff_t) [[N]];
// CHECK: [[RESULT]] = {{v[0-9]+}};
// CHECK: if (
// CHECK: size_t [[NEXT:v[0-9]+]] = {{v[0-9]+}} + {{v[0-9]+}};
// CHECK: [[COUNTER]] = {{v[0-9]+}};
// CHECK: } while (
// CHECK: int64_t [[DONE:v[0-9]+]] = [[RESULT]];
// CHECK: size_t [[SCALAR:v[0-9]+]] = (size_t)
// CHECK: pto_orch_payload([[SCALAR]])
// CHECK: rt_submit_aiv_task(

// SIM: do {
// SIM: } while (
// SIM: scale(
!T = !pl.tensor<16x64xf32>
func.func @scale(%a: !T, %s: index, %o: !T {pl.direction = #pl.direction<out>}) -> !T attributes {pl.kind = #pl.kind<incore>} {
  %c0k = arith.constant 0 : index
  %i = arith.index_cast %s : index to i32
  %f = arith.sitofp %i : i32 to f32
  %r = pl.tensor.muls %a, %f : !T, f32
  %w = pl.tensor.assemble %r into %o[%c0k, %c0k] : !T, !T
  return %w : !T
}
func.func @main(%x: !T, %n: index) -> !T attributes {pl.kind = #pl.kind<orchestration>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %out = pl.tensor.create() : !T
  %r = scf.while (%i = %c1) : (index) -> (index) {
    %go = arith.cmpi slt, %i, %n : index
    scf.condition(%go) %i : index
  } do {
  ^bb0(%j: index):
    %next = arith.addi %j, %j : index
    scf.yield %next : index
  }
  %y = pl.call @scale(%x, %r, %out) : (!T, index, !T) -> !T
  return %y : !T
}
