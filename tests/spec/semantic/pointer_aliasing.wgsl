// Pointer arguments that alias (WGSL's alias analysis, as Tint applies it), and the shapes that are fine.

// === rejected: module write
var<private> acc: f32;
fn bump(p: ptr<private, f32>) { *p = *p + acc; }
fn main() {
  bump(&acc);
//     ^ T003 this pointer argument aliases 'acc', which the function uses
}

// === rejected: module via callee
var<workgroup> tile: array<f32, 64>;
fn read_tile() -> f32 { return tile[0]; }
fn store(p: ptr<workgroup, f32>) { *p = read_tile(); }
@compute @workgroup_size(64)
fn main() {
  store(&tile[3]);
//      ^ T003 this pointer argument aliases 'tile', which the function use
}

// === accepted: read read
fn add(a: ptr<function, f32>, b: ptr<function, f32>) -> f32 { return *a + *b; }
fn main() {
  var x = 1.0;
  let y = add(&x, &x);
}

// === rejected: through let and struct member
struct S { a: f32, b: f32 }
fn swap(a: ptr<function, f32>, b: ptr<function, f32>) { let t = *a; *a = *b; *b = t; }
fn main() {
  var s = S(1.0, 2.0);
  let pa = &s.a;
  swap(pa, &s.b);
//         ^ T003 this pointer argument aliases another pointer argument, and
}

// === rejected: atomics
@group(0) @binding(0) var<storage, read_write> counter: atomic<u32>;
fn add_twice(a: ptr<storage, atomic<u32>, read_write>, b: ptr<storage, atomic<u32>, read_write>) {
  atomicAdd(a, 1u);
  atomicAdd(b, 1u);
}
@compute @workgroup_size(1)
fn main() {
  add_twice(&counter, &counter);
//                    ^ T003 this pointer argument aliases another pointer argument, and
}

// === rejected: caller declared first
@compute @workgroup_size(1)
fn main() {
  var v = 0u;
  twice(&v, &v);
//          ^ T003 this pointer argument aliases another pointer argument, and
}
fn twice(a: ptr<function, u32>, b: ptr<function, u32>) { *a = 1u; *b = 2u; }

// === rejected: transitive param write
fn assign_one(p: ptr<function, u32>) { *p = 1u; }
fn via(a: ptr<function, u32>, b: ptr<function, u32>) { assign_one(a); let x = *b; }
fn main() {
  var v = 0u;
  via(&v, &v);
//        ^ T003 this pointer argument aliases another pointer argument, and
}

// === accepted: different vars
fn set2(a: ptr<function, u32>, b: ptr<function, u32>) { *a = *b; }
fn main() {
  var v = 0u;
  var w = 0u;
  set2(&v, &w);
}

// === accepted: module read only
var<private> acc: f32;
fn load_sum(p: ptr<private, f32>) -> f32 { return *p + acc; }
fn main() {
  let x = load_sum(&acc);
}

// === accepted: a pointer passed on without an access
fn size_of(p: ptr<storage, array<u32>, read_write>) -> u32 { return arrayLength(p); }
fn fill(p: ptr<storage, array<u32>, read_write>, q: ptr<storage, array<u32>, read_write>) {
  (*p)[0] = size_of(q);
}
@group(0) @binding(0) var<storage, read_write> data: array<u32>;
@compute @workgroup_size(1)
fn main() {
  fill(&data, &data);
}

// === accepted: a pointer copied into a let
fn touch(a: ptr<function, u32>, b: ptr<function, u32>) { let c = b; *a = 1u; }
fn main() {
  var v = 0u;
  touch(&v, &v);
}

// === rejected: a phony read
fn touch(a: ptr<function, u32>, b: ptr<function, u32>) { _ = *b; *a = 1u; }
fn main() {
  var v = 0u;
  touch(&v, &v);
//          ^ T003 this pointer argument aliases another pointer argument, and
}

// === rejected: compound assignment
fn touch(a: ptr<function, u32>, b: ptr<function, u32>) { *a += *b; }
fn main() {
  var v = 0u;
  touch(&v, &v);
//          ^ T003 this pointer argument aliases another pointer argument, and
}

// === rejected: workgroupUniformLoad against a write
var<workgroup> flag: u32;
fn check(p: ptr<workgroup, u32>) -> u32 { flag = 1u; return workgroupUniformLoad(p); }
@compute @workgroup_size(64)
fn main() {
  let x = check(&flag);
//              ^ T003 this pointer argument aliases 'flag', which the function wri
}

// === rejected: a parameter passed on to two pointer parameters
fn both(a: ptr<function, u32>, b: ptr<function, u32>) { *a = *b; }
fn via(p: ptr<function, u32>) { both(p, p); }
//                                      ^ T003 this pointer argument aliases another pointer argument, and
fn main() {
  var v = 0u;
  via(&v);
}
