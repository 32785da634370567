"""Findings of one function kept for the next version of a document, for passes whose finding in a
function depends only on its text and on its body's semantic check.

Such a finding is the same, moved to where the function now starts, when the function's text is the
same and its body's check is the same record (coop_lsp.semantic.reuse: the record replayed in this
version is the one the findings were computed with, so the types and local symbols they read are
too). A function whose body was not recorded is computed afresh every version.
"""

from __future__ import annotations

from ..core.diagnostic import Diagnostic
from ..semantic.kept import KeptRecords


class FunctionFindings:
    """One pass's findings per function text, of one document's last version."""

    def __init__(self) -> None:
        self._records = KeptRecords()  # (semantic record, start, findings) by function text
        self.reused = 0
        self.computed = 0

    def begin(self) -> None:
        self._records.begin()
        self.reused = self.computed = 0

    def end(self) -> None:
        self._records.end()  # what this version used, and a few spare: memory stays with the document

    def replay(self, text: bytes, record: object, start: int) -> list[Diagnostic] | None:
        """The findings recorded for this text with this semantic record, moved to `start`; else None."""
        if record is None:
            return None
        found = self._records.get(text)
        if found is not None and found[0] is not record:
            found = self._records.other(text, found)
        if found is None or found[0] is not record:
            return None
        self._records.current[text] = found
        self.reused += 1
        return [d.shifted(start - found[1]) for d in found[2]]

    def record(self, text: bytes, record: object, start: int, findings: list[Diagnostic]) -> None:
        self.computed += 1
        if record is not None:
            self._records.current[text] = (record, start, list(findings))
