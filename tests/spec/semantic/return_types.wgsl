// Return types that are not constructible (Tint: 'function return type must be a constructible type').

// === rejected: atomic, with no return
fn f() -> atomic<u32> { }
//        ^ T003 a function cannot return 'atomic<u32>': return types must be
//                      ^ T018 missing return at end of function 'f': control can reach the

// === rejected: a pointer
fn f(p: ptr<function, u32>) -> ptr<function, u32> { return p; }
//                             ^ T003 a function cannot return 'ptr<function, u32, read_write>': r

// === rejected: a texture
@group(0) @binding(0) var t: texture_2d<f32>;
fn f() -> texture_2d<f32> { return t; }
//        ^ T003 a function cannot return 'texture_2d<f32>': return types mus

// === rejected: a runtime-sized array
@group(0) @binding(0) var<storage> data: array<u32>;
fn f() -> array<u32> { return data; }
//        ^ T003 a function cannot return 'array<u32>': return types must be
