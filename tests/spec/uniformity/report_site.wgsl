// Which call Tint reports when several requirements fail in one function.
// Tint links the requirements to one root in program order, walks the graph
// depth first from the last one, and blames the requirement at the start of
// the chain that reaches the non-uniform source: a value made in non-uniform
// control flow is blamed on the call that made it, not on a later use of it,
// and a non-uniform argument of a helper is reported inside the helper, with
// a note where it was passed. Found by the differential campaign
// (benchmarks/differential.py).

// === load inside a non-uniform branch, stored after it
enable chromium_experimental_subgroup_matrix;
enable f16;
@group(0) @binding(0) var<storage, read_write> A: array<f16>;
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) lid: u32) {
  var m = subgroup_matrix_left<f16, 16, 16>();
  if (lid < 32u) {
    m = subgroupMatrixLoad<subgroup_matrix_left<f16, 16, 16>, row_major>(&A, 0u, 16u);
//      ^ U001 'subgroupMatrixLoad' must only be called from subgroup uniform control flow
  }
  subgroupMatrixStore<row_major>(&A, 0u, m, 16u);
}

// === non-uniform offset passed to a helper that loads with it
enable chromium_experimental_subgroup_matrix;
enable f16;
@group(0) @binding(0) var<storage, read_write> A: array<f16>;
fn load_at(offset: u32) -> subgroup_matrix_left<f16, 16, 16> {
  return subgroupMatrixLoad<subgroup_matrix_left<f16, 16, 16>, row_major>(&A, offset, 16u);
//                                                                            ^ U001 'subgroupMatrixLoad' requires argument 1 to be uniform
}
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) lid: u32) {
  let m = load_at(lid);
  subgroupMatrixStore<row_major>(&A, 0u, m, 16u);
}

// === load in a loop after a per-invocation break, stored after the loop
enable chromium_experimental_subgroup_matrix;
enable f16;
@group(0) @binding(0) var<storage, read_write> A: array<f16>;
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) lid: u32) {
  var m = subgroup_matrix_left<f16, 16, 16>();
  for (var i = 0u; i < 4u; i++) {
    if (i == lid) { break; }
    m = subgroupMatrixLoad<subgroup_matrix_left<f16, 16, 16>, row_major>(&A, i * 256u, 16u);
//      ^ U001 'subgroupMatrixLoad' must only be called from subgroup uniform control flow
  }
  subgroupMatrixStore<row_major>(&A, 0u, m, 16u);
}

// === multiply inside a non-uniform branch, result stored after it
enable chromium_experimental_subgroup_matrix;
enable f16;
@group(0) @binding(0) var<storage, read_write> A: array<f16>;
@group(0) @binding(1) var<storage, read_write> C: array<f32>;
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) lid: u32) {
  let a = subgroupMatrixLoad<subgroup_matrix_left<f16, 16, 16>, row_major>(&A, 0u, 16u);
  let b = subgroupMatrixLoad<subgroup_matrix_right<f16, 16, 16>, row_major>(&A, 256u, 16u);
  var c = subgroup_matrix_result<f32, 16, 16>();
  if (lid % 2u == 0u) {
    c = subgroupMatrixMultiplyAccumulate(a, b, c);
//      ^ U001 'subgroupMatrixMultiplyAccumulate' must only be called from subgroup uniform control flow
  }
  subgroupMatrixStore<row_major>(&C, 0u, c, 16u);
}

// === non-uniform value through a helper's return, then stored
enable chromium_experimental_subgroup_matrix;
enable f16;
@group(0) @binding(0) var<storage, read_write> A: array<f16>;
fn pick(i: u32) -> u32 { return i * 256u; }
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) lid: u32) {
  let offset = pick(lid);
  let m = subgroupMatrixLoad<subgroup_matrix_left<f16, 16, 16>, row_major>(&A, offset, 16u);
//                                                                             ^ U001 'subgroupMatrixLoad' requires argument 1 to be uniform
  subgroupMatrixStore<row_major>(&A, 0u, m, 16u);
}

// === two failing barriers: the later one, whose condition reads storage itself, is reported
@group(0) @binding(0) var<storage, read_write> data: array<u32>;
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) li: u32) {
  var v = 0u;
  if (li == 0u) {
    v = data[0];
    workgroupBarrier();
  }
  if (v > 4u) {
    storageBarrier();
//  ^ U001 'storageBarrier' must only be called from uniform control flow
  }
}

// === two failing barriers: a constant assigned in the first branch blames the later barrier
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) li: u32) {
  var v = 0u;
  if (li == 0u) {
    v = 7u;
    workgroupBarrier();
  }
  if (v > 4u) {
    storageBarrier();
//  ^ U001 'storageBarrier' must only be called from uniform control flow
  }
}
