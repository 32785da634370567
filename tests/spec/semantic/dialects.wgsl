// Dialects: which enable the module has decides which matrix types and
// builtins exist; mixing them is an error, missing enables are errors, and
// what one compiler rejects but another accepts is a portability warning.

// === naga types in a Tint module
enable chromium_experimental_subgroup_matrix;
fn f() {
  var m = coop_mat8x8<f32, A>();
//        ^ T011 'coop_mat8x8'
}
// tint: unresolved type 'coop_mat8x8'

// === Tint types in a naga module
enable wgpu_cooperative_matrix;
fn f() {
  var m: subgroup_matrix_left<f32, 8, 8>;
//       ^ T011 'subgroup_matrix_left'
}
// tint: skip -- wgpu dialect
// naga: no definition in scope for identifier: `subgroup_matrix_left`

// === both enables in one module
enable wgpu_cooperative_matrix;
enable chromium_experimental_subgroup_matrix;
//     ^ T011 'chromium_experimental_subgroup_matrix'
// tint: skip -- wgpu dialect named; Tint reports 'wgpu_cooperative_matrix' as an unknown extension on line 1
// naga: compare -- naga: unknown enable-extension `chromium_experimental_subgroup_matrix`

// === Tint's extension is unknown to naga
enable chromium_experimental_subgroup_matrix;
fn f() {}
// tint: accepted

// === Tint builtins in a naga module
enable wgpu_cooperative_matrix;
fn f() {
  let m = subgroup_matrix_result<f32, 8, 8>();
//        ^ T011 'subgroup_matrix_result'
}
// tint: skip -- wgpu dialect

// === naga builtins in a Tint module
enable chromium_experimental_subgroup_matrix;
@group(0) @binding(0) var<storage, read> a: array<f32>;
fn f() {
  let m = coopLoad<subgroup_matrix_left<f32, 8, 8>>(&a[0], 8u);
//        ^ T011 'coopLoad'
}

// === matrix types with no enable at all
fn f() {
  var m: subgroup_matrix_left<f32, 8, 8>;
//       ^ T007 'chromium_experimental_subgroup_matrix'
}

// === enable subgroups in the wgpu dialect
enable subgroups;
//     ^ T013 'subgroups'
enable wgpu_cooperative_matrix;
fn f() {}
// tint: skip -- wgpu dialect
// naga: differs -- naga 29 rejects 'enable subgroups;' (not yet implemented); we warn, since wgpu's own subgroup builtins need no enable

// === enable subgroups in the chromium dialect
enable subgroups;
enable chromium_experimental_subgroup_matrix;
fn f() {}

// === f16 needs its enable in the chromium dialect
enable chromium_experimental_subgroup_matrix;
fn f() {
  let h = subgroup_matrix_result<f16, 8, 8>();
//                               ^ T007 'f16'
}

// === f16 needs its enable in the wgpu dialect
enable wgpu_cooperative_matrix;
fn f() {
  let h = coop_mat8x8<f16, C>();
//                    ^ T007 'f16'
}
// tint: skip -- wgpu dialect

// === f16 needs its enable in plain WGSL too
fn f() -> f32 {
  var x: f16;
//       ^ T007 'f16'
  return 0.0;
}

// === unknown extension
enable cooperative_matrix;
//     ^ T001 'cooperative_matrix'
// tint: expected extension (unknown name)

// === seed's uniformity rule name is silently ignored by Tint
enable chromium_experimental_subgroup_matrix;
diagnostic(off, chromium_experimental.subgroup_matrix_uniformity);
//              ^ U004 chromium.subgroup_matrix_uniformity
fn f() {}

// === Tint's real uniformity rule name
enable chromium_experimental_subgroup_matrix;
diagnostic(off, chromium.subgroup_matrix_uniformity);
//              ^ A001 this suppression of 'chromium.subgroup_matrix_uniformity' applies to n
fn f() {}

// === plain module with no matrix extension
@group(0) @binding(0) var<storage, read_write> data: array<f32>;
@compute @workgroup_size(64) fn main(@builtin(global_invocation_id) id: vec3<u32>) { data[id.x] *= 2.0; }

// === plain module validated by naga too
enable wgpu_cooperative_matrix;
@group(0) @binding(0) var<storage, read_write> data: array<f32>;
@compute @workgroup_size(64) fn main(@builtin(global_invocation_id) id: vec3<u32>) { data[id.x] *= 2.0; }
// tint: skip -- wgpu dialect
