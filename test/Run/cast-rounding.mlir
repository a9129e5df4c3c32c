// pl.tensor.cast to an integer rounds as pto-isa's TCVT: none toward zero
// (TCVT's default from a float), rint to nearest even, round to nearest
// away from zero, odd to nearest with ties to the odd neighbour, floor,
// ceil, trunc. The goldens are numpy's roundings of the same values.
// RUN: rm -rf %t && mkdir -p %t
// RUN: /usr/bin/python3 -c "import numpy as np; np.save('%t/x.npy', np.float32([[2.5, 3.5, -2.5, 2.7, -2.7, 0.5, 1.5, -0.5, -3.5, 4.2, -4.8, 0.0, 6.5, -7.5, 8.49, -1.5]]))"
// RUN: pto-run %s --input x=%t/x.npy -o %t/out
// RUN: /usr/bin/python3 -c "import numpy as np; x = np.load('%t/x.npy').astype(np.float64); f = np.floor(x); odd = np.where(x - f > 0.5, f + 1, np.where(x - f < 0.5, f, np.where(f %% 2 == 1, f, f + 1))); g = [np.trunc(x), np.rint(x), np.sign(x) * np.floor(np.abs(x) + 0.5), odd, np.floor(x), np.ceil(x), np.trunc(x)]; y = [np.load('%t/out/result' + str(i) + '.npy') for i in range(7)]; bad = [i for i in range(7) if not np.array_equal(y[i], g[i].astype(np.int32))]; assert not bad, (bad, y, g); print('rounded')" | FileCheck %s
// CHECK: rounded

!F = !pl.tensor<1x16xf32>
!I = !pl.tensor<1x16xi32>

func.func @main(%x: !F) -> (!I, !I, !I, !I, !I, !I, !I) attributes {pl.kind = #pl.kind<orchestration>} {
  %0 = pl.tensor.cast %x none : !F -> !I
  %1 = pl.tensor.cast %x rint : !F -> !I
  %2 = pl.tensor.cast %x round : !F -> !I
  %3 = pl.tensor.cast %x odd : !F -> !I
  %4 = pl.tensor.cast %x floor : !F -> !I
  %5 = pl.tensor.cast %x ceil : !F -> !I
  %6 = pl.tensor.cast %x trunc : !F -> !I
  return %0, %1, %2, %3, %4, %5, %6 : !I, !I, !I, !I, !I, !I, !I
}
