"""A function body that resolves module-scope declarations on first use (an entry point calling helpers declared
after it) is recorded and replayed with those resolutions (coop_lsp/semantic/first_uses.py), and the result
is a fresh check's: diagnostics whole and in order, the semantic model, the editor's answers.

The files are the examples with that layout and generated variants in which the helpers' headers use a
matrix dialect or f16 (what is said once: a dialect's first use, an `enable` asked for) before or after the
entry point itself does, an alias, a constant and a struct declared after the entry point too. Each
line of each file is edited in turn (whitespace, a comment, the line doubled), each edited version followed
by the original text again. An edit inside one function's body checks that body only, and going back to
the original checks none: every other body, the entry point included, is replayed.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from coop_lsp.ide import Analysis
from coop_lsp.ide.hover import hover
from coop_lsp.ide.navigation import definition
from coop_lsp.ide.presentation import inlay_hints, semantic_tokens
from coop_lsp.lint import Reuse
from coop_lsp.semantic.checker import check
from coop_lsp.semantic.reuse import BodyReuse
from coop_lsp.syntax import Document, parse
from coop_lsp.syntax.parser import Parsed
from tests.test_lint_reuse import as_edit, lookups_agree, model_facts

EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "chromium"
LATER_HELPERS = ["gemm_tiled_4x4.wgsl", "gemm_tiled.wgsl", "gemm_pipelined.wgsl"]

VARIANT = """\
ENABLES
const TILE: u32 = 8u;

@group(0) @binding(0) var<storage, read_write> data: array<f32>;

@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) lid: u32) {
  EARLY
  let v = load_value(lid);
  var t: Tile = make_tile(lid);
  let p = Pair(v, SCALE);
  store_value(lid, p.a * p.b);
  LATE_USE
}

LOAD_ATTRIBUTESfn load_value(i: u32) -> f32 {
  return data[i] + 1.0;
}

fn make_tile(i: u32) -> HELPER_TYPE {
  var m: HELPER_TYPE;
  return m;
}

fn store_value(i: u32, v: f32) {
  data[i] = v;
}

alias Tile = TILE_TYPE;
const SCALE = 2.0;
struct Pair { a: f32, b: f32 }
"""

_ENABLED = "enable f16;\nenable chromium_experimental_subgroup_matrix;"
VARIANTS = {
    # The alias's resolution, nested in the entry point's body, is the module's first use of the dialect.
    "helpers use the dialect first": {"ENABLES": _ENABLED, "EARLY": "", "LATE_USE": "let h = 2.0h;",
                                      "HELPER_TYPE": "subgroup_matrix_left<f16, 8, 8>",
                                      "TILE_TYPE": "subgroup_matrix_left<f16, TILE, TILE>"},
    "the body uses the dialect first": {"ENABLES": _ENABLED, "EARLY": "let e = subgroup_matrix_right<f16, 8, 8>();",
                                        "LATE_USE": "", "HELPER_TYPE": "subgroup_matrix_left<f16, 8, 8>",
                                        "TILE_TYPE": "subgroup_matrix_left<f16, TILE, TILE>"},
    # No enables: a type only naga accepts, noted once, by the first of the helpers' headers to name it.
    "a helper notes a portability first": {"ENABLES": "", "EARLY": "let q = 1u;", "LATE_USE": "let w: f64 = t;",
                                           "HELPER_TYPE": "f64", "TILE_TYPE": "f64"},
    # ... or by the body, before its first call.
    "the body notes a portability first": {"ENABLES": "", "EARLY": "let w: f64 = f64(lid);", "LATE_USE": "",
                                           "HELPER_TYPE": "f64", "TILE_TYPE": "f64"},
    # Errors in the body before and after the first call, and in the called helper's signature between.
    "findings on both sides": {"ENABLES": _ENABLED, "EARLY": "let early: u32 = 1.5;", "LATE_USE": "let late: i32 = 2.5;",
                               "HELPER_TYPE": "subgroup_matrix_left<f16, 8, 8>",
                               "TILE_TYPE": "subgroup_matrix_left<f16, TILE, TILE>",
                               "LOAD_ATTRIBUTES": "@workgroup_size(0) "},
}


def variant(name: str) -> str:
    text = VARIANT
    for key, value in ({"LOAD_ATTRIBUTES": ""} | VARIANTS[name]).items():
        text = text.replace(key, value)
    return text


def _bodies(text: str) -> list[tuple[int, int]]:
    """The byte ranges of the module's function bodies."""
    root = parse(text).tree.root_node
    found = []
    for node in root.named_children:
        if node.type == "function_declaration":
            body = node.child_by_field_name("body")
            if body is not None:
                found.append((body.start_byte, body.end_byte))
    return found


def _answers(analysis: Analysis) -> tuple:
    """What an editor asks about the helpers' calls and names, and of the whole document."""
    data = analysis.data
    offsets = []
    for name in (b"load_value", b"make_tile", b"store_value", b"fetch", b"stage", b"Tile", b"SCALE", b"Pair"):
        at = data.find(name)
        while at >= 0:
            offsets.append(at + 1)
            at = data.find(name, at + 1)
    return (tuple(repr(hover(analysis, offset)) for offset in offsets),
            tuple(repr(definition(analysis, offset)) for offset in offsets),
            repr(inlay_hints(analysis)), repr(semantic_tokens(analysis)))


class _Editor:
    """A document analysed after each edit as the server does, compared with a fresh analysis of its text."""

    def __init__(self, text: str) -> None:
        self.document = Document(text)
        self.reuse = Reuse()
        self.fresh: dict[str, tuple] = {}
        self.change(text)

    def change(self, text: str) -> None:
        if text != self.document.text:
            span, inserted = as_edit(self.document.source.data, text.encode())
            self.document.replace(span, inserted)
        analysis = Analysis.of_parsed(Parsed(self.document.source, self.document.tree.copy()), reuse=self.reuse)
        expected = self.fresh.get(text)
        if expected is None:
            fresh = Analysis.of_parsed(parse(text), fresh=True)
            expected = self.fresh[text] = (fresh.diagnostics, model_facts(fresh.model), _answers(fresh))
        assert analysis.diagnostics == expected[0], text
        assert model_facts(analysis.model) == expected[1], text
        lookups_agree(analysis.model)
        assert _answers(analysis) == expected[2], text


def _edits(text: str):
    """Per line: (the text with that line edited, whether the edit lies inside a function body)."""
    lines = text.split("\n")
    bodies = _bodies(text)
    offset = 0
    for number, line in enumerate(lines):
        start = offset
        offset += len(line.encode()) + 1
        inside = any(low < start and start + len(line.encode()) < high for low, high in bodies)
        kind = number % 3
        if kind == 0:
            edited = lines[:number] + [line + " "] + lines[number + 1:]
        elif kind == 1:
            edited = lines[:number + 1] + ["  // note"] + lines[number + 1:]
        else:
            edited = lines[:number + 1] + [line] + lines[number + 1:]
        yield "\n".join(edited), inside and kind != 2


def _every_line(text: str) -> tuple[int, int]:
    """Edits every line in turn, going back to `text` after each; (body edits, versions of `text`)."""
    editor = _Editor(text)
    bodies = returns = 0
    for edited, in_body in _edits(text):
        editor.change(edited)
        if in_body:
            bodies += 1
            assert editor.reuse.bodies.checked == 1, f"only the edited body is checked:\n{edited}"
        editor.change(text)
        returns += 1
        assert editor.reuse.bodies.checked == 0, "every body replayed, the entry point's included"
    return bodies, returns


@pytest.mark.parametrize("name", LATER_HELPERS)
def test_every_line_of_an_example_whose_entry_point_calls_later_helpers(name: str) -> None:
    bodies, returns = _every_line((EXAMPLES / name).read_text())
    assert bodies > 20 and returns > 100


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_every_line_of_a_variant_whose_helpers_say_once(name: str) -> None:
    bodies, _ = _every_line(variant(name))
    assert bodies > 5


def test_a_helper_moved_above_the_entry_point_refuses_the_record_without_a_trace() -> None:
    # Resolved before the entry point's body now: the record's step for it does not hold (the declaration is
    # resolved already), and the fresh check that follows is the ordinary one (the editor compares it).
    text = variant("findings on both sides")
    helper = "@workgroup_size(0) fn load_value(i: u32) -> f32 {\n  return data[i] + 1.0;\n}\n"
    assert helper in text
    editor = _Editor(text)
    editor.change(helper + "\n" + text.replace(helper, ""))
    editor.change(text)
    assert editor.reuse.bodies.checked == 0  # the first version's records, kept spare meanwhile


def test_an_edited_helper_signature_checks_the_entry_point_again() -> None:
    text = variant("helpers use the dialect first")
    changed = text.replace("fn load_value(i: u32) -> f32", "fn load_value(i: u32) -> u32")
    editor = _Editor(text)
    editor.change(changed)
    assert editor.reuse.bodies.checked == 2  # load_value (its return type) and main, whose record no longer holds
    editor.change(text)
    assert editor.reuse.bodies.checked == 0


def test_the_uniformity_summary_of_the_entry_point_is_kept() -> None:
    # An edit inside the entry point's first helper: the entry point's body is replayed, and so is its
    # uniformity summary where the helper's own is the same record (a comment outside the helper's body).
    name = "gemm_tiled_4x4.wgsl"
    text = (EXAMPLES / name).read_text()
    editor = _Editor(text)
    at = text.index("fn fetch(")
    editor.change(text[:at] + "// a note\n" + text[at:])
    assert editor.reuse.bodies.checked == 0
    assert editor.reuse.summaries.analysed == 0
    editor.change(text)
    assert editor.reuse.summaries.analysed == 0


def test_a_syntax_error_in_a_later_helpers_header_then_undone() -> None:
    # The broken helper's step is checked and not recorded, and so is the entry point that resolves it first;
    # with the header mended, the records of the first version are replayed again.
    text = variant("helpers use the dialect first")
    broken = text.replace("fn store_value(i: u32, v: f32)", "fn store_value(i: u32, v: f32")
    editor = _Editor(text)
    editor.change(broken)
    editor.change(text)
    assert editor.reuse.bodies.checked == 0


def test_the_checker_adds_the_findings_of_a_replayed_body_and_of_its_steps_in_a_fresh_checks_order() -> None:
    # The lint sorts its findings by place; the checker's own list is in the order they were found: the body's
    # error before its first call, the called helper's signature error, the body's error after.
    text = variant("findings on both sides")
    fresh, _ = check(parse(text))
    codes = [d.code for d in fresh]
    assert codes.index("T014") > 0 and "T003" in codes[codes.index("T014") + 1:]
    reuse = BodyReuse()
    check(parse(text), reuse)
    for version in (text.replace("let late", "let later"), text, text.replace("1.5", "2.5")):
        diagnostics, _ = check(parse(version), reuse)
        assert diagnostics == check(parse(version))[0]
    check(parse(text), reuse)
    assert reuse.checked == 0 and reuse.replayed == 4
