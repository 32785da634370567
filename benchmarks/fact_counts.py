"""Counts the places that spell a language fact by hand (issue 36's "written several times").

A place is a cluster of source lines (hits at most 3 lines apart) that names at least
`least` distinct members of one fact list as quoted strings. Run it on two checkouts
to compare: `python benchmarks/fact_counts.py [ROOT]`. The lists below are frozen on
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


if __name__ == "__main__":
    main(Path(sys.argv[1] if len(sys.argv) > 1 else ".").resolve())
