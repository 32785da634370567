// The performance rules (P001-P009), linted with the target nvidia-h100,
// whose profile holds each rule's measured cost. Every case is a valid
// module (Tint compiles it); the rules only say what is slow.

// === P001: one result tile per subgroup, both operands loaded for one multiply
enable f16;
enable chromium_experimental_subgroup_matrix;
@group(0) @binding(0) var<storage, read> a: array<f16>;
@group(0) @binding(1) var<storage, read_write> c: array<f32>;
@compute @workgroup_size(32) fn main() {
  var acc = subgroup_matrix_result<f32, 16, 16>();
  for (var k = 0u; k < 256u; k += 16u) {
    let l = subgroupMatrixLoad<subgroup_matrix_left<f16, 16, 16>, row_major>(&a, k, 256u);
    let r = subgroupMatrixLoad<subgroup_matrix_right<f16, 16, 16>, row_major>(&a, k * 256u, 256u);
    acc = subgroupMatrixMultiplyAccumulate(l, r, acc);
//        ^ P001 each tile this loop loads serves one 'subgroupMatrixMultiplyAccumulate'
  }
  subgroupMatrixStore<row_major>(&c, 0u, acc, 16u);
}

// === P001 quiet: each loaded A tile serves two multiplies
enable f16;
enable chromium_experimental_subgroup_matrix;
@group(0) @binding(0) var<storage, read> a: array<f16>;
@group(0) @binding(1) var<storage, read_write> c: array<f32>;
@compute @workgroup_size(32) fn main() {
  var acc0 = subgroup_matrix_result<f32, 16, 16>();
  var acc1 = subgroup_matrix_result<f32, 16, 16>();
  for (var k = 0u; k < 256u; k += 16u) {
    let l = subgroupMatrixLoad<subgroup_matrix_left<f16, 16, 16>, row_major>(&a, k, 256u);
    let r0 = subgroupMatrixLoad<subgroup_matrix_right<f16, 16, 16>, row_major>(&a, k * 256u, 256u);
    let r1 = subgroupMatrixLoad<subgroup_matrix_right<f16, 16, 16>, row_major>(&a, k * 256u + 16u, 256u);
    acc0 = subgroupMatrixMultiplyAccumulate(l, r0, acc0);
    acc1 = subgroupMatrixMultiplyAccumulate(l, r1, acc1);
  }
  subgroupMatrixStore<row_major>(&c, 0u, acc0, 32u);
  subgroupMatrixStore<row_major>(&c, 16u, acc1, 32u);
}

// === P001 quiet: the left tile is loaded once, before the loop
enable f16;
enable chromium_experimental_subgroup_matrix;
@group(0) @binding(0) var<storage, read> a: array<f16>;
@group(0) @binding(1) var<storage, read_write> c: array<f32>;
@compute @workgroup_size(32) fn main() {
  var acc = subgroup_matrix_result<f32, 16, 16>();
  let l = subgroupMatrixLoad<subgroup_matrix_left<f16, 16, 16>, row_major>(&a, 0u, 256u);
  for (var k = 0u; k < 256u; k += 16u) {
    let r = subgroupMatrixLoad<subgroup_matrix_right<f16, 16, 16>, row_major>(&a, k * 256u, 256u);
    acc = subgroupMatrixMultiplyAccumulate(l, r, acc);
  }
  subgroupMatrixStore<row_major>(&c, 0u, acc, 16u);
}

// === P001 suppressed with diagnostic(off, coop.one_tile_per_subgroup)
enable f16;
enable chromium_experimental_subgroup_matrix;
@group(0) @binding(0) var<storage, read> a: array<f16>;
@group(0) @binding(1) var<storage, read_write> c: array<f32>;
@diagnostic(off, coop.one_tile_per_subgroup)
@compute @workgroup_size(32) fn main() {
  var acc = subgroup_matrix_result<f32, 16, 16>();
  for (var k = 0u; k < 256u; k += 16u) {
    let l = subgroupMatrixLoad<subgroup_matrix_left<f16, 16, 16>, row_major>(&a, k, 256u);
    let r = subgroupMatrixLoad<subgroup_matrix_right<f16, 16, 16>, row_major>(&a, k * 256u, 256u);
    acc = subgroupMatrixMultiplyAccumulate(l, r, acc);
  }
  subgroupMatrixStore<row_major>(&c, 0u, acc, 16u);
}

// === P002: a workgroup of four subgroups loads its tiles from storage in the K loop
enable f16;
enable chromium_experimental_subgroup_matrix;
@group(0) @binding(0) var<storage, read> a: array<f16>;
@group(0) @binding(1) var<storage, read_write> c: array<f32>;
@compute @workgroup_size(128) fn main(@builtin(subgroup_id) sg: u32) {
  var acc0 = subgroup_matrix_result<f32, 16, 16>();
  var acc1 = subgroup_matrix_result<f32, 16, 16>();
  let l = subgroupMatrixLoad<subgroup_matrix_left<f16, 16, 16>, row_major>(&a, 0u, 256u);
  for (var k = 0u; k < 256u; k += 16u) {
    let r0 = subgroupMatrixLoad<subgroup_matrix_right<f16, 16, 16>, row_major>(&a, k * 256u + sg * 32u, 256u);
//           ^ P002 reads tiles of the storage buffer 'a' inside the K loop (2 loads in 'main'): the 4 subgroups
    let r1 = subgroupMatrixLoad<subgroup_matrix_right<f16, 16, 16>, row_major>(&a, k * 256u + sg * 32u + 16u, 256u);
    acc0 = subgroupMatrixMultiplyAccumulate(l, r0, acc0);
    acc1 = subgroupMatrixMultiplyAccumulate(l, r1, acc1);
  }
  subgroupMatrixStore<row_major>(&c, sg * 32u, acc0, 128u);
  subgroupMatrixStore<row_major>(&c, sg * 32u + 16u, acc1, 128u);
}

// === P002 quiet: one subgroup per workgroup has no one to share tiles with
enable f16;
enable chromium_experimental_subgroup_matrix;
@group(0) @binding(0) var<storage, read> a: array<f16>;
@group(0) @binding(1) var<storage, read_write> c: array<f32>;
@compute @workgroup_size(32) fn main() {
  var acc0 = subgroup_matrix_result<f32, 16, 16>();
  var acc1 = subgroup_matrix_result<f32, 16, 16>();
  let l = subgroupMatrixLoad<subgroup_matrix_left<f16, 16, 16>, row_major>(&a, 0u, 256u);
  for (var k = 0u; k < 256u; k += 16u) {
    let r0 = subgroupMatrixLoad<subgroup_matrix_right<f16, 16, 16>, row_major>(&a, k * 256u, 256u);
    let r1 = subgroupMatrixLoad<subgroup_matrix_right<f16, 16, 16>, row_major>(&a, k * 256u + 16u, 256u);
    acc0 = subgroupMatrixMultiplyAccumulate(l, r0, acc0);
    acc1 = subgroupMatrixMultiplyAccumulate(l, r1, acc1);
  }
  subgroupMatrixStore<row_major>(&c, 0u, acc0, 32u);
  subgroupMatrixStore<row_major>(&c, 16u, acc1, 32u);
}

// === P002 quiet: the tiles come from a staged workgroup slice
enable f16;
enable chromium_experimental_subgroup_matrix;
@group(0) @binding(0) var<storage, read> a: array<vec4<u32>>;
@group(0) @binding(1) var<storage, read_write> c: array<f32>;
var<workgroup> slice: array<vec4<u32>, 528>;
@compute @workgroup_size(128) fn main(@builtin(local_invocation_index) lid: u32, @builtin(subgroup_id) sg: u32) {
  var acc0 = subgroup_matrix_result<f32, 16, 16>();
  var acc1 = subgroup_matrix_result<f32, 16, 16>();
  let l = subgroupMatrixLoad<subgroup_matrix_left<f16, 16, 16>, row_major>(&a, 0u, 32u);
  for (var k = 0u; k < 256u; k += 16u) {
//^ P009 this loop copies each slice from storage into 'slice', waits at a barrier, then multiplies
    for (var e = lid; e < 512u; e += 128u) {
      slice[(e / 32u) * 33u + e % 32u] = a[k * 32u + e];
    }
    workgroupBarrier();
    let r0 = subgroupMatrixLoad<subgroup_matrix_right<f16, 16, 16>, row_major>(&slice, sg * 4u, 33u);
    let r1 = subgroupMatrixLoad<subgroup_matrix_right<f16, 16, 16>, row_major>(&slice, sg * 4u + 2u, 33u);
    acc0 = subgroupMatrixMultiplyAccumulate(l, r0, acc0);
    acc1 = subgroupMatrixMultiplyAccumulate(l, r1, acc1);
    workgroupBarrier();
  }
  subgroupMatrixStore<row_major>(&c, sg * 32u, acc0, 128u);
  subgroupMatrixStore<row_major>(&c, sg * 32u + 16u, acc1, 128u);
}

// === P003: an array of accumulators indexed by loop variables where it multiplies
enable f16;
enable chromium_experimental_subgroup_matrix;
@group(0) @binding(0) var<storage, read> a: array<f16>;
@group(0) @binding(1) var<storage, read_write> c: array<f32>;
@compute @workgroup_size(32) fn main() {
  var acc: array<subgroup_matrix_result<f32, 16, 16>, 4>;
  let l = subgroupMatrixLoad<subgroup_matrix_left<f16, 16, 16>, row_major>(&a, 0u, 256u);
  for (var k = 0u; k < 256u; k += 16u) {
    for (var j = 0u; j < 4u; j++) {
      let r = subgroupMatrixLoad<subgroup_matrix_right<f16, 16, 16>, row_major>(&a, k * 256u + j * 16u, 256u);
      acc[j] = subgroupMatrixMultiplyAccumulate(l, r, acc[j]);
//    ^ P003 the array of matrices 'acc' is indexed by 'j', which is not a constant
    }
  }
  subgroupMatrixStore<row_major>(&c, 0u, acc[0], 64u);
}

// === P003 quiet: constant indices in the loop, a runtime index only where it stores
enable f16;
enable chromium_experimental_subgroup_matrix;
@group(0) @binding(0) var<storage, read> a: array<f16>;
@group(0) @binding(1) var<storage, read_write> c: array<f32>;
const LAST: u32 = 1u;
@compute @workgroup_size(32) fn main() {
  var acc: array<subgroup_matrix_result<f32, 16, 16>, 2>;
  let l = subgroupMatrixLoad<subgroup_matrix_left<f16, 16, 16>, row_major>(&a, 0u, 256u);
  for (var k = 0u; k < 256u; k += 16u) {
    let r0 = subgroupMatrixLoad<subgroup_matrix_right<f16, 16, 16>, row_major>(&a, k * 256u, 256u);
    let r1 = subgroupMatrixLoad<subgroup_matrix_right<f16, 16, 16>, row_major>(&a, k * 256u + 16u, 256u);
    acc[0] = subgroupMatrixMultiplyAccumulate(l, r0, acc[0]);
    acc[LAST * 2u - 1u] = subgroupMatrixMultiplyAccumulate(l, r1, acc[LAST * 2u - 1u]);
  }
  for (var j = 0u; j < 2u; j++) {
    subgroupMatrixStore<row_major>(&c, j * 16u, acc[j], 32u);
  }
}

// === P004: 32 KiB of workgroup memory leaves room for one workgroup where two fit 24 KiB each
enable f16;
enable chromium_experimental_subgroup_matrix;
@group(0) @binding(0) var<storage, read_write> c: array<f32>;
var<workgroup> stage_a: array<vec4<u32>, 1024>;
//             ^ P004 workgroup memory is 32.0 KiB ('stage_a' 16.0 KiB, 'stage_b' 16.0 KiB)
var<workgroup> stage_b: array<vec4<u32>, 1024>;
@compute @workgroup_size(128) fn main(@builtin(local_invocation_index) lid: u32) {
  stage_a[lid] = vec4<u32>(lid);
  stage_b[lid] = vec4<u32>(lid);
  workgroupBarrier();
  let l = subgroupMatrixLoad<subgroup_matrix_left<f16, 16, 16>, row_major>(&stage_a, 0u, 3u);
  let r = subgroupMatrixLoad<subgroup_matrix_right<f16, 16, 16>, row_major>(&stage_b, 0u, 3u);
  subgroupMatrixStore<row_major>(&c, 0u, subgroupMatrixMultiply<f32>(l, r), 16u);
}

// === P004 quiet: 20 KiB, two workgroups per multiprocessor
enable f16;
enable chromium_experimental_subgroup_matrix;
@group(0) @binding(0) var<storage, read_write> c: array<f32>;
var<workgroup> stage_a: array<vec4<u32>, 640>;
var<workgroup> stage_b: array<vec4<u32>, 640>;
@compute @workgroup_size(128) fn main(@builtin(local_invocation_index) lid: u32) {
  stage_a[lid] = vec4<u32>(lid);
  stage_b[lid] = vec4<u32>(lid);
  workgroupBarrier();
  let l = subgroupMatrixLoad<subgroup_matrix_left<f16, 16, 16>, row_major>(&stage_a, 0u, 3u);
  let r = subgroupMatrixLoad<subgroup_matrix_right<f16, 16, 16>, row_major>(&stage_b, 0u, 3u);
  subgroupMatrixStore<row_major>(&c, 0u, subgroupMatrixMultiply<f32>(l, r), 16u);
}

// === P005: staged f16 rows 128 bytes apart put all 8 rows of a load in one bank
enable f16;
enable chromium_experimental_subgroup_matrix;
@group(0) @binding(0) var<storage, read_write> c: array<f32>;
const LD: u32 = 64u;
var<workgroup> slice: array<f16, 16 * LD>;
@compute @workgroup_size(32) fn main(@builtin(local_invocation_index) lid: u32) {
  slice[lid] = f16(lid);
  workgroupBarrier();
  let l = subgroupMatrixLoad<subgroup_matrix_left<f16, 16, 16>, row_major>(&slice, 0u, LD);
//                                                                                     ^ P005 rows of 'slice' are 128 bytes apart (64 x 2-byte elements): the 8 rows a tile load reads at once put up to 8 in one bank
  let r = subgroupMatrixLoad<subgroup_matrix_right<f16, 16, 16>, row_major>(&slice, 16u, LD);
  subgroupMatrixStore<row_major>(&c, 0u, subgroupMatrixMultiply<f32>(l, r), 16u);
}

// === P005 quiet: the same rows padded by 8 halves (144 bytes apart)
enable f16;
enable chromium_experimental_subgroup_matrix;
@group(0) @binding(0) var<storage, read_write> c: array<f32>;
const LD: u32 = 72u;
var<workgroup> slice: array<f16, 16 * LD>;
@compute @workgroup_size(32) fn main(@builtin(local_invocation_index) lid: u32) {
  slice[lid] = f16(lid);
  workgroupBarrier();
  let l = subgroupMatrixLoad<subgroup_matrix_left<f16, 16, 16>, row_major>(&slice, 0u, LD);
  let r = subgroupMatrixLoad<subgroup_matrix_right<f16, 16, 16>, row_major>(&slice, 16u, LD);
  subgroupMatrixStore<row_major>(&c, 0u, subgroupMatrixMultiply<f32>(l, r), 16u);
}

// === P006: one f16 per invocation from storage in a copy loop
enable f16;
enable chromium_experimental_subgroup_matrix;
@group(0) @binding(0) var<storage, read> a: array<f16>;
@group(0) @binding(1) var<storage, read_write> c: array<f32>;
var<workgroup> slice: array<f16, 384>;
@compute @workgroup_size(32) fn main(@builtin(local_invocation_index) lid: u32) {
  for (var e = lid; e < 256u; e += 32u) {
    slice[(e / 16u) * 24u + e % 16u] = a[e];
//                                     ^ P006 each invocation reads one f16 (2 bytes) of the storage buffer 'a'
  }
  workgroupBarrier();
  let l = subgroupMatrixLoad<subgroup_matrix_left<f16, 16, 16>, row_major>(&slice, 0u, 24u);
  subgroupMatrixStore<row_major>(&c, 0u, subgroupMatrixMultiply<f32>(l, subgroup_matrix_right<f16, 16, 16>()), 16u);
}

// === P006 quiet: 8 halves per invocation as vec4<u32>, and one f16 outside any loop
enable f16;
enable chromium_experimental_subgroup_matrix;
@group(0) @binding(0) var<storage, read> a: array<vec4<u32>>;
@group(0) @binding(1) var<storage, read> scale: array<f16>;
@group(0) @binding(2) var<storage, read_write> c: array<f32>;
var<workgroup> slice: array<vec4<u32>, 48>;
@compute @workgroup_size(32) fn main(@builtin(local_invocation_index) lid: u32) {
  for (var e = lid; e < 32u; e += 32u) {
    slice[(e / 2u) * 3u + e % 2u] = a[e];
  }
  workgroupBarrier();
  let l = subgroupMatrixLoad<subgroup_matrix_left<f16, 16, 16>, row_major>(&slice, 0u, 3u);
  let s = subgroup_matrix_result<f32, 16, 16>(f32(scale[0]));
  subgroupMatrixStore<row_major>(&c, 0u, subgroupMatrixMultiplyAccumulate(l, subgroup_matrix_right<f16, 16, 16>(), s), 16u);
}

// === P008: one subgroup and 20 KiB of workgroup memory: two workgroups per multiprocessor, 2 of 4 matrix units idle
enable f16;
enable chromium_experimental_subgroup_matrix;
@group(0) @binding(0) var<storage, read_write> c: array<f32>;
var<workgroup> stage_a: array<vec4<u32>, 1024>;
var<workgroup> stage_b: array<vec4<u32>, 256>;
@compute @workgroup_size(32) fn main(@builtin(local_invocation_index) lid: u32) {
//       ^ P008 a workgroup of 32 invocations is 1 subgroup of 32, and its 20.0 KiB of workgroup memory leave room for 2 workgroups per multiprocessor (48 KiB): 2 subgroups for the 4 matrix units of a multiprocessor, 2 idle; give the workgroup at least 2 subgroups
  stage_a[lid] = vec4<u32>(lid);
  stage_b[lid] = vec4<u32>(lid);
  workgroupBarrier();
  let l = subgroupMatrixLoad<subgroup_matrix_left<f16, 16, 16>, row_major>(&stage_a, 0u, 3u);
  let r = subgroupMatrixLoad<subgroup_matrix_right<f16, 16, 16>, row_major>(&stage_b, 0u, 3u);
  subgroupMatrixStore<row_major>(&c, 0u, subgroupMatrixMultiply<f32>(l, r), 16u);
}

// === P008 quiet: the same memory with 2 subgroups: two workgroups of 2 fill the 4 matrix units
enable f16;
enable chromium_experimental_subgroup_matrix;
@group(0) @binding(0) var<storage, read_write> c: array<f32>;
var<workgroup> stage_a: array<vec4<u32>, 1024>;
var<workgroup> stage_b: array<vec4<u32>, 256>;
@compute @workgroup_size(64) fn main(@builtin(local_invocation_index) lid: u32) {
  stage_a[lid] = vec4<u32>(lid);
  stage_b[lid] = vec4<u32>(lid);
  workgroupBarrier();
  let l = subgroupMatrixLoad<subgroup_matrix_left<f16, 16, 16>, row_major>(&stage_a, 0u, 3u);
  let r = subgroupMatrixLoad<subgroup_matrix_right<f16, 16, 16>, row_major>(&stage_b, 0u, 3u);
  subgroupMatrixStore<row_major>(&c, 0u, subgroupMatrixMultiply<f32>(l, r), 16u);
}

// === P008 quiet: 2 subgroups with 10 KiB of workgroup memory, four workgroups share a multiprocessor
enable f16;
enable chromium_experimental_subgroup_matrix;
@group(0) @binding(0) var<storage, read_write> c: array<f32>;
var<workgroup> stage_a: array<vec4<u32>, 640>;
@compute @workgroup_size(64) fn main(@builtin(local_invocation_index) lid: u32) {
  stage_a[lid] = vec4<u32>(lid);
  workgroupBarrier();
  let l = subgroupMatrixLoad<subgroup_matrix_left<f16, 16, 16>, row_major>(&stage_a, 0u, 3u);
  let r = subgroupMatrixLoad<subgroup_matrix_right<f16, 16, 16>, row_major>(&stage_a, 16u, 3u);
  subgroupMatrixStore<row_major>(&c, 0u, subgroupMatrixMultiply<f32>(l, r), 16u);
}

// === P008 quiet: one subgroup without workgroup memory, nothing keeps other workgroups away
enable f16;
enable chromium_experimental_subgroup_matrix;
@group(0) @binding(0) var<storage, read> a: array<f16>;
@group(0) @binding(1) var<storage, read_write> c: array<f32>;
@compute @workgroup_size(32) fn main() {
  let l = subgroupMatrixLoad<subgroup_matrix_left<f16, 16, 16>, row_major>(&a, 0u, 16u);
  let r = subgroupMatrixLoad<subgroup_matrix_right<f16, 16, 16>, row_major>(&a, 256u, 16u);
  subgroupMatrixStore<row_major>(&c, 0u, subgroupMatrixMultiply<f32>(l, r), 16u);
}

// === P004 counts a member's @size: 512 tiles padded to 32 bytes are 16 KiB of workgroup memory, not 8
enable f16;
enable chromium_experimental_subgroup_matrix;
struct Tile { @size(32) v: vec4<u32> }
@group(0) @binding(0) var<storage, read_write> c: array<f32>;
var<workgroup> stage_a: array<Tile, 512>;
//             ^ P004 workgroup memory is 32.0 KiB ('stage_a' 16.0 KiB, 'stage_b' 16.0 KiB)
var<workgroup> stage_b: array<vec4<u32>, 1024>;
@compute @workgroup_size(128) fn main(@builtin(local_invocation_index) lid: u32) {
  stage_a[lid].v = vec4<u32>(lid);
  stage_b[lid] = vec4<u32>(lid);
  workgroupBarrier();
  let l = subgroupMatrixLoad<subgroup_matrix_left<f16, 16, 16>, row_major>(&stage_b, 0u, 3u);
  let r = subgroupMatrixLoad<subgroup_matrix_right<f16, 16, 16>, row_major>(&stage_b, 512u, 3u);
  subgroupMatrixStore<row_major>(&c, 0u, subgroupMatrixMultiply<f32>(l, r), 16u);
}

// === P009: ggml's shape in other words: copy through helper functions, barrier, multiply, barrier
enable f16;
enable chromium_experimental_subgroup_matrix;
@group(0) @binding(0) var<storage, read> a: array<vec4<f16>>;
@group(0) @binding(1) var<storage, read_write> c: array<f32>;
var<workgroup> tiles: array<f16, 1280>;
fn put(v: vec4<f16>, at: u32) {
  tiles[at] = v.x;
  tiles[at + 1u] = v.y;
  tiles[at + 2u] = v.z;
  tiles[at + 3u] = v.w;
}
fn fill(lid: u32, k: u32) {
  for (var e = lid * 4u; e < 1024u; e += 512u) {
    let v = a[(k * 1024u + e) / 4u];
    put(v, (e / 32u) * 40u + e % 32u);
  }
}
@compute @workgroup_size(128) fn main(@builtin(local_invocation_index) lid: u32, @builtin(subgroup_id) sg: u32) {
  var acc0 = subgroup_matrix_result<f32, 16, 16>();
  var acc1 = subgroup_matrix_result<f32, 16, 16>();
  for (var k = 0u; k < 64u; k++) {
//^ P009 this loop copies each slice from storage into 'tiles'
    fill(lid, k);
    workgroupBarrier();
    let l = subgroupMatrixLoad<subgroup_matrix_left<f16, 16, 16>, row_major>(&tiles, (sg % 2u) * 640u, 40u);
    let r0 = subgroupMatrixLoad<subgroup_matrix_right<f16, 16, 16>, row_major>(&tiles, 16u, 40u);
    let r1 = subgroupMatrixLoad<subgroup_matrix_right<f16, 16, 16>, row_major>(&tiles, 656u, 40u);
    acc0 = subgroupMatrixMultiplyAccumulate(l, r0, acc0);
    acc1 = subgroupMatrixMultiplyAccumulate(l, r1, acc1);
    workgroupBarrier();
  }
  subgroupMatrixStore<row_major>(&c, sg * 32u, acc0, 128u);
  subgroupMatrixStore<row_major>(&c, sg * 32u + 16u, acc1, 128u);
}

// === P009 quiet: the next slice is read into registers before the multiplies and written after them
enable f16;
enable chromium_experimental_subgroup_matrix;
@group(0) @binding(0) var<storage, read> a: array<vec4<f16>>;
@group(0) @binding(1) var<storage, read_write> c: array<f32>;
var<workgroup> tiles: array<f16, 1280>;
fn put(v: vec4<f16>, at: u32) {
  tiles[at] = v.x;
  tiles[at + 1u] = v.y;
  tiles[at + 2u] = v.z;
  tiles[at + 3u] = v.w;
}
@compute @workgroup_size(128) fn main(@builtin(local_invocation_index) lid: u32, @builtin(subgroup_id) sg: u32) {
  var acc0 = subgroup_matrix_result<f32, 16, 16>();
  var acc1 = subgroup_matrix_result<f32, 16, 16>();
  let e0 = lid * 4u;
  let e1 = e0 + 512u;
  var next0 = a[e0 / 4u];
  var next1 = a[e1 / 4u];
  put(next0, (e0 / 32u) * 40u + e0 % 32u);
  put(next1, (e1 / 32u) * 40u + e1 % 32u);
  workgroupBarrier();
  for (var k = 0u; k < 64u; k++) {
    let ahead = min(k + 1u, 63u) * 1024u;
    next0 = a[(ahead + e0) / 4u];
    next1 = a[(ahead + e1) / 4u];
    let l = subgroupMatrixLoad<subgroup_matrix_left<f16, 16, 16>, row_major>(&tiles, (sg % 2u) * 640u, 40u);
    let r0 = subgroupMatrixLoad<subgroup_matrix_right<f16, 16, 16>, row_major>(&tiles, 16u, 40u);
    let r1 = subgroupMatrixLoad<subgroup_matrix_right<f16, 16, 16>, row_major>(&tiles, 656u, 40u);
    acc0 = subgroupMatrixMultiplyAccumulate(l, r0, acc0);
    acc1 = subgroupMatrixMultiplyAccumulate(l, r1, acc1);
    workgroupBarrier();
    put(next0, (e0 / 32u) * 40u + e0 % 32u);
    put(next1, (e1 / 32u) * 40u + e1 % 32u);
    workgroupBarrier();
  }
  subgroupMatrixStore<row_major>(&c, sg * 32u, acc0, 128u);
  subgroupMatrixStore<row_major>(&c, sg * 32u + 16u, acc1, 128u);
}

// === P009 quiet: two buffers, the next slice written into the one not being multiplied from
enable f16;
enable chromium_experimental_subgroup_matrix;
@group(0) @binding(0) var<storage, read> a: array<vec4<f16>>;
@group(0) @binding(1) var<storage, read_write> c: array<f32>;
var<workgroup> tiles: array<f16, 2560>;
fn fill(lid: u32, k: u32, buffer: u32) {
  for (var e = lid * 4u; e < 1024u; e += 512u) {
    let v = a[(min(k, 63u) * 1024u + e) / 4u];
    let at = buffer * 1280u + (e / 32u) * 40u + e % 32u;
    tiles[at] = v.x;
    tiles[at + 1u] = v.y;
    tiles[at + 2u] = v.z;
    tiles[at + 3u] = v.w;
  }
}
@compute @workgroup_size(128) fn main(@builtin(local_invocation_index) lid: u32, @builtin(subgroup_id) sg: u32) {
  var acc0 = subgroup_matrix_result<f32, 16, 16>();
  var acc1 = subgroup_matrix_result<f32, 16, 16>();
  fill(lid, 0u, 0u);
  workgroupBarrier();
  for (var k = 0u; k < 64u; k++) {
    let current = (k % 2u) * 1280u;
    fill(lid, k + 1u, 1u - k % 2u);
    let l = subgroupMatrixLoad<subgroup_matrix_left<f16, 16, 16>, row_major>(&tiles, current + (sg % 2u) * 640u, 40u);
    let r0 = subgroupMatrixLoad<subgroup_matrix_right<f16, 16, 16>, row_major>(&tiles, current + 16u, 40u);
    let r1 = subgroupMatrixLoad<subgroup_matrix_right<f16, 16, 16>, row_major>(&tiles, current + 656u, 40u);
    acc0 = subgroupMatrixMultiplyAccumulate(l, r0, acc0);
    acc1 = subgroupMatrixMultiplyAccumulate(l, r1, acc1);
    workgroupBarrier();
  }
  subgroupMatrixStore<row_major>(&c, sg * 32u, acc0, 128u);
  subgroupMatrixStore<row_major>(&c, sg * 32u + 16u, acc1, 128u);
}
