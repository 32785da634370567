enable chromium_experimental_subgroup_matrix;
enable f16;
alias TileA = subgroup_matrix_left<f16, 8, 8>;
alias TileB = subgroup_matrix_right<f16, 8, 8>;
alias TileC = subgroup_matrix_result<f32, 8, 8>;
@group(0) @binding(0) var<storage, read> a: array<f16>;
@group(0) @binding(1) var<storage, read> b: array<f16>;
@group(0) @binding(2) var<storage, read_write> c: array<f32>;
@compute @workgroup_size(32)
fn main(@builtin(workgroup_id) workgroup: vec3<u32>, @builtin(subgroup_invocation_id) lane: u32, @builtin(num_subgroups) subgroups: u32) {
  var acc = TileC();
  for (var k = 0u; k < 64u; k += 8u) {
    let left = subgroupMatrixLoad<TileA>(&a, workgroup.x * 8u * 64u + k + lane * 0u + subgroups * 0u, false, 64u);
    let right = subgroupMatrixLoad<TileB>(&b, k * 64u + workgroup.y * 8u, false, 64u);
    acc = subgroupMatrixMultiplyAccumulate(left, right, subgroupMatrixMultiplyAccumulate(left, right, acc));
  }
  // An author's trailing comma keeps the list one item per line, even when it would fit.
  let pair = vec2u(1u, 2u,);
  let long_sum = workgroup.x * 1024u + workgroup.y * 2048u + workgroup.z * 4096u + lane * 8192u + subgroups * 16384u;
  subgroupMatrixStore(&c, workgroup.x * 8u * 64u + workgroup.y * 8u + pair.x * 0u + long_sum * 0u, acc, false, 64u);
}
