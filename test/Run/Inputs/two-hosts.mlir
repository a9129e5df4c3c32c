func.func @first() attributes {pl.level = #pl.level<host>, pl.role = #pl.role<orchestrator>} {
  return
}
func.func @second() attributes {pl.level = #pl.level<host>, pl.role = #pl.role<orchestrator>} {
  return
}
