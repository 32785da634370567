// Valid shaders our checker once rejected, reduced from real-world code.

// === vector conversion constructors
fn f(v: vec4<f32>, b: vec2<bool>) {
  let i = vec4<i32>(v);
  let u = vec2<u32>(b);
  let g = vec2<f32>(vec2<bool>(true));
  _ = i; _ = u; _ = g;
}

// === an inferred array of vectors indexed at run time
@vertex fn vs(@builtin(vertex_index) i: u32) -> @builtin(position) vec4f {
  const pos = array(vec2f(-0.5, -0.5), vec2f(0.5, -0.5), vec2f(0.0, 0.5));
  return vec4f(pos[i], 0, 1);
}

// === an inferred array of vectors as a struct member
struct A { b: array<vec2u, 2> }
@group(0) @binding(0) var<storage, read_write> s: array<u32>;
@compute @workgroup_size(1) fn main() {
  const k = A(array(vec2u(1, 2), vec2u(3, 4)));
  var q = 0u;
  s[0] = k.b[q].x;
}

// === the zero vector without a template argument
@group(0) @binding(0) var t: texture_external;
@compute @workgroup_size(1) fn main() { var r = textureLoad(t, vec2()); _ = r; }

// === a texture sampled into a variable and updated
@group(0) @binding(0) var tex: texture_2d<f32>;
@group(0) @binding(1) var samp: sampler;
@fragment fn fs(@location(0) uv: vec2f) -> @location(0) vec4f {
  var color = textureSample(tex, samp, uv);
  if uv.x < 0 || uv.x > 1 { color += vec4(0.7, 0, 0, 0); }
  return color;
}

// === a binding array of textures passed element by element
@group(0) @binding(0) var sampled_textures: binding_array<texture_2d<f32>, 4>;
fn load(t: texture_2d<f32>) -> vec4f { return textureLoad(t, vec2(0, 0), 0); }
@fragment fn fs() -> @location(0) vec4f { return load(sampled_textures[1]); }
