"foo.bar"() : () -> ()
func.func @f(%t: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "foo.op"(%t) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
