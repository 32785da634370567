// Tint's errors about entry points and their pipeline stages: builtin values and the extensions they
// need, @location/@color/@blend_src/@interpolate/@invariant, @workgroup_size, the memory a stage may
// use and resource bindings shared by two variables. One case per message id of
// tests/spec/TINT_COVERAGE.json, each the smallest shader on which Tint reports that error first.

// === resolver:location-must-be-an-i32-or-u32
@fragment
fn main(@location(1.0) uv: vec2<f32>) -> @location(0) vec4<f32> { return vec4<f32>(uv, 0.0, 1.0); }
//                ^ T023 '@location' must be an 'i32' or 'u32' value, not the float '

// === resolver:location-value-must-be-non-negative
@fragment
fn main(@location(-1) uv: vec2<f32>) -> @location(0) vec4<f32> { return vec4<f32>(uv, 0.0, 1.0); }
//                ^ T023 '@location' value must be non-negative, not -1

// === resolver:color-must-be-an-i32-or-u32
enable chromium_experimental_framebuffer_fetch;
//     ^ D003 'enable chromium_experimental_framebuffer_fetch;' needs the
@fragment
fn main(@color(0.5) previous: vec4<f32>) -> @location(0) vec4<f32> { return previous; }
//             ^ T023 '@color' must be an 'i32' or 'u32' value, not the float '0.5

// === resolver:color-value-must-be-non-negative
enable chromium_experimental_framebuffer_fetch;
//     ^ D003 'enable chromium_experimental_framebuffer_fetch;' needs the
@fragment
fn main(@color(-1) previous: vec4<f32>) -> @location(0) vec4<f32> { return previous; }
//             ^ T023 '@color' value must be non-negative, not -1

// === resolver:blend_src-value-must-be-i32-or-u32
enable dual_source_blending;
//     ^ D003 'enable dual_source_blending;' needs the device feature 'dua
struct Out {
  @location(0) @blend_src(0.0) color: vec4<f32>,
//                        ^ T023 '@blend_src' must be an 'i32' or 'u32' value, not the float
  @location(0) @blend_src(1) blend: vec4<f32>,
}
@fragment
fn main() -> Out { return Out(vec4<f32>(1.0), vec4<f32>(0.5)); }

// === resolver:blend_src-value-must-be-zero-or-one
enable dual_source_blending;
//     ^ D003 'enable dual_source_blending;' needs the device feature 'dua
struct Out {
  @location(0) @blend_src(0) color: vec4<f32>,
  @location(0) @blend_src(2) blend: vec4<f32>,
//                        ^ T020 '@blend_src' value must be zero or one, not 2
}
@fragment
fn main() -> Out { return Out(vec4<f32>(1.0), vec4<f32>(0.5)); }

// === resolver:workgroup_size-argument-must-be-a-constant-or
@compute @workgroup_size(64.0)
//                       ^ T003 workgroup_size arguments must be i32 or u32 values, not 'abs
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {}

// === resolver:workgroup_size-arguments-must-be-of-the-same
@compute @workgroup_size(64i, 1u)
//                            ^ T003 workgroup_size arguments must be of the same type, either i3
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {}

// === resolver:workgroup_size-argument-must-be-at-least-1
@compute @workgroup_size(0)
//                       ^ T014 workgroup_size must be positive, not 0
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {}

// === validator:store-type-of-builtin-must-be
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) lid: i32) {}
//               ^ T003 the builtin value 'local_invocation_index' has type 'u32', n

// === validator:use-of-builtin-attribute-requires-enabling-extension
@compute @workgroup_size(64)
fn main(@builtin(subgroup_size) size: u32) {}
//               ^ T007 the builtin value 'subgroup_size' requires the extension 'su

// === validator:use-of-builtin-requires-enabling-extension-clip_distances
struct VOut {
  @builtin(position) position: vec4<f32>,
  @builtin(clip_distances) clip: array<f32, 2>,
//         ^ T007 the builtin value 'clip_distances' requires the extension 'c
}
@vertex
fn main() -> VOut { return VOut(vec4<f32>(0.0), array<f32, 2>(0.0, 1.0)); }

// === validator:use-of-builtin-requires-enabling-extension-primitive_index
@fragment
fn main(@builtin(primitive_index) prim: u32) -> @location(0) vec4<f32> { return vec4<f32>(f32(prim)); }
//               ^ T007 the builtin value 'primitive_index' requires the extension '

// === validator:cannot-be-used-by-compute-shaders
@compute @workgroup_size(64)
fn main(@location(0) value: f32) {}
//      ^ T020 '@location' cannot be used by compute shaders: their only in

// === validator:interpolation-type-must-be-flat-for-integral
@fragment
fn main(@location(0) @interpolate(linear) id: u32) -> @location(0) vec4<f32> { return vec4<f32>(f32(id)); }
//                                ^ T020 interpolation type must be 'flat' for integral user-defined

// === validator:flat-interpolation-can-only-use-first-and
@fragment
fn main(@location(0) @interpolate(flat, center) id: u32) -> @location(0) vec4<f32> { return vec4<f32>(f32(id)); }
//                                      ^ T020 flat interpolation can only use 'first' and 'either' samplin

// === validator:first-and-either-sampling-parameters-can-only
@fragment
fn main(@location(0) @interpolate(perspective, first) v: f32) -> @location(0) vec4<f32> { return vec4<f32>(v); }
//                                             ^ T020 'first' sampling can only be used with flat interpolation

// === validator:workgroup_size-is-only-valid-for-compute-stages
@fragment @workgroup_size(64)
//        ^ T023 '@workgroup_size' is only valid for compute shaders
fn main() -> @location(0) vec4<f32> { return vec4<f32>(1.0); }

// === validator:builtin-appears-multiple-times-as-pipeline
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) a: u32, @builtin(local_invocation_index) b: u32) {}
//                                                                                ^ T020 '@builtin(local_invocation_index)' appears multiple times as

// === validator:nested-structures-cannot-be-used-for-entry
struct Inner { @location(0) v: f32 }
struct In { inner: Inner }
//          ^ T020 nested structures cannot be used for entry point IO
@fragment
fn main(input: In) -> @location(0) vec4<f32> { return vec4<f32>(1.0); }

// === validator:location
@fragment
fn main(@location(0) a: f32, @location(0) b: f32) -> @location(0) vec4<f32> { return vec4<f32>(a + b); }
//                           ^ T020 '@location(0)' appears multiple times

// === validator:interpolate-can-only-be-used-with-location
@fragment
fn main(@builtin(position) @interpolate(flat) pos: vec4<f32>) -> @location(0) vec4<f32> { return pos; }
//                         ^ T020 '@interpolate' can only be used with '@location'

// === validator:invariant-must-be-applied-to-a-builtin
@vertex
fn main() -> @location(0) @invariant vec4<f32> { return vec4<f32>(1.0); }
//                        ^ T020 '@invariant' must be applied to a '@builtin(position)'

// === validator:a-vertex-shader-must-include-the-position
@vertex
fn main() -> @location(0) vec4<f32> { return vec4<f32>(1.0); }
// ^ T020 a vertex shader must include the 'position' builtin in its r

// === validator:a-compute-shader-must-include-workgroup_size-in
@compute
fn main() {}
// ^ T020 a compute shader must include '@workgroup_size' in its attri

// === validator:entry-point-references-multiple-variables-that-use
@group(0) @binding(0) var<storage, read_write> a: array<f32>;
@group(0) @binding(0) var<storage, read_write> b: array<f32>;
//                                             ^ T017 entry point 'main' uses both 'a' and 'b', which share '@grou
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) { a[gid.x] = b[gid.x]; }

// === validator:entry-point-functions-cannot-be-the-target
@compute @workgroup_size(64)
fn main() {}
@compute @workgroup_size(64)
fn other() { main(); }
//           ^ T003 'main' is an entry point; entry points cannot be called (mov

// === validator:var-with-address-space-cannot-be-used
var<workgroup> tile: array<f32, 64>;
@fragment
fn main() -> @location(0) vec4<f32> { return vec4<f32>(tile[0]); }
//                                                     ^ T003 'tile' is a 'workgroup' variable; workgroup memory exists on

// === validator:storage-texture-with-access-mode-cannot-be
@group(0) @binding(0) var out_tex: texture_storage_2d<rgba8unorm, write>;
@vertex
fn main() -> @builtin(position) vec4<f32> { textureStore(out_tex, vec2<i32>(0, 0), vec4<f32>(1.0)); return vec4<f32>(0.0); }
//                                                       ^ T003 'out_tex' is a writable storage texture; a vertex shader can

// === validator:discard-statement-cannot-be-used-in-pipeline
@compute @workgroup_size(64)
fn main() { discard; }
//          ^ T021 'discard' cannot be used in a compute shader

// === validator:blend_src-can-only-be-used-with-location
enable dual_source_blending;
//     ^ D003 'enable dual_source_blending;' needs the device feature 'dua
struct Out {
  @builtin(frag_depth) @blend_src(0) depth: f32,
//                      ^ T020 '@blend_src' can only be used with '@location(0)': both sour
}
@fragment
fn main() -> Out { return Out(1.0); }

// === validator:all-the-outputs-with-blend_src-must-have
enable dual_source_blending;
//     ^ D003 'enable dual_source_blending;' needs the device feature 'dua
struct Out {
  @location(0) @blend_src(0) color: vec4<f32>,
  @location(0) @blend_src(1) blend: vec3<f32>,
//              ^ T020 both outputs with '@blend_src' must have the same type; this
}
@fragment
fn main() -> Out { return Out(vec4<f32>(1.0), vec3<f32>(0.5)); }

// === validator:blend_src-and-location-are-used-on-one
enable dual_source_blending;
//     ^ D003 'enable dual_source_blending;' needs the device feature 'dua
struct Out {
  @location(0) @blend_src(0) color: vec4<f32>,
  @location(0) @blend_src(1) blend: vec4<f32>,
  @location(1) extra: vec4<f32>,
//^ T020 '@blend_src' and '@location' are used on one member while th
}
@fragment
fn main() -> Out { return Out(vec4<f32>(1.0), vec4<f32>(0.5), vec4<f32>(0.0)); }

// === validator:blend_src-is-missing-when-blend_src-is-used
enable dual_source_blending;
//     ^ D003 'enable dual_source_blending;' needs the device feature 'dua
struct Out {
  @location(0) @blend_src(0) color: vec4<f32>,
//              ^ T020 '@blend_src(1)' is missing when '@blend_src' is used: dual-s
}
@fragment
fn main() -> Out { return Out(vec4<f32>(1.0)); }

// === validator:cannot-apply-location-to-declaration-of-type
@fragment
fn main(@location(0) flag: bool) -> @location(0) vec4<f32> { return vec4<f32>(1.0); }
//                   ^ T020 cannot apply '@location' to declaration of type 'bool': loca

// === validator:use-of-blend_src-requires-enabling-extension-dual_source_blending
struct Out {
  @location(0) @blend_src(0) color: vec4<f32>,
//              ^ T007 '@blend_src' requires the extension 'dual_source_blending':
  @location(0) @blend_src(1) blend: vec4<f32>,
}
@fragment
fn main() -> Out { return Out(vec4<f32>(1.0), vec4<f32>(0.5)); }

// === validator:can-only-be-used-for-fragment-shader
enable dual_source_blending;
//     ^ D003 'enable dual_source_blending;' needs the device feature 'dua
struct VOut {
  @builtin(position) position: vec4<f32>,
  @location(0) @blend_src(0) color: vec4<f32>,
//              ^ T020 '@blend_src' can only be used on the members of a fragment s
  @location(0) @blend_src(1) blend: vec4<f32>,
}
@vertex
fn main() -> VOut { return VOut(vec4<f32>(0.0), vec4<f32>(1.0), vec4<f32>(0.5)); }

// === validator:builtin-is-only-valid-as-a-compute
enable subgroups;
@fragment
fn main(@builtin(subgroup_id) sg: u32) -> @location(0) vec4<f32> { return vec4<f32>(f32(sg)); }
//      ^ T020 '@builtin(subgroup_id)' cannot be used for fragment shader i

// === validator:store-type-of-builtin-must-be-array
enable clip_distances;
//     ^ D003 'enable clip_distances;' needs the device feature 'clip-dist
struct VOut {
  @builtin(position) position: vec4<f32>,
  @builtin(clip_distances) clip: array<f32, 9>,
//         ^ T003 the builtin value 'clip_distances' is an 'array<f32, N>' wit
}
@vertex
fn main() -> VOut { return VOut(vec4<f32>(0.0), array<f32, 9>()); }

// === validator:builtin-cannot-be-used-for-shader
@fragment
fn main(@builtin(global_invocation_id) gid: vec3<u32>) -> @location(0) vec4<f32> { return vec4<f32>(1.0); }
//      ^ T020 '@builtin(global_invocation_id)' cannot be used for fragment

// === validator:integral-user-defined-vertex-outputs-must-have
enable chromium_experimental_subgroup_matrix;
struct VOut {
  @builtin(position) position: vec4<f32>,
  @location(0) id: u32,
//             ^ T003 integral user-defined vertex outputs must have a '@interpola
}
@vertex
fn main(@builtin(vertex_index) vi: u32) -> VOut { return VOut(vec4<f32>(0.0), vi); }

// === validator:integral-user-defined-fragment-inputs-must-have
enable chromium_experimental_subgroup_matrix;
@fragment
fn main(@location(0) id: u32) -> @location(0) vec4<f32> { return vec4<f32>(f32(id)); }
//                   ^ T003 integral user-defined fragment inputs must have a '@interpol

// === validator:color-appears-multiple-times
enable chromium_experimental_framebuffer_fetch;
//     ^ D003 'enable chromium_experimental_framebuffer_fetch;' needs the
@fragment
fn main(@color(0) a: vec4<f32>, @color(0) b: vec4<f32>) -> @location(0) vec4<f32> { return a + b; }
//                              ^ T020 '@color(0)' appears multiple times

// === validator:use-of-color-requires-enabling-extension-chromium_experimental_framebuffer_fetch
@fragment
fn main(@color(0) previous: vec4<f32>) -> @location(0) vec4<f32> { return previous; }
//      ^ T007 '@color' requires the extension 'chromium_experimental_frame

// === validator:color-can-only-be-used-for-fragment
enable chromium_experimental_framebuffer_fetch;
//     ^ D003 'enable chromium_experimental_framebuffer_fetch;' needs the
@vertex
fn main(@color(0) previous: vec4<f32>) -> @builtin(position) vec4<f32> { return previous; }
//      ^ T020 '@color' can only be used for fragment shader input: it read

// === validator:cannot-apply-color-to-declaration-of-type
enable chromium_experimental_framebuffer_fetch;
//     ^ D003 'enable chromium_experimental_framebuffer_fetch;' needs the
@fragment
fn main(@color(0) flag: bool) -> @location(0) vec4<f32> { return vec4<f32>(1.0); }
//                ^ T020 cannot apply '@color' to declaration of type 'bool': a color

// === validator:builtin-is-only-valid-as-a-compute-2
enable subgroups;
@vertex
fn main(@builtin(subgroup_size) size: u32) -> @builtin(position) vec4<f32> { return vec4<f32>(f32(size)); }
//      ^ T020 '@builtin(subgroup_size)' cannot be used for vertex shader i

// === validator:multiple-entry-point-io-attributes
@fragment
fn main(@location(0) @builtin(position) pos: vec4<f32>) -> @location(0) vec4<f32> { return pos; }
//                   ^ T020 '@builtin(position)' is a second entry point IO attribute he

// === validator:entry-point-uses-two-different-variables
var<immediate> scale: f32;
var<immediate> offset: f32;
@compute @workgroup_size(64)
fn main() { let x = scale + offset; }
// ^ T017 entry point 'main' uses two 'immediate' variables, 'scale' a

// === validator:missing-entry-point-io-attribute
struct In {
  @location(0) uv: vec2<f32>,
  shade: f32,
//^ T020 missing entry point IO attribute: add '@location(N)' or '@bu
}
@fragment
fn main(input: In) -> @location(0) vec4<f32> { return vec4<f32>(input.uv, input.shade, 1.0); }

// === validator:invariant-must-be-applied-to-a-position
struct VOut {
  @builtin(position) position: vec4<f32>,
  @location(0) @invariant color: vec4<f32>,
//             ^ T020 '@invariant' must be applied to a '@builtin(position)'
}
@vertex
fn main() -> VOut { return VOut(vec4<f32>(0.0), vec4<f32>(1.0)); }
