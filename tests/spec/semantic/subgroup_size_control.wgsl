// subgroup_size_control: `@subgroup_size(N)` pins the subgroup size of a compute
// entry point, as the pinned Tint validates it (the older
// chromium_experimental_subgroup_size_control spelling is gone from Tint).

// === a compute entry point that pins 32 lanes
enable subgroups;
enable subgroup_size_control;
@compute @workgroup_size(64) @subgroup_size(32)
fn main() {}

// === the size given by a const-expression
enable subgroups;
enable subgroup_size_control;
const LANES = 8u;
@compute @workgroup_size(64) @subgroup_size(LANES * 2u)
fn main() {}

// === a size that is not a power of two
enable subgroups;
enable subgroup_size_control;
@compute @workgroup_size(64) @subgroup_size(24)
//                                          ^ T014 power of 2, not 24 (16 or 32 are)
fn main() {}

// === a size of zero
enable subgroups;
enable subgroup_size_control;
@compute @workgroup_size(64) @subgroup_size(0)
//                                          ^ T014 at least 1
fn main() {}

// === @subgroup_size without the extension
enable subgroups;
@compute @workgroup_size(64) @subgroup_size(32)
//                           ^ T007 add 'enable subgroup_size_control;'
fn main() {}

// === @subgroup_size on a fragment shader
enable subgroups;
enable subgroup_size_control;
@fragment @subgroup_size(32)
//        ^ T003 only valid for compute stages
fn main() -> @location(0) vec4<f32> { return vec4(0.0); }

// === the old extension name is unknown
enable subgroups;
enable chromium_experimental_subgroup_size_control;
//     ^ T001 unknown extension 'chromium_experimental_subgroup_size_control'
@compute @workgroup_size(64)
fn main() {}

// === a binding number given by a const-expression
const BASE = 2u;
@group(0) @binding(BASE + 1) var<storage, read_write> a: array<f32>;
@compute @workgroup_size(64)
fn main() { a[0] = 1.0; }

// === a binding number that is not a const-expression
override BASE = 2u;
@group(0) @binding(BASE + 1) var<storage, read_write> a: array<f32>;
//                 ^ T014 const-expression
@compute @workgroup_size(64)
fn main() { a[0] = 1.0; }
