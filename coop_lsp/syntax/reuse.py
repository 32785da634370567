"""Findings of one document's last version, by declaration text, for the next version to reuse.

Whoever lints the versions of one document calls `begin` before and `end`
after each; what a version did not use is dropped then, so the memory stays
proportional to the document.
"""

from __future__ import annotations


class DeclarationReuse:
    def __init__(self) -> None:
        self._previous: dict = {}
        self._current: dict = {}

    def begin(self) -> None:
        self._current = {}

    def end(self) -> None:
        self._previous = self._current

    def kept_before(self) -> bool:
        """Whether an earlier version kept anything (not the document's first)."""
        return bool(self._previous)

    def get(self, key):
        found = self._current.get(key)
        return found if found is not None else self._previous.get(key)

    def keep(self, key, value) -> None:
        self._current[key] = value
