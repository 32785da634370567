/* A file comment
   over two lines, with its own /* nested */ comment. */
enable f16; // trailing on a directive

// Before a function, attached to it.
fn f(
    a: f32, // the first
    /* between */ b: f32
) -> f32 { // after the brace
    let x = a + /* inline */ b;

    // Two blank lines above become one.
    return x; /* last */
    // Just before the closing brace.
}

struct S {
    a: f32, // after a member
    // before a member
    b: f32,
}

// At the very end.
