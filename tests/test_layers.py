"""The import directions between coop_lsp's packages (README: architecture; design.md section 4).

Every `import` counts, also those inside functions (the lazy ones that keep start-up fast): a lazy
import is still a dependency, and an upward one is how layers start to leak.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "coop_lsp"

_BELOW_SYNTAX = {"core", "source", "devices"}
_BELOW_LINT = _BELOW_SYNTAX | {"syntax", "semantic", "analysis"}
# What each package may import. Lower layers never import upper ones; the exceptions to a plain order:
# - format needs the syntax tree only (the WGSL strings of host files come from source/hosts.py), so it
#   never imports lint, although it sits above lint;
# - the runner sits beside the editor layers: only the front ends (server, cli) start runs, and the
#   editor's features take a run's results as data (ide never imports runner);
# - checking never executes code (analysis never imports runner), and source knows nothing of WGSL.
ALLOWED = {
    "core": set(),
    "source": {"core"},
    # devices reads the language table (which enable needs which device feature, the dialect names)
    # and nothing else of semantic; semantic never reads devices.
    "devices": {"core", "semantic"},
    "syntax": {"core", "source"},
    "semantic": {"core", "source", "syntax"},
    "analysis": {"core", "source", "devices", "syntax", "semantic"},
    "lint": _BELOW_LINT,
    "format": {"core", "source", "syntax"},
    "ide": _BELOW_LINT | {"lint", "format"},
    "runner": _BELOW_LINT | {"lint"},
    "server": _BELOW_LINT | {"lint", "format", "ide", "runner"},
    "cli": _BELOW_LINT | {"lint", "format", "ide", "runner"},
}


def import_arrows() -> dict[tuple[str, str], set[str]]:
    """(importing package, imported package) -> the modules that import it."""
    arrows: dict[tuple[str, str], set[str]] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        if len(parts) < 3 and parts[-1] == "__init__":
            continue  # coop_lsp/__init__.py
        package = parts[1]
        here = parts[:-1]  # the package that holds the module (for relative imports)
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level:
                base = here[:len(here) - node.level + 1]
                names = [".".join(base + [node.module])] if node.module else \
                    [".".join(base + [alias.name]) for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
            else:
                continue
            for name in names:
                target = name.split(".")
                if target[0] == "coop_lsp" and len(target) > 1 and target[1] != package \
                        and (PACKAGE / target[1]).is_dir():
                    arrows.setdefault((package, target[1]), set()).add("/".join(parts) + ".py")
    return arrows


def test_every_package_has_its_place():
    packages = {p.name for p in PACKAGE.iterdir() if p.is_dir() and (p / "__init__.py").exists()}
    assert packages == set(ALLOWED)


def test_no_import_goes_against_the_layers():
    wrong = {f"{a} -> {b}": sorted(files) for (a, b), files in import_arrows().items() if b not in ALLOWED[a]}
    assert not wrong


def test_the_checker_catches_a_forbidden_arrow(tmp_path, monkeypatch):
    # The rule above must be able to fail: a lazy import inside a function counts.
    for name, body in {"format": "def f():\n    from ..lint import engine\n",
                       "ide": "def f():\n    from ..runner.kernel import load_kernel\n"}.items():
        (tmp_path / "coop_lsp" / name).mkdir(parents=True)
        (tmp_path / "coop_lsp" / name / "__init__.py").write_text(body)
    for name in ("lint", "runner"):
        (tmp_path / "coop_lsp" / name).mkdir(parents=True)
        (tmp_path / "coop_lsp" / name / "__init__.py").write_text("")
    monkeypatch.setattr(sys.modules[__name__], "PACKAGE", tmp_path / "coop_lsp")
    found = import_arrows()
    assert ("format", "lint") in found and "lint" not in ALLOWED["format"]
    assert ("ide", "runner") in found and "runner" not in ALLOWED["ide"]


# Raw syntax-tree reads by field name: only the syntax layer (which owns the grammar's field names, in
# syntax/nodes.py's accessors) and the semantic layer (which turns the tree into the model) do them.
# Everything above asks the model or reads through the accessors (issue 36). The allowlist names each
# module outside those two that may still read raw fields, with the number of reads; it is empty.
RAW_READ_ALLOWLIST: dict[str, int] = {}


def raw_field_reads(root: Path = PACKAGE) -> dict[str, int]:
    """Module -> number of `.child_by_field_name(` calls, for modules outside syntax/ and semantic/."""
    found = {}
    for path in sorted(root.rglob("*.py")):
        relative = path.relative_to(root).as_posix()
        if relative.startswith(("syntax/", "semantic/")):
            continue
        count = path.read_text(encoding="utf-8").count(".child_by_field_name(")
        if count:
            found[relative] = count
    return found


def test_no_raw_field_reads_outside_syntax_and_semantic():
    assert raw_field_reads() == RAW_READ_ALLOWLIST, (
        "read the node's part through coop_lsp/syntax/nodes.py (or ask the semantic model) instead of "
        "child_by_field_name")


def test_the_raw_read_count_sees_a_read(tmp_path):
    (tmp_path / "ide").mkdir()
    (tmp_path / "syntax").mkdir()
    (tmp_path / "ide" / "x.py").write_text("def f(n):\n    return n.child_by_field_name('name')\n")
    (tmp_path / "syntax" / "y.py").write_text("def f(n):\n    return n.child_by_field_name('name')\n")
    assert raw_field_reads(tmp_path) == {"ide/x.py": 1}


def test_accessors_name_real_fields():
    """Every field the accessors read is one the grammar declares, on the node kinds their docs name."""
    import json
    import re

    nodes_source = (PACKAGE / "syntax" / "nodes.py").read_text(encoding="utf-8")
    read = set(re.findall(r'_field\("(\w+)"\)', nodes_source))
    grammar = json.loads((PACKAGE.parent / "tree-sitter-wgsl" / "src" / "node-types.json").read_text())
    declared = {field for kind in grammar for field in kind.get("fields", {})}
    assert read and read <= declared, read - declared
