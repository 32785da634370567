// Short-circuit operators: the right operand of && and || runs only where
// the left one lets it, so it is in control flow that depends on the left
// operand; the result depends on both.

// === && with non-uniform left operand in condition
@compute @workgroup_size(64)
fn main(@builtin(workgroup_id) wg: vec3u, @builtin(local_invocation_index) li: u32) {
  if li > 0u && wg.x > 0u {
    workgroupBarrier();
//  ^ U001 'workgroupBarrier' must only be called from uniform control flow
  }
}

// === || with non-uniform right operand in condition
@compute @workgroup_size(64)
fn main(@builtin(workgroup_id) wg: vec3u, @builtin(local_invocation_index) li: u32) {
  if wg.x > 0u || li > 0u {
    workgroupBarrier();
//  ^ U001 'workgroupBarrier' must only be called from uniform control flow
  }
}

// === && of uniform operands is fine
@compute @workgroup_size(64)
fn main(@builtin(workgroup_id) wg: vec3u, @builtin(num_workgroups) nw: vec3u) {
  if wg.x > 0u && wg.x < nw.x {
    workgroupBarrier();
  }
}

// === let initializer with && then branch
@compute @workgroup_size(64)
fn main(@builtin(workgroup_id) wg: vec3u, @builtin(local_invocation_index) li: u32) {
  let ok = wg.x > 0u && li > 3u;
  if ok {
    storageBarrier();
//  ^ U001 'storageBarrier' must only be called from uniform control flow
  }
}

// === let initializer with || of uniform values is fine
@compute @workgroup_size(64)
fn main(@builtin(workgroup_id) wg: vec3u) {
  let ok = wg.x > 0u || wg.y > 3u;
  if ok {
    storageBarrier();
  }
}

// === rhs calls a subgroup builtin after non-uniform lhs
enable subgroups;
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) li: u32) {
  let any_big = li > 3u && subgroupAny(li > 7u);
//                         ^ U001 'subgroupAny' must only be called from subgroup uniform control flow
}

// === rhs calls a subgroup builtin after uniform lhs is fine
enable subgroups;
@compute @workgroup_size(64)
fn main(@builtin(workgroup_id) wg: vec3u, @builtin(local_invocation_index) li: u32) {
  let any_big = wg.x > 3u || subgroupAll(li > 7u);
}

// === rhs reads a workgroupUniformLoad after non-uniform lhs
var<workgroup> flag: u32;
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) li: u32) {
  let go = li == 0u || workgroupUniformLoad(&flag) == 1u;
//                     ^ U001 'workgroupUniformLoad' must only be called from uniform control flow
}

// === nested short-circuit with non-uniform middle
@compute @workgroup_size(64)
fn main(@builtin(workgroup_id) wg: vec3u, @builtin(local_invocation_index) li: u32) {
  if (wg.x > 0u && li > 1u) || wg.y > 2u {
    workgroupBarrier();
//  ^ U001 'workgroupBarrier' must only be called from uniform control flow
  }
}

// === short-circuit in loop condition
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) li: u32) {
  var i = 0u;
  while i < 8u && i != li {
    workgroupBarrier();
//  ^ U001 'workgroupBarrier' must only be called from uniform control flow
    i++;
  }
}

// === non-short-circuit & on bools with non-uniform operand
@compute @workgroup_size(64)
fn main(@builtin(workgroup_id) wg: vec3u, @builtin(local_invocation_index) li: u32) {
  if (wg.x > 0u) & (li > 1u) {
    workgroupBarrier();
//  ^ U001 'workgroupBarrier' must only be called from uniform control flow
  }
}

// === rhs calls a matrix helper after non-uniform lhs
enable chromium_experimental_subgroup_matrix;
@group(0) @binding(0) var<storage, read_write> buf: array<f32>;
fn store_tile() -> bool {
  subgroupMatrixStore<row_major>(&buf, 0u, subgroup_matrix_result<f32, 8, 8>(), 8u);
//                                         ^ U001 'subgroup_matrix_result' must only be called from subgroup uniform control flow
  return true;
}
@compute @workgroup_size(32)
fn main(@builtin(local_invocation_index) li: u32) {
  let done = li < 8u && store_tile();
}
