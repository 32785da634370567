"""Configuration lookup, per-path overrides, severities, exclusion, .gitignore and suppression in WGSL."""

from __future__ import annotations

import json
import shutil
import subprocess
import textwrap
from pathlib import Path

import pytest

from coop_lsp.cli.main import main
from coop_lsp.core.diagnostic import Severity
from coop_lsp.lint.config import ConfigError, ConfigFinder

from .test_cli_formats import DEPRECATED

MIXED = "fn f() { let x = 1 & 2 | 3; }\n"


def findings(capsys, *argv: str) -> tuple[int, list[tuple[str, str, str]]]:
    code = main(["--output-format", "json", *argv])
    out = capsys.readouterr().out
    return code, [(item["filename"], item["code"], item["severity"]) for item in json.loads(out or "[]")]


@pytest.fixture
def tree(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for name in ("top.wgsl", "legacy/old.wgsl", "legacy/deep/older.wgsl", "gen/out.wgsl"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(DEPRECATED)
    return tmp_path


def test_pyproject_table_applies_below_it(tree, capsys):
    (tree / "pyproject.toml").write_text(textwrap.dedent("""\
        [project]
        name = "x"
        [tool.coop-lint]
        exclude = ["gen"]
        severity = { deprecated_builtin = "error" }
        per-file-ignores = { "legacy/deep/*.wgsl" = ["T012"] }
        """))
    code, found = findings(capsys, ".")
    assert code == 1
    assert found == [("legacy/old.wgsl", "T012", "error")] * 2 + [("top.wgsl", "T012", "error")] * 2


def test_nearest_config_wins_and_pyproject_without_table_is_passed_over(tree, capsys):
    (tree / "coop-lint.toml").write_text('ignore = ["T012"]\n')
    (tree / "legacy" / "pyproject.toml").write_text('[project]\nname = "legacy"\n')  # no [tool.coop-lint]
    (tree / "legacy" / "deep" / "coop-lint.toml").write_text('severity = { T012 = "info" }\n')
    code, found = findings(capsys, ".")
    assert found == [("legacy/deep/older.wgsl", "T012", "info")] * 2
    # --isolated reads no file; --config forces one for every file.
    assert len(findings(capsys, "--isolated", ".")[1]) == 8
    (tree / "strict.toml").write_text('[tool.coop-lint]\nseverity = { T012 = "off" }\n')
    assert findings(capsys, "--config", "strict.toml", ".") == (0, [])


def test_overrides_select_and_the_command_line_comes_last(tree, capsys):
    (tree / "pyproject.toml").write_text(textwrap.dedent("""\
        [tool.coop-lint]
        select = ["S"]
        dialect = "chromium"
        targets = ["rtx-4090"]
        [[tool.coop-lint.overrides]]
        files = ["legacy/**/*.wgsl"]
        select = ["T012"]
        dialect = "standard"
        """))
    _, found = findings(capsys, ".")
    assert {f for f, _, _ in found} == {"legacy/old.wgsl", "legacy/deep/older.wgsl"}
    _, found = findings(capsys, "--select", "T0", ".")
    assert len(found) == 8
    settings = ConfigFinder().for_path(tree / "legacy" / "old.wgsl").settings_for(tree / "legacy" / "old.wgsl")
    assert (settings.dialect, settings.targets) == ("standard", ("rtx-4090",))
    assert ConfigFinder().for_path(tree / "top.wgsl").settings_for(tree / "top.wgsl").dialect == "chromium"


@pytest.mark.parametrize("content, key", [
    ('[tool.coop-lint]\nselect = ["T999"]\n', "[tool.coop-lint] select: unknown rule 'T999'"),
    ('[tool.coop-lint]\nseverity = { T012 = "loud" }\n', "[tool.coop-lint] severity.T012: severity must be one of"),
    ('[tool.coop-lint]\nseverity = { S001 = "off" }\n', "[tool.coop-lint] severity.S001: the severity of syntax"),
    ('[tool.coop-lint]\ndialect = "metal"\n', "[tool.coop-lint] dialect: dialect must be one of auto, wgpu"),
    ('[tool.coop-lint]\nper_file_ignores = {}\n', "[tool.coop-lint] per_file_ignores: unknown key (did you mean "
                                                   "'per-file-ignores'?)"),
    ('[tool.coop-lint]\n[[tool.coop-lint.overrides]]\nselect = ["T"]\n', "[tool.coop-lint] overrides[0].files:"),
    ('[tool.coop-lint\n', "invalid TOML"),
])
def test_bad_configuration_exits_two_naming_file_and_key(tree, capsys, content, key):
    (tree / "pyproject.toml").write_text(content)
    code = main(["top.wgsl"])
    err = capsys.readouterr().err
    assert code == 2
    assert err.startswith(f"coop-lint: error: {tree / 'pyproject.toml'}: {key}"), err
    assert "Traceback" not in err


def test_exclude_applies_to_named_files_only_with_force_exclude(tree, capsys):
    (tree / "coop-lint.toml").write_text('exclude = ["gen/"]\n')
    assert len(findings(capsys, "gen/out.wgsl")[1]) == 2
    assert findings(capsys, "--force-exclude", "gen/out.wgsl") == (0, [])


def test_gitignore_without_git(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for name in ("keep.wgsl", "build/skip.wgsl", "sub/skip.wgsl", "sub/keep_me.wgsl", "sub/deep/x.wgsl"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(MIXED)
    (tmp_path / ".gitignore").write_text("build/\n*skip*\n")
    (tmp_path / "sub" / ".gitignore").write_text("/deep\n!keep_me.wgsl\n")
    _, found = findings(capsys, ".")
    assert [f for f, _, _ in found] == ["keep.wgsl", "sub/keep_me.wgsl"]


@pytest.mark.skipif(shutil.which("git") is None, reason="needs git")
def test_gitignore_inside_a_git_work_tree(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    subprocess.run(["git", "init", "-q", "."], check=True)
    for name in ("keep.wgsl", "out/skip.wgsl", "tracked/t.wgsl"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(MIXED)
    (tmp_path / ".gitignore").write_text("out/\ntracked/\n")
    subprocess.run(["git", "add", "-f", "tracked/t.wgsl"], check=True)  # tracked files always count
    _, found = findings(capsys, ".")
    assert [f for f, _, _ in found] == ["keep.wgsl", "tracked/t.wgsl"]


SUPPRESSED = textwrap.dedent("""\
    enable chromium_experimental_subgroup_matrix;
    enable f16;
    @group(0) @binding(0) var<storage, read_write> A: array<f16>;
    fn loud() {
      let m = subgroupMatrixLoad<subgroup_matrix_left<f16, 16, 16>>(&A, 0u, false, 16u);
      let x = 1 & 2 | 3;
    }
    @diagnostic(off, coop.deprecated_builtin)
    fn quiet() {
      let m = subgroupMatrixLoad<subgroup_matrix_left<f16, 16, 16>>(&A, 0u, false, 16u);
      let x = 1 & 2 | 3;
    }
    """)


def _concise(capsys, path: Path, text: str) -> list[str]:
    path.write_text(text)
    main(["--output-format", "concise", "-q", str(path.name)])
    return [" ".join(line.split(" ")[:3]) for line in capsys.readouterr().out.splitlines()]


def test_suppression_in_wgsl_is_scoped_and_never_hides_syntax_errors(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    kernel = tmp_path / "k.wgsl"
    # The attribute covers quiet() only; syntax errors are reported everywhere.
    assert _concise(capsys, kernel, SUPPRESSED) == [
        "k.wgsl:5:11: T012 [warning]", "k.wgsl:6:17: S002 [error]", "k.wgsl:11:17: S002 [error]"]
    assert _concise(capsys, kernel, "diagnostic(error, coop.deprecated_builtin);\n"
                                    "diagnostic(off, coop.mixed_operators);\n" + SUPPRESSED) == [
        # S002 cannot be switched off, so that filter suppresses nothing (A001 says so).
        "k.wgsl:2:17: A001 [warning]",
        "k.wgsl:7:11: T012 [error]", "k.wgsl:8:17: S002 [error]", "k.wgsl:13:17: S002 [error]"]
    assert _concise(capsys, kernel, "diagnostic(off, coop.deprecated_builtin);\n" + SUPPRESSED) == [
        "k.wgsl:7:17: S002 [error]", "k.wgsl:12:17: S002 [error]"]


def test_function_attribute_does_not_reach_functions_after_it(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    quiet_first = SUPPRESSED.replace("fn loud()", "fn placeholder()").replace(
        "@diagnostic(off, coop.deprecated_builtin)\nfn quiet()", "fn quiet2()")
    quiet_first = ("@diagnostic(off, coop.deprecated_builtin)\nfn quiet() {}\n" + quiet_first)
    assert "T012 [warning]" in " ".join(_concise(capsys, tmp_path / "k.wgsl", quiet_first))


def test_config_errors_are_exceptions_with_file_and_key(tmp_path):
    (tmp_path / "coop-lint.toml").write_text('targets = "a b"\n')
    with pytest.raises(ConfigError) as raised:
        ConfigFinder().for_path(tmp_path / "x.wgsl")
    assert raised.value.key == "targets"
    assert str(raised.value).startswith(str(tmp_path / "coop-lint.toml"))
    (tmp_path / "coop-lint.toml").write_text('[tool.coop-lint]\nseverity = { T012 = "hint" }\n')
    settings = ConfigFinder().for_path(tmp_path / "x.wgsl").settings_for(tmp_path / "x.wgsl")
    assert settings.severity == {"T012": Severity.HINT}
    assert Path(tmp_path / "x.wgsl").exists() is False
