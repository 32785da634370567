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
