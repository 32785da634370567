// Functions and control flow: a return at the end of every value-returning
// function, loops that can exit, addresses of vector components, operators
// that take no matrix. Compilers decide the first two from the statements
// alone (WGSL's behavior analysis), without evaluating conditions.

// === every path returns
fn sign(x: i32) -> i32 {
  if x < 0 { return -1; } else if x > 0 { return 1; } else { return 0; }
}
fn pick(x: u32) -> u32 {
  switch x {
    case 0u: { return 10u; }
    default: { return 20u; }
  }
}
fn first() -> i32 {
  loop { return 1; }
}
fn forever() -> i32 {
  for (;;) { return 2; }
}

// === an empty function with a return type
fn f() -> i32 {
}
// <- T018 missing return at end of function 'f'

// === a return only inside an if
fn sign(x: i32) -> i32 {
  if x < 0 { return -1; }
}
// <- T018 missing return

// === a while loop can exit through its condition
fn f() -> f32 {
  while true {
    return 1.0;
  }
}
// <- T018 returns 'f32'

// === a switch case that breaks
fn f(x: u32) -> u32 {
  switch x {
    case 0u: { return 1u; }
    default: { break; }
  }
}
// <- T018 missing return

// === a loop with a break
fn f() -> i32 {
  loop {
    break;
  }
}
// <- T018 missing return

// === a missing return in an entry point
@fragment fn fs() -> @location(0) vec4f {
  _ = 1;
}
// <- T018 missing return

// === statements after a return are not needed
fn f(x: i32) -> i32 {
  return x;
  _ = 2;
}

// === a loop that exits with break if, and one that exits with break
fn f(n: u32) {
  var i = 0u;
  loop {
    if i >= n { break; }
    i++;
  }
  loop {
    i--;
    continuing { break if i == 0u; }
  }
  while true {
    if i > 4u { break; }
    i++;
  }
}

// === a loop without a way out
fn f() {
  var i = 0;
  loop {
//^ T019 loop does not exit
    i++;
  }
}

// === a loop that only continues
fn f() {
  var i = 0;
  loop {
//^ T019 loop does not exit
    i++;
    continue;
  }
}

// === a break that leaves only the inner loop
fn f() {
  loop {
//^ T019 loop does not exit
    loop { break; }
  }
}

// === a break that leaves only a switch
fn f(x: i32) {
  loop {
//^ T019 loop does not exit
    switch x { default: { break; } }
  }
}

// === a for loop without a condition or a break
fn f() {
  var n = 0u;
  for (;;) {
//^ T019 for-loop does not exit
    n++;
  }
}

// === an endless loop after a return is still an error
fn f() {
  return;
  loop { }
//^ T019 loop does not exit
}

// === the address of a vector component
fn f() {
  var v: vec4f;
  let p = &v.x;
//         ^ T003 cannot take the address of a vector component
}

// === the address of a vector element by index
fn f(i: u32) {
  var v: vec4f;
  let p = &v[i];
//         ^ T003 address of a vector component
}

// === the address of a swizzle
fn f() {
  var v: vec4f;
  let p = &v.xy;
//         ^ T003 address of a vector component
}

// === the address of a matrix column component
fn f() {
  var m: mat2x2f;
  let p = &m[0][1];
//         ^ T003 address of a vector component
}

// === the address of a matrix column and an array element
fn f() {
  var m: mat2x2f;
  var a: array<vec4f, 4>;
  let column = &m[0];
  let element = &a[1];
  (*column).x = 1.0;
  (*element)[2] = 2.0;
}

// === a negated matrix, for Tint
enable chromium_experimental_subgroup_matrix;
fn f() {
  let m = mat2x2f();
  let n = -m;
//        ^ T004 no matching overload for unary operator '-' on a matrix
}

// === a negated matrix, no target
fn f() {
  let m = mat2x2f();
  let n = -m;
//        ^ T013 only naga (wgpu) accepts it
}
// tint: differs -- naga negates matrices and Tint does not; with no target it is a portability warning

// === a matrix scaled by minus one
fn f() {
  let m = mat2x2f();
  let n = m * -1.0;
}

// === a loop that returns from a nested switch
fn find(x: u32) -> u32 {
  loop {
    switch x {
      case 1u: { return 1u; }
      default: { return 0u; }
    }
  }
}

// === a for loop with a condition needs no break
fn sum(n: u32) -> u32 {
  var total = 0u;
  for (var i = 0u; i < n; i++) {
    total += i;
  }
  return total;
}

// === discard does not end a fragment shader's path
@fragment fn fs(@location(0) alpha: f32) -> @location(0) vec4f {
  if alpha < 0.5 {
    discard;
  }
  return vec4f(alpha);
}

// === break outside a loop or switch
fn f() {
  break;
//^ T021 'break' must be in a loop or a switch case
}

// === continue in a switch outside any loop
fn f(x: i32) {
  switch x {
    default: {
      continue;
//    ^ T021 'continue' must be in a loop
    }
  }
}

// === continue in a switch inside a loop
fn f(x: i32) {
  for (var i = 0; i < 4; i++) {
    switch x {
      case 0: { continue; }
      default: { }
    }
  }
}

// === return in a continuing block
fn f() {
  loop {
    continuing {
      return;
//    ^ T021 continuing blocks must not contain a 'return'
    }
  }
}

// === break in a continuing block
fn f() {
  var i = 0;
  loop {
    continuing {
      i++;
      if i > 3 { break; }
//               ^ T021 use 'break if'
    }
  }
}

// === a loop inside a continuing block may break and continue
fn f() {
  var i = 0;
  loop {
    continuing {
      loop {
        i++;
        if i % 2 == 0 { continue; }
        break;
      }
      break if i > 8;
    }
  }
}

// === discard in a compute shader
@compute @workgroup_size(1) fn main() {
  discard;
//^ T021 'discard' cannot be used in a compute shader
}

// === a while loop with continue and break
fn count(n: u32) -> u32 {
  var i = 0u;
  var odd = 0u;
  while i < n {
    i++;
    if i % 2u == 0u { continue; }
    if odd > 100u { break; }
    odd++;
  }
  return odd;
}

// === discard in a fragment shader helper
fn clip(alpha: f32) {
  if alpha < 0.1 { discard; }
}
@fragment fn fs(@location(0) alpha: f32) -> @location(0) vec4f {
  clip(alpha);
  return vec4f(alpha);
}

// === a switch without a default
fn f(x: i32) {
  switch x {
//^ T022 must have exactly one default clause
    case 1: { }
  }
}

// === a switch with two defaults
fn f(x: i32) {
  switch x {
    case 1, default: { }
    default: { }
//  ^ T022 exactly one default clause
  }
}

// === a case value twice
fn f(x: u32) {
  switch x {
    case 1u, 2u: { }
    case 2u: { }
//       ^ T022 duplicate switch case '2'
    default: { }
  }
}

// === a case of another type than the selector
fn f(x: i32) {
  switch x {
    case 1u: { }
//       ^ T003 the case selector values must have the same type as the selector expression
    default: { }
  }
}

// === abstract case values take the selector's type
fn f(x: u32) -> u32 {
  switch x {
    case 0, 1: { return 10u; }
    case 2u, 3: { return 20u; }
    default: { return 0u; }
  }
}

// === a function that calls itself
fn fact(n: u32) -> u32 {
// ^ T001 cyclic dependency: 'fact' -> 'fact'
  if n < 2u { return 1u; }
  return n * fact(n - 1u);
}

// === functions that call each other
fn even(n: u32) -> bool {
// ^ T001 'even' -> 'odd' -> 'even'
  if n == 0u { return true; }
  return odd(n - 1u);
}
fn odd(n: u32) -> bool {
  if n == 0u { return false; }
  return even(n - 1u);
}

// === an entry point called as a function
@compute @workgroup_size(1) fn main() { }
fn again() {
  main();
//^ T003 entry points cannot be called
}

// === a workgroup barrier in a fragment shader
@fragment fn fs() -> @location(0) vec4f {
  workgroupBarrier();
//^ T003 can only be used in compute shaders
  return vec4f(0.0);
}

// === a chain of helpers without a cycle
fn leaf(x: f32) -> f32 { return x * 2.0; }
fn middle(x: f32) -> f32 { return leaf(x) + leaf(x + 1.0); }
fn top(x: f32) -> f32 { return middle(x) * middle(leaf(x)); }

// === a switch on an i32 with negative cases and default among them
fn f(x: i32) -> i32 {
  switch x {
    case -1, default: { return 0; }
    case -2: { return 1; }
    case 3: { return 2; }
  }
}

// === barriers in a helper of a compute shader
var<workgroup> partial: array<f32, 64>;
fn reduce(i: u32) {
  workgroupBarrier();
  if i < 32u { partial[i] += partial[i + 32u]; }
  workgroupBarrier();
}
@compute @workgroup_size(64) fn main(@builtin(local_invocation_index) i: u32) {
  partial[i] = f32(i);
  reduce(i);
}

// === an endless loop in the wgpu dialect
enable wgpu_cooperative_matrix;
fn spin() {
  loop { }
}
// tint: skip -- Tint does not know the wgpu dialect; naga accepts a loop without an exit
