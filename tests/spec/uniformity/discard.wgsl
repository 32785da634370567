// 'discard' demotes the invocation to a helper invocation: it keeps running
// (its writes are dropped), so control flow after a discard is as uniform as
// before it, and derivatives and implicit-LOD sampling stay valid there.

// === a derivative after a discard in a branch
@fragment fn main(@location(0) x: f32) -> @location(0) vec4f {
  if x > 0.5 {
    discard;
  }
  return vec4f(dpdx(x));
}

// === texture sampling after a discard in a branch
@group(0) @binding(0) var t: texture_2d<f32>;
@group(0) @binding(1) var s: sampler;
@fragment fn main(@location(0) uv: vec2f) -> @location(0) vec4f {
  if uv.x > 0.5 {
    discard;
  }
  return textureSample(t, s, uv);
}

// === sampling after a discard in a helper
@group(0) @binding(0) var t: texture_2d<f32>;
@group(0) @binding(1) var s: sampler;
fn clip(alpha: f32) {
  if alpha < 0.1 {
    discard;
  }
}
@fragment fn main(@location(0) uv: vec2f) -> @location(0) vec4f {
  clip(uv.y);
  return textureSample(t, s, uv);
}

// === sampling after an early return in a branch is still non-uniform
@group(0) @binding(0) var t: texture_2d<f32>;
@group(0) @binding(1) var s: sampler;
@fragment fn main(@location(0) uv: vec2f) -> @location(0) vec4f {
  if uv.x > 0.5 {
    return vec4f(0.0);
  }
  return textureSample(t, s, uv);
//       ^ U001 'textureSample' must only be called from uniform control flow
}
