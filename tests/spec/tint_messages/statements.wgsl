// Cases for Tint's statement and function errors (issue 18): each makes the pinned Tint report
// the named message first, and coop-lint agree with it on the verdict and the first error line.

// === resolver:function-scope-var-declaration-must-use-function
fn f() {
  var<private> x: u32;
//^ T003 a variable inside a function must be in the 'function' addre
}

// === resolver:case-selector-must-be-a-constant-expression
fn f(x: u32, y: u32) {
  switch x {
    case y: {}
//       ^ T014 a case selector must be a constant expression
    default: {}
  }
}

// === resolver:var-cannot-be-referenced-at-module-scope
var<private> v: u32 = 1u;
const c = v;
//        ^ T003 'var v' cannot be referenced at module scope: module-scope e

// === validator:function-scope-var-must-have-a-constructible
fn f() {
  var a: atomic<u32>;
//       ^ T003 atomic types can only live in 'storage' or 'workgroup' memor
}

// === validator:module-scope-var-must-not-use-address
var<function> x: u32;
//  ^ T017 a module-scope 'var' cannot be in the 'function' address spa

// === validator:var-of-address-space-cannot-have-an
var<workgroup> tile: u32 = 0u;
//                         ^ T017 a 'workgroup' variable cannot have an initializer; only 'pri

// === validator:type-of-function-parameter-must-be-constructible
fn f(a: atomic<u32>) {}
//      ^ T003 a function parameter cannot have the type 'atomic<u32>': par

// === validator:must_use-can-only-be-applied-to-functions
@must_use
// <- T023 '@must_use' can only be applied to functions that return a v
fn f() {}

// === validator:missing-return-at-end-of-function
fn f(x: u32) -> u32 {
  if x > 0u { return 1u; }
}
// <- T018 missing return at end of function 'f': control can reach the

// === validator:break-statement-must-be-in-a-loop
fn f() {
  break;
//^ T021 'break' must be in a loop or a switch case
}

// === validator:break-must-not-be-used-to-exit
fn f() {
  loop {
    continuing {
      break;
//    ^ T021 'break' must not be used to leave a continuing block; use 'b
    }
  }
}

// === validator:continuing-blocks-must-not-contain-a-continue
fn f() {
  var i = 0u;
  loop {
    if i > 4u { break; }
    continuing {
      i = i + 1u;
      continue;
//    ^ T021 continuing blocks must not contain a 'continue'
    }
  }
}

// === validator:continue-statement-must-be-in-a-loop
fn f() {
  continue;
//^ T021 'continue' must be in a loop
}

// === validator:ignoring-return-value-of-function-annotated-with
@must_use
fn g() -> u32 { return 1u; }
fn f() {
  g();
//^ T015 ignoring the result of 'g', which is declared '@must_use'; a
}

// === validator:value-conversion-evaluated-but-not-used
fn f() {
  f32(1u);
//^ T015 value conversion evaluated but not used
}

// === validator:value-constructor-evaluated-but-not-used
fn f() {
  vec2<f32>(1.0, 2.0);
//^ T015 value constructor evaluated but not used
}

// === validator:loop-does-not-exit
fn f() {
  loop { }
//^ T019 loop does not exit: nothing in it breaks out or returns
}

// === validator:for-loop-does-not-exit
fn f() {
  for (;;) { }
//^ T019 for-loop does not exit: nothing in it breaks out or returns
}

// === validator:break-if-statement-condition-must-be-bool
fn f() {
  var i = 0u;
  loop {
    continuing {
      i = i + 1u;
      break if i;
//             ^ T003 'break if' condition must be 'bool', not 'u32'
    }
  }
}

// === validator:builtin-function-does-not-return-a-value
@compute @workgroup_size(64)
fn main() {
  let x = workgroupBarrier();
//        ^ T003 function 'workgroupBarrier' does not return a value, so its
}

// === validator:the-sourcelaneindex-argument-of-subgroupbroadcast-must-be
enable subgroups;
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) li: u32) {
  let x = subgroupBroadcast(li, -1);
//                              ^ T014 the 'id' argument of 'subgroupBroadcast' must be greater tha
}

// === validator:the-id-argument-of-quadbroadcast-must-be
enable subgroups;
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) li: u32) {
  let x = quadBroadcast(li, -1);
//                          ^ T014 the 'id' argument of 'quadBroadcast' must be greater than or
}

// === validator:function-does-not-return-a-value
fn g() {}
fn f() {
  let x = g();
//        ^ T003 function 'g' does not return a value, so its call cannot be
}

// === validator:continuing-blocks-must-not-contain-a-return
fn f() {
  loop {
    continuing {
      return;
//    ^ T021 continuing blocks must not contain a 'return'
    }
  }
}

// === validator:switch-statement-selector-expression-must-be-of
fn f(x: f32) {
  switch x {
//       ^ T003 switch selector must be an integer, not 'f32'
    default: {}
  }
}

// === validator:switch-statement-must-have-exactly-one-default
fn f(x: u32) {
  switch x {
    default: {}
    default: {}
//  ^ T022 a switch statement must have exactly one default clause
  }
}

// === validator:the-case-selector-values-must-have-the
fn f(x: u32) {
  switch x {
    case 1i: {}
//       ^ T003 the case selector values must have the same type as the sele
    default: {}
  }
}

// === validator:duplicate-switch-case
fn f(x: u32) {
  switch x {
    case 1u: {}
    case 1u: {}
//       ^ T022 duplicate switch case '1'
    default: {}
  }
}

// === validator:switch-statement-must-have-a-default-clause
fn f(x: u32) {
  switch x {
//^ T022 a switch statement must have exactly one default clause; add
    case 1u: {}
  }
}

// === validator:cannot-assign-to-_-_-can-only
@group(0) @binding(0) var<storage, read_write> data: array<u32>;
fn f() {
  _ = data;
//    ^ T003 cannot assign 'array<u32>' to '_': '_' takes constructible v
}

// === validator:storage-type-of-assignment-must-be-constructible
@group(0) @binding(0) var<storage, read_write> a: atomic<u32>;
@group(0) @binding(1) var<storage, read_write> b: atomic<u32>;
fn f() {
  a = b;
//^ T003 atomics are written with atomicStore(), not '='
}

// === validator:cannot-assign-to-vector-swizzle-with-duplicate
fn f() {
  var v = vec4<f32>();
  v.xx = vec2<f32>(1.0, 2.0);
//  ^ T003 cannot assign to the swizzle 'xx': it names a component twic
}

// === resolver:case-selector-must-be-an-i32-or
fn f(x: i32) {
  switch x {
    case 1f: {}
//       ^ T003 a case selector must be an integer constant, not 'f32'
    default: {}
  }
}

// === validator:cannot-modify-function-parameter
fn f(x: u32) {
  x++;
//^ T003 cannot assign: 'x' is a parameter, not a variable
}

// === validator:cannot-modify-let
fn f() {
  let x = 1u;
  x++;
//^ T003 cannot assign: 'x' is a let, not a variable
}

// === validator:cannot-modify-override
override n: u32 = 4u;
fn f() {
  n++;
//^ T003 cannot assign: 'n' is an override, not a variable
}

// === validator:cannot-modify-value-of-type
const c = 1u;
fn f() {
  c++;
//^ T003 cannot assign: 'c' is a const, not a variable
}

// === validator:cannot-modify-read-only-type
@group(0) @binding(0) var<storage, read> data: array<u32>;
fn f() {
  data[0]++;
//^ T003 cannot assign through a read-only reference ('storage' memor
}

// === validator:too-arguments-in-call-to-expected-got
fn scale(v: f32, by: f32) -> f32 { return v * by; }
@compute @workgroup_size(64)
fn main() {
  let x = scale(1.0);
//        ^ T004 'scale' takes 2 arguments, not 1
}

// === validator:user-declared-functions-cannot-be-called-at
fn tile_size() -> u32 { return 16u; }
var<private> tile: u32 = tile_size();
//                       ^ T003 'tile_size' cannot be called here: module-scope initializers
@compute @workgroup_size(64)
fn main() {
  tile = tile + 1u;
}

// === resolver:continue-statement-bypasses-declaration-of
@group(0) @binding(0) var<storage, read_write> data: array<f32>;
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  var i = gid.x;
  loop {
    if data[i] < 0.0 { continue; }
//                     ^ T021 this 'continue' skips the declaration of 'stride', which the
    let stride = 64u;
    data[i] = sqrt(data[i]);
    continuing {
      i = i + stride;
      break if i >= arrayLength(&data);
    }
  }
}

// === resolver:invalid-aliased-pointer-argument
fn accumulate(sum: ptr<function, f32>, value: ptr<function, f32>) {
  *sum = *sum + *value;
}
@compute @workgroup_size(64)
fn main() {
  var total = 1.0;
  accumulate(&total, &total);
//                   ^ T003 this pointer argument aliases another pointer argument, and
}

// === validator:function-return-type-must-be-a-constructible
@group(0) @binding(0) var<storage, read_write> counter: atomic<u32>;
fn current_count() -> atomic<u32> {
//                    ^ T003 a function cannot return 'atomic<u32>': return types must be
  return counter;
}
