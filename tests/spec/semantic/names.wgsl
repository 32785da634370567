// Name resolution: scopes, shadowing, order independence, duplicates,
// struct members and aliases. Plain WGSL: every case is also compiled by Tint.

// === module scope is order independent
fn f() -> u32 { return helper(N); }
fn helper(x: u32) -> u32 { return x * 2u; }
const N: u32 = 4u;

// === struct used before its declaration
@group(0) @binding(0) var<storage, read_write> data: Params;
struct Params { n: u32, scale: f32 }
fn f() -> f32 { return data.scale * f32(data.n); }

// === alias used before its declaration
fn f() -> Vec { return Vec(1.0, 2.0, 3.0, 4.0); }
alias Vec = vec4<f32>;

// === const referring to a later const
const A: u32 = B * 2u;
const B: u32 = 8u;
const_assert A == 16u;

// === unresolved identifier in an expression
fn f() -> u32 {
  return count + 1u;
//       ^ T001 'count'
}

// === unresolved type name
fn f() {
  var x: bf16;
//       ^ T001 'bf16'
}
// tint: unresolved type 'bf16'

// === unresolved function
fn f() {
  let x = mystery(1.0);
//        ^ T001 'mystery'
}

// === misspelled builtin function
fn f(x: f32) -> f32 {
  return sqr(x);
//       ^ T001 'sqr'
}

// === misspelled builtin type
fn f() {
  var v: vec3<f23>;
//            ^ T001 'f23'
}

// === let is not visible after its block
fn f() -> i32 {
  {
    let inner = 3;
  }
  return inner;
//       ^ T001 'inner'
}

// === function scope let is not visible in another function
fn g() { let local = 1; }
fn f() -> i32 {
  return local;
//       ^ T001 'local'
}

// === use before declaration inside a function
fn f() -> i32 {
  let a = b;
//        ^ T001 'b'
  let b = 2;
  return a;
}

// === a variable is not in scope in its own initializer
fn f() {
  var x = x + 1;
//        ^ T001 'x'
}

// === for loop variable is scoped to the loop
fn f() -> i32 {
  var s = 0;
  for (var i = 0; i < 4; i++) { s += i; }
  return s + i;
//           ^ T001 'i'
}

// === for loop variable visible in condition, update and body
fn f() -> i32 {
  var s = 0;
  for (var i = 0; i < 4; i++) { s += i; }
  return s;
}

// === duplicate const at module scope
const N = 4;
const N = 8;
//    ^ T002 'N'

// === duplicate function
fn f() {}
fn f() {}
// ^ T002 'f'

// === duplicate struct and function names
struct Thing { a: u32 }
fn Thing() {}
// ^ T002 'Thing'

// === duplicate alias and var
alias T = u32;
var<private> T: u32;
//           ^ T002 'T'

// === duplicate let in one block
fn f() {
  let a = 1;
  let a = 2;
//    ^ T002 'a'
}

// === duplicate parameter
fn f(a: i32, a: i32) {}
//           ^ T002 'a'

// === a let may not redeclare a parameter
fn f(a: i32) {
  let a = 2;
//    ^ T002 'a'
}

// === shadowing in an inner block is allowed
fn f() -> i32 {
  let a = 1;
  {
    let a = 2.0;
    _ = a;
  }
  return a;
}

// === a local may shadow a module-scope name
const limit = 10;
fn f() -> i32 {
  let limit = 3;
  return limit;
}

// === a local may shadow a builtin function
fn f() -> f32 {
  let max = 2.0;
  return max;
}

// === a module-scope declaration may shadow a builtin type alias
alias vec4f = vec4<i32>;
fn f() -> vec4f { return vec4f(1, 2, 3, 4); }

// === a user function may shadow a builtin function
fn clamp(x: f32) -> f32 { return x; }
fn f() -> f32 { return clamp(2.0); }

// === shadowed builtin is not callable with the builtin's signature
fn min(x: u32) -> u32 { return x; }
fn f() -> u32 {
  return min(1u, 2u);
//       ^ T004 'min'
}
// tint: too many arguments in call to 'min'

// === struct member access
struct S { a: u32, b: vec2<f32> }
fn f(s: S) -> f32 { return s.b.y + f32(s.a); }

// === unknown struct member
struct S { a: u32 }
fn f(s: S) -> u32 {
  return s.c;
//         ^ T001 'c'
}

// === duplicate struct member
struct S {
  a: u32,
  a: f32,
//^ T002 'a'
}

// === alias of an alias
alias A = vec2<u32>;
alias B = A;
fn f() -> B { return B(1u, 2u); }

// === alias to an unresolved type
alias Bad = vec2<half>;
//               ^ T001 'half'

// === recursive alias is a cycle
alias A = array<B, 2>;
//    ^ T001 cyclic
alias B = A;
// tint: cyclic dependency found: 'A' -> 'B' -> 'A', at the first alias

// === a struct member's type names a function that uses the struct: a cycle, at the function declared first
fn f() { var s: S; }
// ^ T001 cyclic dependency: 'f' -> 'S' -> 'f'; a declaration cannot name a function that uses it
struct S { m: f }
//            ^ T003 'f' is a function, not a type

// === the cycle runs through another struct that holds the one naming the function
fn f() { var t: T; }
// ^ T001 cyclic dependency: 'f' -> 'T' -> 'S' -> 'f'
struct T { s: S }
struct S { m: f }
//            ^ T003 'f' is a function, not a type

// === a variable of a struct whose member names a function that uses the variable
var<private> v: S;
//           ^ T001 cyclic dependency: 'v' -> 'S' -> 'f' -> 'v'
struct S { m: f }
//            ^ T003 'f' is a function, not a type
fn f() { v = S(); }
// tint: cyclic dependency found: 'v' -> 'S' -> 'f' -> 'v', the first cycle in source order (not 'S' -> 'f' -> 'S')

// === a const initialized by a call of a function that reads the const
fn f() -> i32 { return c; }
// ^ T001 cyclic dependency: 'f' -> 'c' -> 'f'
const c: i32 = f();
//             ^ T003 'f' cannot be called here

// === an alias of a function named in a function that uses the alias
fn f() { var a: A; }
// ^ T001 cyclic dependency: 'f' -> 'A' -> 'f'
alias A = f;
//        ^ T003 'f' is a function, not a type

// === functions that use a struct, a variable of it and a const form no cycle
fn g() -> i32 { return f().m + c; }
var<private> v: S;
fn f() -> S { v.m = 1; return v; }
struct S { m: i32 }
const c = 2;

// === an alias sized by a const, used in a function's signature and body: no cycle
fn f() -> A { var a: A; return a; }
alias A = array<i32, N>;
const N = 4;

// === a local named like the struct the function uses is no cycle
fn f() -> i32 { let S = 1; return T(S).m; }
struct T { m: i32 }

// === a call cycle is reported at the function the walk from the first declaration comes back to
fn a() { b(); }
fn c() { b(); }
fn b() { c(); }
// ^ T001 cyclic dependency: 'b' -> 'c' -> 'b'
// tint: cyclic dependency found: 'b' -> 'c' -> 'b', at b (not at c, declared earlier)

// === a cycle is reported even where a name is unresolved
fn g() { g(); }
// ^ T001 cyclic dependency: 'g' -> 'g'
fn main() { var x: Q; }
//                 ^ T001 unresolved type 'Q'
// tint: only the cycle: Tint looks for cycles before it resolves names

// === a struct naming a function that does not use it is no cycle
struct S { m: f }
//            ^ T003 'f' is a function, not a type
fn f() { let S = 1; _ = S; }

// === using a function as a value
fn g() -> i32 { return 1; }
fn f() -> i32 {
  return g;
//       ^ T003 'g'
}

// === calling a variable
fn f() -> i32 {
  let a = 1;
  return a();
//       ^ T003 'a'
}

// === using a type as a value
fn f() -> i32 {
  return i32;
//       ^ T003 'i32'
}

// === struct declared in a function body is unknown outside
fn f() {
  var p: Point;
//       ^ T001 'Point'
}

// === parameters shadow module-scope names
const x = 1.0;
fn f(x: u32) -> u32 { return x + 1u; }

// === loop-local declarations in each iteration
fn f() -> u32 {
  var total = 0u;
  loop {
    let step = 2u;
    total += step;
    if total > 10u { break; }
    continuing { let unused = total; _ = unused; }
  }
  return total;
}
