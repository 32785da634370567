"""The carried steps of an unchanged declaration, applied in one call per phase (coop_lsp/semantic/carried.py),
leave what the step by step way (Carry.step through symbol_type, HeaderReuse.run and Checker._checked_body)
leaves: the same findings and model (each version is compared with a fresh lint too), the same entries for
the next version, the same counts of records carried, replayed and checked. The cost case counts the carry's
steps taken the step by step way per version: they do not grow with the number of functions.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

import coop_lsp.semantic.checker as checker_module
from benchmarks.common import matrix_library_kernel
from coop_lsp.core.text import Span
from coop_lsp.semantic.carry import Carry
from tests.test_carry import COLLIDING, LATER, MODULE, _typed_sequence
from tests.test_edit_cost import Editor
from tests.test_lint_reuse import model_facts

ROOT = Path(__file__).resolve().parent.parent


def _step_by_step(monkeypatch) -> None:
    """The checker as it was before carried.py: every step through Carry.step (AT_ONCE off: no phase in one
    frame either)."""
    monkeypatch.setattr(checker_module, "AT_ONCE", False)
    monkeypatch.setattr(checker_module, "carried_declaration", lambda *args: None)
    monkeypatch.setattr(checker_module, "carried_checks_by_step", lambda *args: False)


def _taken(monkeypatch) -> dict:
    """Counts, in "n", the declarations and checks carried.py applied from now on."""
    counts = {"n": 0}
    declaration, checks = checker_module.carried_declaration, checker_module.carried_checks

    def counted_declaration(*args):
        done = declaration(*args)
        counts["n"] += done is not None
        return done

    def counted_checks(*args):
        done = checks(*args)
        counts["n"] += done
        return done

    def counted_phase(checker, *args):
        # (the checks after the bodies, every carried declaration's in one frame: the steps it carried)
        before = checker.reuse.carry.carried
        phase(checker, *args)
        counts["n"] += checker.reuse.carry.carried - before

    phase = checker_module.carried_checks_phase
    monkeypatch.setattr(checker_module, "carried_declaration", counted_declaration)
    monkeypatch.setattr(checker_module, "carried_checks", counted_checks)
    monkeypatch.setattr(checker_module, "carried_checks_phase", counted_phase)
    return counts


def _state(editor: Editor, result) -> tuple:
    """What a version leaves: findings, model, and for the next version the carry's entries (records by kind
    and key, as another editor's records are other objects) and the counts."""
    bodies = editor.reuse.bodies
    carry = bodies.carry
    entries = None if carry.last is None else [
        None if e is None else (e[0], e[1], e[2], _key(e[3]), type(e[4]).__name__,
                                e[5] if e[5] is True or e[5] is False else ("state", e[5]))
        for e in carry.last.entries]
    counts = (carry.active, carry.carried, bodies.replayed, bodies.checked, bodies.headers.replayed,
              bodies.headers.checked, sorted(bodies.used))
    return result.diagnostics, model_facts(result.model), entries, counts


def _key(key):
    """A record's key without the numbers a header key holds (of the module text, of the function's own
    signature): given in the order met, by every document's checks together."""
    if isinstance(key, tuple):
        return key[0], key[1], key[3], key[4] is None, key[5]
    return key


def _sessions():
    rng = random.Random(21)
    kernel = matrix_library_kernel(random.Random(21), functions=6) + LATER
    yield "kernel", kernel, _typed_sequence(kernel, rng, 70)
    for name in ["chromium/gemm_tiled.wgsl", "standard/gemm_blocked.wgsl", "plain/gemm_tiled_f32.wgsl"]:
        text = (ROOT / "examples" / name).read_text()
        yield name, text, _typed_sequence(text, random.Random(name), 30)
    for name, text in (("module", MODULE), ("colliding", COLLIDING)):
        versions = []
        for number in range(2, 14):
            versions.append(re.sub(r"f32\(i\) \* \d+\.0", f"f32(i) * {number * 1111}.0", text))
            versions.append(versions[-1].replace("let x = ", "let x = @ ", 1) if number % 3 else
                            versions[-1].replace("let x = ", "let y = 2.0;\n  let x = ", 1))
        yield name, text, versions


@pytest.mark.parametrize("session", list(range(6)), ids=["kernel", "gemm_tiled", "gemm_blocked", "plain_tiled",
                                                         "module", "colliding"])
def test_one_call_per_declaration_leaves_what_the_step_by_step_way_leaves(session: int, monkeypatch) -> None:
    name, text, versions = list(_sessions())[session]
    taken = _taken(monkeypatch)
    fast = Editor(text)
    fast_states = [_state(fast, fast.change(version)) for version in versions]
    assert taken["n"] >= len(versions), name  # (the one-call way was taken, most versions)
    monkeypatch.undo()
    _step_by_step(monkeypatch)
    slow = Editor(text)
    for version, fast_state in zip(versions, fast_states):
        assert _state(slow, slow.change(version)) == fast_state, (name, version)


def _steps_per_typed_character(functions: int, monkeypatch) -> int:
    """Carry.step calls while a version with a syntax error in one body is checked, the one before it having
    the same error: a typed character, as the typing benchmark types one."""
    text = matrix_library_kernel(random.Random(5), functions=functions)
    loop = text.index("for (", text.index("fn gemm_1("))
    text = f"{text[:loop]}// {text[loop:]}"
    line = text.index("\n", loop) + 1
    editor = Editor(text)
    editor.change(f"{text[:line]}let y = 1\n{text[line:]}")
    steps = {"n": 0}
    step = Carry.step

    def counted(self, *args):
        steps["n"] += 1
        return step(self, *args)

    monkeypatch.setattr(Carry, "step", counted)
    editor.document.replace(Span(line + len("let y = 1"), line + len("let y = 1")), ".")
    editor.analyse()
    monkeypatch.undo()
    assert editor.reuse.bodies.carry.active and editor.reuse.bodies.carry.carried >= 2 * functions
    return steps["n"]


def test_the_steps_taken_one_by_one_per_typed_character_do_not_grow_with_the_functions(monkeypatch) -> None:
    # The edited function's own steps go through Carry.step; every other declaration's are taken by carried.py
    # (before it: two or three per function, 2 * 18 and more for the larger module).
    small, large = _steps_per_typed_character(6, monkeypatch), _steps_per_typed_character(24, monkeypatch)
    assert small == large, (small, large)
    assert large <= 4


def test_an_unchanged_functions_records_are_applied_inside_the_phase_loops() -> None:
    # Before: per unchanged function of a typed character, BodyReuse.apply_at and its model.add_replayed, one
    # _apply_header for its signature and one carried_checks call for its checks after the bodies. The phase
    # loops (carried_declarations, carried_checks_phase) now apply those records themselves.
    from tests.test_carried_at_once import _calls_per_version
    small, large = _calls_per_version(6), _calls_per_version(24)
    per_function = {name: (large.get(name, 0) - small.get(name, 0)) / 18 for name in large.keys() | small.keys()}
    for name in ("apply_at", "add_replayed", "_apply_header", "_apply", "carried_checks"):
        assert per_function.get(name, 0) == 0, (name, per_function)
