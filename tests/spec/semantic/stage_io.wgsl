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

// === subgroup builtins as fragment inputs
enable subgroups;
@fragment fn fs(@builtin(subgroup_size) size: u32, @builtin(subgroup_invocation_id) lane: u32)
    -> @location(0) vec4f {
  return vec4f(f32(lane) / f32(size));
}

// === a builtin value in a stage that has no such input
@fragment fn fs(@builtin(local_invocation_index) index: u32) -> @location(0) vec4f {
//              ^ T020 '@builtin(local_invocation_index)' cannot be used for fragment shader input
  return vec4f(f32(index));
}

// === an output builtin taken as an input
@fragment fn fs(@builtin(frag_depth) depth: f32) -> @location(0) vec4f {
//              ^ T020 cannot be used for fragment shader input: it is only valid as a fragment shader output
  return vec4f(depth);
}

// === the sample mask in and out of one fragment shader
struct Out {
  @location(0) color: vec4f,
  @builtin(sample_mask) mask: u32,
}
@fragment fn fs(@builtin(sample_mask) mask: u32) -> Out {
  return Out(vec4f(1.0), mask & 1u);
}

// === a location and a builtin on one struct member
struct In {
  @builtin(position) @location(1) position: vec4f,
//                   ^ T020 second entry point IO attribute
}
@fragment fn fs(input: In) -> @location(0) vec4f {
  return input.position;
}

// === eight clip distances
enable clip_distances;
//     ^ D003 [info] 'clip-distances'
struct VertexOut {
  @builtin(position) position: vec4f,
  @builtin(clip_distances) clip: array<f32, 8>,
}
@vertex fn vs() -> VertexOut {
  return VertexOut(vec4f(0.0), array<f32, 8>());
}

// === clip distances of another element type
enable clip_distances;
//     ^ D003 [info] 'clip-distances'
struct VertexOut {
  @builtin(position) position: vec4f,
  @builtin(clip_distances) clip: array<u32, 2>,
//         ^ T003 'array<f32, N>' with N at most 8, not 'array<u32, 2>'
}
@vertex fn vs() -> VertexOut {
  return VertexOut(vec4f(0.0), array<u32, 2>());
}

// === two color attachments read by one fragment shader
enable chromium_experimental_framebuffer_fetch;
//     ^ D003 [info] 'framebuffer-fetch'
struct Attachments {
  @color(0) albedo: vec4f,
  @color(1) normal: vec4f,
}
@fragment fn fs(@builtin(position) p: vec4f, inputs: Attachments) -> @location(0) vec4f {
  return inputs.albedo * inputs.normal.w;
}

// === a color attachment read as a struct member of a type that is not numeric
enable chromium_experimental_framebuffer_fetch;
//     ^ D003 [info] 'framebuffer-fetch'
struct Attachments {
  @color(0) albedo: vec4f,
  @color(1) flags: array<u32, 2>,
//          ^ T020 cannot apply '@color' to declaration of type 'array<u32, 2>'
}
@fragment fn fs(inputs: Attachments) -> @location(0) vec4f {
  return inputs.albedo;
}

// === a color attachment written as an output
enable chromium_experimental_framebuffer_fetch;
//     ^ D003 [info] 'framebuffer-fetch'
@fragment fn fs() -> @color(0) vec4f {
//                   ^ T020 '@color' can only be used for fragment shader input
  return vec4f(1.0);
}

// === one immediate variable used by two entry points
var<immediate> scale: f32;
@compute @workgroup_size(64) fn a() { let x = scale; }
@compute @workgroup_size(64) fn b() { let y = scale * 2.0; }

// === two immediate variables, one reached through a helper
var<immediate> scale: f32;
var<immediate> offset: f32;
fn shifted() -> f32 { return offset; }
@compute @workgroup_size(64) fn main() {
//                              ^ T017 uses two 'immediate' variables, 'scale' and 'offset'
  let x = scale + shifted();
}

// === every compute builtin value as an input
@compute @workgroup_size(8, 8)
fn main(@builtin(local_invocation_id) lid: vec3u, @builtin(local_invocation_index) index: u32,
        @builtin(global_invocation_id) gid: vec3u, @builtin(workgroup_id) wid: vec3u,
        @builtin(num_workgroups) groups: vec3u) {
  _ = lid.x + index + gid.y + wid.z + groups.x;
}

// === the vertex builtin inputs and an invariant position
struct VertexOut {
  @builtin(position) @invariant position: vec4f,
  @location(0) @interpolate(flat, either) instance: u32,
}
@vertex fn vs(@builtin(vertex_index) vertex: u32, @builtin(instance_index) instance: u32) -> VertexOut {
  return VertexOut(vec4f(f32(vertex)), instance);
}

// === the fragment builtin inputs
@fragment fn fs(@builtin(position) p: vec4f, @builtin(front_facing) front: bool,
                @builtin(sample_index) sample: u32) -> @location(0) vec4f {
  return select(p, vec4f(f32(sample)), front);
}

// === an immediate struct read by a vertex shader
struct Push { scale: f32, offset: f32 }
var<immediate> push: Push;
@vertex fn vs(@builtin(vertex_index) vertex: u32) -> @builtin(position) vec4f {
  return vec4f(f32(vertex) * push.scale + push.offset);
}
