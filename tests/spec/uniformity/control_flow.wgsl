// Uniformity of control flow: if/else chains, early return, switch, nested
// branches, and values declared in branches. Every verdict, first-error line
// and note is cross-checked against Tint (wgpudawn 0.32).

// === barrier at top level is fine
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) li: u32) {
  workgroupBarrier();
  storageBarrier();
}

// === barrier in if on local_invocation_index
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) li: u32) {
  if li < 32u {
    workgroupBarrier();
//  ^ U001 'workgroupBarrier' must only be called from uniform control flow
  }
}

// === barrier in else branch
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) li: u32) {
  if li < 32u {
  } else {
    storageBarrier();
//  ^ U001 'storageBarrier' must only be called from uniform control flow
  }
}

// === barrier in else if chain
@compute @workgroup_size(64)
fn main(@builtin(workgroup_id) wg: vec3u, @builtin(local_invocation_index) li: u32) {
  if wg.x == 0u {
    workgroupBarrier();
  } else if li == 3u {
    workgroupBarrier();
  } else {
    workgroupBarrier();
//  ^ U001 'workgroupBarrier' must only be called from uniform control flow
  }
}

// === else if on uniform value is fine
@compute @workgroup_size(64)
fn main(@builtin(workgroup_id) wg: vec3u) {
  if wg.x == 0u {
    workgroupBarrier();
  } else if wg.y == 1u {
    workgroupBarrier();
  } else {
    storageBarrier();
  }
}

// === barrier after non-uniform early return
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) li: u32) {
  if li >= 60u {
    return;
  }
  workgroupBarrier();
//^ U001 'workgroupBarrier' must only be called from uniform control flow
}

// === barrier after uniform early return is fine
@compute @workgroup_size(64)
fn main(@builtin(workgroup_id) wg: vec3u) {
  if wg.x >= 60u {
    return;
  }
  workgroupBarrier();
}

// === barrier after if without return is fine
@group(0) @binding(0) var<storage, read_write> out: array<u32>;
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) li: u32) {
  if li >= 60u {
    out[li] = 1u;
  }
  workgroupBarrier();
}

// === return in else branch poisons the rest
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) li: u32) {
  if li < 60u {
  } else {
    return;
  }
  storageBarrier();
//^ U001 'storageBarrier' must only be called from uniform control flow
}

// === nested ifs, inner non-uniform
@compute @workgroup_size(64)
fn main(@builtin(workgroup_id) wg: vec3u, @builtin(local_invocation_id) lid: vec3u) {
  if wg.x > 2u {
    if lid.x > 2u {
      workgroupBarrier();
//    ^ U001 'workgroupBarrier' must only be called from uniform control flow
    }
  }
}

// === nested ifs, outer non-uniform
@compute @workgroup_size(64)
fn main(@builtin(workgroup_id) wg: vec3u, @builtin(local_invocation_id) lid: vec3u) {
  if lid.y > 2u {
    if wg.x > 2u {
      workgroupBarrier();
//    ^ U001 'workgroupBarrier' must only be called from uniform control flow
    }
  }
}

// === switch on non-uniform selector, barrier in case
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) li: u32) {
  switch li {
    case 0u: {
      workgroupBarrier();
//    ^ U001 'workgroupBarrier' must only be called from uniform control flow
    }
    default: {
    }
  }
}

// === switch on non-uniform selector, barrier in default
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) li: u32) {
  switch li % 4u {
    case 0u, 1u: {
    }
    default: {
      workgroupBarrier();
//    ^ U001 'workgroupBarrier' must only be called from uniform control flow
    }
  }
}

// === switch on uniform selector is fine
@compute @workgroup_size(64)
fn main(@builtin(workgroup_id) wg: vec3u) {
  switch wg.x {
    case 0u: {
      workgroupBarrier();
    }
    case 1u, 2u: {
      storageBarrier();
    }
    default: {
      workgroupBarrier();
    }
  }
}

// === switch with non-uniform return, barrier after
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) li: u32) {
  switch li {
    case 7u: {
      return;
    }
    default: {
    }
  }
  workgroupBarrier();
//^ U001 'workgroupBarrier' must only be called from uniform control flow
}

// === switch with break only, barrier after is fine
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) li: u32) {
  switch li {
    case 7u: {
      break;
    }
    default: {
    }
  }
  workgroupBarrier();
}

// === let in branch from non-uniform value
@compute @workgroup_size(64)
fn main(@builtin(workgroup_id) wg: vec3u, @builtin(local_invocation_index) li: u32) {
  if wg.x == 0u {
    let v = li * 2u;
    if v > 4u {
      workgroupBarrier();
//    ^ U001 'workgroupBarrier' must only be called from uniform control flow
    }
  }
}

// === var assigned non-uniform in one branch
@compute @workgroup_size(64)
fn main(@builtin(workgroup_id) wg: vec3u, @builtin(local_invocation_index) li: u32) {
  var v = 0u;
  if wg.x == 0u {
    v = li;
  }
  if v > 4u {
    workgroupBarrier();
//  ^ U001 'workgroupBarrier' must only be called from uniform control flow
  }
}

// === var assigned uniform in non-uniform branch
@compute @workgroup_size(64)
fn main(@builtin(workgroup_id) wg: vec3u, @builtin(local_invocation_index) li: u32) {
  var v = 0u;
  if li == 0u {
    v = wg.x;
  }
  if v > 4u {
    workgroupBarrier();
//  ^ U001 'workgroupBarrier' must only be called from uniform control flow
  }
}

// === var overwritten with uniform value is fine
@compute @workgroup_size(64)
fn main(@builtin(workgroup_id) wg: vec3u, @builtin(local_invocation_index) li: u32) {
  var v = li;
  v = wg.x;
  if v > 4u {
    workgroupBarrier();
  }
}

// === var assigned in both branches uniformly
@compute @workgroup_size(64)
fn main(@builtin(workgroup_id) wg: vec3u) {
  var v: u32;
  if wg.x == 0u {
    v = 1u;
  } else {
    v = 2u;
  }
  if v > 1u {
    workgroupBarrier();
  }
}

// === compound assignment keeps non-uniformity
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) li: u32) {
  var v = li;
  v += 1u;
  if v > 1u {
    workgroupBarrier();
//  ^ U001 'workgroupBarrier' must only be called from uniform control flow
  }
}

// === increment of uniform var is fine
@compute @workgroup_size(64)
fn main(@builtin(workgroup_id) wg: vec3u) {
  var v = wg.x;
  v++;
  if v > 1u {
    workgroupBarrier();
  }
}

// === vector component from non-uniform
@compute @workgroup_size(64)
fn main(@builtin(workgroup_id) wg: vec3u, @builtin(local_invocation_index) li: u32) {
  var v = wg;
  v.y = li;
  if v.x > 1u {
    workgroupBarrier();
//  ^ U001 'workgroupBarrier' must only be called from uniform control flow
  }
}

// === array element written with non-uniform index
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) li: u32) {
  var a = array<u32, 4>(0u, 1u, 2u, 3u);
  a[li % 4u] = 5u;
  if a[0] > 1u {
    workgroupBarrier();
//  ^ U001 'workgroupBarrier' must only be called from uniform control flow
  }
}

// === compound statement does not branch
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) li: u32) {
  {
    let x = li;
    workgroupBarrier();
  }
}

// === non-uniform condition with barrier in a compound inside the if
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) li: u32) {
  if li == 0u {
    {
      storageBarrier();
//    ^ U001 'storageBarrier' must only be called from uniform control flow
    }
  }
}

// === bool parameter condition
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) li: u32) {
  let first = li == 0u;
  if !first {
    workgroupBarrier();
//  ^ U001 'workgroupBarrier' must only be called from uniform control flow
  }
}

// === if on constant is fine
const ENABLED = true;
@compute @workgroup_size(64)
fn main() {
  if ENABLED {
    workgroupBarrier();
  }
}

// === return inside nested branch poisons the rest
@compute @workgroup_size(64)
fn main(@builtin(workgroup_id) wg: vec3u, @builtin(local_invocation_index) li: u32) {
  if wg.x == 0u {
    if li == 5u {
      return;
    }
  }
  workgroupBarrier();
//^ U001 'workgroupBarrier' must only be called from uniform control flow
}

// === subgroup builtin in non-uniform branch
enable subgroups;
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) li: u32) {
  var x = 0.0;
  if li < 16u {
    x = subgroupAdd(1.0);
//      ^ U001 'subgroupAdd' must only be called from subgroup uniform control flow
  }
}

// === two failing barriers in sequence
// Tint reports one uniformity error per function, and its search finds the
// later call first.
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) li: u32) {
  if li > 0u { workgroupBarrier(); }
  if li > 1u { storageBarrier(); }
//             ^ U001 'storageBarrier' must only be called from uniform control flow
}

// === two failing calls in one branch
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) li: u32) {
  if li > 0u {
    workgroupBarrier();
    storageBarrier();
//  ^ U001 'storageBarrier' must only be called from uniform control flow
  }
}

// === texture sampling in non-uniform control flow of a fragment shader
@group(0) @binding(0) var t: texture_2d<f32>;
@group(0) @binding(1) var s: sampler;
@fragment fn main(@location(0) uv: vec2f) -> @location(0) vec4f {
  var c = vec4f(0.0);
  if uv.x > 0.5 {
    c = textureSample(t, s, uv);
//      ^ U001 'textureSample' must only be called from uniform control flow
  }
  return c;
}

// === derivative_uniformity switched off for sampling
diagnostic(off, derivative_uniformity);
@group(0) @binding(0) var t: texture_2d<f32>;
@group(0) @binding(1) var s: sampler;
@fragment fn main(@location(0) uv: vec2f) -> @location(0) vec4f {
  var c = vec4f(0.0);
  if uv.x > 0.5 {
    c = textureSample(t, s, uv);
  }
  return c;
}

// === barrier after return is unreachable
// Tint's uniformity analysis stops at a statement that never falls through; it only warns "code is
// unreachable" (chromium.unreachable_code), so the barrier below is no uniformity error.
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) li: u32) {
  return;
  if li > 3u { workgroupBarrier(); }
}

// === barrier after return inside a non-uniform branch is unreachable
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) li: u32) {
  if li > 3u {
    return;
    workgroupBarrier();
  }
}

// === barrier after break and continue is unreachable
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) li: u32) {
  loop {
    if li > 3u { break; }
    break;
    workgroupBarrier();
  }
  for (var i = 0u; i < li; i++) {
    continue;
    storageBarrier();
  }
}

// === barrier after an if whose branches both return is unreachable
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) li: u32) {
  if li > 3u { return; } else { return; }
  workgroupBarrier();
}

// === barrier after a return in one branch only is reachable
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) li: u32) {
  if li > 3u { return; }
  workgroupBarrier();
//^ U001 'workgroupBarrier' must only be called from uniform control flow
}

// === continuing block after continue stays analysed
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) li: u32) {
  var i = 0u;
  loop {
    if i > li { break; }
    continue;
    continuing {
      workgroupBarrier();
//    ^ U001 'workgroupBarrier' must only be called from uniform control flow
      i++;
    }
  }
}
