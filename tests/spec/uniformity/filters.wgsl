// Diagnostic filters: Tint's rule for matrix builtins is
// chromium.subgroup_matrix_uniformity, for plain subgroup builtins
// subgroup_uniformity; barriers cannot be switched off. Filters apply at
// module scope, on functions, and on statements, loops and loop bodies.
// Unknown names (e.g. chromium_experimental.subgroup_matrix_uniformity from
// older design documents) switch nothing off: U004. Where the condition is
// only subgroup-uniform (a broadcast), switching Tint's rule off is correct;
// where it really diverges within a subgroup, U002 stays.

// === module off with subgroup-uniform condition
diagnostic(off, chromium.subgroup_matrix_uniformity);
enable subgroups;
enable chromium_experimental_subgroup_matrix;
@group(0) @binding(0) var<storage, read_write> buf: array<f32>;
@compute @workgroup_size(32)
fn main(@builtin(local_invocation_index) li: u32) {
  let first = subgroupBroadcastFirst(li);
  if first < 64u {
    let m = subgroupMatrixLoad<subgroup_matrix_left<f32, 8, 8>, row_major>(&buf, first, 8u);
  }
}

// === module off with a really divergent condition
diagnostic(off, chromium.subgroup_matrix_uniformity);
//              ^ A002 'diagnostic(off, chromium.subgroup_matrix_uniformity)' hides real dive
enable chromium_experimental_subgroup_matrix;
@group(0) @binding(0) var<storage, read_write> buf: array<f32>;
@compute @workgroup_size(32)
fn main(@builtin(local_invocation_index) li: u32) {
  if li % 2u == 0u {
    let m = subgroupMatrixLoad<subgroup_matrix_left<f32, 8, 8>, row_major>(&buf, 0u, 8u);
//          ^ U002 'subgroupMatrixLoad'
  }
}
// tint: differs -- neighbouring invocations take different sides of 'li % 2u == 0u', at every subgroup size and mapping; Tint's check is off, ours stays

// === module warning keeps the finding as a warning
diagnostic(warning, chromium.subgroup_matrix_uniformity);
enable subgroups;
enable chromium_experimental_subgroup_matrix;
@group(0) @binding(0) var<storage, read_write> buf: array<f32>;
@compute @workgroup_size(32)
fn main(@builtin(local_invocation_index) li: u32) {
  if subgroupBroadcastFirst(li) < 64u {
    let m = subgroupMatrixLoad<subgroup_matrix_left<f32, 8, 8>, row_major>(&buf, 0u, 8u);
//          ^ U001 'subgroupMatrixLoad' must only be called from subgroup uniform control flow
//          ^ U003 'subgroupMatrixLoad'
  }
}

// === module info keeps the finding as information
diagnostic(info, chromium.subgroup_matrix_uniformity);
enable subgroups;
enable chromium_experimental_subgroup_matrix;
@group(0) @binding(0) var<storage, read_write> buf: array<f32>;
@compute @workgroup_size(32)
fn main(@builtin(local_invocation_index) li: u32) {
  if subgroupBroadcastFirst(li) < 64u {
    let m = subgroupMatrixLoad<subgroup_matrix_left<f32, 8, 8>, row_major>(&buf, 0u, 8u);
//          ^ U001 'subgroupMatrixLoad' must only be called from subgroup uniform control flow
//          ^ U003 'subgroupMatrixLoad'
  }
}

// === function attribute off
enable subgroups;
enable chromium_experimental_subgroup_matrix;
@group(0) @binding(0) var<storage, read_write> buf: array<f32>;
@diagnostic(off, chromium.subgroup_matrix_uniformity)
@compute @workgroup_size(32)
fn main(@builtin(local_invocation_index) li: u32) {
  let base = subgroupBroadcastFirst(li) * 64u;
  let m = subgroupMatrixLoad<subgroup_matrix_left<f32, 8, 8>, row_major>(&buf, base, 8u);
}

// === function attribute off on another function has no effect
enable subgroups;
enable chromium_experimental_subgroup_matrix;
@group(0) @binding(0) var<storage, read_write> buf: array<f32>;
@diagnostic(off, chromium.subgroup_matrix_uniformity)
//               ^ A001 this suppression of 'chromium.subgroup_matrix_uniformity' applies to n
fn other() {}
@compute @workgroup_size(32)
fn main(@builtin(local_invocation_index) li: u32) {
  let base = subgroupBroadcastFirst(li) * 64u;
  let m = subgroupMatrixLoad<subgroup_matrix_left<f32, 8, 8>, row_major>(&buf, base, 8u);
//                                                                             ^ U001 'subgroupMatrixLoad' requires argument 1 to be uniform
//                                                                             ^ U003 'subgroupMatrixLoad'
}

// === caller's function attribute does not reach into the helper
enable subgroups;
enable chromium_experimental_subgroup_matrix;
@group(0) @binding(0) var<storage, read_write> buf: array<f32>;
fn load() -> subgroup_matrix_left<f32, 8, 8> {
  return subgroupMatrixLoad<subgroup_matrix_left<f32, 8, 8>, row_major>(&buf, 0u, 8u);
//       ^ U001 'subgroupMatrixLoad' must only be called from subgroup uniform control flow
//       ^ U003 'subgroupMatrixLoad'
}
@diagnostic(off, chromium.subgroup_matrix_uniformity)
//               ^ A001 this suppression of 'chromium.subgroup_matrix_uniformity' applies to n
@compute @workgroup_size(32)
fn main(@builtin(local_invocation_index) li: u32) {
  if subgroupBroadcastFirst(li) == 0u {
    let m = load();
  }
}

// === if statement attribute off
enable subgroups;
enable chromium_experimental_subgroup_matrix;
@group(0) @binding(0) var<storage, read_write> buf: array<f32>;
@compute @workgroup_size(32)
fn main(@builtin(local_invocation_index) li: u32) {
  @diagnostic(off, chromium.subgroup_matrix_uniformity)
  if subgroupBroadcastFirst(li) == 0u {
    let m = subgroupMatrixLoad<subgroup_matrix_left<f32, 8, 8>, row_major>(&buf, 0u, 8u);
  }
}

// === if statement attribute does not cover a call after the if
enable subgroups;
enable chromium_experimental_subgroup_matrix;
@group(0) @binding(0) var<storage, read_write> buf: array<f32>;
@compute @workgroup_size(32)
fn main(@builtin(local_invocation_index) li: u32) {
  @diagnostic(off, chromium.subgroup_matrix_uniformity)
//                 ^ A001 this suppression of 'chromium.subgroup_matrix_uniformity' applies to n
  if subgroupBroadcastFirst(li) == 0u {
    return;
  }
  let m = subgroupMatrixLoad<subgroup_matrix_left<f32, 8, 8>, row_major>(&buf, 0u, 8u);
//        ^ U001 'subgroupMatrixLoad' must only be called from subgroup uniform control flow
//        ^ U003 'subgroupMatrixLoad'
}

// === for statement attribute off
enable subgroups;
enable chromium_experimental_subgroup_matrix;
@group(0) @binding(0) var<storage, read_write> buf: array<f32>;
@compute @workgroup_size(32)
fn main(@builtin(local_invocation_index) li: u32) {
  let n = subgroupBroadcastFirst(li);
  @diagnostic(off, chromium.subgroup_matrix_uniformity)
  for (var i = 0u; i < n; i++) {
    let m = subgroupMatrixLoad<subgroup_matrix_left<f32, 8, 8>, row_major>(&buf, i * 64u, 8u);
  }
}

// === while statement attribute off
enable subgroups;
enable chromium_experimental_subgroup_matrix;
@group(0) @binding(0) var<storage, read_write> buf: array<f32>;
@compute @workgroup_size(32)
fn main(@builtin(local_invocation_index) li: u32) {
  var i = subgroupBroadcastFirst(li);
  @diagnostic(off, chromium.subgroup_matrix_uniformity)
  while i < 8u {
    let m = subgroupMatrixLoad<subgroup_matrix_left<f32, 8, 8>, row_major>(&buf, 0u, 8u);
    i++;
  }
}

// === loop statement attribute off
enable subgroups;
enable chromium_experimental_subgroup_matrix;
@group(0) @binding(0) var<storage, read_write> buf: array<f32>;
@compute @workgroup_size(32)
fn main(@builtin(local_invocation_index) li: u32) {
  let n = subgroupBroadcastFirst(li);
  var i = 0u;
  @diagnostic(off, chromium.subgroup_matrix_uniformity)
  loop {
    if i >= n { break; }
    let m = subgroupMatrixLoad<subgroup_matrix_left<f32, 8, 8>, row_major>(&buf, 0u, 8u);
    i++;
  }
}

// === loop body attribute off
enable subgroups;
enable chromium_experimental_subgroup_matrix;
@group(0) @binding(0) var<storage, read_write> buf: array<f32>;
@compute @workgroup_size(32)
fn main(@builtin(local_invocation_index) li: u32) {
  let n = subgroupBroadcastFirst(li);
  for (var i = 0u; i < n; i++) @diagnostic(off, chromium.subgroup_matrix_uniformity) {
    let m = subgroupMatrixLoad<subgroup_matrix_left<f32, 8, 8>, row_major>(&buf, 0u, 8u);
  }
}

// === switch statement attribute off
enable subgroups;
enable chromium_experimental_subgroup_matrix;
@group(0) @binding(0) var<storage, read_write> buf: array<f32>;
@compute @workgroup_size(32)
fn main(@builtin(local_invocation_index) li: u32) {
  @diagnostic(off, chromium.subgroup_matrix_uniformity)
  switch subgroupBroadcastFirst(li) {
    case 0u: {
      let m = subgroupMatrixLoad<subgroup_matrix_left<f32, 8, 8>, row_major>(&buf, 0u, 8u);
    }
    default: {}
  }
}

// === compound statement attribute off
enable subgroups;
enable chromium_experimental_subgroup_matrix;
@group(0) @binding(0) var<storage, read_write> buf: array<f32>;
@compute @workgroup_size(32)
fn main(@builtin(local_invocation_index) li: u32) {
  if subgroupBroadcastFirst(li) == 0u {
    @diagnostic(off, chromium.subgroup_matrix_uniformity) {
      let m = subgroupMatrixLoad<subgroup_matrix_left<f32, 8, 8>, row_major>(&buf, 0u, 8u);
    }
  }
}

// === statement attribute error re-enables under module off
diagnostic(off, chromium.subgroup_matrix_uniformity);
//              ^ A001 this suppression of 'chromium.subgroup_matrix_uniformity' applies to n
enable subgroups;
enable chromium_experimental_subgroup_matrix;
@group(0) @binding(0) var<storage, read_write> buf: array<f32>;
@compute @workgroup_size(32)
fn main(@builtin(local_invocation_index) li: u32) {
  @diagnostic(error, chromium.subgroup_matrix_uniformity)
  if subgroupBroadcastFirst(li) == 0u {
    let m = subgroupMatrixLoad<subgroup_matrix_left<f32, 8, 8>, row_major>(&buf, 0u, 8u);
//          ^ U001 'subgroupMatrixLoad' must only be called from subgroup uniform control flow
//          ^ U003 'subgroupMatrixLoad'
  }
}

// === subgroup_uniformity off for plain subgroup builtins
diagnostic(off, subgroup_uniformity);
enable subgroups;
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) li: u32) {
  if subgroupBroadcastFirst(li) > 3u {
    _ = subgroupAdd(1u);
  }
}

// === subgroup_uniformity off with divergent condition
diagnostic(off, subgroup_uniformity);
//              ^ A002 'diagnostic(off, subgroup_uniformity)' hides real divergence: 'subgrou
enable subgroups;
@compute @workgroup_size(64)
fn main(@builtin(subgroup_invocation_id) lane: u32) {
  if lane % 4u > 1u {
    _ = subgroupAdd(1u);
//      ^ U002 'subgroupAdd'
  }
}
// tint: differs -- lanes of one subgroup take different sides of 'lane % 4u > 1u' at every size; Tint's check is off, ours stays

// === subgroup_uniformity does not cover matrix builtins
diagnostic(off, subgroup_uniformity);
//              ^ A001 this suppression of 'subgroup_uniformity' applies to no finding
enable subgroups;
enable chromium_experimental_subgroup_matrix;
@group(0) @binding(0) var<storage, read_write> buf: array<f32>;
@compute @workgroup_size(32)
fn main(@builtin(local_invocation_index) li: u32) {
  if subgroupBroadcastFirst(li) > 3u {
    let m = subgroupMatrixLoad<subgroup_matrix_left<f32, 8, 8>, row_major>(&buf, 0u, 8u);
//          ^ U001 'subgroupMatrixLoad' must only be called from subgroup uniform control flow
//          ^ U003 'subgroupMatrixLoad'
  }
}

// === matrix rule does not cover plain subgroup builtins
diagnostic(off, chromium.subgroup_matrix_uniformity);
//              ^ A001 this suppression of 'chromium.subgroup_matrix_uniformity' applies to n
enable subgroups;
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) li: u32) {
  if subgroupBroadcastFirst(li) > 3u {
    _ = subgroupAdd(1u);
//      ^ U001 'subgroupAdd' must only be called from subgroup uniform control flow
//      ^ U003 'subgroupAdd'
  }
}

// === matrix rule off does not cover barriers
diagnostic(off, chromium.subgroup_matrix_uniformity);
//              ^ A001 this suppression of 'chromium.subgroup_matrix_uniformity' applies to n
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) li: u32) {
  if li > 3u {
    workgroupBarrier();
//  ^ U001 'workgroupBarrier' must only be called from uniform control flow
  }
}

// === derivative_uniformity has no effect on compute barriers
diagnostic(off, derivative_uniformity);
//              ^ A001 this suppression of 'derivative_uniformity' applies to no finding
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) li: u32) {
  if li > 3u {
    workgroupBarrier();
//  ^ U001 'workgroupBarrier' must only be called from uniform control flow
  }
}

// === derivative_uniformity has no effect on matrix builtins
diagnostic(off, derivative_uniformity);
//              ^ A001 this suppression of 'derivative_uniformity' applies to no finding
enable subgroups;
enable chromium_experimental_subgroup_matrix;
@group(0) @binding(0) var<storage, read_write> buf: array<f32>;
@compute @workgroup_size(32)
fn main(@builtin(local_invocation_index) li: u32) {
  if subgroupBroadcastFirst(li) > 3u {
    let m = subgroupMatrixLoad<subgroup_matrix_left<f32, 8, 8>, row_major>(&buf, 0u, 8u);
//          ^ U001 'subgroupMatrixLoad' must only be called from subgroup uniform control flow
//          ^ U003 'subgroupMatrixLoad'
  }
}

// === seed name is ignored by Tint and the check stays on
diagnostic(off, chromium_experimental.subgroup_matrix_uniformity);
//              ^ U004 chromium.subgroup_matrix_uniformity
enable chromium_experimental_subgroup_matrix;
@group(0) @binding(0) var<storage, read_write> buf: array<f32>;
@compute @workgroup_size(32)
fn main(@builtin(local_invocation_index) li: u32) {
  if li < 16u {
    let m = subgroupMatrixLoad<subgroup_matrix_left<f32, 8, 8>, row_major>(&buf, 0u, 8u);
//          ^ U001 'subgroupMatrixLoad' must only be called from subgroup uniform control flow
  }
}

// === seed name on a function attribute
enable chromium_experimental_subgroup_matrix;
@group(0) @binding(0) var<storage, read_write> buf: array<f32>;
@diagnostic(off, chromium_experimental.subgroup_matrix_uniformity)
//               ^ U004 chromium.subgroup_matrix_uniformity
@compute @workgroup_size(32)
fn main(@builtin(local_invocation_index) li: u32) {
  let m = subgroupMatrixLoad<subgroup_matrix_left<f32, 8, 8>, row_major>(&buf, li, 8u);
//                                                                             ^ U001 'subgroupMatrixLoad' requires argument 1 to be uniform
}

// === unknown single-part rule name
diagnostic(off, foo_bar);
//              ^ U004 'foo_bar'
@compute @workgroup_size(64)
fn main() {
  workgroupBarrier();
}

// === unknown chromium rule name
diagnostic(off, chromium.subgroup_uniformity);
//              ^ U004 'chromium.subgroup_uniformity'
@compute @workgroup_size(64)
fn main() {
  workgroupBarrier();
}

// === unknown coop rule name
diagnostic(off, coop.no_such_rule);
//              ^ U004 'coop.no_such_rule'
@compute @workgroup_size(64)
fn main() {
  workgroupBarrier();
}

// === unknown rule name on a statement
@compute @workgroup_size(64)
fn main(@builtin(workgroup_id) wg: vec3u) {
  @diagnostic(off, uniformity)
//^ T013 '@diagnostic' on a statement
//                 ^ U004 'uniformity'
  if wg.x > 0u {
    workgroupBarrier();
  }
}
