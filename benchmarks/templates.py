"""Public templated kernels, every variant instantiated: the compiler's verdict beside coop-lint's.

    .venv/bin/python -m benchmarks.templates /work/corpus/templates

The corpus folder holds public projects' sources (kept outside this repository):
- ggml-org+ggml: the WebGPU backend's shaders with the define sets its C++ builds
  (ggml-webgpu-shader-lib.hpp; reproduced in `ggml_sets` below for the matrix-multiply shaders);
- bevyengine+naga_oil: its composer's test shaders (`#import`, `#ifdef`), each with no define and with each
  name its conditionals test defined alone;
- wgsl-tooling-wg+wesl-rs: the .wesl files of its examples and test fixtures, with the features their
  `@if`s test.

For each template, a variants table in exactly the documented form is written beside a copy of the
shaders, read back through the configuration loader, and the template is linted with those variants; every
variant's WGSL is compiled by Tint (Dawn's Null backend; naga for naga_oil, whose users run wgpu). A false
error is a coop-lint error in a variant the compiler accepts. Writes benchmarks/results/templates.json.
"""

from __future__ import annotations

import re
import shutil
import sys
import tempfile
import time
from pathlib import Path

from coop_lsp.core.diagnostic import Severity
from coop_lsp.core.rules import rule
from coop_lsp.lint.catalogue import all_rules
from coop_lsp.lint.config import load
from coop_lsp.lint.templates import TemplateOptions, Variant, lint_template, options_for
from coop_lsp.source import FileCache

from .common import write_result

# ggml-webgpu-shader-lib.hpp, mul_mat fast path: WEBGPU_MUL_MAT_* constants and the type switch.
_QUANT = {  # ggml type name -> extra defines its C++ adds
    "q4_0": [], "q4_1": [], "q5_0": [], "q5_1": [], "q8_0": [], "q2_k": [], "q3_k": [], "q4_k": [],
    "q5_k": [], "q6_k": [], "iq4_nl": ["GRID"], "iq4_xs": ["GRID"], "iq1_s": ["GRID"], "iq1_m": ["GRID"],
    "iq2_xxs": ["GRID", "TABLES"], "iq2_xs": ["GRID", "TABLES"], "iq2_s": ["GRID", "TABLES"],
    "iq3_xxs": ["GRID", "TABLES"], "iq3_s": ["GRID", "TABLES"], "mxfp4": ["LUT"],
}


def ggml_sets(subgroup_matrix: bool) -> list[tuple[str, dict[str, str]]]:
    sets = []
    sg_shapes = ((8, 8, 8), (16, 16, 16)) if subgroup_matrix else ((0, 0, 0),)
    for src1 in ("f32", "f16"):
        for src0 in ("f32", "f16", *_QUANT):
            for vectorized in ((False, True) if src0 in ("f32", "f16") else (False,)):
                for m, n, k in sg_shapes:
                    defines = {"SRC1_INNER_TYPE": src1}
                    if src0 in ("f32", "f16"):
                        defines.update({"SRC0_INNER_TYPE": src0, "FLOAT": "", "MUL_ACC_FLOAT": "",
                                        "INIT_SRC0_SHMEM_FLOAT": "", "INIT_SRC1_SHMEM_FLOAT": ""})
                        tile_k = 32 if subgroup_matrix else 8
                    else:
                        upper = src0.upper()
                        defines.update({"BYTE_HELPERS": "", f"MUL_ACC_{upper}": "", f"INIT_SRC0_SHMEM_{upper}": "",
                                        "INIT_SRC1_SHMEM_FLOAT": "", "U32_DEQUANT_HELPERS": "",
                                        "SRC0_INNER_TYPE": "u32"})
                        defines.update({f"{upper}_{extra}": "" for extra in _QUANT[src0]})
                        tile_k = 32
                    defines["VEC" if vectorized else "SCALAR"] = ""
                    defines.update({"TILE_M": "4u", "TILE_N": "4u"})
                    if subgroup_matrix:
                        defines.update({"TILE_K": f"{tile_k}u", "MAX_SUBGROUP_SIZE": "32u", "SUBGROUP_M": "2u",
                                        "SUBGROUP_N": "4u", "SUBGROUP_MATRIX_M": "4u", "SUBGROUP_MATRIX_N": "2u",
                                        "SUBGROUP_MATRIX_M_SIZE": f"{m}u", "SUBGROUP_MATRIX_N_SIZE": f"{n}u",
                                        "SUBGROUP_MATRIX_K_SIZE": f"{k}u"})
                    else:
                        defines.update({"WORKGROUP_SIZE_M": "8u", "WORKGROUP_SIZE_N": "8u", "TILE_K": f"{tile_k}u"})
                    name = f"{src0}-{src1}{'-vec' if vectorized else ''}{f'-{m}x{n}x{k}' if m else ''}"
                    sets.append((name, defines))
    return sets


def _toml_sets(sets) -> str:
    rows = []
    for name, defines in sets:
        pairs = ", ".join(f'{key} = "{value}"' for key, value in defines.items())
        rows.append(f'  {{ name = "{name}", defines = {{ {pairs} }} }},')
    return "\n".join(rows)


def _tables(entries) -> str:
    """entries: (files glob, include dirs, override, sets) -> the documented [[tool.coop-lint.variants]] form."""
    out = []
    for files, include, override, sets in entries:
        out.append("[[tool.coop-lint.variants]]")
        out.append(f"files = [{', '.join(repr(f).replace(chr(39), chr(34)) for f in files)}]")
        out.append(f"include = [{', '.join(repr(i).replace(chr(39), chr(34)) for i in include)}]")
        out.append(f"override-file-defines = {'true' if override else 'false'}")
        out.append("sets = [\n" + _toml_sets(sets) + "\n]\n")
    return "\n".join(out)


class Compilers:
    def __init__(self) -> None:
        from coop_lsp.devices.tint import TintOracle
        self.tint = TintOracle()
        self.naga = None
        try:
            from coop_lsp.devices.naga import NagaOracle, naga_available
            if naga_available():
                self.naga = NagaOracle()
        except Exception:  # noqa: BLE001 - naga is optional here
            self.naga = None

    def accepts(self, text: str, compiler: str) -> tuple[bool, str]:
        if compiler == "naga" and self.naga is not None:
            result = self.naga.validate(text) if hasattr(self.naga, "validate") else self.naga.compile(text)
            return result.accepted, "; ".join(str(getattr(m, "message", m)) for m in result.errors[:2])
        result = self.tint.compile(text)
        return result.accepted, "; ".join(m.message for m in result.errors[:2]) or (result.failure or "")


def _errors_of_variant(run) -> list[str]:
    found = [f"{p.code} {p.message}" for p in run.expansion.problems if rule(p.code).severity == Severity.ERROR]
    found += [f"{d.code} {d.message}" for d in run.diagnostics if d.severity == Severity.ERROR]
    return found


def check_template(path: Path, options: TemplateOptions, compilers: Compilers, compiler: str, record: dict) -> None:
    # The project's copy is the workspace, as for a user who lints from the project's root: includes and
    # imports may reach anywhere inside it and nowhere else (SECURITY.md).
    workspace = (record["root"],) if "root" in record else (path.parent,)
    cache = FileCache(workspace=workspace)
    started = time.process_time()
    try:
        lint = lint_template(path, path.read_bytes(), options, cache=cache)
    except Exception as error:  # noqa: BLE001 - a crash is a finding of this benchmark
        record["crashes"].append(f"{path.name}: {type(error).__name__}: {error}")
        return
    elapsed = time.process_time() - started
    variants = len(lint.variants)
    # The same variants, each linted alone with nothing shared (a fresh cache each time).
    alone_started = time.process_time()
    for variant in options.variants:
        lint_template(path, path.read_bytes(), TemplateOptions((variant,), options.include_dirs,
                                                               options.override_file_defines, options.known_names),
                      cache=FileCache(workspace=workspace))
    alone = time.process_time() - alone_started
    entry = {"file": path.relative_to(record["root"]).as_posix() if "root" in record else path.name,
             "variants": variants, "cpu_seconds": round(elapsed, 3),
             "cpu_ms_per_variant": round(elapsed / max(variants, 1) * 1e3, 1),
             "cpu_seconds_each_alone": round(alone, 3),
             "together_over_each_alone": round(elapsed / alone, 2) if alone else None,
             "compiler_accepts": 0, "compiler_rejects": 0, "false_errors": 0, "agreed_rejections": 0,
             "missed_rejections": 0}
    for run in lint.variants:
        if any(d.code == "X001" for d in run.diagnostics):
            record["crashes"].append(f"{path.name} [{run.variant.name}]: internal error")
        accepted, why = compilers.accepts(run.expansion.data.decode("utf-8", "replace"), compiler)
        errors = _errors_of_variant(run)
        if accepted:
            entry["compiler_accepts"] += 1
            if errors:
                entry["false_errors"] += 1
                record["false_error_examples"].append(f"{entry['file']} [{run.variant.name}]: {errors[0]}")
        else:
            entry["compiler_rejects"] += 1
            if errors:
                entry["agreed_rejections"] += 1
            else:
                entry["missed_rejections"] += 1
                record["missed_examples"].append(f"{entry['file']} [{run.variant.name}]: {why[:200]}")
    entry["template_findings"] = {str(lint.files[i].name if lint.files[i] else "?"): len(found)
                                  for i, found in lint.diagnostics.items()}
    entry["template_errors"] = sum(1 for found in lint.diagnostics.values() for d in found
                                   if d.severity == Severity.ERROR)
    record["files"].append(entry)


def _suite(name: str, compiler: str) -> dict:
    return {"suite": name, "compiler": compiler, "files": [], "crashes": [], "false_error_examples": [],
            "missed_examples": []}


def ggml(corpus: Path, compilers: Compilers, scratch: Path) -> dict | None:
    shaders = corpus / "ggml-org+ggml" / "src" / "ggml-webgpu" / "wgsl-shaders"
    if not shaders.is_dir():
        return None
    copy = scratch / "ggml"
    shutil.copytree(shaders, copy / "shaders")
    (copy / "pyproject.toml").write_text(_tables([
        (["shaders/mul_mat_subgroup_matrix.wgsl"], ["shaders"], True, ggml_sets(True)),
        (["shaders/mul_mat_reg_tile.wgsl"], ["shaders"], True, ggml_sets(False)),
    ]))
    config = load(copy / "pyproject.toml")
    record = _suite("ggml webgpu (mul_mat, subgroup-matrix and register-tile)", "tint")
    record["root"] = copy / "shaders"
    for name in ("mul_mat_subgroup_matrix.wgsl", "mul_mat_reg_tile.wgsl"):
        path = copy / "shaders" / name
        check_template(path, options_for(config.settings_for(path).variants, {}), compilers, "tint", record)
    return record


def _feature_sets(text: str, pattern: str) -> list[tuple[str, dict[str, str]]]:
    names = sorted(set(re.findall(pattern, text)) - {"defined", "true", "false"})
    return [("none", {})] + [(n, {n: "true"}) for n in names]


def naga_oil(corpus: Path, compilers: Compilers, scratch: Path) -> dict | None:
    tests = corpus / "bevyengine+naga_oil" / "src" / "compose" / "tests"
    if not tests.is_dir():
        return None
    record = _suite("naga_oil composer tests (top-level modules)", "naga" if compilers.naga else "tint")
    record["root"] = tests
    for folder in sorted(p for p in tests.iterdir() if p.is_dir()):
        top = folder / "top.wgsl"
        if not top.is_file():
            continue
        text = top.read_text(errors="replace")
        sets = _feature_sets(text, r"#(?:ifdef|ifndef|if|else ifdef)\s+!?([A-Za-z_]\w*)")
        variants = tuple(Variant(name, tuple(d.items())) for name, d in sets)
        check_template(top, TemplateOptions(variants, (folder,)), compilers, record["compiler"], record)
    return record


def wesl(corpus: Path, compilers: Compilers, scratch: Path) -> dict | None:
    root = corpus / "wgsl-tooling-wg+wesl-rs"
    if not root.is_dir():
        return None
    record = _suite("wesl-rs examples and fixtures (.wesl)", "tint")
    record["root"] = root
    for path in sorted(root.rglob("*.wesl")):
        text = path.read_text(errors="replace")
        sets = _feature_sets(text, r"@(?:if|elif)\s*\(([^)]*)\)")
        names = sorted({n for _, d in sets for n in d} | set(re.findall(
            r"[A-Za-z_]\w*", " ".join(re.findall(r"@(?:if|elif)\s*\(([^)]*)\)", text)))) - {"true", "false"})
        sets = [("none", {})] + [(n, {n: "true"}) for n in names]
        variants = tuple(Variant(name, tuple(d.items())) for name, d in sets)
        check_template(path, TemplateOptions(variants), compilers, "tint", record)
    return record


def plain_overhead(files: int = 200) -> dict:
    """What the template layer adds to a plain file's lint: the check that it is not a template (the CLI's
    only extra step for a file with no variants and no -D), against the lint itself."""
    import random

    from coop_lsp.lint import lint_source
    from coop_lsp.lint.templates import needs_template_lint

    from .common import synthetic_kernel
    rng = random.Random(5)
    texts = [synthetic_kernel(lines=rng.choice((40, 120, 400))).encode() for _ in range(files)]
    started = time.perf_counter()
    for _ in range(20):
        flags = [needs_template_lint(text, options_for((), {})) for text in texts]
    check = (time.perf_counter() - started) / 20
    started = time.perf_counter()
    for text in texts:
        lint_source(text)
    lint = time.perf_counter() - started
    return {"files": files, "templates_detected": sum(flags), "check_ms_total": round(check * 1e3, 2),
            "lint_ms_total": round(lint * 1e3, 1), "overhead_percent": round(check / lint * 100, 3)}


def summarize(record: dict) -> dict:
    files = record["files"]
    variants = sum(f["variants"] for f in files)
    seconds = sum(f["cpu_seconds"] for f in files)
    alone = sum(f["cpu_seconds_each_alone"] for f in files)
    record["totals"] = {
        "templates": len(files), "variants": variants,
        "compiler_accepts": sum(f["compiler_accepts"] for f in files),
        "false_errors": sum(f["false_errors"] for f in files),
        "missed_rejections": sum(f["missed_rejections"] for f in files),
        "agreed_rejections": sum(f["agreed_rejections"] for f in files),
        "crashes": len(record["crashes"]),
        "cpu_ms_per_variant": round(seconds / variants * 1e3, 1) if variants else None,
        "together_over_each_alone": round(seconds / alone, 2) if alone else None,
    }
    record.pop("root", None)
    record["false_error_examples"] = record["false_error_examples"][:20]
    record["missed_examples"] = record["missed_examples"][:20]
    return record


def main(argv: list[str]) -> int:
    if len(argv) != 1 or not Path(argv[0]).is_dir():
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    corpus = Path(argv[0])
    all_rules()
    compilers = Compilers()
    suites = []
    with tempfile.TemporaryDirectory() as folder:
        for suite in (ggml, naga_oil, wesl):
            found = suite(corpus, compilers, Path(folder))
            if found is not None:
                suites.append(summarize(found))
                print(f"{found['suite']}: {found['totals']}")
    compilers.tint.close()
    overhead = plain_overhead()
    print(f"plain files: {overhead}")
    path = write_result("templates", {"suites": suites, "plain_file_overhead": overhead}, notes=(
        "Each template linted with its project's variant sets (ggml's from its C++; naga_oil and WESL: no define, "
        "then each tested name alone); every variant's WGSL compiled by the named compiler. false_errors: variants "
        "the compiler accepts where coop-lint reports an error; missed_rejections: variants the compiler rejects "
        "with no coop-lint error (often a name a real program would resolve, e.g. a WESL dependency package); "
        "Times are CPU seconds of this process (the compilers run in other processes); together_over_each_alone: "
        "all variants of a template linted together, over the same variants linted one by one with nothing shared. plain_file_overhead: the template "
        "check on synthetic plain kernels against their lint."))
    print(f"written to {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
