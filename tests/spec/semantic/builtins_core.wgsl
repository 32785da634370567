// Core builtin functions: math, bit, packing, atomics, barriers, subgroups,
// arrayLength, select, bitcast, workgroupUniformLoad.

// === math builtins on scalars and vectors
fn f(x: f32, v: vec3<f32>) -> f32 {
  let a = sqrt(abs(x)) + exp(x) * log(max(x, 1.0));
  let b = length(normalize(v)) + dot(v, cross(v, v));
  let c = fma(x, 2.0, 1.0) + mix(0.0, 1.0, 0.5) + smoothstep(0.0, 1.0, x);
  return a + b + c + clamp(x, 0.0, 1.0) + floor(x) + fract(x);
}

// === math builtin with an integer argument
fn f(x: i32) -> f32 {
  return sqrt(x);
//       ^ T004 'sqrt'
}
// tint: no matching call to 'sqrt(i32)'; 2 candidates: sqrt(T) for T f32/f16/abstract-float, and vecN<T>

// === math builtin with too many arguments
fn f(x: f32) -> f32 {
  return abs(x, x);
//       ^ T004 'abs'
}

// === min with mixed types
fn f(a: u32, b: i32) -> u32 {
  return min(a, b);
//       ^ T004 'min'
}

// === clamp with mixed vector sizes
fn f(v: vec2<f32>) -> vec2<f32> {
  return clamp(v, vec3<f32>(0.0), vec2<f32>(1.0));
//       ^ T004 'clamp'
}

// === cross needs vec3
fn f(v: vec4<f32>) -> vec4<f32> {
  return cross(v, v);
//       ^ T004 'cross'
}

// === bit builtins
fn f(x: u32) -> u32 {
  return countOneBits(x) + reverseBits(x) + firstLeadingBit(x) + extractBits(x, 2u, 3u)
       + insertBits(x, 1u, 0u, 1u) + countLeadingZeros(x) + countTrailingZeros(x);
}

// === bit builtin on a float
fn f(x: f32) -> u32 {
  return countOneBits(x);
//       ^ T004 'countOneBits'
}

// === packing builtins
fn f(v: vec4<f32>, p: u32) -> vec4<f32> {
  let packed = pack4x8unorm(v) ^ pack2x16float(v.xy);
  return unpack4x8snorm(packed ^ p) + vec4(unpack2x16unorm(p), 0.0, 1.0);
}

// === packing builtin with the wrong vector size
fn f(v: vec2<f32>) -> u32 {
  return pack4x8unorm(v);
//       ^ T004 'pack4x8unorm'
}

// === atomic builtins
@group(0) @binding(0) var<storage, read_write> counters: array<atomic<u32>, 4>;
@compute @workgroup_size(64) fn main(@builtin(local_invocation_index) i: u32) {
  let before = atomicAdd(&counters[0], 1u);
  atomicMax(&counters[1], before);
  atomicStore(&counters[2], atomicLoad(&counters[3]));
  let r = atomicCompareExchangeWeak(&counters[3], 0u, i);
  if r.exchanged { atomicOr(&counters[1], 1u); }
}

// === atomic builtin on a non-atomic
@group(0) @binding(0) var<storage, read_write> counter: u32;
fn f() {
  atomicAdd(&counter, 1u);
//^ T004 'atomicAdd'
}

// === atomic builtin with the wrong value type
var<workgroup> counter: atomic<u32>;
fn f() {
  atomicAdd(&counter, 1i);
//^ T004 'atomicAdd'
}

// === atomic builtin needs a pointer
var<workgroup> counter: atomic<u32>;
fn f() {
  atomicAdd(counter, 1u);
//^ T004 'atomicAdd'
}

// === barriers
var<workgroup> tile: array<f32, 64>;
@compute @workgroup_size(64) fn main(@builtin(local_invocation_index) i: u32) {
  tile[i] = f32(i);
  workgroupBarrier();
  storageBarrier();
  let x = tile[63u - i];
  _ = x;
}

// === barrier takes no arguments
fn f() {
  workgroupBarrier(1);
//^ T004 'workgroupBarrier'
}

// === result of a must_use builtin discarded
fn f(x: f32) {
  abs(x);
//^ T015 'abs'
}
// tint: ignoring return value of builtin 'abs'

// === phony assignment keeps a must_use result
fn f(x: f32) {
  _ = abs(x);
}

// === select with a bool condition
fn f(a: vec2<f32>, b: vec2<f32>, c: vec2<bool>) -> vec2<f32> { return select(a, b, c) + select(a, b, true); }

// === select with a non-bool condition
fn f(a: f32, b: f32) -> f32 {
  return select(a, b, 1u);
//       ^ T004 'select'
}

// === select with mismatched operands
fn f(a: f32, b: u32) -> f32 {
  return select(a, b, true);
//       ^ T004 'select'
}

// === arrayLength of a runtime-sized array in a struct
struct Buf { n: u32, data: array<f32> }
@group(0) @binding(0) var<storage, read> buf: Buf;
fn f() -> u32 { return arrayLength(&buf.data); }

// === arrayLength of a fixed-size array
var<private> a: array<f32, 4>;
fn f() -> u32 {
  return arrayLength(&a);
//       ^ T004 'arrayLength'
}

// === bitcast between sizes that differ
fn f(x: f32) -> vec2<u32> {
  return bitcast<vec2<u32>>(x);
//       ^ T004 'bitcast'
}
// tint: cannot bitcast from 'f32' to 'vec2<u32>'

// === bitcast of a vector
fn f(v: vec4<u32>) -> vec4<f32> { return bitcast<vec4<f32>>(v); }

// === workgroupUniformLoad
var<workgroup> flag: u32;
@compute @workgroup_size(64) fn main(@builtin(local_invocation_index) i: u32) {
  if i == 0u { flag = 1u; }
  if workgroupUniformLoad(&flag) == 1u { return; }
}

// === workgroupUniformLoad of a private variable
var<private> flag: u32;
fn f() -> u32 {
  return workgroupUniformLoad(&flag);
//       ^ T004 'workgroupUniformLoad'
}

// === workgroupUniformLoad of an atomic returns its value
var<workgroup> flag: atomic<u32>;
fn f() -> u32 { return workgroupUniformLoad(&flag); }
// tint: accepted (the overload for ptr<workgroup, atomic<T>> returning T)

// === subgroup builtins with enable subgroups
enable subgroups;
@group(0) @binding(0) var<storage, read_write> out: array<f32>;
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3<u32>, @builtin(subgroup_invocation_id) lane: u32,
        @builtin(subgroup_size) width: u32) {
  let x = out[id.x];
  let total = subgroupAdd(x);
  let first = subgroupBroadcastFirst(x);
  let shuffled = subgroupShuffle(x, (lane + 1u) % width);
  let any_big = subgroupAny(x > 1.0);
  out[id.x] = select(total, first + shuffled, any_big) + subgroupExclusiveAdd(x);
}

// === subgroup builtin without enable subgroups
fn f(x: f32) -> f32 {
  return subgroupAdd(x);
//       ^ T007 'subgroups'
}
// tint: cannot call built-in function 'subgroupAdd' without extension 'subgroups'

// === subgroup builtin value without enable subgroups
@compute @workgroup_size(64)
fn main(@builtin(subgroup_size) width: u32) {}
//               ^ T007 'subgroups'

// === subgroupBroadcast lane must be a constant
enable subgroups;
fn f(x: f32, lane: u32) -> f32 {
  return subgroupBroadcast(x, lane);
//                            ^ T014 const-expression
}
// tint: the sourceLaneIndex argument of subgroupBroadcast must be a const-expression

// === subgroupBroadcast with a constant lane
enable subgroups;
fn f(x: f32) -> f32 { return subgroupBroadcast(x, 3u); }

// === subgroupAdd on a bool
enable subgroups;
fn f(b: bool) -> bool {
  return subgroupAdd(b);
//       ^ T004 'subgroupAdd'
}

// === subgroupBallot result type
enable subgroups;
fn f(b: bool) -> vec4<u32> { return subgroupBallot(b); }

// === derivative builtins only in fragment shaders
@compute @workgroup_size(1) fn main() {
  let d = dpdx(1.0);
//        ^ T003 fragment
}
// tint: built-in cannot be used by compute pipeline stage

// === textureless dot4 packed integer builtins
fn f(a: u32, b: u32) -> u32 { return dot4U8Packed(a, b) + u32(dot4I8Packed(a, b)); }

// === dot of mismatched vectors
fn f(a: vec3<f32>, b: vec2<f32>) -> f32 {
  return dot(a, b);
//       ^ T004 'dot'
}

// === reduction in workgroup memory
var<workgroup> partial: array<f32, 256>;
@group(0) @binding(0) var<storage, read> src: array<f32>;
@group(0) @binding(1) var<storage, read_write> dst: array<f32>;
@compute @workgroup_size(256)
fn main(@builtin(local_invocation_index) i: u32, @builtin(workgroup_id) wg: vec3<u32>) {
  partial[i] = src[wg.x * 256u + i];
  for (var step = 128u; step > 0u; step >>= 1u) {
    workgroupBarrier();
    if i < step { partial[i] += partial[i + step]; }
  }
  if i == 0u { dst[wg.x] = partial[0]; }
}

// === integer dot and saturation helpers
fn f(a: vec4<i32>, b: vec4<i32>) -> i32 { return clamp(dot(a, b), -128, 127) + sign(a.x) * abs(b.y); }

// === frexp and modf result structs
fn f(x: f32) -> f32 {
  let r = frexp(x);
  let m = modf(x);
  return r.fract * f32(r.exp) + m.whole + m.fract;
}
