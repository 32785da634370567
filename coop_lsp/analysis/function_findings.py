"""Findings of one function kept for the next version of a document, for passes whose finding in a
function depends only on its text and on its body's semantic check.

Such a finding is the same, moved to where the function now starts, when the function's text is the
same and its body's check is the same record (coop_lsp.semantic.reuse: the record replayed in this
version is the one the findings were computed with, so the types and local symbols they read are
too). A function whose body was not recorded is computed afresh every version.
"""

from __future__ import annotations

from ..core.diagnostic import Diagnostic


class FunctionFindings:
    """One pass's findings per function text, of one document's last version."""

    def __init__(self) -> None:
        self._previous: dict[bytes, tuple] = {}
        self._current: dict[bytes, tuple] = {}
        self.reused = 0
        self.computed = 0

    def begin(self) -> None:
        self._current = {}
        self.reused = self.computed = 0

    def end(self) -> None:
        self._previous = self._current  # only what this version used: memory stays with the document

    def replay(self, text: bytes, record: object, start: int) -> list[Diagnostic] | None:
        """The findings recorded for this text with this semantic record, moved to `start`; else None."""
        if record is None:
            return None
        found = self._current.get(text) or self._previous.get(text)
        if found is None or found[0] is not record:
            return None
        self._current[text] = found
        self.reused += 1
        return [d.shifted(start - found[1]) for d in found[2]]

    def record(self, text: bytes, record: object, start: int, findings: list[Diagnostic]) -> None:
        self.computed += 1
        if record is not None:
            self._current[text] = (record, start, list(findings))
