// WGSL's operator rules: some operators cannot be mixed without parentheses.

// === bitwise and with bitwise or
fn f(a: u32, b: u32, c: u32) -> u32 {
  return a & b | c;
//             ^ S002 mixing '&' and '|' requires parentheses
}

// === bitwise chains of one operator are fine
fn f(a: u32, b: u32, c: u32) -> u32 {
  return a & b & c | 0u;
//                 ^ S002 mixing '&' and '|'
}

// === same-operator bitwise chain
fn f(a: u32, b: u32, c: u32) -> u32 {
  return (a & b & c) | (a ^ b ^ c);
}

// === xor with addition
fn f(a: u32, b: u32, c: u32) -> u32 {
  return a ^ b + c;
//         ^ S002 mixing '+' and '^' requires parentheses
}

// === logical and with logical or
fn f(a: bool, b: bool, c: bool) -> bool {
  return a && b || c;
//              ^ S002 mixing '&&' and '||' requires parentheses
}

// === logical operators over comparisons are fine
fn f(a: i32, b: i32) -> bool {
  return a < b && b > 0 && a != 3;
}

// === chained comparison
fn f(a: i32, b: i32, c: i32) -> bool {
  return a < b < c;
//             ^ S002 comparisons cannot be chained
}

// === equality of two comparisons reads as a template list
// WGSL's template-list discovery takes `a < b == b >` as a template list
// (nothing between `<` and `>` stops it), so this is a syntax error, not a
// chained comparison.
fn f(a: i32, b: i32) -> bool {
  return a < b == b > 0;
//                   ^ S001 expected
}

// === parenthesized comparisons
fn f(a: i32, b: i32) -> bool {
  return (a < b) == (b > 0);
}

// === shift of a sum
fn f(a: u32, b: u32) -> u32 {
  return a + b << 2u;
//             ^ S002 the operands of '<<' must be unary expressions
}

// === shift of a shift
fn f(a: u32) -> u32 {
  return a << 1u << 2u;
//               ^ S002 the operands of '<<' must be unary expressions
}

// === shift with unary operands
fn f(a: u32) -> u32 {
  return (a + 1u) << (a & 3u) >> 0u;
//                            ^ S002 the operands of '>>' must be unary expressions
}

// === shift compared and added
fn f(a: u32) -> bool {
  return a << 1u > a + 2u * a;
}

// === bitwise and of a comparison
fn f(a: bool, b: i32) -> bool {
  return a & b > 0;
//         ^ S002 mixing '>' and '&' requires parentheses
}

// === arithmetic precedence without parentheses
fn f(a: f32, b: f32, c: f32) -> f32 {
  return a + b * c - a / b % c - -a;
}

// === unary operators
fn f(a: i32, b: bool, p: ptr<function, i32>) -> i32 {
  let q = &(*p);
  return -a + ~a * i32(!b) + *q;
}
