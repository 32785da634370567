// Dual-source blending (`@blend_src`) and the multiview builtin
// (`@builtin(view_index)`). The Tint of the tests runs on a device with the
// dual-source-blending feature; D003 notes name the known targets without it.

// === two blend sources at location 0
enable dual_source_blending;
//     ^ D003 [info] 'dual-source-blending'
struct FragmentOut {
  @location(0) @blend_src(0) color: vec4f,
  @location(0) @blend_src(1) blend: vec4f,
}
@fragment fn fs() -> FragmentOut {
  return FragmentOut(vec4f(1.0), vec4f(0.5));
}

// === @blend_src without its extension
struct FragmentOut {
  @location(0) @blend_src(0) color: vec4f,
//              ^ T007 'enable dual_source_blending;'
  @location(0) @blend_src(1) blend: vec4f,
}
@fragment fn fs() -> FragmentOut {
  return FragmentOut(vec4f(1.0), vec4f(0.5));
}

// === only one blend source
enable dual_source_blending;
//     ^ D003 [info] 'dual-source-blending'
struct FragmentOut {
  @location(0) @blend_src(0) color: vec4f,
//              ^ T020 '@blend_src(1)' is missing
}

// === a blend source at location 1
enable dual_source_blending;
//     ^ D003 [info] 'dual-source-blending'
struct FragmentOut {
  @location(1) @blend_src(0) color: vec4f,
//              ^ T020 can only be used with '@location(0)'
  @location(1) @blend_src(1) blend: vec4f,
}

// === a blend source without a location
enable dual_source_blending;
//     ^ D003 [info] 'dual-source-blending'
struct FragmentOut {
  @location(0) @blend_src(0) color: vec4f,
  @blend_src(1) blend: vec4f,
// ^ T020 can only be used with '@location(0)'
}

// === a blend source numbered 2
enable dual_source_blending;
//     ^ D003 [info] 'dual-source-blending'
struct FragmentOut {
  @location(0) @blend_src(0) color: vec4f,
  @location(0) @blend_src(2) blend: vec4f,
//                        ^ T020 must be zero or one
}

// === blend sources of different types
enable dual_source_blending;
//     ^ D003 [info] 'dual-source-blending'
struct FragmentOut {
  @location(0) @blend_src(0) color: vec4f,
  @location(0) @blend_src(1) blend: vec4i,
//              ^ T020 must have the same type
}

// === another color output beside the blend sources
enable dual_source_blending;
//     ^ D003 [info] 'dual-source-blending'
struct FragmentOut {
  @location(0) @blend_src(0) color: vec4f,
  @location(0) @blend_src(1) blend: vec4f,
  @location(1) extra: vec4f,
//^ T020 without '@blend_src'
}

// === @blend_src on a return value
enable dual_source_blending;
//     ^ D003 [info] 'dual-source-blending'
@fragment fn fs() -> @location(0) @blend_src(0) vec4f {
//                                 ^ T020 not a function's return value
  return vec4f(1.0);
}

// === blend sources as a fragment input
enable dual_source_blending;
//     ^ D003 [info] 'dual-source-blending'
struct Blended {
  @location(0) @blend_src(0) color: vec4f,
//              ^ T020 not an input
  @location(0) @blend_src(1) blend: vec4f,
}
@fragment fn fs(in: Blended) -> @location(0) vec4f {
  return in.color;
}

// === view_index for Tint needs view_instancing
enable chromium_experimental_subgroup_matrix;
@fragment fn fs(@builtin(view_index) view: u32) -> @location(0) vec4f {
//                       ^ T007 'enable view_instancing;'
  return vec4f(f32(view));
}

// === view_index with view_instancing
enable view_instancing;
@fragment fn fs(@builtin(view_index) view: u32) -> @location(0) vec4f {
  return vec4f(f32(view));
}
// tint: skip -- no Dawn device offers view_instancing yet, so Tint's verdict is about the environment
