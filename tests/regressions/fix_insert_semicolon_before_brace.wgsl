fn f() {
  var m: s{ubgroup_matrix_left<f32, 8, 8>;
}
