// Where our subgroup analysis deliberately goes beyond Tint. Tint
// approximates subgroup uniformity with workgroup uniformity (and this Tint
// gains nothing from `requires subgroup_uniformity`): a value from
// subgroupBroadcastFirst, subgroupBroadcast or a subgroup reduction is the
// same in every lane of a subgroup, so branching on it keeps each subgroup
// converged; Tint rejects it (U001) and we add U003. Conversely, with Tint's
// rule switched off, control flow or arguments that really differ between
// lanes of one subgroup (subgroup_invocation_id, per-invocation loads,
// subgroupElect, scans, shuffles) stay an error: U002.

// === branch on subgroupBroadcastFirst before a matrix load
// Reason for U003: subgroupBroadcastFirst returns one lane's value to every lane.
enable subgroups;
enable chromium_experimental_subgroup_matrix;
@group(0) @binding(0) var<storage, read_write> buf: array<f32>;
@compute @workgroup_size(32)
fn main(@builtin(local_invocation_index) li: u32) {
  if subgroupBroadcastFirst(li) < 32u {
    let m = subgroupMatrixLoad<subgroup_matrix_left<f32, 8, 8>, row_major>(&buf, 0u, 8u);
//          ^ U001 'subgroupMatrixLoad' must only be called from subgroup uniform control flow
//          ^ U003 'subgroupMatrixLoad'
  }
}

// === branch on subgroupBroadcast before a multiply
// Reason for U003: subgroupBroadcast(x, 0u) gives every lane lane 0's value.
enable subgroups;
enable chromium_experimental_subgroup_matrix;
@compute @workgroup_size(32)
fn main(@builtin(local_invocation_index) li: u32) {
  let l = subgroup_matrix_left<f32, 8, 8>(1.0);
  let r = subgroup_matrix_right<f32, 8, 8>(1.0);
  if subgroupBroadcast(li, 0u) == 0u {
    let c = subgroupMatrixMultiply<f32>(l, r);
//          ^ U001 'subgroupMatrixMultiply' must only be called from subgroup uniform control flow
//          ^ U003 'subgroupMatrixMultiply'
  }
}

// === branch on subgroupAdd result before a store
// Reason for U003: a reduction returns the same sum to every lane of the subgroup.
enable subgroups;
enable chromium_experimental_subgroup_matrix;
@group(0) @binding(0) var<storage, read_write> buf: array<f32>;
@compute @workgroup_size(32)
fn main(@builtin(local_invocation_index) li: u32) {
  let m = subgroup_matrix_result<f32, 8, 8>();
  if subgroupAdd(buf[li]) > 0.0 {
    subgroupMatrixStore<row_major>(&buf, 0u, m, 8u);
//  ^ U001 'subgroupMatrixStore' must only be called from subgroup uniform control flow
//  ^ U003 'subgroupMatrixStore'
  }
}

// === branch on subgroupAll
// Reason for U003: subgroupAll is one verdict for the whole subgroup.
enable subgroups;
enable chromium_experimental_subgroup_matrix;
@group(0) @binding(0) var<storage, read_write> buf: array<f32>;
@compute @workgroup_size(32)
fn main(@builtin(local_invocation_index) li: u32) {
  if subgroupAll(buf[li] > 0.0) {
    let m = subgroupMatrixLoad<subgroup_matrix_right<f32, 8, 8>, row_major>(&buf, 0u, 8u);
//          ^ U001 'subgroupMatrixLoad' must only be called from subgroup uniform control flow
//          ^ U003 'subgroupMatrixLoad'
  }
}

// === branch on subgroupAny with early return
// Reason for U003: subgroupAny is one verdict for the whole subgroup, so whole subgroups return.
enable subgroups;
enable chromium_experimental_subgroup_matrix;
@group(0) @binding(0) var<storage, read_write> buf: array<f32>;
@compute @workgroup_size(32)
fn main(@builtin(local_invocation_index) li: u32) {
  if subgroupAny(buf[li] < 0.0) {
    return;
  }
  let m = subgroupMatrixLoad<subgroup_matrix_result<f32, 8, 8>, row_major>(&buf, 0u, 8u);
//        ^ U001 'subgroupMatrixLoad' must only be called from subgroup uniform control flow
//        ^ U003 'subgroupMatrixLoad'
}

// === branch on subgroupBallot
// Reason for U003: the ballot mask is the same in every lane.
enable subgroups;
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) li: u32) {
  let mask = subgroupBallot(li % 3u == 0u);
  if mask.x != 0u {
    _ = subgroupMax(li);
//      ^ U001 'subgroupMax' must only be called from subgroup uniform control flow
//      ^ U003 'subgroupMax'
  }
}

// === load offset from subgroupBroadcastFirst
// Reason for U003: the offset argument is the same in every lane.
enable subgroups;
enable chromium_experimental_subgroup_matrix;
@group(0) @binding(0) var<storage, read_write> buf: array<f32>;
@compute @workgroup_size(32)
fn main(@builtin(local_invocation_index) li: u32) {
  let m = subgroupMatrixLoad<subgroup_matrix_left<f32, 8, 8>, row_major>(&buf, subgroupBroadcastFirst(li), 8u);
//                                                                             ^ U001 'subgroupMatrixLoad' requires argument 1 to be uniform
//                                                                             ^ U003 'subgroupMatrixLoad'
}

// === arithmetic on a broadcast stays subgroup-uniform
// Reason for U003: every operand is subgroup-uniform (a broadcast, a workgroup_id, constants).
enable subgroups;
enable chromium_experimental_subgroup_matrix;
@group(0) @binding(0) var<storage, read_write> buf: array<f32>;
@compute @workgroup_size(32)
fn main(@builtin(local_invocation_index) li: u32, @builtin(workgroup_id) wg: vec3u) {
  let tile = subgroupBroadcastFirst(li) / 8u;
  let offset = (wg.x * 4u + tile) * 64u;
  let m = subgroupMatrixLoad<subgroup_matrix_left<f32, 8, 8>, row_major>(&buf, offset, 8u);
//                                                                             ^ U001 'subgroupMatrixLoad' requires argument 1 to be uniform
//                                                                             ^ U003 'subgroupMatrixLoad'
}

// === scalar from subgroupMin into a scalar multiply
// Reason for U003: subgroupMin returns the same minimum to every lane.
enable subgroups;
enable chromium_experimental_subgroup_matrix;
@group(0) @binding(0) var<storage, read_write> buf: array<f32>;
@compute @workgroup_size(32)
fn main(@builtin(local_invocation_index) li: u32) {
  let scale = subgroupMin(buf[li]);
  let m = subgroupMatrixScalarMultiply(subgroup_matrix_result<f32, 8, 8>(), scale);
//                                                                          ^ U001 'subgroupMatrixScalarMultiply' requires argument 1 to be uniform
//                                                                          ^ U003 'subgroupMatrixScalarMultiply'
}

// === broadcast passed through a helper's return value
// Reason for U003: the helper only does arithmetic on a subgroup-uniform parameter.
enable subgroups;
enable chromium_experimental_subgroup_matrix;
@group(0) @binding(0) var<storage, read_write> buf: array<f32>;
fn tile_offset(tile: u32) -> u32 { return tile * 64u; }
@compute @workgroup_size(32)
fn main(@builtin(local_invocation_index) li: u32) {
  let offset = tile_offset(subgroupBroadcastFirst(li));
  let m = subgroupMatrixLoad<subgroup_matrix_left<f32, 8, 8>, row_major>(&buf, offset, 8u);
//                                                                             ^ U001 'subgroupMatrixLoad' requires argument 1 to be uniform
//                                                                             ^ U003 'subgroupMatrixLoad'
}

// === broadcast passed as a helper's parameter to the load
// Reason for U003: the parameter is subgroup-uniform at the only call.
enable subgroups;
enable chromium_experimental_subgroup_matrix;
@group(0) @binding(0) var<storage, read_write> buf: array<f32>;
fn load_at(offset: u32) -> subgroup_matrix_left<f32, 8, 8> {
  return subgroupMatrixLoad<subgroup_matrix_left<f32, 8, 8>, row_major>(&buf, offset, 8u);
//                                                                            ^ U001 'subgroupMatrixLoad' requires argument 1 to be uniform
//                                                                            ^ U003 'subgroupMatrixLoad'
}
@compute @workgroup_size(32)
fn main(@builtin(local_invocation_index) li: u32) {
  let m = load_at(subgroupBroadcastFirst(li) * 64u);
}

// === broadcast branch before a barrier is still an error
// A barrier needs the whole workgroup: a subgroup-uniform condition is not enough, so no U003.
enable subgroups;
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) li: u32) {
  if subgroupBroadcastFirst(li) > 3u {
    workgroupBarrier();
//  ^ U001 'workgroupBarrier' must only be called from uniform control flow
  }
}

// === rule off, branch on subgroup_invocation_id
enable subgroups;
enable chromium_experimental_subgroup_matrix;
diagnostic(off, chromium.subgroup_matrix_uniformity);
//              ^ A002 'diagnostic(off, chromium.subgroup_matrix_uniformity)' hides real dive
@group(0) @binding(0) var<storage, read_write> buf: array<f32>;
@compute @workgroup_size(32)
fn main(@builtin(subgroup_invocation_id) lane: u32) {
  if lane % 2u == 0u {
    let m = subgroupMatrixLoad<subgroup_matrix_left<f32, 8, 8>, row_major>(&buf, 0u, 8u);
//          ^ U002 'subgroupMatrixLoad'
  }
}
// tint: differs -- half the lanes of each subgroup skip the load; Tint's check is off, the kernel is still wrong

// === rule off, loop bound read per invocation
enable subgroups;
enable chromium_experimental_subgroup_matrix;
diagnostic(off, chromium.subgroup_matrix_uniformity);
//              ^ A002 'diagnostic(off, chromium.subgroup_matrix_uniformity)' hides real dive
@group(0) @binding(0) var<storage, read_write> buf: array<f32>;
@group(0) @binding(1) var<storage, read> counts: array<u32>;
@compute @workgroup_size(32)
fn main(@builtin(local_invocation_index) li: u32) {
  var acc = subgroup_matrix_result<f32, 8, 8>();
  for (var k = 0u; k < counts[li]; k++) {
    acc = subgroupMatrixScalarAdd(acc, 1.0);
//        ^ U002 'subgroupMatrixScalarAdd'
  }
  subgroupMatrixStore<row_major>(&buf, 0u, acc, 8u);
//                                         ^ U002 'subgroupMatrixStore' requires argument 2
}
// tint: differs -- each lane runs its own number of iterations; Tint's check is off, the kernel is still wrong

// === rule off, per-invocation offset argument
enable chromium_experimental_subgroup_matrix;
diagnostic(off, chromium.subgroup_matrix_uniformity);
//              ^ A002 'diagnostic(off, chromium.subgroup_matrix_uniformity)' hides real dive
@group(0) @binding(0) var<storage, read_write> buf: array<f32>;
@compute @workgroup_size(32)
fn main(@builtin(local_invocation_index) li: u32) {
  let m = subgroupMatrixLoad<subgroup_matrix_left<f32, 8, 8>, row_major>(&buf, li * 64u, 8u);
//                                                                             ^ U002 'subgroupMatrixLoad'
}
// tint: differs -- the lanes disagree on the offset; Tint's check is off, the kernel is still wrong

// === rule off, branch on subgroupElect
enable subgroups;
enable chromium_experimental_subgroup_matrix;
diagnostic(off, chromium.subgroup_matrix_uniformity);
//              ^ A002 'diagnostic(off, chromium.subgroup_matrix_uniformity)' hides real dive
@group(0) @binding(0) var<storage, read_write> buf: array<f32>;
@compute @workgroup_size(32)
fn main() {
  if subgroupElect() {
    let m = subgroupMatrixLoad<subgroup_matrix_left<f32, 8, 8>, row_major>(&buf, 0u, 8u);
//          ^ U002 'subgroupMatrixLoad'
  }
}
// tint: differs -- subgroupElect is true in one lane only; Tint's check is off, the kernel is still wrong

// === rule off, branch on an inclusive scan
enable subgroups;
diagnostic(off, subgroup_uniformity);
//              ^ A002 'diagnostic(off, subgroup_uniformity)' hides real divergence: 'subgrou
@compute @workgroup_size(64)
fn main() {
  if subgroupInclusiveAdd(1u) > 4u {
    _ = subgroupAdd(1u);
//      ^ U002 'subgroupAdd'
  }
}
// tint: differs -- a scan gives each lane its own prefix; Tint's check is off, the kernel is still wrong

// === rule off, offset from subgroupExclusiveMul
enable subgroups;
enable chromium_experimental_subgroup_matrix;
diagnostic(off, chromium.subgroup_matrix_uniformity);
//              ^ A002 'diagnostic(off, chromium.subgroup_matrix_uniformity)' hides real dive
@group(0) @binding(0) var<storage, read_write> buf: array<f32>;
@compute @workgroup_size(32)
fn main() {
  let m = subgroupMatrixLoad<subgroup_matrix_left<f32, 8, 8>, row_major>(&buf, subgroupExclusiveMul(2u), 8u);
//                                                                             ^ U002 'subgroupMatrixLoad'
}
// tint: differs -- a scan gives each lane its own prefix; Tint's check is off, the kernel is still wrong

// === rule off, branch on subgroupShuffle
enable subgroups;
diagnostic(off, subgroup_uniformity);
//              ^ A002 'diagnostic(off, subgroup_uniformity)' hides real divergence: 'subgrou
@compute @workgroup_size(64)
fn main(@builtin(subgroup_invocation_id) lane: u32) {
  if subgroupShuffle(lane, 3u) == lane {
    _ = subgroupBroadcastFirst(lane);
//      ^ U002 'subgroupBroadcastFirst'
  }
}
// tint: differs -- only lane 3 sees its own value; Tint's check is off, the kernel is still wrong

// === rule off, non-uniform early return before the multiply
enable chromium_experimental_subgroup_matrix;
diagnostic(off, chromium.subgroup_matrix_uniformity);
//              ^ A002 'diagnostic(off, chromium.subgroup_matrix_uniformity)' hides real dive
@compute @workgroup_size(32)
fn main(@builtin(local_invocation_id) lid: vec3u) {
  let l = subgroup_matrix_left<f32, 8, 8>(1.0);
  let r = subgroup_matrix_right<f32, 8, 8>(1.0);
  if lid.x == 5u {
    return;
  }
  let c = subgroupMatrixMultiply<f32>(l, r);
//        ^ U002 'subgroupMatrixMultiply'
}
// tint: differs -- one lane per subgroup leaves early; Tint's check is off, the kernel is still wrong

// === rule off, per-invocation break in a matrix loop
enable chromium_experimental_subgroup_matrix;
diagnostic(off, chromium.subgroup_matrix_uniformity);
//              ^ A002 'diagnostic(off, chromium.subgroup_matrix_uniformity)' hides real dive
@group(0) @binding(0) var<storage, read_write> buf: array<f32>;
@compute @workgroup_size(32)
fn main(@builtin(local_invocation_index) li: u32) {
  var acc = subgroup_matrix_result<f32, 8, 8>();
  for (var k = 0u; k < 8u; k++) {
    if buf[li] > 1.0 {
      break;
    }
    acc = subgroupMatrixScalarMultiply(acc, 0.5);
//        ^ U002 'subgroupMatrixScalarMultiply'
  }
}
// tint: differs -- lanes leave the loop on their own data; Tint's check is off, the kernel is still wrong

// === rule off, divergent value through a helper parameter
enable chromium_experimental_subgroup_matrix;
diagnostic(off, chromium.subgroup_matrix_uniformity);
//              ^ A002 'diagnostic(off, chromium.subgroup_matrix_uniformity)' hides real dive
@group(0) @binding(0) var<storage, read_write> buf: array<f32>;
fn load_at(offset: u32) -> subgroup_matrix_left<f32, 8, 8> {
  return subgroupMatrixLoad<subgroup_matrix_left<f32, 8, 8>, row_major>(&buf, offset, 8u);
//                                                                            ^ U002 'subgroupMatrixLoad'
}
@compute @workgroup_size(32)
fn main(@builtin(local_invocation_index) li: u32) {
  let m = load_at(li);
}
// tint: differs -- the lanes pass different offsets; Tint's check is off, the kernel is still wrong

// === rule off, broadcast branch is correct
enable subgroups;
enable chromium_experimental_subgroup_matrix;
diagnostic(off, chromium.subgroup_matrix_uniformity);
@group(0) @binding(0) var<storage, read_write> buf: array<f32>;
@compute @workgroup_size(32)
fn main(@builtin(local_invocation_index) li: u32) {
  let n = subgroupBroadcastFirst(li) % 4u;
  for (var k = 0u; k < n; k++) {
    let m = subgroupMatrixLoad<subgroup_matrix_left<f32, 8, 8>, row_major>(&buf, k * 64u, 8u);
  }
}

// === rule off, subgroup reduction argument is correct
enable subgroups;
enable chromium_experimental_subgroup_matrix;
diagnostic(off, chromium.subgroup_matrix_uniformity);
@group(0) @binding(0) var<storage, read_write> buf: array<f32>;
@compute @workgroup_size(32)
fn main(@builtin(local_invocation_index) li: u32) {
  let m = subgroup_matrix_result<f32, 8, 8>(subgroupMax(buf[li]));
  subgroupMatrixStore<row_major>(&buf, 0u, m, 8u);
}

// === subgroupBroadcastFirst of a divergent value inside divergent control flow
// The broadcast runs only in some lanes: its result is not the point, its control flow is.
enable subgroups;
@compute @workgroup_size(64)
fn main(@builtin(subgroup_invocation_id) lane: u32) {
  if lane < 4u {
    _ = subgroupBroadcastFirst(lane);
//      ^ U001 'subgroupBroadcastFirst' must only be called from subgroup uniform control flow
  }
}

// === splat constructor from subgroupBroadcastFirst
// Reason for U003: the splat value is the same in every lane.
enable subgroups;
enable chromium_experimental_subgroup_matrix;
@group(0) @binding(0) var<storage, read_write> buf: array<f32>;
@compute @workgroup_size(32)
fn main(@builtin(local_invocation_index) li: u32) {
  let m = subgroup_matrix_result<f32, 8, 8>(subgroupBroadcastFirst(buf[li]));
//                                          ^ U001 subgroup_matrix_result<f32, 8, 8> constructor requires argument 0 to be uniform
//                                          ^ U003 'subgroup_matrix_result
}
