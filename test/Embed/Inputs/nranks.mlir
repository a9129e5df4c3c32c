// The number of ranks, which pld-specialize-nranks makes a constant.
func.func @f(%s: !pld.dtensor<?x1xi32>) -> i32 {
  %ctx = pld.system.get_comm_ctx %s : !pld.dtensor<?x1xi32>
  %n = pld.system.nranks %ctx : i32
  return %n : i32
}
