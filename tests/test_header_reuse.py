"""A function's header (signature, attributes, shader IO) is checked again only when it, or a module
declaration it may read, changed; otherwise its checks are replayed, and the result is a fresh check's.

`reuse.bodies.headers.checked` counts the header steps run afresh: two per function (the signature's
resolution, and the attribute and stage-IO checks after the bodies) and two per other module declaration
(its resolution, and its attributes' check), `replayed` those replayed. A declaration or function header
without an '@' has no attributes to check: it costs its resolution only, a step that is neither run nor
replayed after the first version.
"""

from __future__ import annotations

import pytest

from tests.test_edit_cost import Editor

MODULE = """\
enable f16;
const WG: u32 = 64u;
override BLOCK: u32 = 4u;
alias Vec = vec4<f32>;

struct VertexOut {
  @builtin(position) pos: vec4<f32>,
  @location(0) color: Vec,
}

fn helper(v: Vec, scale: f16) -> Vec {
  return v * f32(scale);
}

@vertex
fn vs(@builtin(vertex_index) i: u32) -> VertexOut {
  var out: VertexOut;
  out.pos = vec4<f32>(f32(i));
  out.color = helper(out.pos, 2.0h);
  return out;
}

@fragment
fn fs(@location(0) color: Vec) -> @location(0) vec4<f32> {
  return color;
}

@compute @workgroup_size(WG, BLOCK)
fn cs(@builtin(local_invocation_index) lid: u32) {
  if lid == 0u {
    workgroupBarrier();
  }
}
"""
FUNCTIONS = 4
DECLARATIONS = 4  # WG, BLOCK, Vec, VertexOut
WITHOUT_ATTRIBUTES = {"WG", "BLOCK", "Vec", "helper"}


def steps(names) -> int:
    """The header steps of these declarations: two each, one for those without attributes."""
    return sum(1 if name in WITHOUT_ATTRIBUTES else 2 for name in names)


STEPS = steps({"WG", "BLOCK", "Vec", "VertexOut", "helper", "vs", "fs", "cs"})
assert STEPS == 2 * (FUNCTIONS + DECLARATIONS) - len(WITHOUT_ATTRIBUTES)


def test_the_first_version_checks_every_header() -> None:
    editor = Editor(MODULE)
    assert editor.reuse.bodies.headers.checked == STEPS
    assert editor.reuse.bodies.headers.replayed == 0


def test_an_edit_inside_a_body_replays_every_header() -> None:
    editor = Editor(MODULE)
    # One line longer: the headers after it moved, and their findings and spans move with them.
    editor.change(MODULE.replace("  return color;", "  let c = color;\n  return c;"))
    assert editor.reuse.bodies.checked == 1
    assert editor.reuse.bodies.headers.checked == 0
    assert editor.reuse.bodies.headers.replayed == STEPS


def test_an_edited_signature_rechecks_that_header_only() -> None:
    editor = Editor(MODULE)
    moved = MODULE.replace("fn fs(@location(0) color: Vec)", "fn fs(@location(3) color: Vec)")
    editor.change(moved)
    assert editor.reuse.bodies.headers.checked == 2
    assert editor.reuse.bodies.headers.replayed == STEPS - 2
    # A broken entry point attribute is found in the header, and goes away with the edit.
    broken = moved.replace("@workgroup_size(WG, BLOCK)", "@workgroup_size(WG, BLOCK, 0)")
    result = editor.change(broken)
    assert any("workgroup_size" in d.message for d in result.diagnostics)
    assert editor.reuse.bodies.headers.checked == 2
    # Undone: the records of `moved`, kept spare meanwhile, replay.
    result = editor.change(moved)
    assert not any("workgroup_size" in d.message for d in result.diagnostics)
    assert editor.reuse.bodies.headers.checked == 0


# Each edits a module declaration that some header reads, and names the declarations and functions whose
# header steps (see steps()) read it and run again; Editor.change compares with a fresh check.
DECLARATION_EDITS = [
    # the vertex stage loses its position output (found in vs' header, which walks VertexOut's members)
    ("@builtin(position) pos", "pos", {"VertexOut", "vs"}),
    ("@location(0) color: Vec,", "@location(0) @interpolate(flat) color: Vec,", {"VertexOut", "vs"}),
    # helper's, vs' and fs' signatures change meaning; cs names no Vec
    ("alias Vec = vec4<f32>;", "alias Vec = vec3<f32>;", {"Vec", "VertexOut", "helper", "vs", "fs"}),
    # cs' @workgroup_size names BLOCK, whose value an override does not fix: cs reads the same
    ("override BLOCK: u32 = 4u;", "override BLOCK: u32 = 8u;", {"BLOCK"}),
    ("override BLOCK: u32 = 4u;", "const BLOCK: u32 = 0u;", {"BLOCK", "cs"}),  # a workgroup size of 0
    ("const WG: u32 = 64u;", "const WG: f32 = 64.0;", {"WG", "cs"}),  # not an integer any more
    ("enable f16;", "", {"WG", "BLOCK", "Vec", "VertexOut", "helper", "vs", "fs", "cs"}),  # every one
]


@pytest.mark.parametrize("old, new, readers", DECLARATION_EDITS)
def test_an_edited_declaration_rechecks_the_headers_that_read_it(old: str, new: str, readers: set) -> None:
    editor = Editor(MODULE)
    changed = MODULE.replace(old, new, 1)
    assert changed != MODULE
    editor.change(changed)
    assert editor.reuse.bodies.headers.checked == steps(readers)
    assert editor.reuse.bodies.headers.replayed == STEPS - steps(readers)
    # Undone: the first version's records were kept spare, and replay.
    editor.change(MODULE)
    assert editor.reuse.bodies.headers.checked == 0
    # A body edit after it replays them again, with the same findings as a fresh check.
    editor.change(MODULE.replace("  return color;", "  return color * 1.0;"))
    assert editor.reuse.bodies.headers.checked == 0


def test_a_new_declaration_of_a_name_a_header_holds_rechecks_it() -> None:
    """A header reads some names without a lookup (an attribute's argument): declaring one of them anew
    checks that header again, and only it."""
    module = MODULE.replace("@compute @workgroup_size(WG, BLOCK)", "@compute @workgroup_size(WG, SIZE)")
    editor = Editor(module)
    result = editor.change(module.replace("override BLOCK: u32 = 4u;", "override BLOCK: u32 = 4u;\nconst SIZE = 2u;"))
    assert not [d for d in result.diagnostics if "SIZE" in d.message]
    assert editor.reuse.bodies.headers.checked == 1 + 2  # SIZE's resolution (it has no attributes), cs' two


def test_random_declaration_edits_equal_a_fresh_check() -> None:
    """Edits to the declarations headers read, made and undone in random order, some with a syntax error
    in between: every version's findings and model are a fresh check's (Editor.change compares them)."""
    import random

    rng = random.Random(3)
    edits = [(old, new) for old, new, _ in DECLARATION_EDITS] + [
        ("struct VertexOut {", "struct VertexOut {\n  @location(1) extra: f32,"),
        ("alias Vec = vec4<f32>;", "alias Vec = vec4<f32>;\nalias Scale = f16;"),
        ("fn helper(v: Vec, scale: f16)", "fn helper(v: Vec, scale: Scale)"),
        ("@location(0) color: Vec)", "@location(0) @interpolate(flat) color: Vec)"),
        ("const WG: u32 = 64u;", "const WG: u32 = 64u +;"),  # a syntax error
    ]
    text = MODULE
    editor = Editor(text)
    for _ in range(40):
        old, new = rng.choice(edits)
        if rng.random() < 0.5:
            old, new = new, old
        if old in text:
            text = text.replace(old, new, 1)
            editor.change(text)


def test_a_function_without_attributes_costs_one_header_step_per_version() -> None:
    """Its signature's resolution replays; the checks of its attributes, having none to check, are skipped
    rather than replayed (two steps each before)."""
    module = "".join(f"fn f{i}(x: u32) -> u32 {{\n  return x + {i}u;\n}}\n" for i in range(10))
    editor = Editor(module)
    editor.change(module.replace("x + 3u", "x + 33u"))
    assert editor.reuse.bodies.checked == 1
    assert editor.reuse.bodies.headers.checked == 0
    assert editor.reuse.bodies.headers.replayed == 10
    # An attribute typed into one of them makes it two again (and the @must_use is checked afresh).
    editor.change(module.replace("fn f5(", "@must_use fn f5("))
    assert editor.reuse.bodies.headers.checked == 2
    assert editor.reuse.bodies.headers.replayed == 9


def test_commenting_out_a_loop_header_keeps_the_other_headers_records() -> None:
    """`// ` before a `for` header: its `}` now closes the function, and the rest of the body lies at module
    scope as ERROR nodes, lone ';'s and two new `var`s. No other header reads those (only a declaration
    right before an ERROR node does, by its kind), so the cut function's two steps and the new `var`s'
    resolutions run afresh, and the 52 others replay: all 56 ran again before."""
    from benchmarks.typing_cost import _workload

    text, loop_header, _ = _workload()
    lines = text.split("\n")
    assert lines[loop_header].lstrip().startswith("for (")
    commented = "\n".join(lines[:loop_header] + ["// " + lines[loop_header]] + lines[loop_header + 1:])
    editor = Editor(text)
    editor.change(commented)
    assert editor.reuse.bodies.headers.checked == 4
    assert editor.reuse.bodies.headers.replayed == 52
    editor.change(text)
    assert editor.reuse.bodies.headers.checked == 0


def test_an_error_node_appearing_after_a_declaration_rechecks_it() -> None:
    """`var x` with neither a type nor an initializer is reported, unless the parser gave up right after it
    (an ERROR node is its next sibling): the same header text, read otherwise. Each version equals a fresh
    check (Editor.change compares), the ERROR node coming and going and changing its text."""
    module = "var x ;\n@compute @workgroup_size(1)\nfn main() {\n}\n"
    editor = Editor(module)
    versions = [module.replace("x ;", "x ) ;"), module, module.replace("x ;", "x ) ;"),
                module.replace("x ;", "x )) ;"), module.replace("x ;", "x ;\n)"), module]
    found = []
    for version in versions:
        result = editor.change(version)
        found.append(any("needs a type or an initializer" in d.message for d in result.diagnostics))
    assert found == [False, True, False, False, True, True]


def test_junk_at_module_scope_equals_a_fresh_check() -> None:
    """Junk typed at the start of random lines of the examples (at module scope, or inside a body, cutting
    it short) and removed again: each version, parsed afresh and checked with the document's records, has
    a fresh check's findings. Module-scope ERROR nodes and lone ';'s are no longer part of the header
    records' keys, and a `var` right before an ERROR node is read otherwise (it reports nothing missing)."""
    import random
    from pathlib import Path

    from coop_lsp.ide import Analysis
    from coop_lsp.lint import Reuse, lint_source
    from coop_lsp.syntax.parser import parse

    junk = [")", "}", "// ", "for (", ") ;", "fn (", "@", ";", "var q", "var q ) ;", "{", "let"]
    rng = random.Random(18)
    paths = sorted(Path(__file__).resolve().parents[1].glob("examples/**/*.wgsl"))
    assert len(paths) > 10
    compared = 0
    for path in rng.sample(paths, 12):
        text = path.read_text(encoding="utf-8")
        lines = text.split("\n")
        reuse = Reuse()
        for _ in range(6):
            at = rng.randrange(len(lines))
            version = "\n".join(lines[:at] + [rng.choice(junk) + lines[at]] + lines[at + 1:])
            for current in (version, text):
                result = Analysis.of_parsed(parse(current), reuse=reuse).result
                assert result.diagnostics == lint_source(current).diagnostics, (path.name, at)
                compared += 1
    assert compared == 12 * 6 * 2


def _slow_shifted(value, delta):
    """What header_reuse._shifted gives, by Span's own constructor and a walk of every tuple."""
    from coop_lsp.core.text import Span
    if isinstance(value, Span):
        return Span(value.start + delta, value.end + delta)
    if isinstance(value, tuple):
        return tuple(_slow_shifted(v, delta) for v in value)
    return value


def test_shifted_field_values_equal_those_the_span_constructor_makes() -> None:
    import random

    from coop_lsp.core.text import Span
    from coop_lsp.semantic.header_reuse import _shifted

    rng = random.Random(7)

    def value(depth: int):
        choice = rng.random()
        if depth > 2 or choice < 0.3:
            return rng.choice([None, 3, "x", 1.5, True])
        if choice < 0.65:
            start = rng.randrange(0, 500)
            return Span(start, start + rng.randrange(0, 40))
        return tuple(value(depth + 1) for _ in range(rng.randrange(0, 4)))

    for _ in range(3000):
        original, delta = value(0), rng.randrange(-100, 200)
        lowest = min([s.start for s in _spans(original)], default=0)
        delta = max(delta, -lowest)  # (a recorded span moves to where its header is now: never below 0)
        got, want = _shifted(original, delta), _slow_shifted(original, delta)
        assert got == want and hash(got) == hash(want), (original, delta)
        assert [type(s) for s in _spans(got)] == [Span] * len(_spans(want))
        if not delta or not isinstance(original, (Span, tuple)):
            assert got is original  # (nothing to move: the value itself)


def _spans(value) -> list:
    from coop_lsp.core.text import Span
    if isinstance(value, Span):
        return [value]
    return [s for v in value for s in _spans(v)] if isinstance(value, tuple) else []


def test_a_replayed_header_moves_its_spans_without_a_generator_or_the_span_constructor(monkeypatch) -> None:
    # The work per replayed entry point per version: its @workgroup_size places are moved with neither a
    # generator nor Span's constructor and its bounds check (c943130: both, for each span).
    import sys

    from coop_lsp.semantic import header_reuse
    from coop_lsp.core.text import Span

    moved = (Span(10, 12), Span(14, 16), None)
    frames = []

    def count(frame, event, arg):
        if event == "call":
            frames.append(frame.f_code.co_name)

    sys.setprofile(count)
    try:
        result = header_reuse._shifted(moved, 5)
    finally:
        sys.setprofile(None)
    assert result == (Span(15, 17), Span(19, 21), None)
    assert frames == ["_shifted"], frames
