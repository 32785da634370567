// Textures and samplers as types, and the texture builtins with their
// overloads: sampled, depth, multisampled, storage and external textures.

// === sampling a 2d texture in a fragment shader
@group(0) @binding(0) var tex: texture_2d<f32>;
@group(0) @binding(1) var samp: sampler;
@fragment fn main(@location(0) uv: vec2<f32>) -> @location(0) vec4<f32> {
  let a = textureSample(tex, samp, uv);
  let b = textureSample(tex, samp, uv, vec2<i32>(1, -1));
  let c = textureSampleBias(tex, samp, uv, 0.5);
  let d = textureSampleLevel(tex, samp, uv, 0.0);
  let e = textureSampleGrad(tex, samp, uv, vec2(0.1), vec2(0.1));
  return a + b + c + d + e;
}

// === loading texels and asking sizes
@group(0) @binding(0) var tex: texture_2d<u32>;
@group(0) @binding(1) var arr: texture_2d_array<i32>;
@group(0) @binding(2) var ms: texture_multisampled_2d<f32>;
@compute @workgroup_size(8, 8) fn main(@builtin(global_invocation_id) id: vec3<u32>) {
  let size: vec2<u32> = textureDimensions(tex);
  let small: vec2<u32> = textureDimensions(tex, 1);
  let t: vec4<u32> = textureLoad(tex, id.xy, 0);
  let u: vec4<i32> = textureLoad(arr, vec2<i32>(id.xy), 2u, 0);
  let v: vec4<f32> = textureLoad(ms, id.xy, 3);
  let n = textureNumLevels(tex) + textureNumLayers(arr) + textureNumSamples(ms);
  _ = size + small + t.xy + vec2<u32>(u.xy) + vec2<u32>(v.xy) + n;
}

// === storage textures: load, store, dimensions
@group(0) @binding(0) var src: texture_storage_2d<rgba8unorm, read>;
@group(0) @binding(1) var dst: texture_storage_2d<rgba32float, write>;
@group(0) @binding(2) var counts: texture_storage_3d<r32uint, read_write>;
@compute @workgroup_size(8, 8) fn main(@builtin(global_invocation_id) id: vec3<u32>) {
  if (any(id.xy >= textureDimensions(dst))) { return; }
  let texel: vec4<f32> = textureLoad(src, id.xy);
  textureStore(dst, id.xy, texel * 2.0);
  let c: vec4<u32> = textureLoad(counts, id);
  textureStore(counts, id, c + vec4<u32>(1u));
}

// === depth textures with comparison samplers
@group(0) @binding(0) var shadow: texture_depth_2d;
@group(0) @binding(1) var cmp: sampler_comparison;
@group(0) @binding(2) var cube: texture_depth_cube_array;
@fragment fn main(@location(0) p: vec3<f32>) -> @location(0) vec4<f32> {
  let a: f32 = textureSampleCompare(shadow, cmp, p.xy, p.z);
  let b: f32 = textureSampleCompareLevel(cube, cmp, p, 1, p.z);
  let c: vec4<f32> = textureGatherCompare(shadow, cmp, p.xy, p.z);
  let d: f32 = textureLoad(shadow, vec2<i32>(0, 0), 0);
  return vec4(a + b + d) + c;
}

// === gather with a component, and on a depth texture
@group(0) @binding(0) var tex: texture_2d<f32>;
@group(0) @binding(1) var depth: texture_depth_2d_array;
@group(0) @binding(2) var samp: sampler;
@fragment fn main(@location(0) uv: vec2<f32>) -> @location(0) vec4<f32> {
  return textureGather(1, tex, samp, uv) + textureGather(depth, samp, uv, 0u);
}

// === external textures
@group(0) @binding(0) var video: texture_external;
@group(0) @binding(1) var samp: sampler;
@fragment fn main(@location(0) uv: vec2<f32>) -> @location(0) vec4<f32> {
  let size = textureDimensions(video);
  return textureSampleBaseClampToEdge(video, samp, uv) + textureLoad(video, size / 2u);
}

// === textures as function parameters
@group(0) @binding(0) var tex: texture_cube<f32>;
@group(0) @binding(1) var samp: sampler;
fn lookup(t: texture_cube<f32>, s: sampler, dir: vec3<f32>) -> vec4<f32> {
  return textureSampleLevel(t, s, dir, 0.0);
}
@fragment fn main(@location(0) dir: vec3<f32>) -> @location(0) vec4<f32> {
  return lookup(tex, samp, dir);
}

// === textureSample in a compute shader
@group(0) @binding(0) var tex: texture_2d<f32>;
@group(0) @binding(1) var samp: sampler;
@compute @workgroup_size(1) fn main() {
  _ = textureSample(tex, samp, vec2(0.5));
//    ^ T003 fragment
}
// tint: built-in cannot be used by compute pipeline stage

// === textureStore into a read-only storage texture
@group(0) @binding(0) var dst: texture_storage_2d<rgba8unorm, read>;
@compute @workgroup_size(1) fn main() {
  textureStore(dst, vec2(0, 0), vec4(1.0));
//^ T004 'textureStore'
}
// tint: no matching call to 'textureStore(texture_storage_2d<rgba8unorm, read>, vec2<abstract-int>, vec4<abstract-float>)'

// === textureLoad without a mip level
@group(0) @binding(0) var tex: texture_2d<f32>;
@compute @workgroup_size(1) fn main() {
  _ = textureLoad(tex, vec2(0, 0));
//    ^ T004 'textureLoad'
}

// === textureSample on an integer texture
@group(0) @binding(0) var tex: texture_2d<u32>;
@group(0) @binding(1) var samp: sampler;
@fragment fn main() -> @location(0) vec4<f32> {
  return textureSample(tex, samp, vec2(0.5));
//       ^ T004 'textureSample'
}

// === a comparison sampler where a sampler is expected
@group(0) @binding(0) var tex: texture_2d<f32>;
@group(0) @binding(1) var samp: sampler_comparison;
@fragment fn main() -> @location(0) vec4<f32> {
  return textureSample(tex, samp, vec2(0.5));
//       ^ T004 'textureSample'
}

// === a sampled texture of f16
enable f16;
@group(0) @binding(0) var tex: texture_2d<f16>;
//                                        ^ T003 sampled type
// tint: texture_2d<f16> is not a valid sampled type

// === an unknown texel format
@group(0) @binding(0) var tex: texture_storage_2d<rgb8unorm, write>;
//                                                ^ T003 texel format

// === the texture of a storage texture store must match its channel type
@group(0) @binding(0) var dst: texture_storage_2d<r32uint, write>;
@compute @workgroup_size(1) fn main() {
  textureStore(dst, vec2(0, 0), vec4(1.0));
//^ T004 'textureStore'
}

// === textureBarrier in a compute shader
@group(0) @binding(0) var img: texture_storage_2d<r32float, read_write>;
@compute @workgroup_size(8) fn main(@builtin(local_invocation_id) id: vec3<u32>) {
  textureStore(img, id.xy, vec4(1.0));
  textureBarrier();
  _ = textureLoad(img, id.yx);
}
