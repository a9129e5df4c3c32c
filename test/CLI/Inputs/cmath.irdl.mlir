// A dialect defined in IRDL, for --irdl-file (test/CLI/driver-flags.test).
irdl.dialect @cmath {
  irdl.operation @norm {
    %0 = irdl.is f32
    irdl.operands(input: %0)
    irdl.results(output: %0)
  }
}
