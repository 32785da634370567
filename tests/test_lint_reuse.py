"""A document linted version after version, reusing what did not change, gets exactly a fresh lint's result.

The server analyses each version of an open document from its incrementally
re-parsed tree, with a `Reuse` (replayed syntax findings of unchanged
declarations, semantic checks of unchanged function bodies and their
uniformity results).
These tests apply sequences of random edits, the kind that keep a kernel
valid (new statements, moved and duplicated lines, changed literals and
types) and the kind that break it (any fragment anywhere), to every spec
case, example and a generated kernel, and compare diagnostics and semantic
model with a fresh `lint_source` of the same text after every edit.
"""

from __future__ import annotations

import os
import random
import re
from pathlib import Path

import pytest

from benchmarks.common import synthetic_kernel
from coop_lsp.core.text import Span
from coop_lsp.ide import Analysis
from coop_lsp.lint import Reuse, lint_source
from coop_lsp.syntax import Document
from coop_lsp.syntax.parser import Parsed
from tests.support.spec import load_cases

ROOT = Path(__file__).resolve().parent.parent
SPEC = ROOT / "tests" / "spec"
CORPUS = ([case.source for case in load_cases(SPEC / "uniformity")] + [case.source for case in load_cases(SPEC / "semantic")]
          + [path.read_text() for path in sorted((ROOT / "examples").rglob("*.wgsl"))])

LINES = ["  // typed", "  workgroupBarrier();", "  let fresh = 1u;", "", "  if (true) { workgroupBarrier(); }",
         "  return;", "const K = 2u;", "fn extra() { storageBarrier(); }", "struct S { a: f32 }", "  extra();",
         "enable f16;", "  let h = 1.0h;", "@diagnostic(off, derivative_uniformity)",
         # What function headers read (semantic/header_reuse.py): types, constants, overrides, IO members.
         "alias V = vec4<f32>;", "override O: u32 = 4u;", "@id(1) override P: u32 = 2u;",
         "struct Out { @builtin(position) p: vec4<f32>, @location(0) c: vec4<f32> }",
         "@compute @workgroup_size(O) fn probe(@builtin(local_invocation_index) i: u32) {}"]
FRAGMENTS = ["x", ";", "}", "{", "\n", " ", "(", ")", "//", "if (", "var", "1.0", "u32", "f32", "<", ">",
             "subgroupMatrixLoad", "@compute", "data", "main"]


def model_facts(model) -> object:
    """What the IDE reads from a semantic model, without object identities."""
    if model is None:
        return None

    def symbol(s):
        node = s.declaration
        return (s.name, s.kind, s.span, s.type.describe(), repr(s.value), s.space, s.access,
                (node.start_byte, node.end_byte, node.type) if node is not None else None) + header(s)

    def header(s):
        # What a function's signature resolution sets (replayed with its header: semantic/header_reuse.py).
        if s.kind != "function":
            return ()
        return (s.stage, s.must_use, tuple(p.describe() for p in s.parameters),
                s.return_type.describe() if s.return_type is not None else None, s.inputs,
                repr(s.workgroup_size), tuple(s.workgroup_size_spans), s.subgroup_size,
                getattr(s, "cycle_reported", False))

    return (sorted((key, value.describe()) for key, value in model.expression_types()),
            sorted((key, symbol(value)) for key, value in model.references()),
            [symbol(s) for s in model.symbols], sorted(model.enables), sorted(model.matrix_dialects))


def lookups_agree(model) -> None:
    """Every entry the model lists is what a lookup at its place finds (a replayed body's entries are
    listed and looked up by different paths)."""
    if model is None:
        return
    for (start, end, kind), value in model.expression_types():
        assert model.type_at(start, end, kind) is value
    for (start, end), symbol in model.references():
        assert model.symbol_at(start, end) is symbol
    for (start, end), target in model.builtin_calls():
        assert model.builtin_call(start, end) is target


def valid_edit(text: str, rng: random.Random, serial: int) -> str:
    """An edit that keeps the generated kernel valid, so that its uniformity is analysed each time."""
    lines = text.split("\n")
    choice = rng.random()
    if choice < 0.6:
        blocks = [i for i, line in enumerate(lines) if line.endswith("{") and "switch" not in line
                  and line.startswith((" ", "fn"))]
        statement = rng.choice(["  // typed", "  workgroupBarrier();", f"  let fresh{serial} = 1u;",
                                "  if (true) { workgroupBarrier(); }", "  storageBarrier();"])
        lines.insert(rng.choice(blocks) + 1, statement)
    elif choice < 0.8:
        functions = [i for i, line in enumerate(lines) if line.startswith("fn ")]
        lines.insert(rng.choice(functions), rng.choice([f"const K{serial} = 2u;", f"fn extra{serial}() {{}}"]))
    else:
        at = rng.randrange(len(lines))
        lines[at] = lines[at].replace("16u", "32u").replace("0.5", "0.25")
    return "\n".join(lines)


def swap_declarations(text: str, rng: random.Random) -> str:
    """Two module-scope declarations trade places: callers and callees move, texts stay the same."""
    parts = re.split(r"\n(?=fn |@|struct |const |var|override )", text)
    if len(parts) < 3:
        return text
    i, j = rng.sample(range(1, len(parts)), 2)
    parts[i], parts[j] = parts[j], parts[i]
    return "\n".join(parts)


def edit(text: str, rng: random.Random) -> str:
    if rng.random() < 0.1:
        return swap_declarations(text, rng)
    lines = text.split("\n")
    choice = rng.random()
    if choice < 0.55:
        at = rng.randrange(len(lines) + 1)
        kind = rng.random()
        if kind < 0.35:
            lines.insert(at, rng.choice(LINES))
        elif kind < 0.6:
            lines.insert(at, rng.choice(lines))
        elif kind < 0.8 and len(lines) > 1:
            del lines[min(at, len(lines) - 1)]
        else:
            at = min(at, len(lines) - 1)
            lines[at] = lines[at].replace("1", "2").replace("u32", "i32").replace("f32", "f16").replace(
                "@location(0)", "@location(1)").replace("@builtin(position)", "")
        return "\n".join(lines)
    start = rng.randrange(len(text) + 1)
    end = min(len(text), start + rng.choice([0, 0, 1, 2, 7, 40]))
    if choice < 0.65 and text:
        at = rng.randrange(len(text))
        return text[:start] + text[at:at + rng.randrange(1, 80)] + text[end:]
    return text[:start] + rng.choice(FRAGMENTS) + text[end:]


def as_edit(old: bytes, new: bytes) -> tuple[Span, str]:
    """The one replacement that turns `old` into `new`, as an editor would send it."""
    prefix = 0
    limit = min(len(old), len(new))
    while prefix < limit and old[prefix] == new[prefix]:
        prefix += 1
    suffix = 0
    while suffix < limit - prefix and old[len(old) - 1 - suffix] == new[len(new) - 1 - suffix]:
        suffix += 1
    while prefix and (old[prefix:prefix + 1] or b"\x00")[0] & 0xC0 == 0x80:  # character boundaries
        prefix -= 1
    while suffix and (old[len(old) - suffix:len(old) - suffix + 1] or b"\x00")[0] & 0xC0 == 0x80:
        suffix -= 1
    return Span(prefix, len(old) - suffix), new[prefix:len(new) - suffix].decode()


def check_sequence(text: str, rng: random.Random, steps: int, valid_only: bool = False,
                   undo: float = 0.0) -> tuple[int, int]:
    """Edits a document as the server does (incremental re-parse, analysis of a copy of its tree, with
    the document's Reuse) and compares each version's analysis with a fresh lint of its text. With
    `undo`, that share of the edits goes back to one of the last few versions' text instead."""
    reuse = Reuse()
    document = Document(text)
    Analysis.of_parsed(Parsed(document.source, document.tree.copy()), reuse=reuse)
    replayed = [0, 0, 0]
    history = [text]
    for step in range(steps):
        if undo and len(history) > 1 and rng.random() < undo:
            text = rng.choice(history[-6:-1])
        else:
            text = valid_edit(text, rng, step) if valid_only else edit(text, rng)
        history.append(text)
        span, inserted = as_edit(document.source.data, text.encode())
        document.replace(span, inserted)
        assert document.text == text
        reused = Analysis.of_parsed(Parsed(document.source, document.tree.copy()), reuse=reuse).result
        fresh = lint_source(text)
        assert reused.diagnostics == fresh.diagnostics, text
        assert model_facts(reused.model) == model_facts(fresh.model), text
        lookups_agree(reused.model)
        replayed[0] += reuse.bodies.replayed
        replayed[1] += reuse.summaries.replayed
        replayed[2] += reuse.bodies.headers.replayed
    return replayed[0], replayed[1], replayed[2]


SEEDS = int(os.environ.get("COOP_REUSE_SEEDS", "1"))


@pytest.mark.parametrize("seed", range(SEEDS))
def test_reuse_equals_fresh_lint_over_random_edits(seed: int) -> None:
    rng = random.Random(seed)
    replayed = [0, 0, 0]
    for text in CORPUS:
        bodies, summaries, headers = check_sequence(text, rng, steps=6)
        replayed[0] += bodies
        replayed[1] += summaries
        replayed[2] += headers
    # The test is only worth something if reuse actually happened.
    assert replayed[0] > 500 and replayed[1] > 100 and replayed[2] > 1000, replayed


def test_reuse_equals_fresh_lint_when_edits_are_undone() -> None:
    """Going back to an earlier version's text, after versions with syntax errors or other declarations,
    replays records kept from before those versions: still a fresh lint's result."""
    rng = random.Random(23)
    replayed = [0, 0, 0]
    for text in CORPUS[::4]:
        bodies, summaries, headers = check_sequence(text, rng, steps=8, undo=0.4)
        replayed[0] += bodies
        replayed[1] += summaries
        replayed[2] += headers
    assert replayed[0] > 100 and replayed[1] > 20 and replayed[2] > 200, replayed


def test_reuse_equals_fresh_lint_with_device_targets() -> None:
    """The configuration checks read the model the replayed bodies rebuilt (shapes, constant strides)."""
    rng = random.Random(11)
    targets = ("nvidia-h100", "apple-m", "amd-rdna3")
    for text in [case for case in CORPUS if "subgroup_matrix" in case or "coop_mat" in case][:80]:
        reuse = Reuse()
        lint_source(text, targets, reuse=reuse)
        for _ in range(5):
            text = edit(text, rng)
            assert lint_source(text, targets, reuse=reuse).diagnostics == lint_source(text, targets).diagnostics, text


def test_reuse_equals_fresh_lint_on_a_large_kernel() -> None:
    rng = random.Random(7)
    bodies, summaries, _ = check_sequence(synthetic_kernel(lines=300), rng, steps=25, valid_only=True)
    assert bodies > 300 and summaries > 100


def test_typing_a_comment_reuses_every_other_function() -> None:
    text = synthetic_kernel(lines=400)
    reuse = Reuse()
    first = lint_source(text, reuse=reuse)
    lines = text.split("\n")
    middle = len(lines) // 2
    for typed in range(1, 8):
        changed = lines[:middle] + [("// abcdefg"[:typed]) + lines[middle]] + lines[middle + 1:]
        result = lint_source("\n".join(changed), reuse=reuse)
        assert result.diagnostics == lint_source("\n".join(changed)).diagnostics
        assert reuse.bodies.checked <= 1, "only the edited function is checked again"
    assert first.diagnostics == lint_source(text).diagnostics


def test_a_failure_while_reusing_falls_back_to_a_fresh_lint(monkeypatch) -> None:
    text = synthetic_kernel(lines=100)
    reuse = Reuse()
    lint_source(text, reuse=reuse)

    def broken(*args, **kwargs):
        raise RuntimeError("replay went wrong")

    monkeypatch.setattr(reuse.bodies, "replay", broken)
    changed = text.replace("acc * 0.5", "acc * 0.25", 1)
    assert lint_source(changed, reuse=reuse).diagnostics == lint_source(changed).diagnostics
    assert reuse.bodies.replay is not broken  # what was kept was dropped


def test_a_replayed_callee_still_takes_part_in_the_alias_analysis() -> None:
    callee = "fn add_into(sum: ptr<function, f32>, value: ptr<function, f32>) {\n  *sum = *sum + *value;\n}\n"
    caller = "fn main() {\n  var total = 1.0;\n  add_into(&total, &total);\n}\n"
    reuse = Reuse()
    lint_source(callee + caller, reuse=reuse)
    # Only the caller changes (it moves down a line): the callee's check is replayed.
    changed = lint_source(callee + "\n" + caller, reuse=reuse)
    assert reuse.bodies.replayed >= 1
    assert [d.code for d in changed.diagnostics] == ["T003"]
    assert changed.diagnostics == lint_source(callee + "\n" + caller).diagnostics
