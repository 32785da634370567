// Where non-uniform values come from: builtin values, address spaces,
// workgroupUniformLoad, atomics, const and override. Tint (wgpudawn 0.32)
// measured: local_invocation_index/id, global_invocation_id and
// subgroup_invocation_id are non-uniform; workgroup_id, num_workgroups,
// subgroup_size and num_subgroups are uniform; subgroup_id is non-uniform
// for barriers (workgroup scope) but uniform for subgroup builtins and
// matrix builtins (subgroup scope).

// === local_invocation_index is non-uniform
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) x: u32) {
  if x > 0u { workgroupBarrier(); }
//            ^ U001 'workgroupBarrier' must only be called from uniform control flow
}

// === local_invocation_id is non-uniform
@compute @workgroup_size(8, 8)
fn main(@builtin(local_invocation_id) x: vec3u) {
  if x.y > 0u { workgroupBarrier(); }
//              ^ U001 'workgroupBarrier' must only be called from uniform control flow
}

// === global_invocation_id is non-uniform
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) x: vec3u) {
  if x.x > 0u { workgroupBarrier(); }
//              ^ U001 'workgroupBarrier' must only be called from uniform control flow
}

// === subgroup_invocation_id is non-uniform
enable subgroups;
@compute @workgroup_size(64)
fn main(@builtin(subgroup_invocation_id) x: u32) {
  if x > 0u { workgroupBarrier(); }
//            ^ U001 'workgroupBarrier' must only be called from uniform control flow
}

// === subgroup_invocation_id is non-uniform for subgroup builtins
enable subgroups;
@compute @workgroup_size(64)
fn main(@builtin(subgroup_invocation_id) x: u32) {
  if x > 0u { _ = subgroupAdd(1u); }
//                ^ U001 'subgroupAdd' must only be called from subgroup uniform control flow
}

// === workgroup_id is uniform
@compute @workgroup_size(64)
fn main(@builtin(workgroup_id) x: vec3u) {
  if x.z > 0u { workgroupBarrier(); }
}

// === num_workgroups is uniform
@compute @workgroup_size(64)
fn main(@builtin(num_workgroups) x: vec3u) {
  if x.x > 1u { workgroupBarrier(); }
}

// === subgroup_size is uniform
enable subgroups;
@compute @workgroup_size(64)
fn main(@builtin(subgroup_size) x: u32) {
  if x == 32u { workgroupBarrier(); }
}

// === num_subgroups is uniform
enable subgroups;
@compute @workgroup_size(64)
fn main(@builtin(num_subgroups) x: u32) {
  if x > 1u { workgroupBarrier(); }
}

// === subgroup_id is non-uniform for a barrier
enable subgroups;
@compute @workgroup_size(64)
fn main(@builtin(subgroup_id) x: u32) {
  if x > 0u { workgroupBarrier(); }
//            ^ U001 'workgroupBarrier' must only be called from uniform control flow
}

// === subgroup_id is uniform for subgroup builtins
enable subgroups;
@compute @workgroup_size(64)
fn main(@builtin(subgroup_id) x: u32) {
  if x > 0u { _ = subgroupAdd(1u); }
}

// === subgroup_id is uniform for matrix builtins
enable chromium_experimental_subgroup_matrix;
enable subgroups;
@group(0) @binding(0) var<storage, read_write> buf: array<f32>;
@compute @workgroup_size(64)
fn main(@builtin(subgroup_id) x: u32) {
  if x < 2u {
    let m = subgroupMatrixLoad<subgroup_matrix_left<f32, 8, 8>, row_major>(&buf, x * 64u, 8u);
  }
}

// === subgroup_id divided stays non-uniform for a barrier
enable subgroups;
@compute @workgroup_size(64)
fn main(@builtin(subgroup_id) x: u32) {
  let half = x / 2u;
  if half > 0u { storageBarrier(); }
//               ^ U001 'storageBarrier' must only be called from uniform control flow
}

// === read-only storage is uniform
@group(0) @binding(0) var<storage, read> n: u32;
@compute @workgroup_size(64)
fn main() {
  if n > 0u { workgroupBarrier(); }
}

// === read-only storage at non-uniform index is non-uniform
@group(0) @binding(0) var<storage, read> data: array<u32>;
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) li: u32) {
  if data[li] > 0u { workgroupBarrier(); }
//                   ^ U001 'workgroupBarrier' must only be called from uniform control flow
}

// === read_write storage is non-uniform
@group(0) @binding(0) var<storage, read_write> n: u32;
@compute @workgroup_size(64)
fn main() {
  if n > 0u { workgroupBarrier(); }
//            ^ U001 'workgroupBarrier' must only be called from uniform control flow
}

// === uniform buffer is uniform
@group(0) @binding(0) var<uniform> n: vec4u;
@compute @workgroup_size(64)
fn main() {
  if n.w > 0u { workgroupBarrier(); }
}

// === private variable is non-uniform
var<private> counter: u32;
@compute @workgroup_size(64)
fn main() {
  if counter > 0u { workgroupBarrier(); }
//                  ^ U001 'workgroupBarrier' must only be called from uniform control flow
}

// === workgroup variable is non-uniform
var<workgroup> shared_count: u32;
@compute @workgroup_size(64)
fn main() {
  if shared_count > 0u { workgroupBarrier(); }
//                       ^ U001 'workgroupBarrier' must only be called from uniform control flow
}

// === workgroupUniformLoad makes a workgroup variable uniform
var<workgroup> shared_count: u32;
@compute @workgroup_size(64)
fn main() {
  if workgroupUniformLoad(&shared_count) > 0u { workgroupBarrier(); }
}

// === workgroupUniformLoad in non-uniform control flow
var<workgroup> shared_count: u32;
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) li: u32) {
  var v = 0u;
  if li == 0u {
    v = workgroupUniformLoad(&shared_count);
//      ^ U001 'workgroupUniformLoad' must only be called from uniform control flow
  }
}

// === workgroupUniformLoad at non-uniform index
var<workgroup> tile: array<u32, 64>;
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) li: u32) {
  let v = workgroupUniformLoad(&tile[li]);
//                             ^ U001 'workgroupUniformLoad' requires argument 0 to be uniform
}

// === atomicLoad is non-uniform
var<workgroup> total: atomic<u32>;
@compute @workgroup_size(64)
fn main() {
  if atomicLoad(&total) > 0u { workgroupBarrier(); }
//                             ^ U001 'workgroupBarrier' must only be called from uniform control flow
}

// === atomicAdd result is non-uniform
@group(0) @binding(0) var<storage, read_write> ticket: atomic<u32>;
@compute @workgroup_size(64)
fn main() {
  let t = atomicAdd(&ticket, 1u);
  if t == 0u { workgroupBarrier(); }
//             ^ U001 'workgroupBarrier' must only be called from uniform control flow
}

// === const and override are uniform
override BLOCK: u32 = 16u;
const LIMIT = 4u;
@compute @workgroup_size(64)
fn main() {
  if BLOCK > LIMIT { workgroupBarrier(); }
}

// === module-scope const array indexed uniformly
const TABLE = array<u32, 4>(1u, 2u, 3u, 4u);
@compute @workgroup_size(64)
fn main(@builtin(workgroup_id) wg: vec3u) {
  if TABLE[wg.x % 4u] > 2u { workgroupBarrier(); }
}

// === const array indexed non-uniformly
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) li: u32) {
  const TABLE = array<u32, 4>(1u, 2u, 3u, 4u);
  if TABLE[li % 4u] > 2u { workgroupBarrier(); }
//                         ^ U001 'workgroupBarrier' must only be called from uniform control flow
}

// === builtin in a struct parameter member
struct In { @builtin(local_invocation_index) li: u32, @builtin(workgroup_id) wg: vec3u }
@compute @workgroup_size(64)
fn main(input: In) {
  if input.wg.x > 0u { workgroupBarrier(); }
  if input.li > 0u { workgroupBarrier(); }
//                   ^ U001 'workgroupBarrier' must only be called from uniform control flow
}

// === arithmetic on uniform values stays uniform
@compute @workgroup_size(64)
fn main(@builtin(workgroup_id) wg: vec3u, @builtin(num_workgroups) nw: vec3u) {
  let linear = wg.y * nw.x + wg.x;
  if select(0u, linear, linear > 3u) > 2u { workgroupBarrier(); }
}

// === select with non-uniform operand
@compute @workgroup_size(64)
fn main(@builtin(workgroup_id) wg: vec3u, @builtin(local_invocation_index) li: u32) {
  let v = select(wg.x, li, wg.y > 0u);
  if v > 2u { workgroupBarrier(); }
//            ^ U001 'workgroupBarrier' must only be called from uniform control flow
}

// === arrayLength of storage is uniform
@group(0) @binding(0) var<storage, read_write> data: array<u32>;
@compute @workgroup_size(64)
fn main() {
  if arrayLength(&data) > 64u { workgroupBarrier(); }
}

// === pointer to function variable read after non-uniform store
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) li: u32) {
  var v = 0u;
  let p = &v;
  *p = li;
  if v > 3u { workgroupBarrier(); }
//            ^ U001 'workgroupBarrier' must only be called from uniform control flow
}

// === uniform builtin member of a struct with a non-uniform member
struct In { @builtin(local_invocation_index) li: u32, @builtin(workgroup_id) wg: vec3u }
@compute @workgroup_size(64)
fn main(input: In) {
  if input.wg.x > 0u { workgroupBarrier(); }
//                     ^ U001 'workgroupBarrier' must only be called from uniform control flow
}

// === struct of uniform builtins only
struct In { @builtin(num_workgroups) nw: vec3u, @builtin(workgroup_id) wg: vec3u }
@compute @workgroup_size(64)
fn main(input: In) {
  if input.wg.x < input.nw.x { workgroupBarrier(); }
}
