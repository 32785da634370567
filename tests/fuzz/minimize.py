"""Shrinks a failing input to a small one that fails the same way (delta debugging on lines, tokens, bytes).

    .venv/bin/python -m tests.fuzz.minimize input.wgsl 'negative shift count' > small.wgsl

keeps removing pieces while `invariants.check_lint` still reports a problem
containing the given text; used by benchmarks/fuzz_campaign.py on every new crash.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable

from .invariants import check_lint
from .mutate import tokens


def still_fails(signature: str) -> Callable[[bytes], bool]:
    def predicate(data: bytes) -> bool:
        try:
            text: str | bytes = data.decode("utf-8")
        except UnicodeDecodeError:
            text = data
        return any(signature in problem for problem in check_lint(text))
    return predicate


def _ddmin(pieces: list[bytes], fails: Callable[[bytes], bool], budget: list[int]) -> list[bytes]:
    chunk = max(len(pieces) // 2, 1)
    while chunk >= 1 and budget[0] > 0:
        index, changed = 0, False
        while index < len(pieces) and budget[0] > 0:
            candidate = pieces[:index] + pieces[index + chunk:]
            budget[0] -= 1
            if candidate != pieces and fails(b"".join(candidate)):
                pieces, changed = candidate, True
            else:
                index += chunk
        if not changed:
            chunk //= 2
    return pieces


def minimize(data: bytes, fails: Callable[[bytes], bool], budget: int = 3000) -> bytes:
    """The smallest input found (within `budget` tries) for which `fails` still holds."""
    if not fails(data):
        return data
    left = [budget]
    data = b"".join(_ddmin(data.splitlines(keepends=True), fails, left))
    data = b"".join(_ddmin(tokens(data), fails, left))
    # Whitespace runs to one space or one newline, where that keeps the failure.
    squeezed = re.sub(rb"[ \t]+", b" ", data)
    if squeezed != data and fails(squeezed):
        data = squeezed
    return data


def main() -> int:
    path, signature = sys.argv[1], sys.argv[2]
    with open(path, "rb") as handle:
        data = handle.read()
    sys.stdout.buffer.write(minimize(data, still_fails(signature)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
