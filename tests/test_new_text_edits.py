"""Edits that make a text no version had before: every version's findings and model are a fresh check's.

The toggles of the other reuse tests come back to a text seen two versions earlier, which the kept
records replay whole (semantic/kept.py). Here a number counts up at each site, so the edited declaration
is checked afresh every time and every other one is replayed against it: the first function, the last
one (an entry point), a header's attribute, a struct that headers and bodies read, an alias a signature
holds, and a syntax error typed at the site then undone (the version before it comes back).
`Editor.change` compares each version with a fresh lint of the same text.
"""

from __future__ import annotations

import itertools
import random
import re

import pytest

from tests.test_edit_cost import Editor

MODULE = """\
enable f16;
const SCALE: f32 = 2.0;
alias Tile = u32;

struct Params {
  n: u32,
  pad: array<u32, 3>,
  alpha: f32,
}

@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read_write> out: array<f32>;

fn first(i: u32) -> f32 {
  let x = f32(i) * 1.0;
  return x * SCALE;
}

fn middle(p: Params, t: Tile) -> Tile {
  let m = p.n + t * 3u;
  return m;
}

fn helper(v: f32) -> f32 {
  return v + params.alpha;
}

@compute @workgroup_size(64)
fn last(@builtin(global_invocation_id) id: vec3<u32>) {
  let t = middle(params, id.x);
  out[t] = helper(first(t)) + 5.0;
}
"""
# Each site: a pattern whose group is the number counted up there.
SITES = {
    "first function's body": r"let x = f32\(i\) \* (\d+)\.0;",
    "last function's body": r"helper\(first\(t\)\) \+ (\d+)\.0;",
    "middle function's body": r"t \* (\d+)u;",
    "an entry point's attribute": r"@workgroup_size\((\d+)\)",
    "a struct read by a header and bodies": r"pad: array<u32, (\d+)>",
    "a const read by a body": r"const SCALE: f32 = (\d+)\.0;",
}
# An alias a signature holds: its text takes one of these in turn (each new where it is).
ALIASES = ["u32", "i32", "vec2<u32>"]


def _counted(text: str, site: str, number: int) -> str:
    match = re.search(SITES[site], text)
    assert match is not None, site
    return f"{text[:match.start(1)]}{number}{text[match.end(1):]}"


def _errored(text: str, site: str) -> str:
    match = re.search(SITES[site], text)
    return f"{text[:match.start(1)]}@@ {text[match.start(1):]}"


@pytest.mark.parametrize("site", sorted(SITES))
def test_a_number_counted_up_at_one_site_equals_a_fresh_check(site: str) -> None:
    text = MODULE
    editor = Editor(text)
    for number in range(4, 10):
        text = _counted(text, site, number)
        editor.change(text)


def test_random_new_texts_with_errors_undone_equal_a_fresh_check() -> None:
    """Sites chosen at random, a new number each time; now and then a syntax error typed at the site and
    taken out again, so that the version before the error comes back."""
    rng = random.Random(14)
    numbers = itertools.count(4)
    text = MODULE
    editor = Editor(text)
    alias = 0
    for _ in range(30):
        if rng.random() < 0.15:
            alias = (alias + 1) % len(ALIASES)
            text = re.sub(r"alias Tile = [^;]+;", f"alias Tile = {ALIASES[alias]};", text)
            editor.change(text)
            continue
        site = rng.choice(sorted(SITES))
        if rng.random() < 0.3:
            before = text
            editor.change(_errored(text, site))
            editor.change(before)
        text = _counted(text, site, next(numbers))
        editor.change(text)


def test_the_unchanged_headers_replay_while_a_body_gets_new_text() -> None:
    text = MODULE
    editor = Editor(text)
    for number in range(4, 8):
        text = _counted(text, "middle function's body", number)
        editor.change(text)
        assert editor.reuse.bodies.checked == 1
        assert editor.reuse.bodies.headers.checked == 0
