// Uniformity across function calls: helpers with barriers or matrix
// builtins, parameters required to be uniform, non-uniform return values,
// call chains two and three deep, pointer parameters. Tint explains a
// failure inside a helper with "called by" notes; ours must match.

// === helper with barrier called from uniform control flow is fine
fn sync() { workgroupBarrier(); }
@compute @workgroup_size(64)
fn main() {
  sync();
}

// === helper with barrier called from non-uniform control flow
fn sync() { workgroupBarrier(); }
//          ^ U001 'workgroupBarrier' must only be called from uniform control flow
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) li: u32) {
  if li > 0u {
    sync();
  }
}

// === helper after non-uniform return
fn sync() { storageBarrier(); }
//          ^ U001 'storageBarrier' must only be called from uniform control flow
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) li: u32) {
  if li > 60u {
    return;
  }
  sync();
}

// === two-deep call chain from non-uniform control flow
fn inner() { workgroupBarrier(); }
//           ^ U001 'workgroupBarrier' must only be called from uniform control flow
fn outer() { inner(); }
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) li: u32) {
  if li == 0u {
    outer();
  }
}

// === three-deep call chain from non-uniform control flow
fn a() { workgroupBarrier(); }
//       ^ U001 'workgroupBarrier' must only be called from uniform control flow
fn b() { a(); }
fn c() { b(); }
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) li: u32) {
  if li == 0u {
    c();
  }
}

// === parameter used as branch condition
fn maybe_sync(n: u32) {
  if n > 0u {
    workgroupBarrier();
//  ^ U001 'workgroupBarrier' must only be called from uniform control flow
  }
}
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) li: u32) {
  maybe_sync(li);
}

// === parameter used as branch condition with uniform argument is fine
fn maybe_sync(n: u32) {
  if n > 0u {
    workgroupBarrier();
  }
}
@compute @workgroup_size(64)
fn main(@builtin(workgroup_id) wg: vec3u) {
  maybe_sync(wg.x);
}

// === parameter requirement through two calls
fn maybe_sync(n: u32) {
  if n > 0u {
    workgroupBarrier();
//  ^ U001 'workgroupBarrier' must only be called from uniform control flow
  }
}
fn forward(k: u32) { maybe_sync(k + 1u); }
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) li: u32) {
  forward(li);
}

// === non-uniform return value from a private variable
var<private> seed: u32;
fn pick() -> u32 {
  return seed;
}
@compute @workgroup_size(64)
fn main() {
  if pick() > 2u { workgroupBarrier(); }
//                 ^ U001 'workgroupBarrier' must only be called from uniform control flow
}

// === helper returning read_write storage value
@group(0) @binding(0) var<storage, read_write> data: array<u32>;
fn first() -> u32 { return data[0]; }
@compute @workgroup_size(64)
fn main() {
  if first() > 2u { workgroupBarrier(); }
//                  ^ U001 'workgroupBarrier' must only be called from uniform control flow
}

// === helper returning a function of its parameter
fn twice(x: u32) -> u32 { return x * 2u; }
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) li: u32) {
  let v = twice(li);
  if v > 2u { workgroupBarrier(); }
//            ^ U001 'workgroupBarrier' must only be called from uniform control flow
}

// === helper returning a function of a uniform parameter is fine
fn twice(x: u32) -> u32 { return x * 2u; }
@compute @workgroup_size(64)
fn main(@builtin(workgroup_id) wg: vec3u) {
  if twice(wg.x) > 2u { workgroupBarrier(); }
}

// === helper with non-uniform early return
@group(0) @binding(0) var<storage, read_write> data: array<u32>;
fn clamp_index(i: u32) -> u32 {
  if data[i] == 0u {
    return 0u;
  }
  return i;
}
@compute @workgroup_size(64)
fn main(@builtin(workgroup_id) wg: vec3u) {
  if clamp_index(wg.x) > 2u { workgroupBarrier(); }
//                            ^ U001 'workgroupBarrier' must only be called from uniform control flow
}

// === helper with matrix load called from non-uniform control flow
enable chromium_experimental_subgroup_matrix;
@group(0) @binding(0) var<storage, read_write> buf: array<f32>;
fn load_tile(offset: u32) -> subgroup_matrix_left<f32, 8, 8> {
  return subgroupMatrixLoad<subgroup_matrix_left<f32, 8, 8>, row_major>(&buf, offset, 8u);
//       ^ U001 'subgroupMatrixLoad' must only be called from subgroup uniform control flow
}
@compute @workgroup_size(32)
fn main(@builtin(local_invocation_index) li: u32) {
  if li < 16u {
    let t = load_tile(0u);
  }
}

// === helper with matrix load given a non-uniform offset
enable chromium_experimental_subgroup_matrix;
@group(0) @binding(0) var<storage, read_write> buf: array<f32>;
fn load_tile(offset: u32) -> subgroup_matrix_left<f32, 8, 8> {
  return subgroupMatrixLoad<subgroup_matrix_left<f32, 8, 8>, row_major>(&buf, offset, 8u);
//                                                                            ^ U001 'subgroupMatrixLoad' requires argument 1 to be uniform
}
@compute @workgroup_size(32)
fn main(@builtin(local_invocation_index) li: u32) {
  let t = load_tile(li * 64u);
}

// === helper with matrix load given a uniform offset is fine
enable chromium_experimental_subgroup_matrix;
@group(0) @binding(0) var<storage, read_write> buf: array<f32>;
fn load_tile(offset: u32) -> subgroup_matrix_left<f32, 8, 8> {
  return subgroupMatrixLoad<subgroup_matrix_left<f32, 8, 8>, row_major>(&buf, offset, 8u);
}
@compute @workgroup_size(32)
fn main(@builtin(workgroup_id) wg: vec3u) {
  let t = load_tile(wg.x * 64u);
}

// === pointer parameter written with non-uniform value
fn store_to(p: ptr<function, u32>, v: u32) { *p = v; }
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) li: u32) {
  var x = 0u;
  store_to(&x, li);
  if x > 0u { workgroupBarrier(); }
//            ^ U001 'workgroupBarrier' must only be called from uniform control flow
}

// === pointer parameter written with uniform value is fine
fn store_to(p: ptr<function, u32>, v: u32) { *p = v; }
@compute @workgroup_size(64)
fn main(@builtin(workgroup_id) wg: vec3u) {
  var x = 0u;
  store_to(&x, wg.x);
  if x > 0u { workgroupBarrier(); }
}

// === pointer parameter read in helper condition
fn check(p: ptr<function, u32>) {
  if *p > 0u { workgroupBarrier(); }
//             ^ U001 'workgroupBarrier' must only be called from uniform control flow
}
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) li: u32) {
  var x = li;
  check(&x);
}

// === barrier in helper reached after a non-uniform call-site return
fn sync_if(n: u32) {
  if n == 0u {
    return;
  }
  workgroupBarrier();
//^ U001 'workgroupBarrier' must only be called from uniform control flow
}
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) li: u32) {
  sync_if(li);
}

// === helper called in a loop with non-uniform bound
fn sync() { workgroupBarrier(); }
//          ^ U001 'workgroupBarrier' must only be called from uniform control flow
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) li: u32) {
  for (var i = 0u; i < li; i++) {
    sync();
  }
}

// === helper argument evaluated in non-uniform short-circuit
fn touch() -> bool { storageBarrier(); return true; }
//                   ^ U001 'storageBarrier' must only be called from uniform control flow
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) li: u32) {
  let ok = li == 0u && touch();
}
