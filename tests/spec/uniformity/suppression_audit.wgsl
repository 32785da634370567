// The suppression audit. A001: a diagnostic filter of a coop rule, or of a
// Tint uniformity rule coop-lint models, that decides the severity of no
// finding. A002: a filter that switches Tint's uniformity check off over a
// call whose lanes really diverge within a subgroup (U002 beside it).

// === a coop suppression left behind after the fix
diagnostic(off, coop.deprecated_builtin);
//              ^ A001 this suppression of 'coop.deprecated_builtin' applies to no finding
enable chromium_experimental_subgroup_matrix;
@group(0) @binding(0) var<storage, read_write> buf: array<f32>;
@compute @workgroup_size(32)
fn main() {
  let m = subgroupMatrixLoad<subgroup_matrix_left<f32, 8, 8>, row_major>(&buf, 0u, 8u);
}

// === a coop suppression that still suppresses is not reported
diagnostic(off, coop.deprecated_builtin);
enable chromium_experimental_subgroup_matrix;
@group(0) @binding(0) var<storage, read_write> buf: array<f32>;
@compute @workgroup_size(32)
fn main() {
  let m = subgroupMatrixLoad<subgroup_matrix_left<f32, 8, 8>>(&buf, 0u, false, 8u);
}

// === an attribute on a function with nothing to suppress
enable chromium_experimental_subgroup_matrix;
@group(0) @binding(0) var<storage, read_write> buf: array<f32>;
@diagnostic(off, chromium.subgroup_matrix_uniformity)
//               ^ A001 this suppression of 'chromium.subgroup_matrix_uniformity' applies to no finding
@compute @workgroup_size(32)
fn main(@builtin(workgroup_id) wg: vec3<u32>) {
  if wg.x < 4u {
    let m = subgroupMatrixLoad<subgroup_matrix_left<f32, 8, 8>, row_major>(&buf, 0u, 8u);
  }
}

// === a Tint rule only Tint checks is not audited
diagnostic(off, chromium.unreachable_code);
@compute @workgroup_size(1)
fn main() {}

// === the configuration rules are audited only with targets
diagnostic(off, coop.unsupported_matrix_config);
@compute @workgroup_size(1)
fn main() {}

// === a subgroup-uniform branch needs the suppression: not reported
enable subgroups;
enable chromium_experimental_subgroup_matrix;
@group(0) @binding(0) var<storage, read_write> buf: array<f32>;
@compute @workgroup_size(32)
fn main(@builtin(local_invocation_index) li: u32) {
  @diagnostic(off, chromium.subgroup_matrix_uniformity)
  if subgroupBroadcastFirst(li) < 64u {
    let m = subgroupMatrixLoad<subgroup_matrix_left<f32, 8, 8>, row_major>(&buf, 0u, 8u);
  }
}

// === a blanket suppression over a really divergent branch
enable subgroups;
enable chromium_experimental_subgroup_matrix;
diagnostic(off, subgroup_uniformity);
//              ^ A002 'diagnostic(off, subgroup_uniformity)' hides real divergence: 'subgroupAdd' on line 11
diagnostic(off, chromium.subgroup_matrix_uniformity);
//              ^ A002 'diagnostic(off, chromium.subgroup_matrix_uniformity)' hides real divergence: 'subgroupMatrixLoad' on line 13
@group(0) @binding(0) var<storage, read_write> buf: array<f32>;
@compute @workgroup_size(32)
fn main(@builtin(subgroup_invocation_id) lane: u32) {
  if lane % 2u == 0u {
    let s = subgroupAdd(1.0);
//          ^ U002 'subgroupAdd' is called where lanes of one subgroup diverge
    let m = subgroupMatrixLoad<subgroup_matrix_left<f32, 8, 8>, row_major>(&buf, 0u, 8u);
//          ^ U002 'subgroupMatrixLoad' is called where lanes of one subgroup diverge
  }
}
// tint: differs -- Tint's check is switched off; the lanes of one subgroup still take different sides of 'lane % 2u == 0u'
