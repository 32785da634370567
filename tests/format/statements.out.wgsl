fn f(p: ptr<function, array<vec4<u32>, 4>>, n: u32) -> u32 {
    var total = 0u;
    let m = -n;
    let k = - -1;
    let q = !(n > 0u);
    for (var i = 0u; i < n; i++) {
        total += (*p)[i].x;
    }
    for (;;) {
        if n == 0u {
            continue;
        }
        break;
    }
    while total > 10u {
        total--;
    }
    loop {
        total = total >> 1u;
        continuing {
            break if total == 0u;
        }
    }
    if total == 0u {
        return 1u;
    } else if total < 4u {
        return 2u;
    } else {
        total = total & ~1u;
    }
    switch (total) {
        case 0u, 1u: {
            return 0u;
        }
        case 2u {}
        case 3u, default {
            total = 1u;
        }
    }
    switch n {
        default: {}
    }
    @diagnostic(off, derivative_uniformity) {
        total = 0u;
    }
    {}
    return total;;
}

@fragment
fn frag() -> @location(0) vec4<f32> {
    discard;
}
