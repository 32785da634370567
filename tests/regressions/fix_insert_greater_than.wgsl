fn f() -> f32 {
  var a: array<f32, 4>;T  return a[4];
}
