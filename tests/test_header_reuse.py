"""A function's header (signature, attributes, shader IO) is checked again only when it, or a module
declaration it may read, changed; otherwise its checks are replayed, and the result is a fresh check's.

`reuse.bodies.headers.checked` counts the header steps run afresh: two per function (the signature's
resolution, and the attribute and stage-IO checks after the bodies) and two per other module declaration
(its resolution, and its attributes' check), `replayed` those replayed.
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
STEPS = 2 * (FUNCTIONS + DECLARATIONS)


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


# Each edits a module declaration that some header reads; Editor.change compares with a fresh check.
DECLARATION_EDITS = [
    ("@builtin(position) pos", "pos"),  # the vertex stage loses its position output (found in vs' header)
    ("@location(0) color: Vec,", "@location(0) @interpolate(flat) color: Vec,"),
    ("alias Vec = vec4<f32>;", "alias Vec = vec3<f32>;"),  # helper's and fs' signatures change meaning
    ("override BLOCK: u32 = 4u;", "override BLOCK: u32 = 8u;"),
    ("override BLOCK: u32 = 4u;", "const BLOCK: u32 = 0u;"),  # a workgroup size of 0
    ("const WG: u32 = 64u;", "const WG: f32 = 64.0;"),  # not an integer any more
    ("enable f16;", ""),  # helper's f16 parameter needs the enable
]


@pytest.mark.parametrize("old, new", DECLARATION_EDITS)
def test_an_edited_declaration_rechecks_the_headers(old: str, new: str) -> None:
    editor = Editor(MODULE)
    changed = MODULE.replace(old, new, 1)
    assert changed != MODULE
    editor.change(changed)
    assert editor.reuse.bodies.headers.checked == STEPS
    # Undone: the first version's records were kept spare, and replay.
    editor.change(MODULE)
    assert editor.reuse.bodies.headers.checked == 0
    # A body edit after it replays them again, with the same findings as a fresh check.
    editor.change(MODULE.replace("  return color;", "  return color * 1.0;"))
    assert editor.reuse.bodies.headers.checked == 0
