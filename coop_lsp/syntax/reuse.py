"""Findings of one document's last version, by declaration text, for the next version to reuse.

Whoever lints the versions of one document calls `begin` before and `end`
after each; what a version did not use is dropped then, so the memory stays
proportional to the document.
"""

from __future__ import annotations

from .placed import Placed


class DeclarationReuse:
    def __init__(self) -> None:
        self._previous: dict = {}
        self._current: dict = {}
        # The well-formed parts' findings by place (placed.py): the last version's, and this one's once found.
        self._placed_before: Placed | None = None
        self._placed_now: Placed | None = None

    def begin(self) -> None:
        self._current = {}
        self._placed_now = None

    def end(self) -> None:
        self._previous = self._current
        if self._placed_now is not None:
            self._placed_before = self._placed_now

    def kept_before(self) -> bool:
        """Whether an earlier version kept anything (not the document's first)."""
        return bool(self._previous) or self._placed_before is not None

    def get(self, key):
        found = self._current.get(key)
        return found if found is not None else self._previous.get(key)

    def keep(self, key, value) -> None:
        self._current[key] = value

    def placed(self) -> Placed | None:
        """The latest version's findings by place: this version's where they were found already."""
        return self._placed_now if self._placed_now is not None else self._placed_before

    def place(self, placed: Placed) -> None:
        self._placed_now = placed
