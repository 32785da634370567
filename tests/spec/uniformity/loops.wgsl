// Uniformity in loops: for/while/loop, continuing, break if, loop-carried
// variables, break and continue that make the rest of the body non-uniform,
// and what is uniform again after the loop. Cross-checked against Tint.

// === uniform for loop with barrier is fine
@compute @workgroup_size(64)
fn main() {
  for (var i = 0u; i < 8u; i++) {
    workgroupBarrier();
  }
}

// === for loop bound from local_invocation_index
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) li: u32) {
  for (var i = 0u; i < li; i++) {
    workgroupBarrier();
//  ^ U001 'workgroupBarrier' must only be called from uniform control flow
  }
}

// === for loop bound from uniform buffer is fine
struct Params { n: u32 }
@group(0) @binding(0) var<uniform> params: Params;
@compute @workgroup_size(64)
fn main() {
  for (var i = 0u; i < params.n; i++) {
    workgroupBarrier();
  }
}

// === for loop bound from read_write storage
@group(0) @binding(0) var<storage, read_write> n: u32;
@compute @workgroup_size(64)
fn main() {
  for (var i = 0u; i < n; i++) {
    workgroupBarrier();
//  ^ U001 'workgroupBarrier' must only be called from uniform control flow
  }
}

// === while loop on non-uniform condition
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) li: u32) {
  var i = li;
  while i < 64u {
    workgroupBarrier();
//  ^ U001 'workgroupBarrier' must only be called from uniform control flow
    i += 8u;
  }
}

// === while loop on uniform condition is fine
@compute @workgroup_size(64)
fn main(@builtin(workgroup_id) wg: vec3u) {
  var i = wg.x;
  while i < 64u {
    storageBarrier();
    i += 8u;
  }
}

// === loop with non-uniform break before barrier
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) li: u32) {
  var i = 0u;
  loop {
    if i == li {
      break;
    }
    workgroupBarrier();
//  ^ U001 'workgroupBarrier' must only be called from uniform control flow
    i++;
  }
}

// === loop with non-uniform break after barrier
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) li: u32) {
  var i = 0u;
  loop {
    workgroupBarrier();
//  ^ U001 'workgroupBarrier' must only be called from uniform control flow
    if i == li {
      break;
    }
    i++;
  }
}

// === non-uniform continue makes the rest of the body non-uniform
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) li: u32) {
  for (var i = 0u; i < 4u; i++) {
    if li == i {
      continue;
    }
    workgroupBarrier();
//  ^ U001 'workgroupBarrier' must only be called from uniform control flow
  }
}

// === uniform continue is fine
@compute @workgroup_size(64)
fn main(@builtin(workgroup_id) wg: vec3u) {
  for (var i = 0u; i < 4u; i++) {
    if wg.x == i {
      continue;
    }
    workgroupBarrier();
  }
}

// === break if on non-uniform value
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) li: u32) {
  var i = 0u;
  loop {
    workgroupBarrier();
//  ^ U001 'workgroupBarrier' must only be called from uniform control flow
    continuing {
      i++;
      break if i > li;
    }
  }
}

// === break if on uniform value is fine
@compute @workgroup_size(64)
fn main() {
  var i = 0u;
  loop {
    workgroupBarrier();
    continuing {
      i++;
      break if i > 8u;
    }
  }
}

// === barrier in continuing after non-uniform continue
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) li: u32) {
  var i = 0u;
  loop {
    if li > 3u {
      continue;
    }
    continuing {
      workgroupBarrier();
//    ^ U001 'workgroupBarrier' must only be called from uniform control flow
      i++;
      break if i > 8u;
    }
  }
}

// === loop-carried variable becomes non-uniform on a later iteration
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) li: u32) {
  var x = 0u;
  for (var i = 0u; i < 4u; i++) {
    if x > 0u {
      workgroupBarrier();
//    ^ U001 'workgroupBarrier' must only be called from uniform control flow
    }
    x = li;
  }
}

// === loop-carried variable stays uniform
@compute @workgroup_size(64)
fn main(@builtin(workgroup_id) wg: vec3u) {
  var x = 0u;
  for (var i = 0u; i < 4u; i++) {
    if x > 0u {
      workgroupBarrier();
    }
    x = x + wg.x;
  }
}

// === barrier after loop with non-uniform break is fine
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) li: u32) {
  for (var i = 0u; i < 4u; i++) {
    if li == i {
      break;
    }
  }
  workgroupBarrier();
}

// === barrier after loop with non-uniform return
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) li: u32) {
  for (var i = 0u; i < 4u; i++) {
    if li == i {
      return;
    }
  }
  workgroupBarrier();
//^ U001 'workgroupBarrier' must only be called from uniform control flow
}

// === variable assigned in loop under non-uniform break, used after loop
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) li: u32) {
  var found = 0u;
  for (var i = 0u; i < 4u; i++) {
    if li == i {
      break;
    }
    found = i;
  }
  if found > 2u {
    workgroupBarrier();
//  ^ U001 'workgroupBarrier' must only be called from uniform control flow
  }
}

// === nested loops with non-uniform inner bound
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_id) lid: vec3u) {
  for (var i = 0u; i < 4u; i++) {
    for (var j = 0u; j < lid.x; j++) {
      workgroupBarrier();
//    ^ U001 'workgroupBarrier' must only be called from uniform control flow
    }
  }
}

// === barrier in outer loop after inner loop with non-uniform break is fine
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_id) lid: vec3u) {
  for (var i = 0u; i < 4u; i++) {
    for (var j = 0u; j < 4u; j++) {
      if j == lid.x {
        break;
      }
    }
    workgroupBarrier();
  }
}

// === for update from non-uniform value
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) li: u32) {
  for (var i = 0u; i < 64u; i += li + 1u) {
    workgroupBarrier();
//  ^ U001 'workgroupBarrier' must only be called from uniform control flow
  }
}

// === for initializer from non-uniform value
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) li: u32) {
  for (var i = li; i < 64u; i++) {
    storageBarrier();
//  ^ U001 'storageBarrier' must only be called from uniform control flow
  }
}

// === matrix accumulate in loop with uniform bound is fine
enable chromium_experimental_subgroup_matrix;
@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage, read_write> c: array<f32>;
@compute @workgroup_size(32)
fn main(@builtin(workgroup_id) wg: vec3u) {
  var acc = subgroup_matrix_result<f32, 8, 8>();
  for (var k = 0u; k < 64u; k += 8u) {
    let l = subgroupMatrixLoad<subgroup_matrix_left<f32, 8, 8>, row_major>(&a, wg.x * 512u + k, 64u);
    let r = subgroupMatrixLoad<subgroup_matrix_right<f32, 8, 8>, row_major>(&a, k * 64u, 64u);
    acc = subgroupMatrixMultiplyAccumulate(l, r, acc);
  }
  subgroupMatrixStore<row_major>(&c, wg.x * 64u, acc, 8u);
}

// === matrix load in loop with non-uniform bound
enable chromium_experimental_subgroup_matrix;
@group(0) @binding(0) var<storage, read_write> a: array<f32>;
@compute @workgroup_size(32)
fn main(@builtin(local_invocation_index) li: u32) {
  for (var k = 0u; k < li; k++) {
    let l = subgroupMatrixLoad<subgroup_matrix_left<f32, 8, 8>, row_major>(&a, 0u, 8u);
//          ^ U001 'subgroupMatrixLoad' must only be called from subgroup uniform control flow
  }
}

// === loop counter offset depends on non-uniform value
enable chromium_experimental_subgroup_matrix;
@group(0) @binding(0) var<storage, read_write> a: array<f32>;
@compute @workgroup_size(32)
fn main(@builtin(local_invocation_index) li: u32) {
  var offset = 0u;
  for (var k = 0u; k < 4u; k++) {
    let l = subgroupMatrixLoad<subgroup_matrix_left<f32, 8, 8>, row_major>(&a, offset, 8u);
//                                                                             ^ U001 'subgroupMatrixLoad' requires argument 1 to be uniform
    offset = li * k;
  }
}

// === loop statement with non-uniform break then barrier after loop is fine
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) li: u32) {
  loop {
    if li > 2u {
      break;
    }
    break;
  }
  workgroupBarrier();
}

// === while with non-uniform continue
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) li: u32) {
  var i = 0u;
  while i < 8u {
    i++;
    if (li & 1u) == 0u {
      continue;
    }
    storageBarrier();
//  ^ U001 'storageBarrier' must only be called from uniform control flow
  }
}

// === switch inside loop, break leaves switch only
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) li: u32) {
  for (var i = 0u; i < 4u; i++) {
    switch li {
      case 0u: {
        break;
      }
      default: {
      }
    }
    workgroupBarrier();
  }
}

// === switch inside loop, continue in non-uniform case
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) li: u32) {
  for (var i = 0u; i < 4u; i++) {
    switch li {
      case 0u: {
        continue;
      }
      default: {
      }
    }
    workgroupBarrier();
//  ^ U001 'workgroupBarrier' must only be called from uniform control flow
  }
}
