"""Adopting coop-lint in a codebase that already has findings: --write-baseline, --baseline, --baseline-prune.

The folder below is a copy of a small kernel codebase with old findings (the
deprecated bool-majorness load and store, as production backends still write
them). The test walks through what a team does on the day it turns coop-lint
on, and in the weeks after.
"""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest

from coop_lsp.cli.main import main

OLD_KERNEL = textwrap.dedent("""\
    enable chromium_experimental_subgroup_matrix;
    enable f16;
    @group(0) @binding(0) var<storage, read_write> A: array<f16>;
    @compute @workgroup_size(32)
    fn main() {
      let m = subgroupMatrixLoad<subgroup_matrix_left<f16, 16, 16>>(&A, 0u, false, 16u);
      subgroupMatrixStore(&A, 256u, m, true, 16u);
    }
    """)
OTHER_KERNEL = textwrap.dedent("""\
    fn helper() -> i32 {
      return 1 & 2 | 3;
    }
    """)


def lint(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.fixture
def codebase(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    shaders = tmp_path / "shaders"
    shaders.mkdir()
    (shaders / "gemm.wgsl").write_text(OLD_KERNEL)
    (shaders / "util.wgsl").write_text(OTHER_KERNEL)
    return tmp_path


def entries(path: Path) -> list[dict]:
    return json.loads(path.read_text())["findings"]


def test_adoption_day_and_after(codebase, capsys):
    baseline = codebase / "coop-lint-baseline.json"
    code, _, err = lint(capsys, "--write-baseline", str(baseline), "shaders")
    assert code == 0
    assert "Wrote 3 findings in 2 files" in err
    assert sorted(e["code"] for e in entries(baseline)) == ["S002", "T012", "T012"]

    # With the baseline, the old findings pass CI.
    code, out, err = lint(capsys, "--baseline", str(baseline), "shaders")
    assert (code, out) == (0, "")
    assert "3 findings in the baseline" in err

    # A new error fails it, and only the new error is shown.
    gemm = codebase / "shaders" / "gemm.wgsl"
    gemm.write_text(OLD_KERNEL.replace("true, 16u);\n", "true, 16u);\n  let broken: u32 = 1.5;\n"))
    code, out, _ = lint(capsys, "--baseline", str(baseline), "--no-source", "shaders")
    assert code == 1
    shown = [line for line in out.splitlines() if line.startswith("shaders/")]
    assert len(shown) == 1 and shown[0].startswith("shaders/gemm.wgsl:8:")
    gemm.write_text(OLD_KERNEL)

    # Moving code by inserting lines above it keeps the baseline matching.
    gemm.write_text("// a licence header\n// added later\n\n" + OLD_KERNEL)
    code, out, err = lint(capsys, "--baseline", str(baseline), "shaders")
    assert (code, out) == (0, "")
    assert "no longer occur" not in err

    # Fixing an old finding leaves a stale entry; --baseline-prune removes it.
    (codebase / "shaders" / "util.wgsl").write_text(OTHER_KERNEL.replace("1 & 2 | 3", "(1 & 2) | 3"))
    code, out, err = lint(capsys, "--baseline", str(baseline), "shaders")
    assert code == 0
    assert "shaders/util.wgsl:2: S002 no longer occurs" in err
    assert len(entries(baseline)) == 3
    code, _, err = lint(capsys, "--baseline", str(baseline), "--baseline-prune", "shaders")
    assert code == 0 and "removed 1 stale entry" in err
    assert sorted(e["code"] for e in entries(baseline)) == ["T012", "T012"]


def test_the_baseline_comes_from_the_configuration(codebase, capsys):
    (codebase / "lint").mkdir()
    assert lint(capsys, "--write-baseline", "lint/baseline.json", "shaders")[0] == 0
    (codebase / "pyproject.toml").write_text('[tool.coop-lint]\nbaseline = "lint/baseline.json"\n')
    code, out, _ = lint(capsys, "shaders")
    assert (code, out) == (0, "")


def test_a_missing_baseline_is_an_error_not_an_empty_baseline(codebase, capsys):
    code, out, err = lint(capsys, "--baseline", "typo.json", "shaders")
    assert code == 2 and out == ""
    assert err.strip() == "coop-lint: error: typo.json: baseline file not found (create it with --write-baseline typo.json)"


@pytest.mark.parametrize("content, reason", [
    ("{not json", "invalid JSON at line 1"),
    ('{"version": 3, "rules": []}', "no 'coop-lint-baseline' key"),
    ('{"coop-lint-baseline": 1, "findings": [{"file": "x"}]}', "findings[0] needs 'file', 'code' and 'fingerprint'"),
    ('{"coop-lint-baseline": 99, "findings": []}', "baseline format 99 is not one this coop-lint"),
])
def test_a_corrupt_or_foreign_baseline_is_one_line_and_changes_nothing(codebase, capsys, content, reason):
    bad = codebase / "baseline.json"
    bad.write_text(content)
    code, out, err = lint(capsys, "--baseline", str(bad), "--baseline-prune", "shaders")
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and reason in err and str(bad) in err
    assert bad.read_text() == content


def test_entries_written_by_another_version_are_reported_not_dropped(codebase, capsys):
    baseline = codebase / "baseline.json"
    lint(capsys, "--write-baseline", str(baseline), "shaders")
    data = json.loads(baseline.read_text())
    data["written-by"] = "0.0.1"
    for entry in data["findings"]:
        del entry["line-fingerprint"]  # older baselines had one fingerprint; they still match by it
        if entry["code"] == "S002":
            entry["fingerprint"] = "from-an-older-fingerprint"
    baseline.write_text(json.dumps(data))
    code, out, err = lint(capsys, "--baseline", str(baseline), "--no-source", "shaders")
    assert code == 1  # the S002 finding no longer matches its old entry, so it is shown ...
    assert "S002" in out
    assert "written by coop-lint 0.0.1" in err  # ... and the old entry is listed as stale
    assert "shaders/util.wgsl:2: S002 no longer occurs" in err
    assert len(entries(baseline)) == 3  # nothing removed without --baseline-prune
