// RUN: pto-opt %s --pass-pipeline='builtin.module(pl-estimate-cycles{nranks=4 rank=1})' --mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 | FileCheck %s
// RUN: pto-opt %s --pass-pipeline='builtin.module(pl-estimate-cycles{nranks=4 rank=0})' --mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 | FileCheck %s --check-prefix=ROOT
// RUN: pto-opt %s --pl-estimate-cycles --mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 | FileCheck %s --check-prefix=UNKNOWN

// A distributed kernel's loop over the ranks and its branch on its own
// rank: with nranks and rank given, the loop runs 4 times and the branch
// takes its side (rank 0: two exps of a 16x64 f32 tile, 63 cycles each;
// another rank: one). Without them the loop runs once and the branch
// costs its dearer side, and the remark says so.

// CHECK: remark: 'func.func' op pl-estimate-cycles: @ranks: 252 cycles ({{.*}}); pipe bound 252 cycles (v); ratio 1.00; data bound 252 cycles (ratio 1.00); busy: mte1 0, mte2 0, mte3 0, m 0, v 252, s 0, fix 0{{$}}
// ROOT: remark: 'func.func' op pl-estimate-cycles: @ranks: 504 cycles ({{.*}}); pipe bound 504 cycles (v); ratio 1.00; data bound 504 cycles (ratio 1.00); busy: mte1 0, mte2 0, mte3 0, m 0, v 504, s 0, fix 0{{$}}
// UNKNOWN: remark: 'func.func' op pl-estimate-cycles: @ranks: 126 cycles ({{.*}}); pipe bound 126 cycles (v); ratio 1.00; data bound 126 cycles (ratio 1.00); busy: mte1 0, mte2 0, mte3 0, m 0, v 126, s 0, fix 0; approximate: 1 loop(s) of unknown trip count run 1 time(s), 1 branch(es) of unknown condition cost their dearer side
func.func @ranks(%ctx: !pld.comm_ctx) attributes {pl.kind = #pl.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0 : i32
  %n = pld.system.nranks %ctx : i32
  %ni = arith.index_cast %n : i32 to index
  %me = pld.system.rank %ctx : i32
  %root = arith.cmpi eq, %me, %zero : i32
  %t = pl.tile.create {pl.addresses = array<i64: 0>} : !pl.tile<16x64xf32, vec>
  scf.for %r = %c0 to %ni step %c1 {
    scf.if %root {
      %a = pl.tile.exp %t {pl.addresses = array<i64: 4096>} : !pl.tile<16x64xf32, vec>
      %b = pl.tile.exp %t {pl.addresses = array<i64: 8192>} : !pl.tile<16x64xf32, vec>
    } else {
      %a = pl.tile.exp %t {pl.addresses = array<i64: 4096>} : !pl.tile<16x64xf32, vec>
    }
  }
  return
}
