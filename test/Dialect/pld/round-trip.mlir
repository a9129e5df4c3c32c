// Every pld type and op prints in the form it parses from, in pto-opt and in
// stock mlir-opt with the plugin, in custom and generic form.
// RUN: pto-opt %s | pto-opt | FileCheck %s
// RUN: pto-opt %s --mlir-print-op-generic | pto-opt | FileCheck %s
// RUN: mlir-opt --load-dialect-plugin=%plugin %s | mlir-opt --load-dialect-plugin=%plugin | FileCheck %s

// CHECK-LABEL: func.func @types
// CHECK-SAME: !pld.dtensor<?x1xi32>
// CHECK-SAME: !pld.dtensor<4x256xf32>
// CHECK-SAME: !pld.comm_ctx
func.func @types(%a: !pld.dtensor<?x1xi32>, %b: !pld.dtensor<4x256xf32>, %c: !pld.comm_ctx) {
  return
}

// CHECK-LABEL: func.func @system
// CHECK: %[[CTX:.*]] = pld.system.get_comm_ctx %{{.*}} : !pld.dtensor<?x1xi32>
// CHECK: pld.system.rank %[[CTX]] : i32
// CHECK: pld.system.nranks %[[CTX]] : i32
// CHECK: pld.system.notify %{{.*}}[%{{.*}}, %{{.*}}] to %{{.*}}, %{{.*}} atomic_add : !pld.dtensor<?x1xi32>
// CHECK: pld.system.notify %{{.*}}[%{{.*}}, %{{.*}}] to %{{.*}}, %{{.*}} set : !pld.dtensor<?x1xi32>
// CHECK: pld.system.wait %{{.*}}[%{{.*}}, %{{.*}}], %{{.*}} ge : !pld.dtensor<?x1xi32>
// CHECK: pld.system.wait %{{.*}}[%{{.*}}, %{{.*}}], %{{.*}} eq : !pld.dtensor<?x1xi32>
func.func @system(%signal: !pld.dtensor<?x1xi32>, %row: index, %col: index, %one: i32) -> (i32, i32) {
  %ctx = pld.system.get_comm_ctx %signal : !pld.dtensor<?x1xi32>
  %me = pld.system.rank %ctx : i32
  %n = pld.system.nranks %ctx : i32
  pld.system.notify %signal[%row, %col] to %me, %one atomic_add : !pld.dtensor<?x1xi32>
  pld.system.notify %signal[%row, %col] to %me, %one set : !pld.dtensor<?x1xi32>
  pld.system.wait %signal[%row, %col], %n ge : !pld.dtensor<?x1xi32>
  pld.system.wait %signal[%row, %col], %one eq : !pld.dtensor<?x1xi32>
  return %me, %n : i32, i32
}

// Communication has side effects: CSE and canonicalisation keep every
// notify and wait, even identical ones; pure rank queries are merged.
// RUN: pto-opt %s --cse --canonicalize | FileCheck %s --check-prefix=EFFECTS
// EFFECTS-LABEL: func.func @identical_signals
// EFFECTS-COUNT-1: pld.system.rank
// EFFECTS-NOT: pld.system.rank
// EFFECTS-COUNT-2: pld.system.notify
// EFFECTS-COUNT-2: pld.system.wait
// CHECK-LABEL: func.func @identical_signals
func.func @identical_signals(%signal: !pld.dtensor<?x1xi32>, %row: index, %one: i32) {
  %ctx = pld.system.get_comm_ctx %signal : !pld.dtensor<?x1xi32>
  %a = pld.system.rank %ctx : i32
  %b = pld.system.rank %ctx : i32
  pld.system.notify %signal[%row, %row] to %a, %one atomic_add : !pld.dtensor<?x1xi32>
  pld.system.notify %signal[%row, %row] to %b, %one atomic_add : !pld.dtensor<?x1xi32>
  pld.system.wait %signal[%row, %row], %one ge : !pld.dtensor<?x1xi32>
  pld.system.wait %signal[%row, %row], %one ge : !pld.dtensor<?x1xi32>
  return
}
