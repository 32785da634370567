"""Blame on the GPU: a planted bug in examples/chromium/gemm_tiled.wgsl found by `coop-lint run --blame`
through Dawn, and the cost of the instrumentation (the plain run's time against the instrumented run's).

    .venv/bin/python -m benchmarks.blame_gpu [--size 1024] [--out FILE] [--backend dawn]
    .venv/bin/python -m benchmarks.blame_gpu --smoke      # 64^3, emulated on wgpu-native (lavapipe)

The planted bug is derived from the example's own text: the last result tile of subgroup 0 in workgroup
(0, 0) is stored one tile to the left (its offset less TILE), over the tile its neighbour stored, so one
tile holds wrong values written at the store line and one tile is never written. The script checks that
the blame names that store line as the writer of the wrong elements, by subgroup 0 of workgroup (0, 0),
and the unwritten tile's rows and columns. Writes JSON (machine, adapter, times with and without the
instrumentation, what the blame found) to --out (default benchmarks/results/blame_gpu.json). Exit
status 0 when the blame found the planted bug.
"""

from __future__ import annotations

import argparse
import datetime
import json
import re
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.common import machine  # noqa: E402
from coop_lsp.runner.description import parse_run_description  # noqa: E402
from coop_lsp.runner.execute import run_kernel  # noqa: E402

KERNEL = ROOT / "examples" / "chromium" / "gemm_tiled.wgsl"
RUN = ROOT / "examples" / "runs" / "gemm_tiled.run.toml"
# subgroupMatrixStore<...>(&c, OFFSET, acc[...], N); the offset is the second argument.
STORE = re.compile(r"(subgroupMatrixStore<\w+>\(&c,\s*)([^,]+?)(,\s*acc\[)")
PLANT = "select(0u, TILE, i == TILES_M - 1u && j == TILES_N - 1u && sg == 0u && wg.x == 0u && wg.y == 0u)"


def planted(text: str) -> tuple[str, int]:
    """The kernel with the planted store, and the store's line (1-based)."""
    found = list(STORE.finditer(text))
    if len(found) != 1:
        raise SystemExit(f"{KERNEL.name}: expected one subgroupMatrixStore into c, found {len(found)}")
    match = found[0]
    line = text.count("\n", 0, match.start()) + 1
    return text[:match.start(2)] + f"{match.group(2)} - {PLANT}" + text[match.end(2):], line


def description(size: int, tiles: dict, smoke: bool):
    text = RUN.read_text()
    text = re.sub(r"(?m)^M = \d+\nN = \d+\nK = \d+$", f"M = {size}\nN = {size}\nK = {size}", text)
    if smoke:  # one timed run each: lavapipe runs the emulation at a few MFLOP/s
        text = re.sub(r"(?m)^warmup = \d+$", "warmup = 0", text)
        text = re.sub(r"(?m)^repetitions = \d+$", "repetitions = 1", text)
    desc = parse_run_description(text, RUN, size_values=tiles)
    desc.timeout_s = 300
    return desc


def expected_spots(tiles: dict) -> dict:
    """Where the planted store lands and what it leaves unwritten, from the block and tile sizes."""
    tile = 16
    last_row = tiles["WM"] - tile  # subgroup 0's last tile, at block (0, 0)
    last_col = tiles["WN"] - tile
    return {"wrong_tile": [last_row, last_col - tile], "unwritten_tile": [last_row, last_col], "tile": tile}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--size", type=int, default=1024, help="M = N = K (default 1024)")
    parser.add_argument("--backend", default=None, help="dawn (default) or emulate (--smoke's default)")
    parser.add_argument("--smoke", action="store_true", help="64^3, emulated on wgpu-native: a check that the "
                        "script works here, not a measurement")
    parser.add_argument("--out", type=Path, help="the JSON to write (default benchmarks/results/blame_gpu.json; "
                        "with --smoke, blame_gpu_smoke.json)")
    args = parser.parse_args(argv)
    if args.out is None:
        args.out = ROOT / "benchmarks" / "results" / ("blame_gpu_smoke.json" if args.smoke else "blame_gpu.json")
    size = 64 if args.smoke else args.size
    backend = args.backend or ("emulate" if args.smoke else "dawn")
    tiles = dict(BM=64, BN=64, BK=32, WM=32, WN=32) if args.smoke else \
        dict(BM=128, BN=128, BK=32, WM=64, WN=64)
    text, store_line = planted(KERNEL.read_text())
    args.out.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="blame-gpu-") as folder:
        kernel = Path(folder) / "gemm_tiled_planted.wgsl"
        kernel.write_text(text)
        report = run_kernel(kernel, description(size, tiles, args.smoke), backend=backend, blame="on")
    spots = expected_spots(tiles)
    found = {"status": report.status, "error": report.error}
    ok = False
    blame = report.blame
    if blame.get("outputs"):
        out = blame["outputs"][0]
        writers = out["writers"]
        top = writers[0] if writers else {}
        unwritten = out.get("unwritten", {})
        ok = (report.status == "incorrect" and top.get("line") == store_line and top.get("subgroup") == 0
              and top.get("workgroup") == [0, 0, 0] and top.get("first", {}).get("row") == spots["wrong_tile"][0]
              and top.get("first", {}).get("column") == spots["wrong_tile"][1]
              and unwritten.get("low") == spots["unwritten_tile"]
              and unwritten.get("high") == [v + spots["tile"] - 1 for v in spots["unwritten_tile"]])
        found.update(wrong=out["wrong"], wrong_unwritten=out["wrong_unwritten"], writers=writers[:4],
                     unwritten=unwritten, first=out["first"][:2])
    elif blame.get("error"):
        found["blame_error"] = blame["error"]
    plain_ms = report.timing.get("median_ms")
    blamed_ms = (blame.get("timing") or {}).get("median_ms")
    payload = {
        "benchmark": "blame_gpu",
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "machine": machine(),
        "adapter": report.adapter,
        "backend": report.backend,
        "emulated": report.emulated,
        "smoke": args.smoke,
        "size": size,
        "tiles": tiles,
        "planted": {"line": store_line, "expected": spots, "offset_less": PLANT},
        "median_ms": {"plain": plain_ms, "instrumented": blamed_ms},
        "instrumentation_cost": (blamed_ms / plain_ms) if plain_ms and blamed_ms else None,
        "wall_s": report.wall_s,
        "found": found,
        "blame_found_the_planted_bug": ok,
    }
    args.out.write_text(json.dumps(payload, indent=2) + "\n")
    print(report.render(), end="")
    print(f"\nplain {plain_ms} ms, instrumented {blamed_ms} ms; blame found the planted store at line "
          f"{store_line}: {ok}; written to {args.out}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
