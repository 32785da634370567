// A 'continue' that skips a declaration the loop's continuing block uses (Tint rejects it at the
// 'continue'), and the nearby shapes that are fine.

// === accepted: declared before continue
fn f() {
  var i = 0u;
  loop {
    let step = 1u;
    if i > 4u { continue; }
    continuing {
      i = i + step;
      break if i > 8u;
    }
  }
}

// === accepted: continue in nested loop
fn f() {
  var i = 0u;
  loop {
    for (var j = 0u; j < 4u; j++) { if j == 2u { continue; } }
    let step = 1u;
    continuing {
      i = i + step;
      break if i > 8u;
    }
  }
}

// === accepted: continuing own let
fn f() {
  var i = 0u;
  loop {
    if i > 4u { continue; }
    continuing {
      let step = 1u;
      i = i + step;
      break if i > 8u;
    }
  }
}

// === rejected: bypass nested in switch
fn f(x: u32) {
  var i = 0u;
  loop {
    switch x { case 1u: { continue; } default: {} }
//                        ^ T021 this 'continue' skips the declaration of 'step', which the c
    var step = 1u;
    continuing {
      i = i + step;
      break if i > 8u;
    }
  }
}

// === rejected: bypass from nested continuing loop
fn f() {
  var i = 0u;
  loop {
    if i > 4u { continue; }
//              ^ T021 this 'continue' skips the declaration of 'step', which the c
    let step = 1u;
    continuing {
      loop {
        i = i + step;
        break;
      }
      break if i > 8u;
    }
  }
}
