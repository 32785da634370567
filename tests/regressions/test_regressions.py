"""Every input fuzzing ever broke the linter with, linted under every invariant of tests/fuzz/invariants.py.

Each `*.wgsl` here is a minimal reproducer. While its bug is open it is
listed in tests/fuzz/known.py and its test is xfail(strict=True): the day
the bug is fixed the test turns red (XPASS), and the entry in known.py is
deleted, which makes this an ordinary regression test.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.fuzz.invariants import check_incremental, check_lint
from tests.fuzz.known import KNOWN

HERE = Path(__file__).resolve().parent
FILES = sorted(HERE.glob("*.wgsl"))
OPEN = {bug.regression: bug for bug in KNOWN}

# Incremental-parse reproducers: file -> (start byte, end byte, inserted text) edits applied in order.
EDITS: dict[str, list[tuple[int, int, str]]] = {
    # `\x:` -> `)` gives "fn f()f->f{return|->;}": a function_declaration with ERRORs inside when
    # re-parsed incrementally, a top-level ERROR when parsed fresh.
    "incremental_error_recovery_differs.wgsl": [(5, 8, ")")],
}


def _read(path: Path) -> str | bytes:
    data = path.read_bytes()
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data


def _param(path: Path):
    bug = OPEN.get(path.name)
    marks = [pytest.mark.xfail(strict=True, reason=bug.reason)] if bug else []
    return pytest.param(path, id=path.name, marks=marks)


def test_every_open_bug_has_its_reproducer():
    assert {bug.regression for bug in KNOWN} <= {p.name for p in FILES}


@pytest.mark.parametrize("path", [_param(p) for p in FILES])
def test_regression(path: Path):
    text = _read(path)
    problems = check_lint(text)
    if path.name in EDITS:
        problems += check_incremental(text, EDITS[path.name])
    assert not problems, "\n".join(problems)
