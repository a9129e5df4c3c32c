// Window buffers belong to the comm domains the host's dispatches imply:
// "left" is used on devices 0 and 1, "right" on 2 and 3, so each kernel sees
// two ranks. pto-run executes the program as written with those domains, as
// it does after pld-materialize-comm-domains (a barrier over four ranks
// would deadlock); both record rank and rank count per device.
// RUN: rm -rf %t && pto-run %s --ranks 4 -o %t/written
// RUN: pto-run %s --ranks 4 --pass-pipeline='builtin.module(pld-materialize-comm-domains)' -o %t/lowered
// RUN: python3 %S/Inputs/domain_cells.py %t/written/left.npy %t/lowered/left.npy | FileCheck %s
// RUN: python3 %S/Inputs/domain_cells.py %t/written/right.npy %t/lowered/right.npy | FileCheck %s
// Two copies (one per rank of the domain), each holding its rank and the
// domain's rank count in its row.
// CHECK: same; 2 copies; rank 0: 0 of 2; rank 1: 1 of 2
!Cells = !pld.dtensor<2x8xi32>
func.func @main() attributes {pl.level = #pl.level<host>, pl.role = #pl.role<orchestrator>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %bytes = arith.constant 64 : i64
  %lb = pld.tensor.alloc_window_buffer %bytes name "left" : i64 -> !pl.ptr
  %left = pld.tensor.window %lb : !pl.ptr -> !Cells
  %rb = pld.tensor.alloc_window_buffer %bytes name "right" : i64 -> !pl.ptr
  %right = pld.tensor.window %rb : !pl.ptr -> !Cells
  scf.for %d = %c0 to %c2 step %c1 {
    pld.dispatch @chip(%left) on %d : (!Cells) -> ()
  }
  scf.for %d = %c2 to %c4 step %c1 {
    pld.dispatch @chip(%right) on %d : (!Cells) -> ()
  }
  return
}
func.func @chip(%cells: !Cells) attributes {pl.kind = #pl.kind<orchestration>} {
  pl.call @who(%cells) : (!Cells) -> ()
  return
}
func.func @who(%cells: !Cells) attributes {pl.kind = #pl.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %ctx = pld.system.get_comm_ctx %cells : !Cells
  %me = pld.system.rank %ctx : i32
  %n = pld.system.nranks %ctx : i32
  %row = arith.index_cast %me : i32 to index
  %a = pl.tensor.write %cells[%row, %c0], %me : !Cells, i32
  %b = pl.tensor.write %cells[%row, %c1], %n : !Cells, i32
  return
}
