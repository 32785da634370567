"""Findings of one function kept for the next version of a document, for passes whose finding in a
function depends only on its text and on its body's semantic check.

Such a finding is the same, moved to where the function now starts, when the function's text is the
same and its body's check is the same record (coop_lsp.semantic.reuse: the record replayed in this
version is the one the findings were computed with, so the types and local symbols they read are
too). The findings are kept by that record alone: BodyReuse finds a record by its function's text and
by nothing else, so the same record means the same text, and no function's text is sliced and hashed
again here every version. A function whose body was not recorded is computed afresh every version.
"""

from __future__ import annotations

from ..core.diagnostic import Diagnostic
from ..semantic.kept import KeptRecords


class FunctionFindings:
    """One pass's findings per function, by its body's record, of one document's last version."""

    def __init__(self) -> None:
        # (start, findings) by body record. Records hash by identity; as a key the record stays alive while
        # its entry does, so no other record can come to have its id meanwhile.
        self._records = KeptRecords()
        self.reused = 0
        self.computed = 0

    def begin(self) -> None:
        self._records.begin()
        self.reused = self.computed = 0

    def end(self) -> None:
        self._records.end()  # what this version used, and a few spare: memory stays with the document

    def replay(self, record: object, start: int) -> list[Diagnostic] | None:
        """The findings recorded with this semantic record, moved to `start`; else None."""
        if record is None:
            return None
        found = self._records.get(record)
        if found is None:
            return None
        self._records.current[record] = found
        self.reused += 1
        return [d.shifted(start - found[0]) for d in found[1]]

    def record(self, record: object, start: int, findings: list[Diagnostic]) -> None:
        self.computed += 1
        if record is not None:
            self._records.current[record] = (start, list(findings))
