fn f(buf: u32) {
  let m = subgroupMatrixLoad<subgroup_matrix_left<f32, 8, 8> row_major>(&buf, 0u, 8u);
}
