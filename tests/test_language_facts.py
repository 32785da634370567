"""The language facts live in one table (semantic/builtins), and the layers keep their arrows.

docs/architecture.md describes both; these tests keep it true:
- every builtin carries its uniformity and memory classification (the guard);
- the editor files' copies of the table are current (queries/highlights.scm, vscode-client/package.json);
- no module outside the table spells a list of matrix enables, dialects, types or builtins;
- adding a builtin is one table entry (the worked example of docs/architecture.md).
"""

from __future__ import annotations

import ast
import os
import shutil
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from coop_lsp.ide import editor_lists
from coop_lsp.semantic.builtins import language as lang
from coop_lsp.semantic.builtins.table import Builtin, BuiltinTable
from coop_lsp.semantic.context import CORE_TABLE

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "coop_lsp"


# ------------------------------------------------------------------ the guard
def unclassified(builtins) -> list[str]:
    """The builtins whose uniformity requirement, result uniformity or memory role is missing or unknown."""
    out = []
    for builtin in builtins:
        if builtin.uniformity not in lang.UNIFORMITY_REQUIREMENTS:
            out.append(f"{builtin.name}: uniformity requirement {builtin.uniformity!r}")
        if builtin.result not in lang.RESULT_UNIFORMITIES:
            out.append(f"{builtin.name}: result uniformity {builtin.result!r}")
        if builtin.memory not in lang.MEMORY_ROLES:
            out.append(f"{builtin.name}: memory role {builtin.memory!r}")
    return out


@pytest.mark.parametrize("dialect", lang.DIALECT_NAMES)
def test_every_matrix_builtin_is_classified(dialect: str) -> None:
    builtins = list(lang.DIALECT[dialect].table)
    assert builtins and not unclassified(builtins)
    # Every matrix builtin needs subgroup-uniform control flow (as Tint and naga require).
    assert {b.uniformity for b in builtins} == {lang.MATRIX}


def test_every_core_builtin_is_classified() -> None:
    assert not unclassified(CORE_TABLE)


def test_the_guard_refuses_a_builtin_added_without_classification() -> None:
    """What happens to whoever adds a builtin to a dialect's table and forgets the classification."""
    template = lang.DIALECT["chromium"].table.get("subgroupMatrixScalarAdd")
    forgotten = Builtin("subgroupMatrixScalarDivide", template.overloads, "Divides.", category=template.category,
                        enable=template.enable)
    table = BuiltinTable("chromium", list(lang.DIALECT["chromium"].builtins), [forgotten])
    found = unclassified(table)
    assert [f.split(":")[0] for f in found] == ["subgroupMatrixScalarDivide"] * 3
    classified = replace(forgotten, uniformity=lang.MATRIX, result=lang.FOLLOWS_ARGUMENTS, memory=lang.NO_MEMORY)
    assert not unclassified(BuiltinTable("chromium", list(lang.DIALECT["chromium"].builtins), [classified]))


def test_parameters_are_found_by_name() -> None:
    load = lang.DIALECT["chromium"].table.get("subgroupMatrixLoad")
    assert lang.parameter_index(load, "stride") == 2 and lang.parameter_index(load, "col_major", overload=1) == 2
    store = lang.DIALECT["chromium"].table.get("subgroupMatrixStore")
    assert lang.parameter_index(store, "stride") == 3 and lang.parameter_index(store, "value") == 2
    assert lang.parameter_index(load, "nonexistent") is None


def test_dialect_records_agree_with_the_extensions() -> None:
    for dialect in lang.DIALECTS:
        assert dialect.extension.enable == dialect.enable and "subgroups" in dialect.extension.implies
        assert all(b.enable == dialect.enable for b in dialect.builtins)
    assert sorted(d.name for d in lang.DIALECTS_BY_PRECEDENCE) == sorted(lang.DIALECT_NAMES)
    assert lang.ENABLE_FEATURES["f16"] == ("shader-f16",)


# ------------------------------------------------------------ generated copies
def test_editor_lists_are_current() -> None:
    stale = editor_lists.stale()
    assert not stale, f"{', '.join(map(str, stale))} stale: regenerate with `{editor_lists.REGENERATE}`"


def test_generated_highlights_hold_every_table_name() -> None:
    text = editor_lists.HIGHLIGHTS.read_text(encoding="utf-8")
    for name in lang.MATRIX_TYPE_NAMES + tuple(b.name for d in lang.DIALECTS for b in d.builtins):
        assert f'"{name}"' in text


# ---------------------------------------------------- no second copy of a fact
# The lists a module must not spell by hand (two or more members in one literal): it reads them from the
# table. The table itself and the generator of the editor files are exempt.
_FACT_LISTS = {
    "matrix enables": set(lang.MATRIX_ENABLES),
    "dialect names": set(lang.DIALECT_NAMES),
    "matrix type names": set(lang.MATRIX_TYPE_NAMES),
    "matrix builtin names": {b.name for d in lang.DIALECTS for b in d.builtins},
}
_EXEMPT = {PACKAGE / "semantic" / "builtins", PACKAGE / "ide" / "editor_lists.py"}
# Left as written while a colleague's branch changes the same function (truth8: loop trip counts in the
# uniformity analyzer); it picks Tint's rule name for a subgroup-family dialect.
_LEFT_FOR_NOW = {"coop_lsp/analysis/uniformity/analyzer.py"}


def _literals(tree: ast.AST):
    for node in ast.walk(tree):
        if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
            yield node, node.elts
        elif isinstance(node, ast.Dict):
            yield node, [k for k in node.keys if k is not None]


def test_no_module_spells_a_fact_list_by_hand() -> None:
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if any(path == exempt or exempt in path.parents for exempt in _EXEMPT) or \
                str(path.relative_to(ROOT)) in _LEFT_FOR_NOW:
            continue
        for node, elements in _literals(ast.parse(path.read_text(encoding="utf-8"))):
            strings = {e.value for e in elements if isinstance(e, ast.Constant) and isinstance(e.value, str)}
            for what, names in _FACT_LISTS.items():
                if len(strings & names) >= 2:
                    found.append(f"{path.relative_to(ROOT)}:{node.lineno} spells {what}: {sorted(strings & names)}")
    assert not found, "\n".join(found)


# ------------------------------------------------------------ the worked example
# docs/architecture.md, "Worked example: a builtin": one entry in the chromium table, nothing else.
NEW_ENTRY = '''\
        Builtin("subgroupMatrixScalarDivide", scalar_op("subgroupMatrixScalarDivide", "Divides by").overloads,
                "Divides every element of the matrix by the scalar `value`.",
                example="let h = subgroupMatrixScalarDivide(m, 2.0);", category="subgroup matrix",
                enable=enable, uniformity=_MATRIX, result=_FOLLOWS, memory=_NONE),
'''
ANCHOR = '        scalar_op("subgroupMatrixScalarAdd", "Adds"),\n'

KERNEL = """\
enable f16;
enable chromium_experimental_subgroup_matrix;
@group(0) @binding(0) var<storage, read_write> data: array<f32>;
@compute @workgroup_size(32)
fn main(@builtin(local_invocation_index) lid: u32) {
  var m = subgroup_matrix_result<f32, 8, 8>();
  m = subgroupMatrixScalarDivide(m, 2.0);
  if lid > 3u {
    m = subgroupMatrixScalarDivide(m, 4.0);
  }
  subgroupMatrixStore<row_major>(&data, 0u, m, 8u);
}
"""

CHECK = """\
import json, sys
from coop_lsp.ide import Analysis
from coop_lsp.ide.completion import completion
from coop_lsp.ide.hover import hover
from coop_lsp.ide import editor_lists
kernel = sys.stdin.read()
analysis = Analysis.of(kernel)
first = kernel.index("subgroupMatrixScalarDivide")
report = {
    "codes": sorted({d.code for d in analysis.diagnostics}),
    "uniformity": [d.message for d in analysis.diagnostics if d.code == "U001"],
    "hover": hover(analysis, first + 3).markdown,
    "completion": "subgroupMatrixScalarDivide" in {i.label for i in completion(analysis, first + 3)},
    "stale": [p.name for p in editor_lists.stale()],
}
print(json.dumps(report))
"""


def test_worked_example_one_table_entry_adds_a_builtin(tmp_path: Path) -> None:
    """A copy of the package with one entry added to matrix.py: resolution, the uniformity requirement,
    hover and completion all pick it up; only the generated highlight list needs regenerating."""
    copy = tmp_path / "coop_lsp"
    shutil.copytree(PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__"))
    matrix = copy / "semantic" / "builtins" / "matrix.py"
    source = matrix.read_text(encoding="utf-8")
    assert source.count(ANCHOR) == 1
    matrix.write_text(source.replace(ANCHOR, NEW_ENTRY + ANCHOR), encoding="utf-8")
    # The editor files stay where they are (editor_lists finds them beside the package).
    for name in ("queries", "vscode-client"):
        os.symlink(ROOT / name, tmp_path / name)
    env = dict(os.environ, PYTHONPATH=str(tmp_path))
    done = subprocess.run([sys.executable, "-c", CHECK], input=KERNEL, capture_output=True, text=True, env=env,
                          cwd=tmp_path, timeout=120)
    assert done.returncode == 0, done.stderr
    import json

    report = json.loads(done.stdout)
    assert "T001" not in report["codes"], report  # it resolves: no "unresolved function"
    assert any("subgroupMatrixScalarDivide" in m for m in report["uniformity"]), report
    assert "Divides every element" in report["hover"] and "Chrome / Dawn" in report["hover"]
    assert report["completion"]
    assert report["stale"] == ["highlights.scm"]  # `python -m coop_lsp.ide.editor_lists --write` adds it


def test_worked_example_kernel_without_the_entry_is_unresolved() -> None:
    """The same kernel on the real table: the name is unknown, so the test above shows the entry at work."""
    from coop_lsp.ide import Analysis

    codes = {d.code for d in Analysis.of(KERNEL).diagnostics}
    assert "T001" in codes
