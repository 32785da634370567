"""A version that differs from the last carried-from one only inside one function body carries that
version's replays over without validating them again (coop_lsp/semantic/carry.py); its findings and model
are a fresh check's. A carried-from version may have syntax errors, inside the edited body or in ERROR
nodes at module scope outside the change.

Every `Editor.change` compares the version with a fresh lint of the same text. The cases: a body edited
again and again (carried), with a syntax error typed and undone between (carried from the last clean
version), edits whose body becomes the first to resolve a declaration, to ask for a missing `enable`, to
use a matrix dialect, or to declare at module scope (each ends the carrying where it happens), and edits
outside any body (nothing carried), an edited body whose nested steps (a declaration it resolves first)
applied other records than the last version's while leaving the same state (the carrying ends), and a last
version whose errored body is not the edited one (nothing carried). The cost case counts the records
validated per version: they do not grow with the number of functions.
"""

from __future__ import annotations

import random
import re

import pytest

from benchmarks.common import matrix_library_kernel
from coop_lsp.semantic.header_reuse import HeaderReuse
from coop_lsp.semantic.reuse import BodyReuse
from coop_lsp.core.text import Span
from tests.test_edit_cost import Editor

MODULE = """\
const SCALE: f32 = 2.0;

struct Params {
  n: u32,
  alpha: f32,
}

@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read_write> out: array<f32>;

fn first(i: u32) -> f32 {
  let x = f32(i) * 1.0;
  return x * SCALE;
}

fn middle(p: Params, t: u32) -> u32 {
  let m = p.n + t * 3u;
  return m;
}

@compute @workgroup_size(64)
fn last(@builtin(global_invocation_id) id: vec3<u32>) {
  let h = 1.0h;
  let t = middle(params, id.x) + LATE;
  out[t] = first(t) + f32(h);
}

const LATE: u32 = 1.5;
"""


def _first_body(text: str, statement: str) -> str:
    """`first`'s body with `statement` as its first line."""
    return text.replace("fn first(i: u32) -> f32 {\n", f"fn first(i: u32) -> f32 {{\n  {statement}\n", 1)


def _carried(editor: Editor) -> int:
    return editor.reuse.bodies.carry.carried


def test_a_body_edited_again_and_again_is_carried_and_equals_a_fresh_check() -> None:
    text = MODULE
    editor = Editor(text)
    for number in range(4, 9):
        text = re.sub(r"t \* \d+u;", f"t * {number}u;", text)
        editor.change(text)
        # The edited body, and `last`'s, which resolves LATE first and so is never recorded: checked
        # afresh in every version, and the steps after it carried all the same.
        assert editor.reuse.bodies.checked == 2
        # Every step but the edited body: the declarations' resolutions, the signatures, the other
        # bodies and the header checks after them.
        assert _carried(editor) > 0 and editor.reuse.bodies.carry.active


def test_a_syntax_error_inside_the_edited_body_is_carried_between_clean_versions() -> None:
    text = MODULE
    editor = Editor(text)
    for number in range(4, 8):
        editor.change(re.sub(r"t \* \d+u;", f"t * @@ {number}u;", text))
        assert _carried(editor) > 0  # (every error lies in `middle`'s body, the edited one)
        text = re.sub(r"t \* \d+u;", f"t * {number}u;", text)
        editor.change(text)
        assert _carried(editor) > 0


def test_a_syntax_error_outside_the_edited_body_carries_nothing() -> None:
    text = MODULE
    editor = Editor(text)
    broken = text.replace("return x * SCALE;", "return x * @@ SCALE;")  # (in `first`)
    editor.change(broken)
    for number in range(4, 7):
        editor.change(re.sub(r"t \* \d+u;", f"t * {number}u;", broken))  # (in `middle`; `first` still broken)
        assert _carried(editor) == 0 and not editor.reuse.bodies.carry.active
    # Errors at module scope, outside every function.
    editor.change(text + "\nconst Q = ;\n")
    assert _carried(editor) == 0
    editor.change(text.replace("fn middle(p: Params, t: u32)", "fn middle(p: Params, t: u32,,)"))
    assert _carried(editor) == 0  # (in a header: its step reads it)


@pytest.mark.parametrize("statement", [
    "let late = LATE;",  # the first use of LATE: its resolution (and its finding) happens in `first` now
    "let g = 2.0h;",  # asks for the missing 'enable f16' before `last` does: said once, here now
    "let z = 1.0h + f16(LATE);",  # both
    "let s = SCALE;",  # a use of a declaration already resolved: nothing moves
], ids=["resolves first", "enable asked first", "both", "neutral"])
def test_an_edited_body_that_changes_what_later_steps_read_equals_a_fresh_check(statement: str) -> None:
    editor = Editor(MODULE)
    counted = MODULE
    for number in range(3, 6):
        counted = re.sub(r"f32\(i\) \* \d+\.0", f"f32(i) * {number}.0", counted)
        editor.change(counted)  # (the last clean version: `first` as it was)
        editor.change(_first_body(counted, statement))
        if statement.startswith("let s"):
            assert _carried(editor) > 0 and editor.reuse.bodies.carry.active
        else:
            assert not editor.reuse.bodies.carry.active, "the edited body moved what later steps read"
        editor.change(counted)


def test_edits_outside_a_body_carry_nothing_and_equal_a_fresh_check() -> None:
    text = MODULE
    editor = Editor(text)
    for changed in (text.replace("const SCALE: f32 = 2.0;", "const SCALE: f32 = 3.0;"),
                    text.replace("@workgroup_size(64)", "@workgroup_size(32)"),
                    text.replace("fn middle(", "// a note\nfn middle("),
                    text.replace("  alpha: f32,\n", "  alpha: f32,\n  beta: f32,\n")):
        editor.change(changed)
        assert not editor.reuse.bodies.carry.active
        editor.change(text)


def test_random_body_edits_in_a_matrix_kernel_equal_a_fresh_check() -> None:
    rng = random.Random(15)
    text = matrix_library_kernel(random.Random(3), functions=8)
    editor = Editor(text)
    bounds = [m.start(1) for m in re.finditer(r"k < (\d+)u", text)]
    assert len(bounds) >= 4
    for step in range(16):
        sites = list(re.finditer(r"k < (\d+)u", text))
        site = rng.choice(sites)
        changed = f"{text[:site.start(1)]}{rng.randrange(8, 9999)}{text[site.end(1):]}"
        if rng.random() < 0.25:
            editor.change(f"{changed[:site.start(1)]}@@ {changed[site.start(1):]}")
        text = changed
        editor.change(text)
        assert _carried(editor) > 0


def _counting_validations(monkeypatch) -> dict:
    """Counts, in the returned dict's "n", every record validated from now on: a body's or a header step's."""
    counts = {"n": 0}
    body_valid, header_replay = BodyReuse._valid, HeaderReuse._replay

    def counted_body(self, *args):
        counts["n"] += 1
        return body_valid(self, *args)

    def counted_header(self, *args):
        counts["n"] += 1
        return header_replay(self, *args)

    monkeypatch.setattr(BodyReuse, "_valid", counted_body)
    monkeypatch.setattr(HeaderReuse, "_replay", counted_header)
    return counts


def _validations(functions: int, monkeypatch) -> int:
    """Records validated (a body's or a header step's) in a clean version whose edit lies inside one body."""
    counts = _counting_validations(monkeypatch)
    text = matrix_library_kernel(random.Random(5), functions=functions)
    editor = Editor(text)
    text = re.sub(r"(fn gemm_1\(.*?k < )\d+u", r"\g<1>47u", text, count=1, flags=re.S)
    editor.change(text)
    counts["n"] = 0
    text = re.sub(r"(fn gemm_1\(.*?k < )\d+u", r"\g<1>48u", text, count=1, flags=re.S)
    editor.change(text)
    return counts["n"]


def test_the_records_validated_per_version_do_not_grow_with_the_functions(monkeypatch) -> None:
    small, large = _validations(6, monkeypatch), _validations(24, monkeypatch)
    assert small == large, (small, large)
    assert large <= 1


COLLIDING = """\
@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(0) var<storage, read> b: array<f32>;
@group(0) @binding(1) var<storage, read_write> out: array<f32>;

fn first(i: u32) -> f32 {
  let x = f32(i) * 1.0;
  return x;
}

fn reads_b(i: u32) -> f32 {
  return b[i];
}

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
  out[id.x] = a[id.x] + first(id.x);
  out[id.x] = reads_b(id.x);
}
"""


@pytest.mark.parametrize("statement", [
    "let y = 2.0;",  # calls and uses nothing: the entry point's finding is carried, moved
    "let y = b[0];",  # `first` now uses b: the finding is found again
    "let y = reads_b(0u);",  # and calls a function that does
], ids=["same uses", "a new use", "a new call"])
def test_an_entry_points_binding_findings_are_carried_only_while_the_edited_body_uses_the_same(
        statement: str) -> None:
    editor = Editor(COLLIDING)
    text = COLLIDING
    for number in range(2, 7):
        text = re.sub(r"f32\(i\) \* \d+\.0", f"f32(i) * {number * 1111}.0", text)
        result = editor.change(text)  # (longer each time: the entry point after the edit moves)
        assert any(d.code == "T017" and "share" in d.message for d in result.diagnostics)
        edited = _first_body(text, statement)
        result = editor.change(edited)
        assert (editor.reuse.bodies.carry.collisions() is not None) == statement.endswith("2.0;")
        editor.change(text)


def test_the_common_ends_of_two_texts_are_found_as_a_byte_by_byte_walk_finds_them() -> None:
    from coop_lsp.semantic.carry import _common_prefix, _common_suffix
    rng = random.Random(2)
    for _ in range(200):
        size = rng.choice([0, 1, 3, 40, 40, 40, 140_000])  # (past one block of the search, 65,536 bytes)
        a = bytes(rng.choice(b"ab") for _ in range(size)) if size < 100 else rng.randbytes(size)
        b = bytearray(a)
        for _ in range(rng.randrange(0, 3)):
            at = rng.randrange(len(b) + 1)
            b[at:at + rng.randrange(0, 3)] = bytes(rng.choice(b"abc") for _ in range(rng.randrange(0, 4)))
        b = bytes(b)
        prefix = 0
        while prefix < min(len(a), len(b)) and a[prefix] == b[prefix]:
            prefix += 1
        limit = min(len(a), len(b)) - prefix
        suffix = 0
        while suffix < limit and a[-1 - suffix] == b[-1 - suffix]:
            suffix += 1
        assert (_common_prefix(a, b), _common_suffix(a, b, limit)) == (prefix, suffix)


def test_another_configured_dialect_carries_nothing() -> None:
    from coop_lsp.lint import Reuse, lint_source
    text = matrix_library_kernel(random.Random(5), functions=4)
    reuse = Reuse()
    lint_source(text, reuse=reuse)
    for dialect in ("wgpu", "auto", "chromium"):
        result = lint_source(text, reuse=reuse, dialect=dialect)
        assert not reuse.bodies.carry.active
        assert result.diagnostics == lint_source(text, dialect=dialect).diagnostics, dialect
        result = lint_source(text, reuse=reuse, dialect=dialect)  # (the same text and dialect again)
        assert reuse.bodies.carry.active
        assert result.diagnostics == lint_source(text, dialect=dialect).diagnostics, dialect


# ------------------------------------------------------------------ versions with syntax errors
TYPED = ["let y = max(1.0, 2.0);", "acc = subgroupMatrixMultiplyAccumulate(a, b, acc);", "var s = data[row] + 1.0;",
         "let h = 1.0h;", "if (row > 3u) { return; }", "let w = LATER + 1u;"]


def _body_lines(text: str) -> list[int]:
    """Offsets of the statement lines inside function bodies (indented, not a loop's closing brace)."""
    return [m.start() for m in re.finditer(r"^  +(?:let|var|acc|subgroup|for|workgroupBarrier)[^\n]*\n", text, re.M)]


def _typed_sequence(text: str, rng: random.Random, versions: int) -> list[str]:
    """An editing session: statements typed one character at a time at a random body line, sometimes
    below a loop header commented out in the same function first (so that every version has errors),
    with undos, and errors typed in another function and taken back."""
    out, history = [], [text]
    while len(out) < versions:
        lines = _body_lines(text)
        at = rng.choice(lines)
        base = text
        if rng.random() < 0.4:
            loops = [m.start() for m in re.finditer(r"^  +for \(", text, re.M)]
            before = [p for p in loops if p < at and text.rfind("\nfn ", 0, p) == text.rfind("\nfn ", 0, at)]
            if before:
                loop = before[-1]
                indent = len(text[loop:]) - len(text[loop:].lstrip(" "))
                base = f"{text[:loop + indent]}// {text[loop + indent:]}"
                at += 3
                out.append(base)
        indent = "    "
        statement = rng.choice(TYPED)
        for size in range(1, len(statement) + 1):
            out.append(f"{base[:at]}{indent}{statement[:size]}\n{base[at:]}")
        if rng.random() < 0.3:  # an error typed in another function, then taken back
            last = out[-1]
            others = [p for p in _body_lines(last) if last.rfind("\nfn ", 0, p) != last.rfind("\nfn ", 0, at)]
            if others:
                where = rng.choice(others)
                out.append(f"{last[:where]}  @@\n{last[where:]}")
                out.append(last)
        if rng.random() < 0.3:
            out.append(rng.choice(history))  # an undo, back to an earlier version
        text = out[-1] if rng.random() < 0.5 else text
        history.append(text)
    return out[:versions]


LATER = "\nconst LATER: u32 = 4u;\n"


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_statements_typed_character_by_character_in_a_matrix_kernel_equal_a_fresh_check(seed: int) -> None:
    rng = random.Random(seed)
    text = matrix_library_kernel(random.Random(seed), functions=5) + LATER
    editor = Editor(text)
    errored = carried = 0
    for version in _typed_sequence(text, rng, 90):
        result = editor.change(version)  # (compared with a fresh lint of the same text)
        if editor.document.tree.root_node.has_error:
            errored += 1
            carried += _carried(editor) > 0
        del result
    assert errored >= 45
    assert carried >= errored // 2, (carried, errored)  # the errored versions are carried, most of them


EXAMPLES = ["chromium/gemm_tiled.wgsl", "chromium/gemm_pipelined.wgsl", "standard/gemm_blocked.wgsl",
            "plain/gemm_tiled_f32.wgsl"]


@pytest.mark.parametrize("name", EXAMPLES)
def test_statements_typed_character_by_character_in_the_examples_equal_a_fresh_check(name: str) -> None:
    from pathlib import Path
    text = (Path(__file__).resolve().parent.parent / "examples" / name).read_text()
    rng = random.Random(name)
    editor = Editor(text)
    for version in _typed_sequence(text, rng, 40):
        editor.change(version)


def _errored_validations(functions: int, monkeypatch) -> int:
    """Records validated in a version with a syntax error inside the edited body (a statement being typed
    in gemm_1), after another such version."""
    counts = _counting_validations(monkeypatch)
    text = matrix_library_kernel(random.Random(5), functions=functions)
    editor = Editor(text)
    at = re.search(r"fn gemm_1\(.*?\n  for [^\n]*\n", text, re.S).end()
    for typed in ("    let y = max(1.0,", "    let y = max(1.0, 2"):
        counts["n"] = 0
        editor.change(f"{text[:at]}{typed}\n{text[at:]}")
        assert editor.document.tree.root_node.has_error
    return counts["n"]


def test_the_records_validated_per_errored_version_do_not_grow_with_the_functions(monkeypatch) -> None:
    small, large = _errored_validations(6, monkeypatch), _errored_validations(24, monkeypatch)
    assert small == large, (small, large)
    assert large <= 1


def test_an_errored_body_that_resolves_a_declaration_first_keeps_carrying_while_it_leaves_the_same_state() -> None:
    # `last` is the first to use LATE: its resolution is a step nested in `last`'s body, in every version.
    marker = "  out[t] = first(t) + f32(h);\n"
    at = MODULE.index(marker) + len(marker)
    editor = Editor(MODULE)
    for typed in ("  let q = ", "  let q = (", "  let q = (1", "  let q = (1.0", "  let q = (1.0", "  let q = (LATE"):
        editor.change(f"{MODULE[:at]}{typed}\n{MODULE[at:]}")
        assert editor.document.tree.root_node.has_error
        # The header checks after the bodies carried: LATE resolved to the same record, nothing said.
        assert _carried(editor) > 0 and editor.reuse.bodies.carry.active
    # The missing 'enable f16' asked for at another place in the errored body: compared with a fresh lint.
    editor.change(f"{MODULE[:at]}  let q = (1.0h\n{MODULE[at:].replace('let h = 1.0h;', 'let h = 1.0;')}")
    editor.change(f"{MODULE[:at]}  let q = (2.0h\n{MODULE[at:].replace('let h = 1.0h;', 'let h = 1.0;')}")


NESTED = """\
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
  BODY
}

const LATE = 2.0h;
"""


def test_an_edited_body_whose_nested_steps_applied_other_records_ends_the_carrying() -> None:
    # `main` resolves LATE first: a step nested in its body. With the f16 literal before the use, the
    # missing 'enable f16' is asked for by the body and LATE's resolution says nothing; after it, LATE's
    # resolution asks. The state after the body is the same either way (the same enables asked for, the
    # same resolutions and steps): only the records the nested step applied tell the two apart.
    def version(number: int, swapped: bool) -> str:
        lines = [f"let a = {number}.0h;", "let b = LATE;"]
        return NESTED.replace("BODY", "\n  ".join(reversed(lines) if swapped else lines))

    editor = Editor(version(1, False))
    carry = editor.reuse.bodies.carry
    editor.change(version(2, False))
    assert carry.active and _carried(editor) > 0  # (the nested step applied the record it applied then)
    for number in range(3, 7):
        editor.change(version(number, number % 2 == 1))
        assert not carry.active, "the nested step applied another record than the last version's"


def test_a_last_version_whose_errored_body_is_not_the_edited_one_carries_nothing() -> None:
    # Carry.begin refuses the last carried-from version when its errored body is not the edited one: that
    # body's text is unchanged, but its tree may not be. No edit sequence is known that parses an unchanged
    # errored body without errors (or with them elsewhere) in the next version, so the last version's
    # errored body is named here directly: `first`'s (refused) or `middle`'s, the edited one (carried).
    text = MODULE
    editor = Editor(text)
    carry = editor.reuse.bodies.carry
    for number, errored in ((4, "fn first"), (5, "fn middle"), (6, "fn first"), (7, "fn last")):
        editor.change(text)
        carry.last.errored = text.index(errored)
        text = re.sub(r"t \* \d+u;", f"t * {number}u;", text)
        editor.change(text)
        assert carry.active == (errored == "fn middle"), errored
        assert (_carried(editor) > 0) == (errored == "fn middle"), errored


def test_a_carried_step_compares_structs_only_where_its_record_holds_some_and_keeps_an_unmoved_entry(
        monkeypatch) -> None:
    # The work per unchanged declaration: a carried header step whose record holds no struct compares
    # none, and a carried step that did not move notes the last version's entry itself, not a copy.
    compared = {"n": 0}
    same_structs = HeaderReuse._same_structs

    def counted(checker, record, symbol):
        compared["n"] += 1
        return same_structs(checker, record, symbol)

    monkeypatch.setattr(HeaderReuse, "_same_structs", staticmethod(counted))
    text = matrix_library_kernel(random.Random(5), functions=12)
    editor = Editor(text)
    carry = editor.reuse.bodies.carry
    for number in (47, 48, 49, 50):  # (after the first, the same length: nothing moves)
        text = re.sub(r"(fn gemm_1\(.*?k < )\d+u", rf"\g<1>{number}u", text, count=1, flags=re.S)
        last = list(carry.last.entries)
        compared["n"] = 0
        editor.change(text)
        if number == 47:
            continue
        assert carry.active and _carried(editor) > 20
        entries = carry.last.entries
        assert len(entries) == len(last)
        headers_with_structs = sum(1 for e in entries if e is not None and e[0] != "body" and e[4] is not None
                                   and e[4].structs)
        assert compared["n"] <= headers_with_structs < _carried(editor)
        copies = [new for new, old in zip(entries, last) if new is not old and new == old]
        assert not copies, copies[:3]
        assert sum(new is old for new, old in zip(entries, last)) >= _carried(editor)


# ------------------------------------------------------------------ the alias check's findings
ALIASING = """\
var<private> counter: f32;

fn writes(p: ptr<function, f32>, q: ptr<function, f32>) {
  *p = 1.0;
  let r = *q;
}

fn bumps(p: ptr<private, f32>) {
  *p = counter + 1.0;
}

fn caller() {
  var a = 1.0;
  var b = 2.0;
  writes(&a, &a);
  writes(&a, &b);
  bumps(&counter);
}

@compute @workgroup_size(1)
fn main() {
  caller();
  var c = 0.0;
  writes(&c, &c);
}
"""
# Statements that add or take away accesses and pointer calls, or none, in whichever body they are typed.
ALIAS_TYPED = ["let z = *q;", "*q = 2.0;", "writes(&b, &b);", "counter = 3.0;", "var d = 1.0;", "bumps(&counter);",
               "let e = counter;", "writes(&d, &a);"]


def _alias_walks(monkeypatch) -> dict:
    from coop_lsp.semantic.aliasing import AliasChecker, _AccessWalk
    counts = {"checks": 0, "functions": 0}
    check, accesses = AliasChecker.check_aliasing, _AccessWalk.accesses

    # (Editor.change checks each version afresh too, without records: not counted)
    def counted_check(self):
        counts["checks"] += self.reuse is not None
        return check(self)

    def counted_accesses(self, name):
        counts["functions"] += self.checker.reuse is not None
        return accesses(self, name)

    monkeypatch.setattr(AliasChecker, "check_aliasing", counted_check)
    monkeypatch.setattr(_AccessWalk, "accesses", counted_accesses)
    return counts


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_alias_findings_carried_while_typing_equal_a_fresh_check(seed: int, monkeypatch) -> None:
    """Statements typed character by character in every body of a module with alias findings, some
    changing what a body accesses or passes, with undos: each version's findings are a fresh check's
    (Editor.change), and most versions carry the findings instead of checking again."""
    counts = _alias_walks(monkeypatch)
    rng = random.Random(seed)
    text, editor = ALIASING, Editor(ALIASING)
    versions = carried_findings = 0
    history = [text]
    while versions < 120:
        lines = [m.start() for m in re.finditer(r"^  [^ }\n][^\n]*\n", text, re.M)]
        at = rng.choice(lines + [m.end() for m in re.finditer(r"\{\n", text)])
        statement = rng.choice(ALIAS_TYPED)
        for size in range(1, len(statement) + 1):
            before = counts["checks"]
            result = editor.change(f"{text[:at]}  {statement[:size]}\n{text[at:]}")
            versions += 1
            if counts["checks"] == before and any("aliases" in d.message for d in result.diagnostics):
                carried_findings += 1
        if rng.random() < 0.6:
            text = f"{text[:at]}  {statement}\n{text[at:]}"
            history.append(text)
        else:
            editor.change(rng.choice(history))  # taken back, or an undo to an earlier version
    assert carried_findings >= versions // 3, (carried_findings, versions)
    assert counts["checks"] < versions // 2


def test_an_alias_finding_moves_with_a_line_typed_above_it_and_goes_when_the_access_does(monkeypatch) -> None:
    counts = _alias_walks(monkeypatch)
    editor = Editor(ALIASING)
    typed = ""
    for char in "let z = 1.0;":
        typed += char
        result = editor.change(ALIASING.replace("fn caller() {\n", f"fn caller() {{\n  {typed}\n", 1))
    assert [d.span.start - ALIASING.index("&a, &a") for d in result.diagnostics if "aliases" in d.message][:1] \
        == [len("  let z = 1.0;\n") + len("&a, ")]
    assert sum("aliases" in d.message for d in result.diagnostics) == 3 and counts["checks"] <= 4  # (of 13 versions)
    # `writes` reads through q no more, or writes through p no more: only the finding about `counter` stays
    # (Editor.change compares each with a fresh check).
    text = ALIASING.replace("fn caller() {\n", f"fn caller() {{\n  {typed}\n", 1)
    for changed in (text.replace("  let r = *q;\n", "  let r = 1.0;\n"), text.replace("  *p = 1.0;\n", "  let s = *p;\n")):
        result = editor.change(changed)
        assert [d.message.split(",")[0] for d in result.diagnostics if "aliases" in d.message] \
            == ["this pointer argument aliases 'counter'"]


@pytest.mark.parametrize("errored", [False, True], ids=["clean", "with a syntax error"])
def test_the_alias_check_is_not_run_again_while_one_body_is_edited(errored: bool, monkeypatch) -> None:
    # The work per version: the alias check walks every function (callees of every call, its places moved);
    # carried, no function is walked while the edited body's alias facts stay the same. Typed as the typing
    # benchmark types: a comment (clean versions), or a statement below a loop header commented out.
    counts = _alias_walks(monkeypatch)
    text = matrix_library_kernel(random.Random(5), functions=12)
    editor = Editor(text)
    body = text.index("fn gemm_3(")
    loop = text.index("for (", body)
    line = text.index("\n", loop) + 1
    if errored:
        text = f"{text[:loop]}// {text[loop:]}"
        line += 3
        editor.change(text)
    typed, active = "", 0
    for char in ("let y = max(1.0, 2.0); " if errored else "// a note on the loop below"):
        typed += char
        counts["functions"] = 0
        editor.change(f"{text[:line]}{typed}\n{text[line:]}")
        assert editor.document.tree.root_node.has_error == (errored or typed == "/")
        if len(typed) > 1 and editor.reuse.bodies.carry.active:
            active += 1
            assert counts["functions"] == 0, typed
    assert active >= len(typed) - 2
    assert counts["checks"] <= 4


def _semantic_calls_per_version(functions: int) -> int:
    """Python calls into coop_lsp/semantic/ while a version with a syntax error in one body is checked, the
    one before it having the same error: a typed character, as the typing benchmark types one."""
    import sys
    from pathlib import Path

    import coop_lsp.semantic
    folder = str(Path(coop_lsp.semantic.__file__).parent)
    text = matrix_library_kernel(random.Random(5), functions=functions)
    loop = text.index("for (", text.index("fn gemm_1("))
    text = f"{text[:loop]}// {text[loop:]}"  # (the loop's body, and the function's, have a brace too many)
    line = text.index("\n", loop) + 1
    editor = Editor(text)
    editor.change(f"{text[:line]}let y = 1\n{text[line:]}")
    calls = {"n": 0}

    def count(frame, event, arg):
        if event == "call" and frame.f_code.co_filename.startswith(folder):
            calls["n"] += 1

    editor.document.replace(Span(line + len("let y = 1"), line + len("let y = 1")), ".")
    assert editor.document.tree.root_node.has_error
    sys.setprofile(count)
    try:
        editor.analyse()
    finally:
        sys.setprofile(None)
    return calls["n"]


def test_the_semantic_calls_per_unchanged_function_of_a_typed_character() -> None:
    # Each unchanged function costs a version its declaration, its header steps and its body's replay, all
    # carried: a few calls each (c943130: 40 and more, most of them the alias check's walk; 55ad266: 16, its
    # steps taken one by one through symbol_type, HeaderReuse.run and Carry.step; carried.py: 12).
    small, large = _semantic_calls_per_version(6), _semantic_calls_per_version(24)
    assert (large - small) / 18 <= 13, (small, large)
