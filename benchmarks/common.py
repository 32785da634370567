"""Shared benchmark helpers: synthetic WGSL, timing, and result files that name their machine."""

from __future__ import annotations

import datetime
import json
import os
import platform
import statistics
import time
from collections.abc import Callable
from pathlib import Path

RESULTS = Path(__file__).resolve().parent / "results"

_FUNCTION = """\
fn tile_{i}(row: u32, col: u32, scale: f32) -> f32 {{
  var acc = 0.0;
  for (var k = 0u; k < {k}u; k++) {{
    let a = data[(row * {k}u + k) % arrayLength(&data)];
    let b = data[(k * {k}u + col) % arrayLength(&data)];
    acc = fma(a, b * scale, acc);
    if (acc > 1e6 && k % 2u == 0u) {{ acc = acc * 0.5; }} else {{ acc += f32(k & 7u) / 8.0; }}
  }}
  /* block comment {i} */
  switch (row & 3u) {{
    case 0u: {{ acc = -acc; }}
    case 1u, 2u: {{ acc = abs(acc); }}
    default: {{ }}
  }}
  return acc + f32((row << 1u) ^ col) * 0x1p-4f;
}}

"""

_HEADER = """\
enable chromium_experimental_subgroup_matrix;
enable f16;
@group(0) @binding(0) var<storage, read_write> data: array<f32>;
@group(0) @binding(1) var<storage, read> halves: array<f16>;

"""

_MATRIX_FUNCTION = """\
fn mma_{i}(offset: u32) -> subgroup_matrix_result<f32, 16, 16> {{
  let left = subgroupMatrixLoad<subgroup_matrix_left<f16, 16, 16>, row_major>(&halves, offset, 16u);
  let right = subgroupMatrixLoad<subgroup_matrix_right<f16, 16, 16>, row_major>(&halves, offset + 256u, 16u);
  var result = subgroup_matrix_result<f32, 16, 16>();
  result = subgroupMatrixMultiplyAccumulate(left, right, result);
  return result;
}}

"""


def synthetic_kernel(target_bytes: int | None = None, lines: int | None = None) -> str:
    """A valid WGSL module of about the requested size, built from varied functions."""
    parts = [_HEADER]
    size, count, index = len(_HEADER), _HEADER.count("\n"), 0
    while (target_bytes is not None and size < target_bytes) or (lines is not None and count < lines):
        template = _MATRIX_FUNCTION if index % 4 == 3 else _FUNCTION
        text = template.format(i=index, k=16 + index % 48)
        parts.append(text)
        size += len(text)
        count += text.count("\n")
        index += 1
    return "".join(parts)


def median_seconds(action: Callable[[], object], repeats: int) -> float:
    samples = []
    for _ in range(repeats):
        start = time.perf_counter()
        action()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples)


def machine() -> dict:
    return {
        "host": platform.node(),
        "system": f"{platform.system()} {platform.release()}",
        "processor": _cpu_model(),
        "cpus": os.cpu_count(),
        "python": platform.python_version(),
    }


def _cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def write_result(name: str, figures: dict, notes: str = "") -> Path:
    RESULTS.mkdir(parents=True, exist_ok=True)
    path = RESULTS / f"{name}.json"
    payload = {
        "benchmark": name,
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "machine": machine(),
        "figures": figures,
        "notes": notes,
    }
    path.write_text(json.dumps(payload, indent=2) + "\n")
    return path
