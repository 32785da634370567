// Tint's subgroup matrix builtins and constructors: each must be called in
// subgroup-uniform control flow, and each argument must be uniform; Tint
// names the argument by its index (the pointer is argument 0).

// === load in non-uniform control flow
enable chromium_experimental_subgroup_matrix;
@group(0) @binding(0) var<storage, read_write> buf: array<f32>;
@compute @workgroup_size(32)
fn main(@builtin(local_invocation_index) li: u32) {
  if li < 8u {
    let m = subgroupMatrixLoad<subgroup_matrix_left<f32, 8, 8>, row_major>(&buf, 0u, 8u);
//          ^ U001 'subgroupMatrixLoad' must only be called from subgroup uniform control flow
  }
}

// === load with non-uniform offset is argument 1
enable chromium_experimental_subgroup_matrix;
@group(0) @binding(0) var<storage, read_write> buf: array<f32>;
@compute @workgroup_size(32)
fn main(@builtin(local_invocation_index) li: u32) {
  let m = subgroupMatrixLoad<subgroup_matrix_left<f32, 8, 8>, row_major>(&buf, li, 8u);
//                                                                             ^ U001 'subgroupMatrixLoad' requires argument 1 to be uniform
}

// === load with non-uniform stride is argument 2
enable chromium_experimental_subgroup_matrix;
@group(0) @binding(0) var<storage, read_write> buf: array<f32>;
@compute @workgroup_size(32)
fn main(@builtin(local_invocation_index) li: u32) {
  let m = subgroupMatrixLoad<subgroup_matrix_right<f32, 8, 8>, col_major>(&buf, 0u, 8u + li);
//                                                                                  ^ U001 'subgroupMatrixLoad' requires argument 2 to be uniform
}

// === load from workgroup array with uniform arguments is fine
enable chromium_experimental_subgroup_matrix;
var<workgroup> tile: array<f32, 1024>;
@compute @workgroup_size(32)
fn main(@builtin(subgroup_id) sg: u32) {
  let m = subgroupMatrixLoad<subgroup_matrix_left<f32, 8, 8>, row_major>(&tile, sg * 64u, 8u);
}

// === load offset from read_write storage
// Reason for U003: every lane of a subgroup reads offsets[0] in one load and gets one value.
enable chromium_experimental_subgroup_matrix;
@group(0) @binding(0) var<storage, read_write> buf: array<f32>;
@group(0) @binding(1) var<storage, read_write> offsets: array<u32>;
@compute @workgroup_size(32)
fn main() {
  let m = subgroupMatrixLoad<subgroup_matrix_left<f32, 8, 8>, row_major>(&buf, offsets[0], 8u);
//                                                                             ^ U001 'subgroupMatrixLoad' requires argument 1 to be uniform
//                                                                             ^ U003 'subgroupMatrixLoad'
}

// === load offset from read-only storage is fine
enable chromium_experimental_subgroup_matrix;
@group(0) @binding(0) var<storage, read_write> buf: array<f32>;
@group(0) @binding(1) var<storage, read> offsets: array<u32>;
@compute @workgroup_size(32)
fn main(@builtin(workgroup_id) wg: vec3u) {
  let m = subgroupMatrixLoad<subgroup_matrix_left<f32, 8, 8>, row_major>(&buf, offsets[wg.x], 8u);
}

// === store in non-uniform control flow
enable chromium_experimental_subgroup_matrix;
@group(0) @binding(0) var<storage, read_write> buf: array<f32>;
@compute @workgroup_size(32)
fn main(@builtin(local_invocation_index) li: u32) {
  let m = subgroupMatrixLoad<subgroup_matrix_result<f32, 8, 8>, row_major>(&buf, 0u, 8u);
  if li == 0u {
    subgroupMatrixStore<row_major>(&buf, 64u, m, 8u);
//  ^ U001 'subgroupMatrixStore' must only be called from subgroup uniform control flow
  }
}

// === store with non-uniform offset is argument 1
enable chromium_experimental_subgroup_matrix;
@group(0) @binding(0) var<storage, read_write> buf: array<f32>;
@compute @workgroup_size(32)
fn main(@builtin(local_invocation_id) lid: vec3u) {
  let m = subgroupMatrixLoad<subgroup_matrix_result<f32, 8, 8>, row_major>(&buf, 0u, 8u);
  subgroupMatrixStore<row_major>(&buf, lid.x * 64u, m, 8u);
//                                     ^ U001 'subgroupMatrixStore' requires argument 1 to be uniform
}

// === store with non-uniform stride is argument 3
enable chromium_experimental_subgroup_matrix;
@group(0) @binding(0) var<storage, read_write> buf: array<f32>;
@compute @workgroup_size(32)
fn main(@builtin(local_invocation_id) lid: vec3u) {
  let m = subgroupMatrixLoad<subgroup_matrix_result<f32, 8, 8>, row_major>(&buf, 0u, 8u);
  subgroupMatrixStore<col_major>(&buf, 0u, m, lid.y);
//                                            ^ U001 'subgroupMatrixStore' requires argument 3 to be uniform
}

// === multiply in non-uniform control flow
enable chromium_experimental_subgroup_matrix;
@compute @workgroup_size(32)
fn main(@builtin(local_invocation_index) li: u32) {
  let l = subgroup_matrix_left<f32, 8, 8>(1.0);
  let r = subgroup_matrix_right<f32, 8, 8>(2.0);
  if li > 4u {
    let c = subgroupMatrixMultiply<f32>(l, r);
//          ^ U001 'subgroupMatrixMultiply' must only be called from subgroup uniform control flow
  }
}

// === multiply accumulate after non-uniform return
enable chromium_experimental_subgroup_matrix;
@compute @workgroup_size(32)
fn main(@builtin(local_invocation_index) li: u32) {
  let l = subgroup_matrix_left<f32, 8, 8>(1.0);
  let r = subgroup_matrix_right<f32, 8, 8>(2.0);
  var acc = subgroup_matrix_result<f32, 8, 8>();
  if li > 4u {
    return;
  }
  acc = subgroupMatrixMultiplyAccumulate(l, r, acc);
//      ^ U001 'subgroupMatrixMultiplyAccumulate' must only be called from subgroup uniform control flow
}

// === scalar add with non-uniform scalar is argument 1
enable chromium_experimental_subgroup_matrix;
@compute @workgroup_size(32)
fn main(@builtin(local_invocation_index) li: u32) {
  let m = subgroup_matrix_result<f32, 8, 8>();
  let n = subgroupMatrixScalarAdd(m, f32(li));
//                                   ^ U001 'subgroupMatrixScalarAdd' requires argument 1 to be uniform
}

// === scalar subtract in non-uniform control flow
enable chromium_experimental_subgroup_matrix;
@compute @workgroup_size(32)
fn main(@builtin(local_invocation_index) li: u32) {
  var m = subgroup_matrix_result<f32, 8, 8>();
  if li > 4u {
    m = subgroupMatrixScalarSubtract(m, 1.0);
//      ^ U001 'subgroupMatrixScalarSubtract' must only be called from subgroup uniform control flow
  }
}

// === scalar multiply with non-uniform scalar is argument 1
enable chromium_experimental_subgroup_matrix;
@compute @workgroup_size(32)
fn main(@builtin(global_invocation_id) gid: vec3u) {
  let m = subgroup_matrix_left<f32, 8, 8>();
  let n = subgroupMatrixScalarMultiply(m, f32(gid.x));
//                                        ^ U001 'subgroupMatrixScalarMultiply' requires argument 1 to be uniform
}

// === scalar operations with uniform scalar are fine
enable chromium_experimental_subgroup_matrix;
@group(0) @binding(0) var<uniform> alpha: f32;
@compute @workgroup_size(32)
fn main() {
  var m = subgroup_matrix_result<f32, 8, 8>();
  m = subgroupMatrixScalarMultiply(m, alpha);
  m = subgroupMatrixScalarAdd(m, alpha);
  m = subgroupMatrixScalarSubtract(m, 1.0);
}

// === splat constructor with non-uniform value is argument 0
enable chromium_experimental_subgroup_matrix;
@compute @workgroup_size(32)
fn main(@builtin(local_invocation_index) li: u32) {
  let m = subgroup_matrix_result<f32, 8, 8>(f32(li));
//                                          ^ U001 subgroup_matrix_result<f32, 8, 8> constructor requires argument 0 to be uniform
}

// === splat constructor with uniform value is fine
enable chromium_experimental_subgroup_matrix;
@compute @workgroup_size(32)
fn main(@builtin(workgroup_id) wg: vec3u) {
  let m = subgroup_matrix_left<f32, 8, 8>(f32(wg.x));
}

// === splat constructor in non-uniform control flow
enable chromium_experimental_subgroup_matrix;
@compute @workgroup_size(32)
fn main(@builtin(local_invocation_index) li: u32) {
  if li > 1u {
    let m = subgroup_matrix_right<f32, 8, 8>(1.0);
//          ^ U001 'subgroup_matrix_right' must only be called from subgroup uniform control flow
  }
}

// === zero-value constructor in non-uniform control flow
enable chromium_experimental_subgroup_matrix;
@compute @workgroup_size(32)
fn main(@builtin(local_invocation_index) li: u32) {
  if li > 1u {
    let m = subgroup_matrix_result<f32, 8, 8>();
//          ^ U001 'subgroup_matrix_result' must only be called from subgroup uniform control flow
  }
}

// === matrix var declared without initializer in non-uniform control flow
enable chromium_experimental_subgroup_matrix;
@compute @workgroup_size(32)
fn main(@builtin(local_invocation_index) li: u32) {
  if li > 1u {
    var m: subgroup_matrix_result<f32, 8, 8>;
//  ^ U001 variables that contain subgroup matrix types cannot be declared in non-uniform control flow
  }
}

// === branch on workgroup_id around a full tile is fine
enable f16;
enable chromium_experimental_subgroup_matrix;
@group(0) @binding(0) var<storage, read> a: array<f16>;
@group(0) @binding(1) var<storage, read_write> c: array<f32>;
@compute @workgroup_size(32)
fn main(@builtin(workgroup_id) wg: vec3u) {
  if wg.x < 4u {
    let l = subgroupMatrixLoad<subgroup_matrix_left<f16, 16, 16>, row_major>(&a, wg.x * 256u, 16u);
    let r = subgroupMatrixLoad<subgroup_matrix_right<f16, 16, 16>, col_major>(&a, 0u, 16u);
    let acc = subgroupMatrixMultiply<f32>(l, r);
    subgroupMatrixStore<row_major>(&c, wg.x * 256u, acc, 16u);
  }
}

// === deprecated bool form with non-uniform offset
enable chromium_experimental_subgroup_matrix;
@group(0) @binding(0) var<storage, read_write> buf: array<f32>;
@compute @workgroup_size(32)
fn main(@builtin(local_invocation_index) li: u32) {
  let m = subgroupMatrixLoad<subgroup_matrix_left<f32, 8, 8>>(&buf, li, false, 8u);
//        ^ T012 use of deprecated builtin
//                                                                  ^ U001 'subgroupMatrixLoad' requires argument 1 to be uniform
}

// === store with non-uniform matrix value is argument 2
enable chromium_experimental_subgroup_matrix;
@group(0) @binding(0) var<storage, read_write> buf: array<f32>;
fn pick(a: subgroup_matrix_result<f32, 8, 8>, b: subgroup_matrix_result<f32, 8, 8>, first: bool) -> subgroup_matrix_result<f32, 8, 8> {
  if first {
    return a;
  }
  return b;
}
@compute @workgroup_size(32)
fn main(@builtin(local_invocation_index) li: u32) {
  let z = subgroup_matrix_result<f32, 8, 8>();
  let o = subgroup_matrix_result<f32, 8, 8>(1.0);
  subgroupMatrixStore<row_major>(&buf, 0u, pick(z, o, li == 0u), 8u);
//                                         ^ U001 'subgroupMatrixStore' requires argument 2 to be uniform
}

// === control flow and argument both non-uniform
enable chromium_experimental_subgroup_matrix;
@group(0) @binding(0) var<storage, read_write> buf: array<f32>;
@compute @workgroup_size(32)
fn main(@builtin(local_invocation_index) li: u32) {
  if li < 8u {
    let m = subgroupMatrixLoad<subgroup_matrix_left<f32, 8, 8>, row_major>(&buf, li, 8u);
//          ^ U001 'subgroupMatrixLoad' must only be called from subgroup uniform control flow
  }
}

// === matrix parameter of a helper called from non-uniform control flow
enable chromium_experimental_subgroup_matrix;
fn scale(m: subgroup_matrix_result<f32, 8, 8>) -> subgroup_matrix_result<f32, 8, 8> {
  return subgroupMatrixScalarMultiply(m, 2.0);
//       ^ U001 'subgroupMatrixScalarMultiply' must only be called from subgroup uniform control flow
}
@compute @workgroup_size(32)
fn main(@builtin(local_invocation_index) li: u32) {
  var acc = subgroup_matrix_result<f32, 8, 8>();
  for (var i = 0u; i < li; i++) {
    acc = scale(acc);
  }
}

// === matrix loaded from workgroup array at non-uniform tile pointer
enable chromium_experimental_subgroup_matrix;
var<workgroup> tiles: array<array<f32, 64>, 4>;
@compute @workgroup_size(32)
fn main(@builtin(local_invocation_index) li: u32) {
  let m = subgroupMatrixLoad<subgroup_matrix_left<f32, 8, 8>, row_major>(&tiles[li % 4u], 0u, 8u);
//                                                                       ^ U001 'subgroupMatrixLoad' requires argument 0 to be uniform
}
