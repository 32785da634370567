"""Kernels people ship, run as their authors wrote them: checked at their own precision, timed, emulated.

    python -m benchmarks.real_kernels instantiate --corpus /work/corpus/templates --out /work/realkernels
    python -m benchmarks.real_kernels run /work/realkernels [--only NAME] [--native-only] [--out FILE]

`instantiate` turns each project's kernel template into WGSL the way the
project's own code does, without hand edits, into FOLDER/<name>/kernel.wgsl:
  - ggml (ggml-org/ggml, src/ggml-webgpu): mul_mat_subgroup_matrix.wgsl through
    the C preprocessor with the defines ggml-webgpu-shader-lib.hpp pushes for
    an f16 x f32 matmul on an adapter whose first f16 -> f16 subgroup matrix
    configuration is 16x16x16 with 32-lane subgroups (the H100);
  - gpu.cpp (AnswerDotAI/gpu.cpp, examples/matmul/run.cpp): the f16 "2D
    blocktiling with loop unrolling and vectorization" kernel (version 10): its
    {{name}} values as createMatmulWithVectorization computes them, its
    for-loops unrolled as utils/wgsl.hpp's unrollLoops does, and the
    `enable f16;` gpu.hpp prepends.
  - Dawn (google/dawn, with --dawn MIRROR): SubgroupMatrixTests.cpp's tiled
    matmul test kernel, its WGSL evaluated from the test's own C++
    (benchmarks/dawn_subgroup_matrix.py) for the f16 -> f32 16x16x16
    configuration, at TileDim 8 (kernel.wgsl) and 2 (kernel_small.wgsl).
ONNX Runtime's subgroup_matrix_matmul_nbits_16x16x16*.wgsl.template is not
instantiated (see NOT_INSTANTIATED): the result file says why.

`update --native N.json --emulated E.json` replaces or adds those runs' kernels
in the result file.
The run descriptions (FOLDER/<name>/kernel.run.toml) are written by hand
beside them, as a user of coop-lint would; FOLDER/<name>/meta.json says
where the kernel came from and the sizes to emulate it at.

`run` runs every kernel of FOLDER as written: natively (coop-lint run's
`auto` backend: Dawn on a GPU with subgroup matrices) at the description's
size, with the bounds-check comparison; then emulated (`--backend emulate`)
at the small sizes of meta.json. A run that fails is recorded with its
reason. Writes benchmarks/results/real_kernels.json (or --out) with the
machine.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks import dawn_subgroup_matrix  # noqa: E402
from benchmarks.common import machine  # noqa: E402
from coop_lsp.runner.description import RunDescriptionError, load_run_description  # noqa: E402
from coop_lsp.runner.execute import run_kernel  # noqa: E402

# ggml-webgpu-shader-lib.hpp: WEBGPU_MUL_MAT_* and the defines get_mul_mat_fast_pipeline pushes for
# src0 f16, src1 f32, vectorized (K and M multiples of 4), on the subgroup-matrix path.
GGML_DEFINES = {
    "SRC1_INNER_TYPE": "f32", "SRC0_INNER_TYPE": "f16", "FLOAT": None, "MUL_ACC_FLOAT": None,
    "INIT_SRC0_SHMEM_FLOAT": None, "INIT_SRC1_SHMEM_FLOAT": None, "VEC": None,
    "TILE_M": "4u", "TILE_N": "4u", "TILE_K": "32u", "MAX_SUBGROUP_SIZE": "32u",
    "SUBGROUP_M": "2u", "SUBGROUP_N": "4u", "SUBGROUP_MATRIX_M": "4u", "SUBGROUP_MATRIX_N": "2u",
    "SUBGROUP_MATRIX_M_SIZE": "16u", "SUBGROUP_MATRIX_N_SIZE": "16u", "SUBGROUP_MATRIX_K_SIZE": "16u",
}


def instantiate_ggml(corpus: Path, out: Path) -> dict:
    shaders = corpus / "ggml-org+ggml" / "src" / "ggml-webgpu" / "wgsl-shaders"
    command = ["cpp", "-P", "-undef", "-nostdinc", "-x", "c", f"-I{shaders}"]
    command += [f"-D{k}" if v is None else f"-D{k}={v}" for k, v in GGML_DEFINES.items()]
    command.append(str(shaders / "mul_mat_subgroup_matrix.wgsl"))
    text = subprocess.run(command, check=True, capture_output=True, text=True).stdout
    (out / "kernel.wgsl").write_text(text)
    return {"project": "ggml-org/ggml", "source": "src/ggml-webgpu/wgsl-shaders/mul_mat_subgroup_matrix.wgsl",
            "commit": _commit(corpus / "ggml-org+ggml"), "instantiated_with": "cpp -P " + " ".join(
                f"-D{k}" if v is None else f"-D{k}={v}" for k, v in GGML_DEFINES.items())}


# examples/matmul/run.cpp, version 10: BM = BN = 64, BK = 8, TM = BM / BK, TN = BN / BK,
# workgroup (BM / TM) * (BN / TN), f16.
GPUCPP_TILES = {"BM": 64, "BK": 8, "BN": 64}


def gpucpp_values(m: int, k: int, n: int) -> dict:
    bm, bk, bn = GPUCPP_TILES["BM"], GPUCPP_TILES["BK"], GPUCPP_TILES["BN"]
    tm, tn = bm // bk, bn // bk
    threads = bm * bn // (tm * tn)
    return {"workgroupSize": f"{threads}, 1, 1", "precision": "f16", "M": m, "K": k, "N": n, "BM": bm, "BK": bk,
            "BN": bn, "TM": tm, "TN": tn, "NUM_TILEA": bm * bk // threads, "NUM_TILEB": bn * bk // threads,
            "TN4": tn // 4, "N4": n // 4, "BN4": bn // 4}


_UNROLLABLE = re.compile(r"for\s*\(\s*var\s+(\w+):\s*u32\s*=\s*(\d+)\s*;\s*\1\s*<\s*(\d+)\s*;\s*\1\+\+\s*\)\s*"
                         r"\{\s*([^{}]*)\}")


def unroll_loops(code: str, threshold: int = 32) -> str:
    """gpu.cpp's unrollLoops: a flat `for (var i: u32 = A; i < B; i++) { body }` with B - A <= threshold
    becomes B - A copies of its body with i replaced by each value."""
    def expand(match: re.Match) -> str:
        name, start, end, body = match[1], int(match[2]), int(match[3]), match[4]
        if end - start > threshold:
            return match[0]
        return "".join(re.sub(rf"\b{name}\b", str(i), body) for i in range(start, end))

    return _UNROLLABLE.sub(expand, code)


def instantiate_gpucpp(corpus: Path, out: Path, m: int, k: int, n: int) -> dict:
    source = (corpus / "AnswerDotAI+gpu.cpp" / "examples" / "matmul" / "run.cpp").read_text()
    found = re.search(r'static const char \*kShaderMatmulWithVectorization = R"\((.*?)\)";', source, re.DOTALL)
    text = found[1]
    for key, value in gpucpp_values(m, k, n).items():
        text = text.replace("{{" + key + "}}", str(value))
    text = "enable f16;\n" + unroll_loops(text)
    (out / "kernel.wgsl").write_text(text)
    return {"project": "AnswerDotAI/gpu.cpp", "source": "examples/matmul/run.cpp kShaderMatmulWithVectorization "
            "(version 10: f16, 2D blocktiling, loop unrolling, vectorization)",
            "commit": _commit(corpus / "AnswerDotAI+gpu.cpp"), "instantiated_with": f"M={m} K={k} N={n} {GPUCPP_TILES}"}


# SubgroupMatrix_TiledMatrixMultiplyTest's parameters for the instantiation: the H100's f16 -> f32 16x16x16
# configuration, WorkgroupSize 128 (four 32-lane subgroups), TileDim 8 natively (128^3) and 2 emulated (32^3, a short
# run; TileDim 4 took 24 s on lavapipe through the whole-matrix fallback, which this kernel needs).
DAWN_CONFIG = {"component": "F16", "result": "F32", "m": 16, "n": 16, "k": 16, "workgroup_size": 128}
DAWN_TILE_DIMS = {"kernel.wgsl": 8, "kernel_small.wgsl": 2}


def instantiate_dawn(mirror: Path, out: Path) -> dict:
    source, commit = dawn_subgroup_matrix.test_source(mirror)
    c = DAWN_CONFIG
    for name, tile_dim in DAWN_TILE_DIMS.items():
        text = dawn_subgroup_matrix.instantiate(source, c["component"], c["result"], c["m"], c["n"], c["k"],
                                                tile_dim, c["workgroup_size"])
        (out / name).write_text(text)
    return {"project": "google/dawn", "source": dawn_subgroup_matrix.TEST_PATH + " (SubgroupMatrix_TiledMatrix"
            "MultiplyTest: the WGSL its C++ builds, evaluated from the C++ by benchmarks/dawn_subgroup_matrix.py)",
            "commit": commit, "instantiated_with": f"config {c['component']} -> {c['result']} M={c['m']} N={c['n']} "
            f"K={c['k']}, WorkgroupSize={c['workgroup_size']}, TileDim=" + ", ".join(
                f"{t} ({n})" for n, t in DAWN_TILE_DIMS.items())}


def _commit(folder: Path) -> str:
    try:
        return json.loads((folder / "SOURCE.json").read_text()).get("commit", "")
    except (OSError, ValueError):
        return ""


def instantiate(corpus: Path, out: Path, dawn: Path | None = None) -> None:
    def gpucpp(folder: Path) -> dict:
        # Its sizes are literals in the text: the emulation gets a small instantiation of its own.
        small = folder / "small"
        small.mkdir(exist_ok=True)
        instantiate_gpucpp(corpus, small, 64, 64, 64)
        (folder / "kernel_small.wgsl").write_text((small / "kernel.wgsl").read_text())
        (small / "kernel.wgsl").unlink()
        small.rmdir()
        return instantiate_gpucpp(corpus, folder, 4096, 4096, 4096)

    makers = [("ggml_mul_mat_subgroup_matrix", lambda o: instantiate_ggml(corpus, o)),
              ("gpucpp_matmul_f16_vectorized", gpucpp)]
    if dawn is not None:
        makers.append(("dawn_tiled_matmul_f16_f32", lambda o: instantiate_dawn(dawn, o)))
    for name, make in makers:
        folder = out / name
        folder.mkdir(parents=True, exist_ok=True)
        meta_path = folder / "meta.json"
        meta = json.loads(meta_path.read_text()) if meta_path.exists() else {}
        meta.update(make(folder))
        meta_path.write_text(json.dumps(meta, indent=2) + "\n")
        print(f"{folder / 'kernel.wgsl'}: {(folder / 'kernel.wgsl').read_text().count(chr(10))} lines")


# Kernels looked at and not instantiated, with the reason; recorded in the results as such.
NOT_INSTANTIATED = [{
    "name": "onnxruntime_subgroup_matrix_matmul_nbits_16x16x16",
    "project": "microsoft/onnxruntime",
    "source": "onnxruntime/contrib_ops/webgpu/quantization/subgroup_matrix_matmul_nbits_16x16x16.wgsl.template "
              "and _16x16x16_128.wgsl.template",
    "status": "not instantiated",
    "why": "ONNX Runtime generates the declarations these templates use ($MAIN's builtins, input_a/input_b/"
           "scales_b/output and the Uniforms struct, getByOffset) in C++ (ShaderHelper), and the include they "
           "need, matmul_nbits_zero_pt.wgsl.template, is stored only at a later commit whose mm_read_zero takes 5 "
           "arguments where these templates pass 4: no instantiation without hand edits was possible from the "
           "sources available here. Looked at again (issue 24): instantiating them as ORT does means "
           "re-implementing ShaderHelper's generated declarations from its C++, not evaluating a template; Dawn's "
           "own tiled subgroup-matrix test kernel (dawn_tiled_matmul_f16_f32) was taken as the third project "
           "instead, its WGSL evaluated from the test's C++",
}]


# ------------------------------------------------------------------ running
def summary(report, wall_s: float) -> dict:
    out = {"status": report.status, "backend": report.backend, "emulated": report.emulated,
           "adapter": report.adapter, "error": report.error[:600], "stage": report.stage, "notes": report.notes,
           "subgroups": report.subgroups, "wall_s": round(wall_s, 2), "predicted": report.predicted,
           "bounds": {k: v for k, v in report.bounds.items() if k != "lines"}, "bounds_lines": report.bounds.get("lines"),
           "checks": [{"name": c.name, "verdict": c.verdict, "max_abs_error": c.max_abs_error,
                       "max_rel_error": c.max_rel_error, "judged": c.judged, "bound": c.bound,
                       "within_output_tolerance": c.within_output_tolerance} for c in report.checks]}
    if report.timing:
        out["median_ms"] = report.timing["median_ms"]
        out["timing_source"] = report.timing["source"]
        out["independent_ms"] = report.timing.get("independent_ms")
    out["tflops"] = report.tflops
    out["peak_fraction"] = report.peak_fraction
    return out


def run_one(folder: Path, native_only: bool, emulated_only: bool = False) -> dict:
    meta = json.loads((folder / "meta.json").read_text())
    kernel, description = folder / "kernel.wgsl", folder / "kernel.run.toml"
    entry: dict = {"name": folder.name, **{k: meta.get(k) for k in ("project", "source", "commit",
                                                                     "instantiated_with")}}
    try:
        desc = load_run_description(description, folder)
    except RunDescriptionError as error:
        entry["error"] = str(error)
        return entry
    entry["sizes"] = desc.sizes
    if emulated_only:
        entry["native"] = {"status": "not run", "why": "--emulated-only"}
        return _emulated(entry, folder, meta, description)
    started = time.perf_counter()
    report = run_kernel(kernel, desc, backend="auto", workspace=folder, bounds_check=True)
    entry["native"] = summary(report, time.perf_counter() - started)
    entry["native_report"] = report.render("text")
    if report.emulated:
        entry["native"]["note"] = "no GPU with subgroup matrices here: auto chose the emulation"
    if native_only:
        entry["emulated"] = {"status": "not run", "why": "--native-only"}
        return entry
    return _emulated(entry, folder, meta, description)


def _emulated(entry: dict, folder: Path, meta: dict, description: Path) -> dict:
    small = meta.get("emulate_sizes", {})
    emulated_kernel = folder / meta.get("emulate_kernel", "kernel.wgsl")
    try:
        desc = load_run_description(description, folder, small)
    except RunDescriptionError as error:
        entry["emulated"] = {"status": "error", "error": str(error)}
        return entry
    started = time.perf_counter()
    report = run_kernel(emulated_kernel, desc, backend="emulate", workspace=folder)
    entry["emulated"] = summary(report, time.perf_counter() - started)
    entry["emulated"]["sizes"] = desc.sizes
    return entry


# What a reader of the results needs to know about an emulated run, by kernel.
EMULATION_NOTES = {
    "ggml_mul_mat_subgroup_matrix": (
        "runs since the emulation drops `enable subgroups;` for wgpu-native (noted in the run). Its matrix calls "
        "sit under `if (subgroup_id < EXPECTED_SUBGROUPS)`, not uniform across the workgroup, so the emulation "
        "takes its whole-matrix fallback (lane 0 of each subgroup holds whole matrices). That fallback used to "
        "give max abs error 15 here: lavapipe ends every loop of a shader once all its loops together have run "
        "65,535 iterations per invocation, and the fallback spent about 4,900 per 16x16x16 multiply. It now "
        "loops once per row or per four results (tests/test_runner_loop_budget.py); the error left is that of "
        "the kernel's own f16 accumulation"),
    "dawn_tiled_matmul_f16_f32": (
        "emulated at TileDim 2 (32 x 32 x 32), one of the test's own parameters: its loops start at "
        "subgroup_id, so it takes the whole-matrix fallback. Larger tiles were wrong through that fallback "
        "(lavapipe's loop budget, see ggml_mul_mat_subgroup_matrix): TileDim 4 gave max abs error 9.7 at 64^3 "
        "(TileDim 3 too, with a workgroup of one invocation); measured on lavapipe since the fix: TileDim 3 "
        "max abs error 1.4e-06 at 48^3, TileDim 4 2.6e-06 at 64^3"),
}


def update_results(results: Path, native: Path | None, emulated: Path | None, only: set[str]) -> None:
    """Kernels of `native` (a GPU run) and `emulated` (a lavapipe run) replace their namesakes in `results`
    or join them; a kernel whose run came from another machine than the file's records that machine."""
    document = json.loads(results.read_text())
    by_name = {k["name"]: k for k in document["kernels"]}
    for path, part in ((native, "native"), (emulated, "emulated")):
        if path is None:
            continue
        run = json.loads(path.read_text())
        for kernel in run["kernels"]:
            if only and kernel["name"] not in only:
                continue
            entry = by_name.setdefault(kernel["name"], {})
            if not entry:
                document["kernels"].append(entry)
            for key in ("name", "project", "source", "commit", "instantiated_with"):
                entry[key] = kernel.get(key)
            if part == "native":
                entry["sizes"] = kernel.get("sizes")
                entry["native"], entry["native_report"] = kernel["native"], kernel.get("native_report", "")
            else:
                entry["emulated"] = kernel["emulated"]
                if kernel["name"] in EMULATION_NOTES:
                    entry["emulated"]["note"] = EMULATION_NOTES[kernel["name"]]
            recorded = {k: v for k, v in document["machines"][part].items() if k != "gpu"}
            if run["machine"] != recorded:
                entry[f"{part}_machine"] = run["machine"]
    document["not_instantiated"] = NOT_INSTANTIATED
    results.write_text(json.dumps(document, indent=2, default=str) + "\n")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    make = sub.add_parser("instantiate")
    make.add_argument("--corpus", type=Path, required=True)
    make.add_argument("--out", type=Path, required=True)
    make.add_argument("--dawn", type=Path, help="the google/dawn git mirror (its tiled subgroup-matrix test)")
    run = sub.add_parser("run")
    run.add_argument("folder", type=Path)
    run.add_argument("--only", action="append", default=[])
    run.add_argument("--native-only", action="store_true")
    run.add_argument("--emulated-only", action="store_true")
    merge = sub.add_parser("merge", help="one file from a native run (on the GPU) and an emulated one (lavapipe)")
    merge.add_argument("native", type=Path)
    merge.add_argument("emulated", type=Path)
    merge.add_argument("--checks", type=Path, help="the text of the fixture runs made on the same GPU")
    merge.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "results" / "real_kernels.json")
    update = sub.add_parser("update", help="replace or add kernels of the results file from a native run and an "
                                           "emulated one, each kernel keeping the machines it ran on")
    update.add_argument("--native", type=Path)
    update.add_argument("--emulated", type=Path)
    update.add_argument("--only", action="append", default=[])
    update.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "results" / "real_kernels.json")
    run.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "results" / "real_kernels.json")
    args = parser.parse_args(argv)
    if args.command == "instantiate":
        instantiate(args.corpus, args.out, args.dawn)
        return 0
    if args.command == "update":
        update_results(args.out, args.native, args.emulated, set(args.only))
        return 0
    if args.command == "merge":
        native, emulated = json.loads(args.native.read_text()), json.loads(args.emulated.read_text())
        by_name = {k["name"]: k for k in emulated["kernels"]}
        for kernel in native["kernels"]:
            kernel["emulated"] = by_name.get(kernel["name"], {}).get("emulated", {"status": "not run"})
            if "enable-extension is not yet supported" in kernel["emulated"].get("error", ""):
                kernel["emulated"]["note"] = ("not emulated: naga (wgpu-native) rejects `enable subgroups;`; "
                                              "rewriting it for the emulation is issue 24 item 3, on another branch")
        native["not_instantiated"] = NOT_INSTANTIATED
        if args.checks:
            native["device_checks"] = args.checks.read_text().splitlines()
        native["machines"] = {"native": native.pop("machine"), "emulated": emulated["machine"]}
        adapters = {k["native"].get("adapter") for k in native["kernels"] if k.get("native", {}).get("adapter")}
        native["machines"]["native"]["gpu"] = ", ".join(sorted(adapters))
        adapters = {k["emulated"].get("adapter") for k in native["kernels"] if k["emulated"].get("adapter")}
        native["machines"]["emulated"]["gpu"] = ", ".join(sorted(adapters))
        args.out.write_text(json.dumps(native, indent=2, default=str) + "\n")
        return 0
    folders = sorted(p for p in args.folder.iterdir() if (p / "kernel.run.toml").exists()
                     and (not args.only or p.name in args.only))
    results = []
    for folder in folders:
        print(f"== {folder.name}", file=sys.stderr, flush=True)
        results.append(run_one(folder, args.native_only, args.emulated_only))
        print(results[-1].get("native_report", results[-1].get("error", "")), file=sys.stderr, flush=True)
        print(json.dumps(results[-1].get("emulated", {}))[:600], file=sys.stderr, flush=True)
    document = {"benchmark": "real_kernels", "machine": machine(), "kernels": results,
                "not_instantiated": NOT_INSTANTIATED}
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(document, indent=2, default=str) + "\n")
    print(f"wrote {args.out}", file=sys.stderr)
    return 0 if all(r.get("native", {}).get("status") == "correct" for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
