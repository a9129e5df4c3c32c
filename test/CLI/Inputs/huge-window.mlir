// A host orchestrator whose signal window is more bytes than 64 bits count.
func.func @main() attributes {pl.level = #pl.level<host>, pl.role = #pl.role<orchestrator>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %bytes = arith.constant 1024 : i64
  %world = pld.system.world_size : i64
  %sig_buf = pld.tensor.alloc_window_buffer %bytes name "signal" : i64 -> !pl.ptr
  %sig = pld.tensor.window %sig_buf : !pl.ptr -> !pld.dtensor<9223372036854775807x1xi32>
  %devices = arith.index_cast %world : i64 to index
  scf.for %device = %c0 to %devices step %c1 {
    pld.dispatch @chip(%sig) on %device : (!pld.dtensor<9223372036854775807x1xi32>) -> ()
  }
  return
}
func.func @chip(%sig: !pld.dtensor<9223372036854775807x1xi32>) attributes {pl.kind = #pl.kind<orchestration>} {
  return
}
