"""The behavior pass (semantic/behaviors.py) does per loop only what a loop needs (issue 37)."""

import random

from benchmarks.common import matrix_heavy_kernel
from coop_lsp.semantic import behaviors
from coop_lsp.semantic.checker import check
from coop_lsp.syntax import parse


def test_the_place_inside_a_loop_is_found_without_hashing_places(monkeypatch):
    kernel = matrix_heavy_kernel(random.Random(11), functions=4)
    parsed = parse(kernel)
    hashed = []
    original = behaviors._Place.__hash__

    def counted(self):
        hashed.append(self)
        return original(self)

    monkeypatch.setattr(behaviors._Place, "__hash__", counted)
    diagnostics, _ = check(parsed, None, "auto")
    assert kernel.count("for (") >= 20  # many loops, nested in threes
    # The table of inner places is keyed by the place's id: a frozen dataclass's hash is a Python call over
    # its fields, made at every loop and switch before.
    assert hashed == []


def test_places_inside_loops_switches_and_continuing_blocks_are_the_ones_replace_makes():
    place = behaviors._FUNCTION
    for enclosing in ("loop", "switch", "continuing", "loop", "switch", "loop", "continuing", "switch"):
        inner = behaviors._inner_place(place, enclosing)
        assert behaviors._inner_place(place, enclosing) is inner
        if enclosing == "switch":
            expected = behaviors.replace(place, breakable=True, break_target_in_continuing=place.continuing)
        elif enclosing == "loop":
            expected = behaviors.replace(place, breakable=True, continuable=True,
                                         break_target_in_continuing=place.continuing,
                                         loop_in_continuing=place.continuing)
        else:
            expected = behaviors.replace(place, continuing=True, break_target_in_continuing=False,
                                         loop_in_continuing=False)
        assert inner == expected
        place = inner
