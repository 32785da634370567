"""--fix and --diff: safe fixes only, repeated until stable, never a file with more syntax errors."""

from __future__ import annotations

import subprocess
import sys

from coop_lsp.cli.main import main
from coop_lsp.core.diagnostic import Diagnostic, Edit, Fix
from coop_lsp.core.text import Span
from coop_lsp.lint import lint_source
from coop_lsp.lint.fixes import fix_until_stable

from .test_cli_formats import DEPRECATED

FIXED_LOAD = "subgroupMatrixLoad<subgroup_matrix_left<f16, 16, 16>, row_major>(&A, 0u, 16u)"


def test_fix_rewrites_the_file_and_reports_what_remains(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    kernel = tmp_path / "k.wgsl"
    # Missing ';' (safe), mixed operators, the deprecated form; 'let y = 1' has no safe fix for '}'.
    kernel.write_text(DEPRECATED.replace("16u);\n  subgroupMatrixStore", "16u)\n  subgroupMatrixStore")
                      + "fn g() { let x = 1 & 2 | 3 ^ 4; }\n")
    assert main(["--fix", "k.wgsl"]) == 0
    out = capsys.readouterr().out
    text = kernel.read_text()
    assert FIXED_LOAD + ";" in text
    assert "subgroupMatrixStore<col_major>(&A, 256u, m, 16u);" in text
    assert lint_source(text).diagnostics == []
    assert out.startswith("Fixed ")


def test_diff_prints_a_unified_diff_and_writes_nothing(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    kernel = tmp_path / "k.wgsl"
    kernel.write_text(DEPRECATED)
    assert main(["--diff", "k.wgsl"]) == 1
    captured = capsys.readouterr()
    assert kernel.read_text() == DEPRECATED
    lines = captured.out.splitlines()
    assert lines[:2] == ["--- a/k.wgsl", "+++ b/k.wgsl"]
    assert f"+  let m = {FIXED_LOAD};" in lines
    assert "Would fix 2 findings in 1 file." in captured.err
    (tmp_path / "clean.wgsl").write_text("fn f() {}\n")
    assert main(["--diff", "clean.wgsl"]) == 0


def test_only_safe_fixes_are_applied(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    kernel = tmp_path / "k.wgsl"
    kernel.write_text("fn f() {\n  let x = (1\n}\n")  # inserting ')' is not a safe fix
    assert main(["--fix", "-q", "k.wgsl"]) == 1
    assert kernel.read_text() == "fn f() {\n  let x = (1\n}\n"


def test_a_round_that_adds_syntax_errors_is_refused():
    good = Diagnostic("T012", "rename", Span(3, 4), fixes=(Fix("ok", (Edit(Span(3, 4), "g"),)),))
    bad = Diagnostic("T012", "breaks the file", Span(9, 10), fixes=(Fix("bad", (Edit(Span(9, 10), "{{"),)),))

    def lint(data: bytes):
        found = lint_source(data).diagnostics
        return found + ([good] if b"f()" in data else [bad] if not found else [])

    outcome = fix_until_stable(b"fn f() {}\n", lint)
    assert outcome.data == b"fn g() {}\n"  # the first round went in, the second was undone
    assert outcome.applied == 1
    assert outcome.refused and "more syntax errors" in outcome.refused


def test_fix_on_standard_input_writes_the_fixed_text():
    completed = subprocess.run([sys.executable, "-m", "coop_lsp.cli.main", "--fix", "-", "--stdin-filename", "k.wgsl"],
                               input=DEPRECATED.encode(), capture_output=True)
    assert completed.returncode == 0, completed.stderr
    assert FIXED_LOAD.encode() in completed.stdout
    assert completed.stdout.startswith(b"enable chromium_experimental_subgroup_matrix;")
