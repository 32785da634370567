// Features only one compiler has: a portability note (T013) when the
// module names no target, an error when its dialect's compiler rejects them.

// === Tint's print builtin
@compute @workgroup_size(1) fn main() {
  print(vec4<f32>(1.0));
//^ T013 'print'
}

// === Tint's untyped buffers
@group(0) @binding(0) var<storage, read_write> raw: buffer<64>;
//                                                  ^ T013 'buffer'
@compute @workgroup_size(1) fn main() {
  let n: u32 = bufferLength(&raw);
//             ^ T013 'bufferLength'
  _ = n;
}

// === naga's push constants
var<push_constant> pc: vec4<f32>;
//  ^ T013 'push_constant'
@fragment fn fs() -> @location(0) vec4<f32> { return pc; }
// tint: differs -- Tint has no push_constant address space; naga accepts it, so we only note it

// === naga's f64
fn f(x: f64) -> f64 { return x * x; }
//      ^ T013 'f64'
// tint: differs -- Tint has no f64; naga accepts it, so we only note it

// === abstract literals with naga's 64-bit scalars (wgpu's atomicOps-int64 test)
fn f(x: u64, y: i64, z: f64) -> f64 {
//      ^ T013 'u64'
//              ^ T013 'i64'
//                      ^ T013 'f64'
  let a = 1 + x;
  let b = y * 2;
  return z + 1.5 + f64(a) + f64(b);
}
// tint: differs -- Tint has no 64-bit scalars; naga converts the abstract literals to them
// naga: compare -- naga accepts it

// === naga's builtins take its 64-bit integers wherever they take i32 and u32
fn f(x: u64, y: i64, b: bool) -> u64 {
//      ^ T013 'u64'
//              ^ T013 'i64'
  let m = max(x, 3) + min(x, x) + clamp(x, 0, 7) + select(x, 1, b) + abs(x);
  let s = sign(y) + abs(vec2(y)).x + select(vec2(y), vec2(y), vec2(b, b)).y + dot(vec2(y), vec2(y));
  let c = countOneBits(x) + reverseBits(x) + extractBits(x, 1u, 2u) + insertBits(x, x, 1u, 2u);
  let l = countLeadingZeros(y) + countTrailingZeros(y) + firstLeadingBit(y) + firstTrailingBit(y);
  let w = bitcast<u64>(y) + bitcast<u64>(s + l);
  return m + c + w;
}
// tint: skip -- Tint has no 64-bit types
// naga: compare -- naga accepts every call

// === naga's builtins take its f64 wherever they take f32
fn f(x: f64, y: f64) -> f64 {
//      ^ T013 'f64'
  let a = sqrt(x) + pow(x, y) + fma(x, y, y) + mix(x, y, 0.5) + clamp(x, 0.0, 1.0) + max(x, 2) + sign(x);
  let v = normalize(vec3(x)) + cross(vec3(x), vec3(y)) + reflect(vec3(x), vec3(y));
  let d = length(v) + distance(x, y) + dot(v, v) + determinant(mat2x2(x, x, y, y)) + ldexp(x, 2);
  return a + d + frexp(x).fract + modf(y).whole + bitcast<f64>(x);
}
// tint: skip -- Tint has no 64-bit types
// naga: compare -- naga accepts every call

// === naga's bit builtins take no f64, its float builtins no 64-bit integer
fn f(x: u64, y: f64) {
//      ^ T013 'u64'
//              ^ T013 'f64'
  let a = countOneBits(y * 2.0);
//        ^ T004 no matching call to 'countOneBits' with arguments (f64)
  let b = sqrt(x + 1);
//        ^ T004 no matching call to 'sqrt' with arguments (u64)
  let c = max(x + 1, 3u);
//        ^ T004 no matching call to 'max' with arguments (u64, u32)
}
// tint: skip -- Tint has no 64-bit types
// naga: compare -- naga rejects each call

// === f64 in a module that targets Tint
enable chromium_experimental_subgroup_matrix;
fn f(x: f64) {}
//      ^ T001 'f64'

// === a binding array with a size
@group(0) @binding(0) var textures: binding_array<texture_2d<f32>, 4>;
@group(0) @binding(1) var samp: sampler;
@fragment fn fs(@location(0) uv: vec2<f32>) -> @location(0) vec4<f32> {
  return textureSample(textures[0], samp, uv);
}

// === a binding array of storage textures (wgpu's partially_bounded_arrays test)
@group(0) @binding(0) var images: binding_array<texture_storage_2d<rgba32float, write>, 1>;
//                                              ^ T013 'binding_array'
@compute @workgroup_size(1) fn main() { textureStore(images[0], vec2i(0), vec4f(1)); }
// tint: differs -- Tint's binding arrays hold sampled textures only; naga accepts storage textures, so we only note it

// === a binding array of sampled textures in a module that targets Tint
enable chromium_experimental_subgroup_matrix;
@group(0) @binding(0) var layers: binding_array<texture_2d<f32>, 2>;
@group(0) @binding(1) var samp: sampler;
@fragment fn fs(@location(0) uv: vec2f) -> @location(0) vec4f {
  return textureSample(layers[1], samp, uv);
}

// === a binding array of cube textures
@group(0) @binding(0) var skies: binding_array<texture_cube<f32>, 3>;
@group(0) @binding(1) var samp: sampler;
@fragment fn fs(@location(0) direction: vec3f) -> @location(0) vec4f {
  return textureSample(skies[2], samp, direction);
}

// === an abstract literal with a u32 still becomes a u32, not a 64-bit scalar
fn f(x: u32) -> u32 {
  let a = 1 + x;
  let b: u32 = a;
  return b;
}

// === a binding array of buffers in a module that targets Tint
enable chromium_experimental_subgroup_matrix;
struct Foo { x: u32 }
@group(0) @binding(0) var<storage, read> buffers: binding_array<Foo, 1>;
//                                                              ^ T001 other than sampled textures
@compute @workgroup_size(1) fn main() { _ = buffers[0].x; }

// === an unknown builtin is reported once
fn f(x: f32) -> f32 {
  let y = fancyMath(x);
//        ^ T001 'fancyMath'
  var z = y * 2.0;
  z += vec4(1.0).x;
  return z + y;
}
// tint: unresolved call target 'fancyMath'

// === naga reads a '(' right after const_assert as brackets around the whole condition
const A: u32 = 2u;
const_assert (A == 2u) && A > 1u;
//           ^ T013 'const_assert'
// naga: differs -- naga 29 stops at the '&&': it wants ';' after the ')'

// === the same inside a function
const A: u32 = 2u;
fn f() {
  const_assert (A + 1u) == 3u;
//             ^ T013 'const_assert'
}
// naga: differs -- naga 29 stops at the '==': it wants ';' after the ')'

// === brackets around the whole condition, or none at the start, suit both compilers
const A: u32 = 2u;
const_assert (A == 2u);
const_assert ((A == 2u) && A > 1u);
const_assert A > 1u && (A == 2u);
fn f() { const_assert (A == 2u); }

// === in the wgpu dialect, where naga is the compiler, it is an error
enable wgpu_cooperative_matrix;
const A: u32 = 2u;
fn f() {
  const_assert (A == 2u) && A > 1u;
//             ^ T001 naga
}
// tint: skip -- wgpu dialect
// naga: compare -- naga rejects it too

// === naga parses '@diagnostic' on functions only, not on statements
@compute @workgroup_size(1) fn main() {
  @diagnostic(off, derivative_uniformity) {
//^ T013 '@diagnostic' on a statement
//                 ^ A001 applies to no finding
  }
}
// naga: differs -- naga 29 says '@diagnostic(…)' attribute(s) not yet implemented

// === on a body, after the statement's keyword
@compute @workgroup_size(1) fn main() {
  for (var i = 0u; i < 4u; i++) @diagnostic(off, derivative_uniformity) { }
//                              ^ T013 '@diagnostic' on a statement
//                                               ^ A001 applies to no finding
}
// naga: differs -- naga 29 says '@diagnostic(…)' attribute(s) not yet implemented

// === on a function it suits both compilers
@diagnostic(off, derivative_uniformity)
//               ^ A001 applies to no finding
fn f() -> f32 { return 1.0; }
@compute @workgroup_size(1) fn main() { _ = f(); }

// === in the wgpu dialect, on a statement it is an error
enable wgpu_cooperative_matrix;
@compute @workgroup_size(1) fn main() {
  @diagnostic(off, derivative_uniformity) if true { }
//^ T001 naga
//                 ^ A001 applies to no finding
}
// tint: skip -- wgpu dialect
// naga: compare -- naga rejects it too

// === a module tied to Tint by its enables never reaches naga: no note
enable chromium_experimental_subgroup_matrix;
const A: u32 = 2u;
const_assert (A == 2u) && A > 1u;
@compute @workgroup_size(1) fn main() {
  @diagnostic(off, derivative_uniformity) { }
//                 ^ A001 applies to no finding
}

// === a module-wide diagnostic directive suits both compilers
diagnostic(off, derivative_uniformity);
@fragment fn fs(@location(0) x: f32) -> @location(0) vec4f {
  var y = 0.0;
  if x > 0.5 { y = dpdx(x); }
  return vec4f(y);
}

// === a diagnostic attribute on the function that needs it suits both compilers
@diagnostic(off, derivative_uniformity)
@fragment fn fs(@location(0) x: f32) -> @location(0) vec4f {
  var y = 0.0;
  if x > 0.5 { y = dpdx(x); }
  return vec4f(y);
}

// === a const_assert whose parenthesis comes later suits both compilers
const A: u32 = 2u;
const_assert A + (1u * 2u) == 4u && (A > 1u);
fn f() { const_assert 2u * (A + 1u) == 6u; }

// === binding_array in the wgpu dialect, as wgpu-native 29 takes it
enable wgpu_cooperative_matrix;
@group(0) @binding(0) var textures: binding_array<texture_2d<f32>, 4>;
@compute @workgroup_size(32) fn main() { let d = textureDimensions(textures[0]); }
// tint: skip -- wgpu dialect
// naga: differs -- naga 30.0.1 (the pinned oracle) wants 'enable wgpu_binding_array;' first; naga 29.0.4, the naga of wgpu-native 29 that runs these kernels, validates it and rejects that enable as unknown, so coop-lint keeps 29's verdict
