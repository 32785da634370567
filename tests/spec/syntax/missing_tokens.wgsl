// Missing and unexpected tokens: the message names what is missing and where.

// === missing semicolon after let
fn f() {
  let x = 1
//         ^ S001 expected ';' after 'let' declaration
}

// === missing semicolon after var with later statements
fn f() -> i32 {
  var x = 1
//         ^ S001 expected ';' after 'var' declaration
  x = 2;
  return x;
}

// === missing semicolon after assignment on the same line
fn f() {
  var x = 1;
  var y = 2;
  x = 1 y = 2;
//     ^ S001 expected ';' after assignment
}

// === missing semicolon after return
fn f() -> i32 {
  return 1
//        ^ S001 expected ';' after 'return' statement
}

// === missing semicolon after module-scope const
const N = 4
//         ^ S001 expected ';'
const M = 5;

// === missing closing parenthesis in a call
fn g(a: i32, b: i32) {}
fn f() {
  g(1, 2;
//      ^ S001 expected ')' to close the '('
}

// === missing closing parenthesis in parameters
fn f(a: i32 {
//         ^ S001 expected ')' to close the '('
}

// === missing comma between struct members
struct S {
  a: f32
//      ^ S001 expected ','
  b: u32,
}

// === missing expression after operator
fn f() {
  var x = 1;
  x = x + ;
//       ^ S001 expected an expression
}

// === missing initializer
fn f() {
  let x = ;
//       ^ S001 expected an expression
}

// === missing closing brace before the next function
fn f() {
  if true {
    let x = 1;
}
fn g() {}
// <- S003 is a '}' missing to close the body of 'f'
//       ^ S001 expected '}'


// === unclosed template list
var<private a: f32;
//         ^ S001 expected '>'

// === stray closing brace
fn f() {
}
}
// <- S001 unexpected '}'

// === keyword used as a name
fn f() {
  let loop = 1;
//    ^ S001 'loop' is a keyword in WGSL and cannot be used as a name
}

// === reserved word used as a name
fn f() {
  var self = 1;
//    ^ S001 'self' is a reserved word
}

// === underscore alone is not a name
fn f() {
  var _ = 2;
//    ^ S001 '_' alone is not a name
}

// === double underscore prefix is reserved
fn f() {
  let __x = 2;
//    ^ S001 names starting with '__' are reserved
}
