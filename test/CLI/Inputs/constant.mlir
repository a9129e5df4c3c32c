func.func @f() -> tensor<8xi32> {
  %c = arith.constant dense<[1, 2, 3, 4, 5, 6, 7, 8]> : tensor<8xi32>
  return %c : tensor<8xi32>
}
