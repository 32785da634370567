"""Public kernels linted as their authors ship them: findings per project, every U002 and error listed.

    .venv/bin/python -m benchmarks.survey /work/corpus/survey9 --before /work/main/.venv/bin/coop-lint

The corpus folder (kept outside this repository) holds one folder per project, each with a SOURCE.json
naming the repository and commit; every .wgsl file under it is linted with no configuration
(`--isolated`), as a user who opens the file or runs coop-lint on the checkout sees it. `--before` lints
the same files with another coop-lint (main's) so that the result shows what a change did. The U002
findings and errors are listed one by one: each is judged by hand in the notes of the result file (a
false alarm is fixed, or kept with its reason), and a finding not judged there is counted as such.
Writes benchmarks/results/survey9.json.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

from .common import write_result

# What a person concluded about each U002 or error that the current coop-lint reports, by
# (project, path inside the project, code, line). Each says why the finding is right, or why it stays.
# A line of None stands for every line of that file and code.
_FA = "src/ggml-webgpu/wgsl-shaders/"
JUDGED: dict[tuple[str, str, str, int | None], str] = {
    ("dawn", "test/tint/extensions/subgroup_matrix/function_return_value_non_uniform.wgsl", "U002", None):
        "right: Tint's own test of matrix values made in non-uniform control flow, written to be non-uniform "
        "(its name, and the rule switched off at the top). Each lane branches on buffer[idx] == 0; run by the "
        "divergence tracer on lavapipe (8 lanes) with a buffer whose even elements are 0, even and odd lanes "
        "take different branches and build different matrices, so the stored values are undefined. The "
        "tracer counts arrivals at the entry point's five stores (uniform there): what differs is their "
        "argument, which U002 names.",
    ("ggml", None, "M007", None):
        "by design: a raw ggml template opened without configuration gets one M007 naming the macros its "
        "host (ggml-webgpu-shader-lib.hpp through pre_wgsl) defines; configured with ggml's define sets "
        "(benchmarks/templates.py) there is none.",
    ("ggml", _FA + "flash_attn.wgsl", "T003", 406):
        "right for the variant the unconfigured lint takes (no DST_F32, so dst holds vec4<f16>): Tint rejects "
        "that expansion too ('cannot assign vec4<f32> to vec4<f16>'); with DST_F32 both accept it. ggml's "
        "shader lib can push DST_F16 for flash attention.",
    ("ggml", _FA + "flash_attn_tile.wgsl", "T004", 87):
        "right for the variant the unconfigured lint takes (no Q_F32, so Q_TYPE is f16): Tint rejects that "
        "expansion too ('no matching overload for operator * (f16, f32)'); with Q_F32 both accept it. ggml's "
        "shader lib can push Q_F16, so this is a latent error in ggml's tile kernel unless no caller passes an "
        "f16 Q.",
}


def judged(project: str, path: str, code: str, line: int) -> str:
    for key in ((project, path, code, line), (project, path, code, None), (project, None, code, None)):
        if key in JUDGED:
            return JUDGED[key]
    return "not judged"


def lint(executable: str, files: list[Path]) -> tuple[list[dict], float]:
    started = time.perf_counter()
    found: list[dict] = []
    for start in range(0, len(files), 40):  # a bounded command line
        chunk = files[start:start + 40]
        done = subprocess.run([executable, "--isolated", "--no-cache", "--exit-zero", "--output-format", "json",
                               *map(str, chunk)], capture_output=True, text=True, timeout=1800)
        if done.returncode not in (0, 1):
            raise RuntimeError(f"{executable} exited {done.returncode}: {done.stderr[-2000:]}")
        found.extend(json.loads(done.stdout or "[]"))
    return found, time.perf_counter() - started


def _code(finding: dict) -> str:
    return finding.get("code") or finding.get("rule") or "?"


def _line(finding: dict) -> int:
    location = finding.get("location") or {}
    return int(location.get("line") or 0)


def _path(finding: dict) -> str:
    return finding.get("filename") or finding.get("file") or ""


def summarise(project: Path, findings: list[dict]) -> dict:
    by_rule = Counter(_code(f) for f in findings)
    listed = []
    for finding in findings:
        severity = finding.get("severity", "")
        code = _code(finding)
        if code != "U002" and severity != "error":
            continue
        relative = str(Path(_path(finding)).resolve().relative_to(project.resolve()))
        listed.append({"file": relative, "line": _line(finding), "code": code, "severity": severity,
                       "message": finding.get("message", ""),
                       "judged": judged(project.name, relative, code, _line(finding))})
    return {"findings": len(findings), "by_rule": dict(sorted(by_rule.items())),
            "u002": by_rule.get("U002", 0), "errors": sum(1 for f in findings if f.get("severity") == "error"),
            "listed": listed}


def survey(corpus: Path, executable: str) -> dict:
    projects = {}
    for project in sorted(p for p in corpus.iterdir() if p.is_dir()):
        files = sorted(project.rglob("*.wgsl"))
        source = json.loads((project / "SOURCE.json").read_text()) if (project / "SOURCE.json").exists() else {}
        findings, seconds = lint(executable, files)
        entry = summarise(project, findings)
        entry.update({"files": len(files), "source": source, "wall_seconds": round(seconds, 1)})
        projects[project.name] = entry
        print(f"{project.name}: {len(files)} files, {entry['findings']} findings, U002 {entry['u002']}, "
              f"errors {entry['errors']} ({seconds:.0f} s)", file=sys.stderr)
    return projects


# ggml's flash_attn_vec_split.wgsl as its shader lib instantiates it (ggml-webgpu-shader-lib.hpp: head sizes
# with their D_SPLIT, the K/V types with the loaders they need, and the mask, direct-load and softcap flags):
# the kernel whose lane-strided loops issue 31 found flagged. A sample of 96 of its define sets.
_FA_VEC = "ggml/src/ggml-webgpu/wgsl-shaders/flash_attn_vec_split.wgsl"
_FA_HEADS = ((64, 4), (128, 4), (80, 4), (40, 2), (72, 2), (36, 1))
_QUANT = ("U32_DEQUANT_HELPERS", "LOADERS_QUANTIZED_K", "LOADERS_QUANTIZED_V")
_FA_KV = (("K_F16", "V_F16"), ("K_F32", "V_F32"), ("K_Q8_0", "V_Q8_0", *_QUANT), ("K_Q4_0", "V_Q4_0", *_QUANT))
_FA_FLAGS = ((), ("MASK", "BLK"), ("MASK", "BLK", "K_DIRECT", "V_DIRECT"), ("LOGIT_SOFTCAP", "SINKS"))


def flash_attn_vec_sets() -> list[list[str]]:
    sets = []
    for head, split in _FA_HEADS:
        for kv in _FA_KV:
            for flags in _FA_FLAGS:
                defines = [f"HEAD_DIM_QK={head}", f"HEAD_DIM_V={head}", f"D_SPLIT={split}", "KV_TILE=32",
                           "WG_SIZE=32", "Q_TILE=1", "Q_F32", "DST_F32", *kv, *flags]
                sets.append(defines)
    return sets


def configured(corpus: Path, executable: str) -> dict:
    path = corpus / _FA_VEC
    by_rule: Counter = Counter()
    started = time.perf_counter()
    sets = flash_attn_vec_sets()
    for defines in sets:
        arguments = [executable, "--isolated", "--no-cache", "--exit-zero", "--output-format", "json"]
        for define in defines:
            arguments += ["-D", define]
        done = subprocess.run([*arguments, str(path)], capture_output=True, text=True, timeout=600)
        by_rule.update(_code(f) for f in json.loads(done.stdout or "[]"))
    return {"file": _FA_VEC, "variants": len(sets), "by_rule": dict(sorted(by_rule.items())),
            "u002": by_rule.get("U002", 0), "wall_seconds": round(time.perf_counter() - started, 1)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("corpus", type=Path)
    parser.add_argument("--before", help="another coop-lint executable to compare with (main's)")
    parser.add_argument("--after", default=str(Path(sys.executable).with_name("coop-lint")))
    parser.add_argument("--name", default="survey9")
    args = parser.parse_args(argv)
    figures = {"corpus": str(args.corpus), "after": survey(args.corpus, args.after),
               "ggml_flash_attn_vec_configured": {"after": configured(args.corpus, args.after)}}
    if args.before:
        figures["before"] = survey(args.corpus, args.before)
        figures["ggml_flash_attn_vec_configured"]["before"] = configured(args.corpus, args.before)
        figures["before_after"] = {
            name: {key: [figures["before"][name][key], entry[key]] for key in ("findings", "u002", "errors")}
            for name, entry in figures["after"].items()}
    unjudged = sum(1 for entry in figures["after"].values() for item in entry["listed"] if item["judged"] == "not judged")
    figures["not_judged"] = unjudged
    path = write_result(args.name, figures, "each U002 and error of the current coop-lint is listed with the "
                                            "judgement a person wrote in benchmarks/survey.py (JUDGED)")
    print(path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
