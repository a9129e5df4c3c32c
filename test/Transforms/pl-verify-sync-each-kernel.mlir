// pl-verify-sync runs on every kernel of the module, in parallel when
// threading is on, and reports each kernel's hazard in the order of the
// kernels, whatever the threading.
// RUN: not pto-opt %s --pl-verify-sync -o /dev/null 2>&1 | FileCheck %s
// RUN: not pto-opt %s --pl-verify-sync --mlir-disable-threading -o /dev/null 2>&1 | FileCheck %s

!T = !pl.tensor<16x64xf32>
!V = !pl.tile<16x64xf32, vec>

// CHECK: :[[@LINE+4]]:8: error: 'pl.tile.exp' op pl-verify-sync: read-after-write on vec[0, 4096) is not synchronised: pl.tile.load (mte2) before this pl.tile.exp (v)
func.func @first(%x: !T) attributes {pl.kind = #pl.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %a = pl.tile.load %x[%c0, %c0] {pl.addresses = array<i64: 0>} : !T -> !V
  %b = pl.tile.exp %a {pl.addresses = array<i64: 4096>} : !V
  return
}

func.func @fine(%x: !T) attributes {pl.kind = #pl.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %a = pl.tile.load %x[%c0, %c0] {pl.addresses = array<i64: 0>} : !T -> !V
  return
}

// CHECK: :[[@LINE+5]]:8: error: 'pl.tile.neg' op pl-verify-sync: read-after-write on vec[0, 4096) is not synchronised: pl.tile.load (mte2) before this pl.tile.neg (v)
// CHECK-NOT: error
func.func @third(%x: !T) attributes {pl.kind = #pl.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %a = pl.tile.load %x[%c0, %c0] {pl.addresses = array<i64: 0>} : !T -> !V
  %b = pl.tile.neg %a {pl.addresses = array<i64: 4096>} : !V
  return
}
