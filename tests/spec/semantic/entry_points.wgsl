// Vertex and fragment entry points: builtin values, user-defined IO,
// interpolation, and what each stage may use.

// === a vertex and a fragment shader with a struct between them
struct VertexOut {
  @builtin(position) position: vec4<f32>,
  @location(0) uv: vec2<f32>,
  @location(1) @interpolate(flat) index: u32,
  @location(2) @interpolate(linear, centroid) weight: f32,
}
@vertex fn vs(@builtin(vertex_index) v: u32, @builtin(instance_index) i: u32) -> VertexOut {
  var out: VertexOut;
  out.position = vec4(f32(v), f32(i), 0.0, 1.0);
  out.uv = vec2(0.5);
  out.index = i;
  out.weight = 1.0;
  return out;
}
@fragment fn fs(in: VertexOut, @builtin(front_facing) front: bool) -> @location(0) vec4<f32> {
  return select(vec4(in.uv, in.weight, 1.0), vec4(0.0), front);
}

// === fragment outputs: depth and sample mask
struct Out {
  @location(0) color: vec4<f32>,
  @builtin(frag_depth) depth: f32,
  @builtin(sample_mask) mask: u32,
}
@fragment fn fs(@builtin(position) p: vec4<f32>, @builtin(sample_index) s: u32) -> Out {
  return Out(p, 0.5, 1u << s);
}

// === an invariant position
@vertex fn vs() -> @invariant @builtin(position) vec4<f32> {
  return vec4(0.0);
}

// === every compute builtin value
@compute @workgroup_size(4, 4, 1)
fn main(@builtin(local_invocation_id) l: vec3<u32>, @builtin(local_invocation_index) li: u32,
        @builtin(global_invocation_id) g: vec3<u32>, @builtin(workgroup_id) w: vec3<u32>,
        @builtin(num_workgroups) n: vec3<u32>) {
  _ = l + g + w + n + vec3(li);
}

// === integer vertex output without flat interpolation, for Tint
enable chromium_experimental_subgroup_matrix;
struct VertexOut {
  @builtin(position) position: vec4<f32>,
  @location(0) index: i32,
//             ^ T003 '@interpolate(flat)'
}
@vertex fn vs() -> VertexOut {
  return VertexOut(vec4(0.0), 1);
}
// tint: integral user-defined vertex outputs must have a '@interpolate(flat)' attribute

// === integer fragment input without flat interpolation, for Tint
enable chromium_experimental_subgroup_matrix;
@fragment fn fs(@location(0) index: u32) -> @location(0) vec4<f32> {
//                           ^ T003 '@interpolate(flat)'
  return vec4(f32(index));
}
// tint: integral user-defined fragment inputs must have a '@interpolate(flat)' attribute

// === integer fragment input without flat interpolation, no target
@fragment fn fs(@location(0) index: u32) -> @location(0) vec4<f32> {
//                           ^ T013 naga
  return vec4(f32(index));
}
// tint: differs -- Tint (and the specification) require flat; naga accepts it, so with no target we only warn

// === an unknown builtin value
@compute @workgroup_size(1) fn main(@builtin(thread_id) id: u32) {}
//                                           ^ T001 'thread_id'
// tint: builtin value must be one of ...

// === a builtin value of the wrong type
@compute @workgroup_size(1) fn main(@builtin(global_invocation_id) id: vec3<i32>) {}
//                                           ^ T003 'vec3<u32>'
// tint: store type of @builtin(global_invocation_id) must be 'vec3<u32>'

// === a vertex shader writing a storage buffer
@group(0) @binding(0) var<storage, read_write> counter: array<u32>;
fn bump() { counter[0] = 1u; }
//          ^ T003 'read_write'
@vertex fn vs() -> @builtin(position) vec4<f32> {
  bump();
  return vec4(0.0);
}
// tint: var with 'storage' address space and 'read_write' access mode cannot be used by vertex pipeline stage

// === a vertex shader reading a storage buffer
@group(0) @binding(0) var<storage, read> positions: array<vec4<f32>>;
@vertex fn vs(@builtin(vertex_index) v: u32) -> @builtin(position) vec4<f32> {
  return positions[v];
}

// === clip distances need their extension
@vertex fn vs() -> @builtin(clip_distances) array<f32, 2> {
//         ^ T020 must include the 'position' builtin
//                          ^ T007 'clip_distances'
  return array(0.0, 1.0);
}
// tint: use of '@builtin(clip_distances)' attribute requires enabling extension 'clip_distances'

// === subgroup builtin values come with Tint's subgroup matrices
enable chromium_experimental_subgroup_matrix;
@compute @workgroup_size(64)
fn main(@builtin(subgroup_id) s: u32, @builtin(num_subgroups) n: u32) { _ = s + n; }
