enable f16;
enable subgroup_matrix;
@group(0) @binding(0) var<storage, read> a: array<f16>;
fn main() {
  let m = subgroupMatrixLoad<subgroup_matrix_left<f16, 16, 16>>();
  subgroupMatrixStore();
}
