// Attributes where they belong, once each, with values in range.

// === attributes in their places
struct Uniforms {
  @align(16) scale: f32,
  @size(16) offset: f32,
}
@group(0) @binding(0) var<uniform> u: Uniforms;
@id(7) override tile: u32 = 16u;
@must_use fn twice(x: f32) -> f32 { return 2.0 * x; }
@compute @workgroup_size(tile) fn main() {
  _ = twice(u.scale + u.offset);
}

// === workgroup_size on a fragment shader
@fragment @workgroup_size(1) fn fs() -> @location(0) vec4f {
//        ^ T023 '@workgroup_size' is only valid for compute shaders
  return vec4f(0.0);
}

// === location on a helper's parameter
fn shade(@location(0) x: f32) -> f32 {
//       ^ T023 '@location' is not valid for non-entry point function parameters
  return x;
}

// === builtin on a helper's parameter
fn shade(@builtin(position) p: vec4f) -> f32 {
//       ^ T023 '@builtin' is not valid for non-entry point function parameters
  return p.x;
}

// === group on a function
@group(0) fn f() {}
//<- T023 '@group' is not valid for functions

// === must_use on a function without a result
@must_use fn f() {}
//<- T023 '@must_use' can only be applied to functions that return a value

// === the same attribute twice
@compute @compute @workgroup_size(1) fn main() {}
//       ^ T023 duplicate '@compute'

// === two shader stages on one function
@compute @vertex @workgroup_size(1) fn main() {}
//       ^ T023 one shader stage only

// === a negative location
@fragment fn fs(@location(-1) x: f32) -> @location(0) vec4f {
//                        ^ T023 '@location' value must be non-negative
  return vec4f(x);
}

// === a negative binding
@group(0) @binding(-1) var<uniform> u: f32;
//                 ^ T023 '@binding' value must be non-negative

// === two overrides with one id
@id(1) override a: i32;
@id(1) override b: i32;
//<- T023 '@id' values must be unique

// === an override id past 65535
@id(65536) override a: i32;
//  ^ T023 between 0 and 65535

// === an alignment that is not a power of two
struct S {
  @align(3) a: f32,
//       ^ T023 power of two
}

// === a size smaller than the member
struct S {
  @size(2) a: f32,
//      ^ T023 at least the size of 'f32' (4 bytes)
}

// === flat interpolation with center sampling
@fragment fn fs(@location(0) @interpolate(flat, center) x: f32) -> @location(0) vec4f {
//                                              ^ T020 flat interpolation can only use 'first' and 'either'
  return vec4f(x);
}

// === linear interpolation of an integer
@fragment fn fs(@location(0) @interpolate(linear) x: i32) -> @location(0) vec4f {
//                                        ^ T020 interpolation type must be 'flat' for integral user-defined IO types
  return vec4f(f32(x));
}

// === perspective interpolation with either sampling
@fragment fn fs(@location(0) @interpolate(perspective, either) x: f32) -> @location(0) vec4f {
//                                                     ^ T020 can only be used with flat interpolation
  return vec4f(x);
}

// === flat interpolation with first sampling
@fragment fn fs(@location(0) @interpolate(flat, first) x: u32) -> @location(0) vec4f {
  return vec4f(f32(x));
}

// === overrides with distinct ids and one without
@id(0) override width: u32 = 64u;
@id(1) override height: u32 = 64u;
override depth: u32 = 1u;
@compute @workgroup_size(width / 8u, height / 8u, depth) fn main() {}

// === bindings from named constants
const SCENE = 0;
const MATERIALS = 1;
@group(SCENE) @binding(0) var<uniform> time: f32;
@group(MATERIALS) @binding(0) var albedo: texture_2d<f32>;
@group(MATERIALS) @binding(1) var linear_sampler: sampler;
@fragment fn fs(@location(0) uv: vec2f) -> @location(0) vec4f {
  return textureSample(albedo, linear_sampler, uv) * time;
}

// === explicit layout of a uniform block
struct Light {
  @align(16) position: vec3f,
  @size(16) intensity: f32,
  @align(16) @size(32) color: vec3f,
}
@group(0) @binding(0) var<uniform> light: Light;
@compute @workgroup_size(1) fn main() { _ = light.intensity; }

// === must_use on a helper whose result is used
@must_use fn area(w: f32, h: f32) -> f32 { return w * h; }
@compute @workgroup_size(1) fn main() {
  let a = area(2.0, 3.0);
  _ = a;
}

// === diagnostic attributes on a function and a statement
@diagnostic(off, derivative_uniformity)
//               ^ A001 this suppression of 'derivative_uniformity' applies to no finding
@fragment fn fs(@location(0) x: f32) -> @location(0) vec4f {
  var y = 0.0;
  @diagnostic(off, derivative_uniformity) if x > 0.5 { y = dpdx(x); }
//^ T013 '@diagnostic' on a statement
  return vec4f(y);
}

// === every interpolation that a float takes
struct Varyings {
  @builtin(position) p: vec4f,
  @location(0) @interpolate(perspective) a: f32,
  @location(1) @interpolate(perspective, centroid) b: f32,
  @location(2) @interpolate(linear, sample) c: f32,
  @location(3) @interpolate(flat, either) d: f32,
}
@vertex fn vs() -> Varyings { return Varyings(vec4f(0.0, 0.0, 0.0, 1.0), 1.0, 2.0, 3.0, 4.0); }

// === invariant position in a vertex output struct
struct Out {
  @invariant @builtin(position) p: vec4f,
}
@vertex fn vs() -> Out { return Out(vec4f(0.0, 0.0, 0.0, 1.0)); }

// === a float where an attribute takes an integer
@fragment
fn main(@location(0f) color: vec4<f32>) -> @location(0) vec4<f32> {
//                ^ T023 '@location' must be an 'i32' or 'u32' value, not the float '0f'
  return color;
}

// === a float constant as a binding
const SLOT = 1.0;
@group(0) @binding(SLOT) var<storage, read> data: array<f32>;
//                 ^ T023 '@binding' must be an 'i32' or 'u32' value, not 'SLOT' of type 'abstract-float'
@compute @workgroup_size(1)
fn main() {
  _ = data[0];
}
