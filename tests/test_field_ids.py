"""Fields read by id (syntax/nodes.py's FIELD_* constants) against reads by name.

The semantic checker and the syntax diagnostics read node fields by the ids nodes.py resolves once;
a read by id must give the very node the read by name gives, on every node of real and mutilated
sources (error recovery makes odd trees), and the hot modules must not fall back to reads by name.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from coop_lsp.syntax import nodes
from coop_lsp.syntax.parser import parse, wgsl_language
from tests.support.trees import every_node

ROOT = Path(__file__).resolve().parent.parent
FIELDS = {name[len("FIELD_"):].lower(): value for name, value in vars(nodes).items() if name.startswith("FIELD_")}


def _sources() -> list[str]:
    files = sorted((ROOT / "examples").rglob("*.wgsl")) + sorted((ROOT / "tests" / "spec").rglob("*.wgsl"))
    return [path.read_text(encoding="utf-8", errors="replace") for path in files]


def _mutilated(text: str, rng: random.Random) -> str:
    for _ in range(rng.randint(1, 4)):
        at = rng.randrange(len(text) + 1)
        cut = rng.randint(0, 12)
        text = text[:at] + rng.choice(["", "(", "}", ";", "let x =", "[", "<", "1 +"]) + text[at + cut:]
    return text




def _same(a, b) -> bool:
    return (a is None and b is None) or (a is not None and b is not None and a.id == b.id)


def test_every_field_id_is_the_grammars():
    language = wgsl_language()
    assert FIELDS, "nodes.py names no field ids"
    for name, field_id in FIELDS.items():
        assert language.field_name_for_id(field_id) == name


def test_reads_by_id_give_the_reads_by_name_on_real_and_broken_sources():
    rng = random.Random(16)
    sources = _sources()
    assert len(sources) > 50
    texts = sources + [_mutilated(rng.choice(sources), rng) for _ in range(200)]
    compared = 0
    for text in texts:
        for node in every_node(parse(text).root):
            for name, field_id in FIELDS.items():
                by_name = node.child_by_field_name(name)
                assert _same(node.child_by_field_id(field_id), by_name), (node.type, name)
                compared += by_name is not None
    assert compared > 10_000


@pytest.mark.parametrize("module", ["semantic/checker.py", "semantic/expressions.py", "semantic/variables.py",
                                    "semantic/behaviors.py", "semantic/attributes.py", "syntax/nodes.py"])
def test_hot_modules_read_no_field_by_a_literal_name(module):
    """Every `child_by_field_name("...")` is a linear search of the grammar's field table per read; the
    modules the checker and the uniformity walk run per node read by id (zero such reads)."""
    source = (ROOT / "coop_lsp" / module).read_text(encoding="utf-8")
    assert re.findall(r'\.child_by_field_name\("\w+"\)', source) == []
