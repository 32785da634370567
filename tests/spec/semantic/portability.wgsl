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

// === an unknown builtin is reported once
fn f(x: f32) -> f32 {
  let y = fancyMath(x);
//        ^ T001 'fancyMath'
  var z = y * 2.0;
  z += vec4(1.0).x;
  return z + y;
}
// tint: unresolved call target 'fancyMath'
