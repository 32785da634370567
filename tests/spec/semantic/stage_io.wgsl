// What every input and output of an entry point needs: one IO attribute
// ('@builtin' or '@location'), locations on numeric scalars and vectors,
// each location and builtin once, '@interpolate' with a location,
// '@invariant' with the position; the position from a vertex shader, a
// workgroup size on a compute shader.

// === a vertex and fragment pair with every attribute where it belongs
struct VertexOut {
  @invariant @builtin(position) position: vec4f,
  @location(0) @interpolate(perspective, sample) uv: vec2f,
  @location(1) @interpolate(flat) id: u32,
}
@vertex fn vs(@builtin(vertex_index) v: u32, @location(0) corner: vec2f) -> VertexOut {
  return VertexOut(vec4f(corner, 0.0, 1.0), corner, v);
}
@fragment fn fs(in: VertexOut) -> @location(0) vec4f {
  return vec4f(in.uv, f32(in.id), 1.0);
}

// === a parameter without an IO attribute
@fragment fn fs(alpha: f32) -> @location(0) vec4f {
//              ^ T020 missing entry point IO attribute on parameter
  return vec4f(alpha);
}

// === a return value without an IO attribute
@fragment fn fs() -> vec4f {
//                   ^ T020 missing entry point IO attribute on return type
  return vec4f(1.0);
}

// === a struct member without an IO attribute
struct FragmentIn {
  @location(0) uv: vec2f,
  weight: f32,
//^ T020 missing entry point IO attribute
}
@fragment fn fs(in: FragmentIn) -> @location(0) vec4f {
  return vec4f(in.uv, in.weight, 1.0);
}

// === a vertex shader without the position
@vertex fn vs() -> @location(0) vec4f {
//         ^ T020 must include the 'position' builtin
  return vec4f(0.0);
}

// === a compute shader without a workgroup size
@compute fn main() {
//          ^ T020 must include '@workgroup_size'
}

// === a location on a compute shader's input
@compute @workgroup_size(1) fn main(@location(0) x: f32) {
//                                  ^ T020 '@location' cannot be used by compute shaders
}

// === a location on a bool
@fragment fn fs(@location(0) @interpolate(flat) on: bool) -> @location(0) vec4f {
//                                              ^ T020 cannot apply '@location' to declaration of type 'bool'
  return vec4f(select(0.0, 1.0, on));
}

// === one location twice among the inputs
@fragment fn fs(@location(0) a: vec4f, @location(0) b: vec4f) -> @location(0) vec4f {
//                                     ^ T020 '@location(0)' appears multiple times
  return a + b;
}

// === the same location for an input and an output
@fragment fn fs(@location(0) a: vec4f) -> @location(0) vec4f {
  return a;
}

// === one builtin twice among the inputs
struct Extra { @builtin(position) again: vec4f }
@fragment fn fs(@builtin(position) p: vec4f, extra: Extra) -> @location(0) vec4f {
//                                           ^ T020 '@builtin(position)' appears multiple times as pipeline input
  return p + extra.again;
}

// === interpolate on a builtin
@fragment fn fs(@builtin(position) @interpolate(flat) p: vec4f) -> @location(0) vec4f {
//                                 ^ T020 '@interpolate' can only be used with '@location'
  return p;
}

// === invariant on a location
@vertex fn vs() -> @location(0) @invariant vec4f {
//                              ^ T020 '@invariant' must be applied to a '@builtin(position)'
  return vec4f(0.0);
}

// === a nested struct in an entry point's inputs
struct Inner { @location(1) b: f32 }
struct Outer { @location(0) a: f32, inner: Inner }
//                                  ^ T020 nested structures cannot be used for entry point IO
@fragment fn fs(in: Outer) -> @location(0) vec4f {
  return vec4f(in.a);
}

// === a compute shader with only builtin inputs
@compute @workgroup_size(8, 8) fn main(@builtin(global_invocation_id) id: vec3u,
                                       @builtin(local_invocation_index) index: u32) {
  _ = id.x + index;
}

// === vertex attributes at several locations
struct Attributes {
  @location(0) position: vec3f,
  @location(1) normal: vec3f,
  @location(2) joints: vec4u,
}
@vertex fn vs(in: Attributes, @builtin(instance_index) instance: u32) -> @builtin(position) vec4f {
  return vec4f(in.position + in.normal * f32(in.joints.x + instance), 1.0);
}

// === several color targets and the depth from one fragment shader
struct Targets {
  @location(0) albedo: vec4f,
  @location(1) normal: vec4f,
  @location(2) ids: vec2u,
  @builtin(frag_depth) depth: f32,
}
@fragment fn fs(@builtin(position) p: vec4f) -> Targets {
  return Targets(vec4f(1.0), vec4f(0.0), vec2u(1u, 2u), p.z);
}

// === the same struct as a vertex output and a fragment input
struct Varyings {
  @builtin(position) position: vec4f,
  @location(0) @interpolate(linear) shade: f32,
}
@vertex fn vs() -> Varyings {
  return Varyings(vec4f(0.0, 0.0, 0.0, 1.0), 0.5);
}
@fragment fn fs(v: Varyings) -> @location(0) vec4f {
  return vec4f(v.shade);
}
