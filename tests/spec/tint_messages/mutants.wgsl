// One case per Tint resolver/validator error that no hand-written spec case showed: the smallest
// one-edit mutant of our own spec cases and examples (benchmarks/differential.py) on which Tint
// reports that error first and coop-lint agrees with it on the verdict and the line. Made by
// `python -m benchmarks.tint_coverage DAWN --mine N`; each case is named after the message id
// in tests/spec/TINT_COVERAGE.json, and its annotations are coop-lint's diagnostics at the time.

// === resolver:does-not-take-template-arguments
diagnostic(off, chromium.subgroup_matrix_uniformity);
enable subgroups;
enable chromium_experimental_subgroup_matrix;
@group(0) @binding(0) var<storage, read_write> buf: array<f32>;
@compute @workgroup_size(32)
fn main(@builtin(local_invocation_index) li: u32) {
  let first = subgroupBroadcastFirst(li);
  if first < 64u {
    let m = subgroupMatrixLoad<buf<f32, 8, 8>, row_major>(&buf, first, 8u);
//                             ^ T003 'buf' is a var, not a type
  }
}

// === resolver:invalid-vector-swizzle-character
fn f(a: vec4<i32>, b: vec4<i32>) -> i32 { return clamp(dot(a, b), -128, 127) + sign(a.x) * abs(b.y_renamed); }
//                                                                                               ^ T003 invalid swizzle 'y_renamed' for 'vec4<i32>'

// === resolver:requires-at-least-template-arguments
fn bump(p: ptr<function>) { *p = *p + 1; }
//         ^ T003 'ptr' needs an address space, a store type and optionally an
fn f() -> i32 {
  var x = 1;
  bump(&x);
  return x;
}

// === validator:cannot-be-used-to-construct-an-array
alias Vec = vec4<f32>;
struct Particle {
  @align(16) position: Vec,
  @size(16) velocity: vec3<f32>,
  mass: f32,
}
@id(7) override workgroup_width: u32 = 64;
override scale = 2.0;
const table = array<i32, 3>(1, 2, 3u);
//                                ^ T003 element of type 'u32' where 'i32' is expected
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

// === validator:for-loop-condition-must-be-bool-got
fn f() -> i32 {
  var s = 0;
  for (var i = 0; i << 4; i++) { s += i; }
//                ^ T003 'for' condition must be 'bool', not 'i32'
  return s;
}

// === validator:only-variables-in-storage-address-space-may
enable chromium_experimental_subgroup_matrix;
@group(0) @binding(0) var<workgroup, read_write> buf: array<f32>;
//                                   ^ T017 only variables in the 'storage' address space may have an access mode
// <- T017 non-resource variables must not have '@group' or '@binding' attributes
//                                                    ^ T003 a runtime-sized array can only live in a 'storage' buffer, n
fn f() { let m = subgroupMatrixLoad<subgroup_matrix_left<f32, 8, 16>, row_major>(&buf, 0u, 8u); }

// === validator:type-in-structure-constructor-does-not-match
struct Out {
  @location(0) color: vec4<f32>,
  @builtin(frag_depth) depth: f32,
  @builtin(sample_mask) mask: u32,
}
@fragment fn fs(@builtin(position) p: vec4<f32>, @builtin(sample_index) s: u32) -> Out {
  return Out(p, 0.5, 1u == s);
//                   ^ T003 member 'mask' of type 'bool' where 'u32' is expected
}
