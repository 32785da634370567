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

// === rule off, branch on a read_write storage value at a subgroup-uniform index
// One load by the subgroup at one address: every lane gets the same value.
enable subgroups;
enable chromium_experimental_subgroup_matrix;
diagnostic(off, chromium.subgroup_matrix_uniformity);
@group(0) @binding(0) var<storage, read_write> buf: array<f32>;
@group(0) @binding(1) var<storage, read_write> params: array<u32>;
@compute @workgroup_size(64)
fn main(@builtin(subgroup_id) sg: u32) {
  if params[sg] > 0u {
    let m = subgroupMatrixLoad<subgroup_matrix_left<f32, 8, 8>, row_major>(&buf, params[0], 8u);
  }
}

// === rule off, branch on a read_write storage value at a per-lane index
enable subgroups;
enable chromium_experimental_subgroup_matrix;
diagnostic(off, chromium.subgroup_matrix_uniformity);
//              ^ A002 'diagnostic(off, chromium.subgroup_matrix_uniformity)' hides real dive
@group(0) @binding(0) var<storage, read_write> buf: array<f32>;
@group(0) @binding(1) var<storage, read_write> params: array<u32>;
@compute @workgroup_size(64)
fn main(@builtin(subgroup_invocation_id) lane: u32) {
  if params[lane] > 0u {
    let m = subgroupMatrixLoad<subgroup_matrix_left<f32, 8, 8>, row_major>(&buf, 0u, 8u);
//          ^ U002 'subgroupMatrixLoad'
  }
}
// tint: differs -- lanes read different elements; Tint's check is off, the kernel is still wrong

// === branch on a read_write storage value at a uniform index
// Reason for U003: a read_write buffer read at one index gives the whole subgroup one value.
enable subgroups;
enable chromium_experimental_subgroup_matrix;
@group(0) @binding(0) var<storage, read_write> buf: array<f32>;
@group(0) @binding(1) var<storage, read_write> params: array<u32>;
@compute @workgroup_size(64)
fn main() {
  if params[0] > 0u {
    let m = subgroupMatrixLoad<subgroup_matrix_left<f32, 8, 8>, row_major>(&buf, 0u, 8u);
//          ^ U001 'subgroupMatrixLoad' must only be called from subgroup uniform control flow
//          ^ U003 'subgroupMatrixLoad'
  }
}

// === rule off, loop from lane % 4 by 4 up to 32
// Every lane starts in [0, 4) and runs 8 iterations: the subgroup stays converged.
enable subgroups;
enable chromium_experimental_subgroup_matrix;
diagnostic(off, chromium.subgroup_matrix_uniformity);
@group(0) @binding(0) var<storage, read_write> buf: array<f32>;
@compute @workgroup_size(32)
fn main(@builtin(subgroup_invocation_id) lane: u32) {
  var acc = subgroup_matrix_result<f32, 8, 8>();
  for (var i = lane % 4u; i < 32u; i += 4u) {
    acc = subgroupMatrixScalarAdd(acc, 1.0);
  }
  subgroupMatrixStore<row_major>(&buf, 0u, acc, 8u);
}

// === rule off, loop from lane % 4 by 4 up to 30
enable subgroups;
enable chromium_experimental_subgroup_matrix;
diagnostic(off, chromium.subgroup_matrix_uniformity);
//              ^ A002 'diagnostic(off, chromium.subgroup_matrix_uniformity)' hides real dive
@group(0) @binding(0) var<storage, read_write> buf: array<f32>;
@compute @workgroup_size(32)
fn main(@builtin(subgroup_invocation_id) lane: u32) {
  var acc = subgroup_matrix_result<f32, 8, 8>();
  for (var i = lane % 4u; i < 30u; i += 4u) {
    acc = subgroupMatrixScalarAdd(acc, 1.0);
//        ^ U002 'subgroupMatrixScalarAdd'
  }
  subgroupMatrixStore<row_major>(&buf, 0u, acc, 8u);
//                                         ^ U002 'subgroupMatrixStore' requires argument 2
}
// tint: differs -- lanes 0 and 1 run 8 iterations, lanes 2 and 3 run 7; Tint's check is off, the kernel is still wrong

// === rule off, loop from lane % 8 by 4 up to 32
// Lanes starting at 4 or more run one iteration fewer, but only subgroups of 8 lanes or more have
// such lanes: at 4 lanes, lane % 8 is below 4. Divergence at some sizes only is a warning naming them.
enable subgroups;
enable chromium_experimental_subgroup_matrix;
diagnostic(off, chromium.subgroup_matrix_uniformity);
@group(0) @binding(0) var<storage, read_write> buf: array<f32>;
@compute @workgroup_size(32)
fn main(@builtin(subgroup_invocation_id) lane: u32) {
  var acc = subgroup_matrix_result<f32, 8, 8>();
  for (var i = lane % 8u; i < 32u; i += 4u) {
    acc = subgroupMatrixScalarAdd(acc, 1.0);
//        ^ U002 [warning] 'subgroupMatrixScalarAdd' is called where lanes of one subgroup diverge at subgroup sizes 8, 16, 32, 64 and 128
  }
  subgroupMatrixStore<row_major>(&buf, 0u, acc, 8u);
//                                         ^ U002 [warning] 'subgroupMatrixStore' requires argument 2 to be uniform, and lanes of one subgroup may hold different values: they do at subgroup sizes 8, 16
}

// === rule off, loop from lane % 4 by 4 up to 32 that moves its counter
enable subgroups;
enable chromium_experimental_subgroup_matrix;
diagnostic(off, chromium.subgroup_matrix_uniformity);
//              ^ A002 'diagnostic(off, chromium.subgroup_matrix_uniformity)' hides real dive
@group(0) @binding(0) var<storage, read_write> buf: array<f32>;
@compute @workgroup_size(32)
fn main(@builtin(subgroup_invocation_id) lane: u32) {
  var acc = subgroup_matrix_result<f32, 8, 8>();
  for (var i = lane % 4u; i < 32u; i += 4u) {
    acc = subgroupMatrixScalarAdd(acc, 1.0);
//        ^ U002 'subgroupMatrixScalarAdd'
    i += lane;
  }
  subgroupMatrixStore<row_major>(&buf, 0u, acc, 8u);
//                                         ^ U002 'subgroupMatrixStore' requires argument 2
}
// tint: differs -- the body moves the counter by the lane's number; Tint's check is off, the kernel is still wrong

// === rule off, ggml's flash_attn_vec loop: start lane % nl, step nl, bound a multiple of nl
// As in ggml's flash_attn_vec shaders: every lane starts below the step nl and runs 32 / nl iterations,
// so the shuffle inside is reached by all lanes together, at every subgroup size.
enable subgroups;
diagnostic(off, subgroup_uniformity);
@group(0) @binding(0) var<storage, read_write> buf: array<f32>;
@compute @workgroup_size(32)
fn main(@builtin(subgroup_invocation_id) sg_inv_id: u32) {
  let nl = 4u;
  let tx = sg_inv_id % nl;
  var sum = 0.0;
  for (var c = tx; c < 32u; c += nl) {
    sum += subgroupShuffleDown(buf[c], 1u);
  }
  buf[sg_inv_id] = sum;
}

// === rule off, ggml's loop with the step computed from the subgroup size
// nl = max(1, subgroup_size / (subgroup_size / 4)) is 4 at every size WGSL allows; lane % nl is below it.
enable subgroups;
diagnostic(off, subgroup_uniformity);
@group(0) @binding(0) var<storage, read_write> buf: array<f32>;
@compute @workgroup_size(64)
fn main(@builtin(subgroup_invocation_id) lane: u32, @builtin(subgroup_size) subgroup_size: u32) {
  let ne = subgroup_size / 4u;
  let nl = max(1u, subgroup_size / ne);
  let tx = lane % nl;
  var sum = 0.0;
  for (var c = tx; c < 16u; c += nl) {
    sum += subgroupShuffleDown(buf[c], nl);
  }
  buf[lane] = sum;
}

// === rule off, lane-strided loop by subgroup_size over a multiple of every size
enable subgroups;
diagnostic(off, subgroup_uniformity);
@group(0) @binding(0) var<storage, read_write> buf: array<f32>;
@compute @workgroup_size(128)
fn main(@builtin(subgroup_invocation_id) lane: u32, @builtin(subgroup_size) sg_size: u32) {
  var total = 0.0;
  for (var i = lane; i < 256u; i += sg_size) {
    total += subgroupAdd(buf[i]);
  }
  buf[lane] = total;
}

// === rule off, lane-strided loop by subgroup_size over 64 diverges at 128 lanes only
enable subgroups;
diagnostic(off, subgroup_uniformity);
@group(0) @binding(0) var<storage, read_write> buf: array<f32>;
@compute @workgroup_size(128)
fn main(@builtin(subgroup_invocation_id) lane: u32, @builtin(subgroup_size) sg_size: u32) {
  var total = 0.0;
  for (var i = lane; i < 64u; i += sg_size) {
    total += subgroupAdd(buf[i]);
//           ^ U002 [warning] 'subgroupAdd' is called where lanes of one subgroup diverge at subgroup size 128 (the targets allow 4, 8, 16, 32, 64 and 128)
  }
  buf[lane] = total;
}

// === rule off, lane-strided loop by 32 diverges at 64 and 128 lanes
// Lanes 32 and up start past the step: at 64 or 128 lanes they run one iteration fewer.
enable subgroups;
diagnostic(off, subgroup_uniformity);
@group(0) @binding(0) var<storage, read_write> buf: array<f32>;
@compute @workgroup_size(128)
fn main(@builtin(subgroup_invocation_id) lane: u32) {
  var total = 0.0;
  for (var i = lane; i < 256u; i += 32u) {
    total += subgroupAdd(buf[i]);
//           ^ U002 [warning] 'subgroupAdd' is called where lanes of one subgroup diverge at subgroup sizes 64 and 128
  }
  buf[lane] = total;
}

// === rule off, lane-strided loop whose bound is not known stays an error with the reason
enable subgroups;
diagnostic(off, subgroup_uniformity);
//              ^ A002 'diagnostic(off, subgroup_uniformity)' hides real divergence
@group(0) @binding(0) var<storage, read_write> buf: array<f32>;
@group(0) @binding(1) var<uniform> n: u32;
@compute @workgroup_size(32)
fn main(@builtin(subgroup_invocation_id) lane: u32, @builtin(subgroup_size) sg_size: u32) {
  var total = 0.0;
  for (var i = lane; i < n; i += sg_size) {
    total += subgroupAdd(buf[i]);
//           ^ U002 [error] 'subgroupAdd' is called where lanes of one subgroup diverge
  }
  buf[lane] = total;
}
// tint: differs -- with n = 40 at 32 lanes, lanes 0-7 run twice and the rest once; Tint's check is off, ours stays

// === rule off, branch on lane < 16 splits subgroups of more than 16 lanes
enable subgroups;
diagnostic(off, subgroup_uniformity);
@group(0) @binding(0) var<storage, read_write> buf: array<f32>;
@compute @workgroup_size(64)
fn main(@builtin(subgroup_invocation_id) lane: u32) {
  if lane < 16u {
    buf[lane] = subgroupAdd(buf[lane]);
//              ^ U002 [warning] 'subgroupAdd' is called where lanes of one subgroup diverge at subgroup sizes 32, 64 and 128
  }
}

// === rule off, branch on local_invocation_index < 32 in a 64-invocation workgroup
// Numbered into subgroups in order, no subgroup of 4 to 32 lanes holds invocations from both sides;
// one of 64 or 128 lanes always does. WGSL does not promise the order.
enable subgroups;
diagnostic(off, subgroup_uniformity);
@group(0) @binding(0) var<storage, read_write> buf: array<f32>;
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) li: u32) {
  if (li < 32u) {
    buf[li] = subgroupAdd(buf[li]);
//            ^ U002 [warning] 'subgroupAdd' is called where lanes of one subgroup diverge at subgroup sizes 64 and 128, and at 4, 8, 16 and 32 if invocations are not numbered into subgroups in order
  }
}

// === rule off, branch on local_invocation_index < 30 splits a subgroup at every size
// 30 invocations cannot fill whole subgroups of 4 or more lanes, whatever the mapping.
enable subgroups;
diagnostic(off, subgroup_uniformity);
//              ^ A002 'diagnostic(off, subgroup_uniformity)' hides real divergence
@group(0) @binding(0) var<storage, read_write> buf: array<f32>;
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) li: u32) {
  if (li < 30u) {
    buf[li] = subgroupAdd(buf[li]);
//            ^ U002 [error] 'subgroupAdd' is called where lanes of one subgroup diverge
  }
}
// tint: differs -- the 30 invocations on one side cannot fill whole subgroups; Tint's check is off, ours stays

// === rule off, branch on local_invocation_index past the workgroup is uniform
enable subgroups;
diagnostic(off, subgroup_uniformity);
@group(0) @binding(0) var<storage, read_write> buf: array<f32>;
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) li: u32) {
  if (li < 64u) {
    buf[li] = subgroupAdd(buf[li]);
  }
}

// === rule off, loop stepping by an override stays an error
// The override's default (4) is not its value: a pipeline that sets STEP = 2 gives lanes starting at
// 2 or 3 one iteration fewer, so the trip count cannot be shown the same in every lane.
enable subgroups;
diagnostic(off, subgroup_uniformity);
//              ^ A002 'diagnostic(off, subgroup_uniformity)' hides real divergence
override STEP: u32 = 4u;
@group(0) @binding(0) var<storage, read_write> buf: array<f32>;
@compute @workgroup_size(32)
fn main(@builtin(subgroup_invocation_id) lane: u32) {
  var s = 0.0;
  for (var c = lane % 4u; c < 32u; c += STEP) {
    s += subgroupShuffleDown(buf[c], 1u);
//       ^ U002 [error] 'subgroupShuffleDown' is called where lanes of one subgroup diverge
  }
  buf[lane] = s;
}
// tint: differs -- with STEP = 2, lanes 2 and 3 of every 4 run one iteration fewer; Tint's check is off, ours stays

// === rule off, branch on local_invocation_id.x < 32 in a 64x2 workgroup depends on the mapping
// Each row of 64 invocations changes side at x = 32 and again where the next row starts (index 64), so
// in order no subgroup of 4 to 32 lanes holds both sides; one of 64 or 128 lanes always does.
enable subgroups;
diagnostic(off, subgroup_uniformity);
@group(0) @binding(0) var<storage, read_write> buf: array<f32>;
@compute @workgroup_size(64, 2)
fn main(@builtin(local_invocation_id) lid: vec3u) {
  if lid.x < 32u {
    buf[lid.x] = subgroupAdd(buf[lid.x]);
//               ^ U002 [warning] 'subgroupAdd' is called where lanes of one subgroup diverge at subgroup sizes 64 and 128, and at 4, 8, 16 and 32 if invocations are not numbered into subgroups in order
  }
}

// === rule off, branch on local_invocation_id.x <= 23 in a 32x4 workgroup splits 16-lane subgroups
// The side changes at indices 24, 32, 56, 64, ...: multiples of 4 and 8, not of 16.
enable subgroups;
diagnostic(off, subgroup_uniformity);
@group(0) @binding(0) var<storage, read_write> buf: array<f32>;
@compute @workgroup_size(32, 4)
fn main(@builtin(local_invocation_id) lid: vec3u) {
  let x = lid.x;
  if x <= 23u {
    buf[x] = subgroupAdd(buf[x]);
//           ^ U002 [warning] 'subgroupAdd' is called where lanes of one subgroup diverge at subgroup sizes 16, 32, 64 and 128, and at 4 and 8 if invocations are not numbered into subgroups in order
  }
}

// === rule off, branch on local_invocation_id.x > 29 splits a subgroup at every size
// 30 is not a multiple of 4: whatever the mapping, some subgroup holds x = 29 and x = 30.
enable subgroups;
diagnostic(off, subgroup_uniformity);
//              ^ A002 'diagnostic(off, subgroup_uniformity)' hides real divergence
@group(0) @binding(0) var<storage, read_write> buf: array<f32>;
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_id) lid: vec3u) {
  if lid.x > 29u {
    buf[lid.x] = subgroupAdd(buf[lid.x]);
//               ^ U002 [error] 'subgroupAdd' is called where lanes of one subgroup diverge
  }
}
// tint: differs -- x = 29 and x = 30 sit in one subgroup at every size; Tint's check is off, ours stays

// === rule off, branch on global_invocation_id.x < 256 with 64-wide workgroups is uniform
// 256 is a whole number of workgroups: every workgroup is on one side, and a subgroup never spans two.
enable subgroups;
diagnostic(off, subgroup_uniformity);
@group(0) @binding(0) var<storage, read_write> buf: array<f32>;
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3u) {
  if gid.x < 256u {
    buf[gid.x] = subgroupAdd(buf[gid.x]);
  }
}

// === rule off, branch on global_invocation_id.x >= 96 with 64-wide workgroups depends on the mapping
// Only the second workgroup sees both sides, at its x = 32.
enable subgroups;
diagnostic(off, subgroup_uniformity);
@group(0) @binding(0) var<storage, read_write> buf: array<f32>;
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3u) {
  if gid.x >= 96u {
    buf[gid.x] = subgroupAdd(buf[gid.x]);
//               ^ U002 [warning] 'subgroupAdd' is called where lanes of one subgroup diverge at subgroup sizes 64 and 128, and at 4, 8, 16 and 32 if invocations are not numbered into subgroups in order
  }
}

// === rule off, bounds check on global_invocation_id.x < 1001 splits a subgroup at every size
// The workgroup holding 1000 and 1001 changes side at its x = 41, odd.
enable subgroups;
diagnostic(off, subgroup_uniformity);
//              ^ A002 'diagnostic(off, subgroup_uniformity)' hides real divergence
@group(0) @binding(0) var<storage, read_write> buf: array<f32>;
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3u) {
  if gid.x < 1001u {
    buf[gid.x] = subgroupAdd(buf[gid.x]);
//               ^ U002 [error] 'subgroupAdd' is called where lanes of one subgroup diverge
  }
}
// tint: differs -- in the workgroup of invocation 1000, x = 40 and x = 41 take different sides; Tint's check is off, ours stays

// === rule off, loop from local_invocation_id.x by the workgroup width is converged
// x starts below 64 and 1024 is a multiple of 64: every invocation runs 16 iterations.
enable subgroups;
diagnostic(off, subgroup_uniformity);
@group(0) @binding(0) var<storage, read_write> buf: array<f32>;
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_id) lid: vec3u) {
  var s = 0.0;
  for (var i = lid.x; i <= 1023u; i += 64u) {
    s += subgroupAdd(buf[i]);
  }
  buf[lid.x] = s;
}

// === rule off, loop from local_invocation_id.x up to and including 1024 runs once more for x = 0
enable subgroups;
diagnostic(off, subgroup_uniformity);
//              ^ A002 'diagnostic(off, subgroup_uniformity)' hides real divergence
@group(0) @binding(0) var<storage, read_write> buf: array<f32>;
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_id) lid: vec3u) {
  var s = 0.0;
  for (var i = lid.x; i <= 1024u; i += 64u) {
    s += subgroupAdd(buf[i]);
//       ^ U002 [error] 'subgroupAdd' is called where lanes of one subgroup diverge
  }
  buf[lid.x] = s;
}
// tint: differs -- x = 0 runs 17 iterations and the rest 16; Tint's check is off, ours stays

// === rule off, loop from global_invocation_id.x by the workgroup width is converged
// gid.x is the workgroup's offset (a multiple of 64) plus x below 64; 4096 and the step are multiples of 64.
enable subgroups;
diagnostic(off, subgroup_uniformity);
@group(0) @binding(0) var<storage, read_write> buf: array<f32>;
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3u) {
  var s = 0.0;
  for (var i = gid.x; 4096u > i; i += 64u) {
    s += subgroupAdd(buf[i]);
  }
  buf[gid.x] = s;
}

// === rule off, loop from lane % 4 by 8 up to 36 is converged
// Starts 0 to 3 all run 5 iterations: 4 divides both the step and the bound.
enable subgroups;
diagnostic(off, subgroup_uniformity);
@group(0) @binding(0) var<storage, read_write> buf: array<f32>;
@compute @workgroup_size(32)
fn main(@builtin(subgroup_invocation_id) lane: u32) {
  var s = 0.0;
  for (var c = lane % 4u; c < 36u; c += 8u) {
    s += subgroupShuffleDown(buf[c], 1u);
  }
  buf[lane] = s;
}
