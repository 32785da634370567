// Comments, literals and directives.

// === nested block comments
/* outer /* inner */ still a comment */
fn f() {}

// === unterminated block comment
fn f() {}
/* outer /* inner */ the outer one never closes
// <- S004 unterminated block comment

// === literals of every form
enable f16;
fn f() {
  let a = 1u + 0u + 0xFFu;
  let b = 2i + 0i + -0x7fffffffi;
  let c = 1.0h + 0.5h + 2h;
  let d = 1f + 0f + .5f + 1e-3f + 1.5e+3f + 0x1p4f + 0x1.8p-2f + 0x.8p1;
  let e = 1 + 0x10 + 1.0 + 1e3;
  let g = true && !false;
}

// === directives
enable f16, subgroups;
requires readonly_and_readwrite_storage_textures, packed_4x8_integer_dot_product;
diagnostic(off, derivative_uniformity);
//              ^ A001 this suppression of 'derivative_uniformity' applies to no finding
diagnostic(warning, coop.deprecated_builtin);
//                  ^ A001 this filter of 'coop.deprecated_builtin' applies to no finding
diagnostic(off, chromium.subgroup_matrix_uniformity,);
//              ^ A001 this suppression of 'chromium.subgroup_matrix_uniformity' applies to n
fn f() {}

// === module-scope declarations of every kind
alias Vec = vec4<f32>;
struct Particle {
  @align(16) position: Vec,
  @size(16) velocity: vec3<f32>,
  mass: f32,
}
@id(7) override workgroup_width: u32 = 64;
override scale = 2.0;
const table = array<i32, 3>(1, 2, 3);
const_assert 3 > 2;
var<private> seed: u32 = 7u;
var<workgroup> tile: array<array<f32, 16>, 16>;
@group(0) @binding(0) var<storage, read> particles: array<Particle>;
@group(0) @binding(1) var<uniform> params: vec4<f32>;
@group(0) @binding(2) var<storage, read_write> counter: atomic<u32>;
@must_use
fn energy(p: Particle) -> f32 { return 0.5 * p.mass * dot(p.velocity, p.velocity); }
@compute @workgroup_size(workgroup_width, 1, 1)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  tile[gid.x % 16u][0] = energy(particles[gid.x]) * params.x * scale + f32(table[0]);
  atomicAdd(&counter, 1u);
}

// === directive after a declaration
fn f() {}
enable f16;
// <- S001 'enable' is a directive: directives must come before every declaration

// === an attribute name WGSL does not have, on a return type
@vertex fn main() -> @builtin(position) @position vec4<f32> {
//                                       ^ S001 '@position' is not an attribute; did you mean '@location'?
  return vec4(0.0);
}

// === an attribute name WGSL does not have, on a struct member
struct Params {
  @stride(16) m: u32,
// ^ S001 '@stride' is not an attribute
}
@group(0) @binding(0) var<uniform> params: Params;
@compute @workgroup_size(1) fn main() { _ = params.m; }

// === attributes WGSL has, each where it belongs
struct Member { @align(16) @size(32) v: vec3<f32> }
@id(3) override count: u32 = 4u;
@group(0) @binding(0) var<storage, read_write> data: array<Member>;
@must_use fn twice(x: f32) -> f32 { return 2.0 * x; }
@vertex fn vs(@builtin(vertex_index) i: u32) -> @invariant @builtin(position) vec4<f32> { return vec4(f32(i)); }
@fragment fn fs(@location(1) @interpolate(flat) n: u32) -> @location(0) vec4<f32> { return vec4(f32(n)); }
@compute @workgroup_size(count) fn main() { data[0].v.x = twice(1.0); }
