"""Counts the places that spell a language fact by hand (issue 36's "written several times").

A place is a cluster of source lines (hits at most 3 lines apart) that names at least
`least` distinct members of one fact list as quoted strings. Run it on two checkouts
to compare: `python benchmarks/fact_counts.py [ROOT]`, or both at once into
benchmarks/results/fact_counts.json: `python -m benchmarks.fact_counts --json BEFORE_ROOT AFTER_ROOT`.

It also counts raw syntax-tree reads (`.child_by_field_name(` calls) per package: issue 36 wants
them only in syntax/ (which owns the grammar's field names) and semantic/ (which builds the model). The lists below are frozen on
purpose (they are the measuring stick, not a use of the facts), so the counter gives
the same answer whatever the code under measurement derives.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

DIALECTS = ("wgpu", "chromium", "standard")
ENABLES = ("wgpu_cooperative_matrix", "chromium_experimental_subgroup_matrix", "subgroup_matrix")
FEATURES = ("chromium-experimental-subgroup-matrix", "shader-f16", "subgroups")
MATRIX_BUILTINS = ("subgroupMatrixLoad", "subgroupMatrixStore", "subgroupMatrixMultiply",
                   "subgroupMatrixMultiplyAccumulate", "subgroupMatrixScalarAdd", "subgroupMatrixScalarSubtract",
                   "subgroupMatrixScalarMultiply", "coopLoad", "coopLoadT", "coopStore", "coopStoreT",
                   "coopMultiplyAdd")
BUILTIN_VALUES = ("local_invocation_id", "local_invocation_index", "global_invocation_id", "workgroup_id",
                  "num_workgroups", "subgroup_invocation_id", "subgroup_size", "subgroup_id", "num_subgroups",
                  "position", "front_facing", "sample_index", "sample_mask", "vertex_index", "instance_index")
MATRIX_TYPES = ("coop_mat8x8", "coop_mat16x16", "subgroup_matrix_left", "subgroup_matrix_right",
                "subgroup_matrix_result")

# (what, names, least distinct names per place)
FACTS = [
    ("matrix enable/dialect list", DIALECTS + ENABLES, 2),
    ("enable -> device feature", None, 0),
    ("matrix builtin names partitioned by hand", MATRIX_BUILTINS, 2),
    ("builtin value names", BUILTIN_VALUES, 4),
    ("matrix type names", MATRIX_TYPES, 2),
    ("hard-coded argument positions", None, 0),
]


# Written from the table by coop_lsp/ide/editor_lists.py where that module exists (checked by a sync test);
# on a tree without it they are hand-written copies and count as "elsewhere".
GENERATED = ("queries/highlights.scm", "vscode-client/package.json")


def files(root: Path):
    yield from sorted((root / "coop_lsp").rglob("*.py"))
    yield from sorted((root / "queries").glob("*.scm"))
    yield root / "vscode-client" / "package.json"


def places(text: str, names, least: int) -> int:
    hits: list[tuple[int, str]] = []
    for number, line in enumerate(text.splitlines()):
        if line.lstrip().startswith(("#", ";", "//")):
            continue
        for name in names:
            if f'"{name}"' in line or f"'{name}'" in line:
                hits.append((number, name))
    clusters, current, last = 0, set(), -10
    for number, name in sorted(hits):
        if number - last > 3:
            clusters += len(current) >= least
            current = set()
        current.add(name)
        last = number
    return clusters + (len(current) >= least)


def feature_places(text: str) -> int:
    # A line that puts an enable next to the device feature it needs.
    pairs = (("chromium_experimental_subgroup_matrix", "chromium-experimental-subgroup-matrix"),
             ("f16", "shader-f16"), ("subgroups", "subgroups"))
    count = 0
    for line in text.splitlines():
        if any(re.search(rf'["\']{re.escape(e)}["\']\s*[:,=].*["\']{re.escape(f)}["\']', line) for e, f in pairs):
            count += 1
    count += len(re.findall(r"DAWN_MATRIX_FEATURES\s*=", text))
    return count


def position_places(text: str) -> int:
    # `{"subgroupMatrixLoad": 2, ...}` or `2 if name == "subgroupMatrixLoad"`.
    names = "|".join(MATRIX_BUILTINS)
    return len(re.findall(rf'["\'](?:{names})["\']\s*:\s*\d', text)) + \
        len(re.findall(rf'\b\d\s+if\s+name\s*==\s*["\'](?:{names})["\']', text))


def raw_tree_reads(root: Path) -> dict[str, dict[str, int]]:
    """Package -> {"calls": `.child_by_field_name(` calls, "lines": lines holding one} (the issue's grep -c)."""
    found: dict[str, dict[str, int]] = {}
    for path in sorted((root / "coop_lsp").rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        calls = text.count(".child_by_field_name(")
        if calls:
            package = path.relative_to(root / "coop_lsp").parts[0]
            entry = found.setdefault(package, {"calls": 0, "lines": 0})
            entry["calls"] += calls
            entry["lines"] += sum(".child_by_field_name(" in line for line in text.splitlines())
    return found


def counts(root: Path) -> dict:
    """Every figure for one checkout: each fact's places (total and outside the table) and the raw reads."""
    global GENERATED
    GENERATED = ("queries/highlights.scm", "vscode-client/package.json") \
        if (root / "coop_lsp" / "ide" / "editor_lists.py").exists() else ()
    figures: dict = {"facts": {}}
    for what, names, least in FACTS:
        per_file = _per_file(root, what, names, least)
        table = sum(n for name, n in per_file.items() if name.startswith("coop_lsp/semantic/builtins/"))
        generated = sum(n for name, n in per_file.items() if name in GENERATED)
        total = sum(per_file.values())
        figures["facts"][what] = {"total": total, "elsewhere": total - table - generated}
    reads = raw_tree_reads(root)
    figures["raw tree reads"] = reads
    figures["raw tree reads outside syntax and semantic"] = sum(
        v["calls"] for k, v in reads.items() if k not in ("syntax", "semantic"))
    return figures


def _per_file(root: Path, what: str, names, least: int) -> dict[str, int]:
    per_file = {}
    for path in files(root):
        if not path.exists():
            continue
        text = path.read_text(encoding="utf-8")
        if what == "enable -> device feature":
            n = feature_places(text)
        elif what == "hard-coded argument positions":
            n = position_places(text)
        else:
            n = places(text, names, least)
        if n:
            per_file[str(path.relative_to(root))] = n
    return per_file


def write_json(before: Path, after: Path) -> Path:
    from .common import write_result

    figures = {"before": {"root": str(before), **counts(before)}, "after": {"root": str(after), **counts(after)}}
    return write_result("fact_counts", figures, notes="Static counts over the two checkouts' source (no timing).")


def main(root: Path) -> None:
    global GENERATED
    if not (root / "coop_lsp" / "ide" / "editor_lists.py").exists():
        GENERATED = ()
    for what, names, least in FACTS:
        per_file = {}
        for path in files(root):
            if not path.exists():
                continue
            text = path.read_text(encoding="utf-8")
            if what == "enable -> device feature":
                n = feature_places(text)
            elif what == "hard-coded argument positions":
                n = position_places(text)
            else:
                n = places(text, names, least)
            if n:
                per_file[str(path.relative_to(root))] = n
        table = sum(n for name, n in per_file.items() if name.startswith("coop_lsp/semantic/builtins/"))
        generated = sum(n for name, n in per_file.items() if name in GENERATED)
        total = sum(per_file.values())
        print(f"{what}: {total} (the table {table}, generated editor files {generated}, "
              f"elsewhere {total - table - generated})")
        for name, n in per_file.items():
            print(f"    {n}  {name}")
    reads = raw_tree_reads(root)
    outside = {k: v for k, v in reads.items() if k not in ("syntax", "semantic")}
    print(f"raw tree reads (child_by_field_name calls) outside syntax/ and semantic/: "
          f"{sum(v['calls'] for v in outside.values())}")
    for package, entry in sorted(reads.items()):
        print(f"    {entry['calls']}  {package}/ ({entry['lines']} lines)")


if __name__ == "__main__":
    if sys.argv[1:2] == ["--json"]:
        print(write_json(Path(sys.argv[2]).resolve(), Path(sys.argv[3]).resolve()))
    else:
        main(Path(sys.argv[1] if len(sys.argv) > 1 else ".").resolve())
