"""Where a run sits on the target's roofline: arithmetic intensity against the compute and bandwidth peaks.

A kernel that moves B bytes and does F floating-point operations can reach
at most min(peak compute, F / B x peak bandwidth). The bytes are the run
description's `bytes` (for a GEMM check, every binding read or written once:
the traffic no kernel can avoid), so the intensity is the kernel's best case;
a kernel far below the roof under a compute-bound intensity wastes the
reuse the problem offers. Peaks come from the device profile that names the
adapter (devices/profiles/*.json, `peak`).
"""

from __future__ import annotations

import html
import math

ADD_FLOPS = 'add flops = "2 * M * N * K" (or the kernel\'s count) to the run description'
ADD_BYTES = "add bytes = \"...\" (bytes read and written per dispatch) to the run description"


def roofline_of(tflops: float | None, gbps: float | None, peak_fraction: float | None,
                memory_fraction: float | None, profile: str = "", peak_missing: str = "") -> dict:
    """The roofline facts of one run, from its throughput and its fractions of the profile's peaks.

    Always a dict; `missing` lists what the run lacked for a full answer. `peak_missing` says why a profile
    that names the adapter gave no matrix peak (none for the configuration the kernel multiplies with)."""
    missing = []
    if tflops is None:
        missing.append("flops: " + ADD_FLOPS)
    if gbps is None:
        missing.append("bytes: " + ADD_BYTES)
    peak = tflops / peak_fraction if tflops is not None and peak_fraction else None
    bandwidth = gbps / memory_fraction if gbps is not None and memory_fraction else None
    if (tflops is not None and peak is None) or (gbps is not None and bandwidth is None):
        missing.append("peaks: " + (peak_missing if profile and peak_missing else
                                    "no device profile with peak figures names this adapter"))
    out: dict = {"profile": profile, "missing": missing}
    if tflops is not None and gbps:
        out["intensity"] = tflops * 1e12 / (gbps * 1e9)
        out["achieved_tflops"] = tflops
    if peak is not None and bandwidth is not None:
        out.update(peak_tflops=peak, memory_gbps=bandwidth, ridge=peak * 1e12 / (bandwidth * 1e9))
        if "intensity" in out:
            attainable = min(peak, out["intensity"] * bandwidth / 1e3)
            out.update(attainable_tflops=attainable, fraction_of_attainable=tflops / attainable,
                       bound="compute" if out["intensity"] >= out["ridge"] else "memory")
    return out


def describe(roofline: dict) -> str:
    """One line for the run report."""
    if not roofline:
        return ""
    if "bound" in roofline:
        where = f" ({roofline['profile']})" if roofline.get("profile") else ""
        return (f"roofline{where}: {roofline['intensity']:.4g} FLOP/byte against a ridge point of "
                f"{roofline['ridge']:.4g}: {roofline['bound']}-bound; attainable {roofline['attainable_tflops']:.4g} "
                f"TFLOP/s, reached {roofline['fraction_of_attainable']:.1%} of it")
    known = f"{roofline['intensity']:.4g} FLOP/byte; " if "intensity" in roofline else ""
    return f"roofline: {known}cannot place the run: " + "; ".join(roofline["missing"])


def roofline_svg(points: list[tuple[str, float, float, bool]], peak_tflops: float, memory_gbps: float,
                 title: str = "") -> str:
    """A log-log roofline chart: the memory slope and the compute roof, one dot per (label, FLOP/byte,
    TFLOP/s, correct) point. Every element carries a class (roof, point, label) so tests can read it."""
    ridge = peak_tflops * 1e12 / (memory_gbps * 1e9)
    intensities = [p[1] for p in points if p[1] > 0] + [ridge]
    x_low = 10 ** math.floor(math.log10(min(intensities) / 4))
    x_high = 10 ** math.ceil(math.log10(max(intensities) * 4))
    achieved = [p[2] for p in points if p[2] > 0]
    y_low = 10 ** math.floor(math.log10(min(achieved + [x_low * memory_gbps / 1e3]) / 2))
    y_high = 10 ** math.ceil(math.log10(peak_tflops * 1.5))
    left, top, width, height = 70, 30, 560, 320

    def x(v: float) -> float:
        return left + width * (math.log10(v) - math.log10(x_low)) / (math.log10(x_high) - math.log10(x_low))

    def y(v: float) -> float:
        return top + height * (1 - (math.log10(v) - math.log10(y_low)) / (math.log10(y_high) - math.log10(y_low)))

    start = max(x_low, y_low * 1e3 / memory_gbps)
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" class="roofline" width="{left + width + 200}" '
             f'height="{top + height + 50}" font-family="sans-serif" font-size="11" '
             f'data-peak-tflops="{peak_tflops:.6g}" data-memory-gbps="{memory_gbps:.6g}" data-ridge="{ridge:.6g}">']
    if title:
        parts.append(f'<text x="{left}" y="16" font-size="13">{html.escape(title)}</text>')
    parts.append(f'<rect x="{left}" y="{top}" width="{width}" height="{height}" fill="none" stroke="#999"/>')
    for decade in range(round(math.log10(x_low)), round(math.log10(x_high)) + 1):
        parts.append(f'<text x="{x(10 ** decade):.1f}" y="{top + height + 16}" text-anchor="middle">'
                     f'{10 ** decade:g}</text>')
    for decade in range(round(math.log10(y_low)), round(math.log10(y_high)) + 1):
        parts.append(f'<text x="{left - 6}" y="{y(10 ** decade) + 4:.1f}" text-anchor="end">{10 ** decade:g}</text>')
    parts.append(f'<text x="{left + width / 2}" y="{top + height + 34}" text-anchor="middle">'
                 'arithmetic intensity (FLOP/byte)</text>')
    parts.append(f'<text x="14" y="{top + height / 2}" transform="rotate(-90 14 {top + height / 2})" '
                 'text-anchor="middle">TFLOP/s</text>')
    parts.append(f'<polyline class="roof" fill="none" stroke="#c33" stroke-width="2" points="'
                 f'{x(start):.1f},{y(start * memory_gbps / 1e3):.1f} {x(ridge):.1f},{y(peak_tflops):.1f} '
                 f'{x(x_high):.1f},{y(peak_tflops):.1f}"/>')
    parts.append(f'<text x="{x(ridge) + 6:.1f}" y="{y(peak_tflops) - 6:.1f}" fill="#c33">peak {peak_tflops:.0f} '
                 f'TFLOP/s, {memory_gbps:.0f} GB/s, ridge {ridge:.0f} FLOP/byte</text>')
    placed = sorted((p for p in points if p[1] > 0 and p[2] > 0), key=lambda p: y(p[2]))
    label_y = -1e9
    for label, intensity, tflops, ok in placed:
        colour = "#2a7" if ok else "#bbb"
        parts.append(f'<circle class="point" cx="{x(intensity):.1f}" cy="{y(tflops):.1f}" r="5" fill="{colour}" '
                     f'data-label="{html.escape(label)}" data-intensity="{intensity:.6g}" data-tflops="{tflops:.6g}">'
                     f'<title>{html.escape(label)}: {tflops:.1f} TFLOP/s at {intensity:.4g} FLOP/byte</title></circle>')
        # Variants of one sweep share an intensity: stack their labels instead of overprinting them.
        label_y = max(y(tflops) + 4, label_y + 13)
        parts.append(f'<text class="label" x="{x(intensity) + 8:.1f}" y="{label_y:.1f}">'
                     f'{html.escape(label)}: {tflops:.0f} TFLOP/s</text>')
    parts.append("</svg>")
    return "\n".join(parts)


def sweep_roofline(results) -> str:
    """The roofline chart of every variant of a sweep (SweepResult-like: .label and .report), or a sentence
    saying what is missing."""
    placed = [(r.label or r.report.kernel, r.report.roofline) for r in results]
    full = [(label, roof) for label, roof in placed if roof and "bound" in roof]
    if not full:
        missing = next((roof["missing"] for _, roof in placed if roof and roof.get("missing")), [])
        return "No roofline: " + ("; ".join(missing) if missing else "no variant was timed") + "."
    peak, bandwidth = full[0][1]["peak_tflops"], full[0][1]["memory_gbps"]
    points = [(label, roof.get("intensity", 0.0), roof.get("achieved_tflops", 0.0),
               r.report.status == "correct") for (label, roof), r in zip(placed, results) if roof]
    return roofline_svg(points, peak, bandwidth, title=f"Roofline ({full[0][1].get('profile') or 'device'})")
