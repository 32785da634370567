"""Shared benchmark helpers: synthetic WGSL, timing, and result files that name their machine."""

from __future__ import annotations

import datetime
import json
import os
import platform
import random
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


def synthetic_kernel(target_bytes: int | None = None, lines: int | None = None,
                     rng: random.Random | None = None) -> str:
    """A valid WGSL module of about the requested size, built from varied functions.

    Without `rng` the same size gives the same text (each smaller text a prefix of the bigger ones). With
    it, each function is drawn from `rng`: its kind (plain arithmetic, a loop with continuing, vector
    math, a matrix multiply, a matrix store), names, constants and loop bounds, so that no two files of a
    corpus are alike."""
    parts = [_HEADER]
    size, count, index = len(_HEADER), _HEADER.count("\n"), 0
    while (target_bytes is not None and size < target_bytes) or (lines is not None and count < lines):
        if rng is not None:
            text = _random_function(rng, index)
        else:
            template = _MATRIX_FUNCTION if index % 4 == 3 else _FUNCTION
            text = template.format(i=index, k=16 + index % 48)
        parts.append(text)
        size += len(text)
        count += text.count("\n")
        index += 1
    return "".join(parts)


def matrix_heavy_kernel(rng: random.Random, functions: int = 32) -> str:
    """A kernel library of `functions` tiled GEMM entry points, each multiplying subgroup matrices in a K
    loop with staging copies and barriers (benchmarks/matrix_kernels.py says what and why)."""
    from .matrix_kernels import matrix_kernel_file
    return matrix_kernel_file(rng, functions)


def matrix_library_kernel(rng: random.Random, functions: int = 32) -> str:
    """The first matrix-heavy generator, kept for what depends on its shape: helper functions called from
    one entry point, so an edit to a helper reaches the entry point's uniformity (tests/test_edit_cost.py,
    benchmarks/check_profile.py, whose recorded figures were measured on it). A module in which every
    function multiplies subgroup matrices in a K loop (a tiled GEMM step with
    its own K, strides and layouts drawn from `rng`), called from one compute entry point at uniform
    tile coordinates: the kind of file a matrix kernel library holds, with no cheap plain functions."""
    parts = [_HEADER]
    for index in range(functions):
        k = 16 * rng.randint(2, 32)
        n = rng.choice((64, 128, 256, 512))
        stride = k + rng.choice((0, 8, 16))
        layout = rng.choice(("row_major", "col_major"))
        scale = rng.choice(("", f"\n  acc = subgroupMatrixScalarMultiply(acc, {rng.uniform(0.25, 2):.3f});"))
        parts.append(
            f"fn gemm_{index}(row: u32, col: u32) {{\n"
            f"  var acc = subgroup_matrix_result<f32, 16, 16>();\n"
            f"  for (var k = 0u; k < {k}u; k += 16u) {{\n"
            f"    let a = subgroupMatrixLoad<subgroup_matrix_left<f16, 16, 16>, {layout}>"
            f"(&halves, row * {stride}u + k, {stride}u);\n"
            f"    let b = subgroupMatrixLoad<subgroup_matrix_right<f16, 16, 16>, row_major>"
            f"(&halves, k * {n}u + col, {n}u);\n"
            f"    acc = subgroupMatrixMultiplyAccumulate(a, b, acc);\n"
            f"  }}{scale}\n"
            f"  subgroupMatrixStore<row_major>(&data, row * {n}u + col, acc, {n}u);\n"
            f"}}\n\n")
    calls = "".join(f"  gemm_{index}(tile.y * 16u, tile.x * 16u);\n" for index in range(functions))
    parts.append(f"@compute @workgroup_size(32)\nfn main(@builtin(workgroup_id) tile: vec3<u32>) {{\n{calls}}}\n")
    return "".join(parts)


_NAMES = ("tile", "blend", "gather", "sweep", "reduce", "scan", "accumulate", "mix", "fold", "stage")
_PAIRS = (("row", "col"), ("x", "y"), ("i", "j"), ("lane", "slot"), ("base", "step"))


def _random_function(rng: random.Random, index: int) -> str:
    """One function of a random kind with random names and constants (valid WGSL, no coop-lint findings)."""
    kind = rng.choices(("arithmetic", "loop", "vector", "multiply", "store"), weights=(4, 2, 2, 2, 1))[0]
    name = f"{rng.choice(_NAMES)}_{index}"
    a, b = rng.choice(_PAIRS)
    if kind == "arithmetic":
        k = rng.randint(4, 96)
        combine = rng.choice(("fma(va, vb * scale, acc)", "acc + va * vb * scale", "max(acc, va * scale) + vb",
                              "mix(acc, va, vb * scale)"))
        comment = f"  /* {rng.choice(('block', 'note', 'tile'))} comment {rng.randint(0, 999)} */\n" \
            if rng.random() < 0.6 else ""
        cases = rng.choice((("0u", "1u, 2u"), ("1u", "0u, 3u"), ("2u", "0u")))
        return (
            f"fn {name}({a}: u32, {b}: u32, scale: f32) -> f32 {{\n"
            f"  var acc = {rng.uniform(-2, 2):.3f};\n"
            f"  for (var k = 0u; k < {k}u; k++) {{\n"
            f"    let va = data[({a} * {k}u + k) % arrayLength(&data)];\n"
            f"    let vb = data[(k * {rng.randint(1, 64)}u + {b}) % arrayLength(&data)];\n"
            f"    acc = {combine};\n"
            f"    if (acc > {rng.choice(('1e6', '1e4', '65504.0', '3.5e3'))} && k % {rng.randint(2, 5)}u == 0u) "
            f"{{ acc = acc * {rng.choice(('0.5', '0.25', '0.75'))}; }} "
            f"else {{ acc += f32(k & {rng.choice((3, 7, 15, 31))}u) / {rng.randint(2, 16)}.0; }}\n"
            f"  }}\n"
            f"{comment}"
            f"  switch ({a} & 3u) {{\n"
            f"    case {cases[0]}: {{ acc = -acc; }}\n"
            f"    case {cases[1]}: {{ acc = abs(acc); }}\n"
            f"    default: {{ }}\n"
            f"  }}\n"
            f"  return acc + f32(({a} << {rng.randint(1, 4)}u) ^ {b}) * 0x1p-{rng.randint(1, 9)}f;\n"
            f"}}\n\n")
    if kind == "loop":
        return (
            f"fn {name}({a}: u32, {b}: u32) -> f32 {{\n"
            f"  var cursor = {a};\n"
            f"  var total = {rng.uniform(-1, 1):.2f};\n"
            f"  loop {{\n"
            f"    if (cursor >= {a} + {b}) {{ break; }}\n"
            f"    let value = data[cursor % arrayLength(&data)];\n"
            f"    total = select(total, total + value * {rng.uniform(0.1, 4):.2f}, value > {rng.uniform(-1, 1):.2f});\n"
            f"    continuing {{\n"
            f"      cursor += {rng.randint(1, 8)}u;\n"
            f"      break if cursor > {rng.randint(64, 4096)}u;\n"
            f"    }}\n"
            f"  }}\n"
            f"  return total;\n"
            f"}}\n\n")
    if kind == "vector":
        weights = ", ".join(f"{rng.uniform(-3, 3):.2f}" for _ in range(4))
        limit = f"{rng.uniform(1, 100):.1f}"
        return (
            f"fn {name}(p: vec4<f32>, q: vec4<f32>) -> vec4<f32> {{\n"
            f"  let m = mat4x4<f32>(p, q, p.{rng.choice(('wzyx', 'yxwz', 'zwxy'))}, q.{rng.choice(('xxyy', 'wzyx', 'yzwx'))});\n"
            f"  var r = m * vec4<f32>({weights});\n"
            f"  r = clamp(r, vec4<f32>(-{limit}), vec4<f32>({limit}));\n"
            f"  return (r + vec4<f32>(dot(p, q))) * {rng.uniform(0.1, 2):.3f};\n"
            f"}}\n\n")
    layout = rng.choice(("row_major", "col_major"))
    stride = rng.choice((16, 32, 64))
    if kind == "multiply":
        tiles = rng.randint(1, 4)
        return (
            f"fn {name}(offset: u32) -> subgroup_matrix_result<f32, 16, 16> {{\n"
            f"  var result = subgroup_matrix_result<f32, 16, 16>();\n"
            f"  for (var t = 0u; t < {tiles}u; t++) {{\n"
            f"    let left = subgroupMatrixLoad<subgroup_matrix_left<f16, 16, 16>, {layout}>"
            f"(&halves, offset + t * 16u, {stride}u);\n"
            f"    let right = subgroupMatrixLoad<subgroup_matrix_right<f16, 16, 16>, row_major>"
            f"(&halves, offset + {256 * rng.randint(1, 8)}u + t * 16u, {stride}u);\n"
            f"    result = subgroupMatrixMultiplyAccumulate(left, right, result);\n"
            f"  }}\n"
            f"  return result;\n"
            f"}}\n\n")
    return (
        f"fn {name}(offset: u32) {{\n"
        f"  let left = subgroupMatrixLoad<subgroup_matrix_left<f16, 16, 16>, {layout}>(&halves, offset, {stride}u);\n"
        f"  let right = subgroupMatrixLoad<subgroup_matrix_right<f16, 16, 16>, row_major>"
        f"(&halves, offset + {256 * rng.randint(1, 8)}u, {stride}u);\n"
        f"  let product = subgroupMatrixMultiply<f32>(left, right);\n"
        f"  subgroupMatrixStore<row_major>(&data, offset * {rng.randint(1, 4)}u, product, 16u);\n"
        f"}}\n\n")


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


def write_result(name: str, figures: dict, notes: str = "", folder: Path | None = None) -> Path:
    """Writes benchmarks/results/<name>.json (or into `folder`). A `--result` given as a file name
    ("cold_device.json") names the same file: the benchmark's name inside it carries no extension."""
    name = name.removesuffix(".json")
    folder = RESULTS if folder is None else folder
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.json"
    payload = {
        "benchmark": name,
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "machine": machine(),
        "figures": figures,
        "notes": notes,
    }
    path.write_text(json.dumps(payload, indent=2) + "\n")
    return path


def prepare_and_run_main(prepare: Callable[[Path, Path], object], run: Callable[[Path, Path | None], int],
                         default_corpus: Path, fresh: bool = False) -> int:
    """The command line of the benchmarks that run on the device machine in two halves: `prepare FOLDER`
    here (gathers kernels from the public corpus outside the repository into FOLDER, which travels), and
    `run FOLDER` there (writes its JSON to --out, $OUT or benchmarks/results). `fresh` empties FOLDER first."""
    import argparse
    import shutil

    parser = argparse.ArgumentParser()
    sub = parser.add_subparsers(dest="command", required=True)
    prepare_parser = sub.add_parser("prepare")
    prepare_parser.add_argument("folder", type=Path)
    prepare_parser.add_argument("--corpus", type=Path, default=default_corpus)
    run_parser = sub.add_parser("run")
    run_parser.add_argument("folder", type=Path)
    run_parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    if args.command == "prepare":
        if fresh and args.folder.exists():
            shutil.rmtree(args.folder)
        prepare(args.folder, args.corpus)
        return 0
    return run(args.folder, args.out)
