// Statements in places where WGSL does not allow them.

// === continuing must come last in a loop
fn f() {
  var i = 0;
  loop {
    continuing {
      i++;
      break if i > 4;
    }
    i = 1;
//  ^ S003 'continuing' must be the last statement in the body of a 'loop': move this statement before
  }
}

// === continuing outside a loop
fn f() {
  var i = 0;
  continuing { i++; }
//^^^^^^^^^^ S003 'continuing' must be the last statement in the body of a 'loop'
}

// === break if outside continuing
fn f() {
  var i = 0;
  loop {
    break if i > 4;
//  ^^^^^ S003 'break if' must be the last statement in a 'continuing' block
  }
}

// === break if not last in continuing
fn f() {
  var i = 0;
  loop {
    continuing {
      break if i > 4;
//    ^ S003 'break if' must be the last statement in a 'continuing' block
      i++;
    }
  }
}

// === struct declared inside a function
fn f() {
  struct S { a: f32 }
//^^^^^^ S003 a struct cannot be declared inside a function body
}

// === loop with continuing and break if
fn f() {
  var i = 0;
  loop {
    i++;
    continuing {
      break if i >= 4;
    }
  }
}

// === all statement forms
@group(0) @binding(0) var<storage, read_write> data: array<u32>;
fn g(x: u32) -> u32 { return x; }
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
  var total = 0u;
  let index = id.x;
  const limit = 16u;
  for (var i = 0u; i < limit; i++) {
    if i == 3u { continue; } else if i == 9u { break; } else { total += i; }
  }
  while total > 100u { total -= 1u; }
  switch index {
    case 0u, 1u: { total *= 2u; }
    case 2u { total /= 2u; }
    case default, 5u { total %= 7u; }
  }
  loop {
    total <<= 1u;
    if total > 4096u { break; }
    continuing { total >>= 0u; total |= 1u; total &= 0xffffu; total ^= 2u; }
  }
  {
    total--;
  }
  _ = g(total);
  g(total);
  data[index] = total;
  const_assert limit > 2u;
  ;
  return;
}

// === statement attributes
@group(0) @binding(0) var<storage, read_write> data: array<f32>;
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) li: u32) {
  @diagnostic(off, derivative_uniformity) {
//^ T013 '@diagnostic' on a statement
//                 ^ A001 this suppression of 'derivative_uniformity' applies to no finding
    data[li] = 1.0;
  }
  for (var i = 0u; i < 4u; i++) @diagnostic(warning, derivative_uniformity) {
//                                                   ^ A001 this filter of 'derivative_uniformity' applies to no finding
    data[i] += 1.0;
  }
  loop @diagnostic(info, derivative_uniformity) {
//                       ^ A001 this filter of 'derivative_uniformity' applies to no finding
    break;
  }
}
