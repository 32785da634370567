"""Raw templates linted as a contributor first opens them: no variant configured, no defines.

    .venv/bin/python -m benchmarks.raw_templates FOLDER [--label NAME]

FOLDER holds a project's shader sources, kept outside this repository (e.g. ggml's
src/ggml-webgpu/wgsl-shaders, whose host passes the macros). Every .wgsl file is linted on its own with
`coop-lint --isolated --no-cache`; the findings are counted per file and per rule. Issue 31: such a file
got one M007 per use of a macro its host defines (ggml's 43 raw sources: 423 findings, 352 of them M007);
it now gets one M007 per file naming the macros, and the rest is linted with those names opaque.
Writes benchmarks/results/raw_templates.json with the counts (no source text).
"""

from __future__ import annotations

import argparse
import collections
import json
import subprocess
import sys
from pathlib import Path

from .common import write_result

ROOT = Path(__file__).resolve().parent.parent


def lint_folder(folder: Path) -> list[dict]:
    command = [str(ROOT / ".venv" / "bin" / "coop-lint"), "--isolated", "--no-cache", "--exit-zero",
               "--output-format", "json", str(folder)]
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode not in (0, 1):
        raise SystemExit(f"coop-lint failed ({done.returncode}): {done.stderr.strip()}")
    return json.loads(done.stdout or "[]")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--label", default="ggml-webgpu")
    args = parser.parse_args(argv)
    files = sorted(p.name for p in args.folder.glob("*.wgsl"))
    findings = lint_folder(args.folder)
    per_file: dict[str, collections.Counter] = {name: collections.Counter() for name in files}
    for finding in findings:
        per_file.setdefault(Path(finding["filename"]).name, collections.Counter())[finding["code"]] += 1
    codes = collections.Counter(f["code"] for f in findings)
    figures = {"label": args.label, "files": len(files), "findings": len(findings),
               "by_rule": dict(codes.most_common()),
               "per_file": {name: {"findings": sum(c.values()), **dict(c.most_common())}
                            for name, c in sorted(per_file.items())}}
    path = write_result("raw_templates", figures, notes=(
        "Linted without configuration. Before issue 31 (commit 23fb04f) the same 43 ggml sources gave 423 "
        "findings: M007 352, T001 45, T012 14, T003 6, T050 5, A002 1 (mul_mat_subgroup_matrix.wgsl 80, "
        "mul_mat_id.wgsl 51, mul_mat_reg_tile.wgsl 49). Before the truth9 branch, 105: the files with no "
        "directive at all (cumsum, solve_tri, im2col, sum_rows, mul_mat_id_gather) were linted as plain WGSL "
        "and got one T001 per use of WG_SIZE and the like (45); now a file whose only unresolved names are "
        "spelled like macros gets the one M007 too (lint.files.host_macro_names)."))
    print(f"{len(findings)} findings in {len(files)} files: {dict(codes.most_common())}; written to {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
