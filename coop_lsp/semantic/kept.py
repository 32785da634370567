"""The records one document keeps between versions: those the latest version used, and a few older ones.

A reuse table that kept only the latest version's records would lose the record of a function whenever a
version could not use it: a syntax error typed inside it (that version checks it afresh and records
nothing), then deleted again, left the next clean version, whose text is the one recorded two versions
ago, to check it afresh too. So are undo, toggling a line and finishing a statement then deleting it.
The records the latest version did not use go to a small spare list, oldest dropped first, and are
looked up there too; a record is replayed only when its own validity checks pass, wherever it was kept.
"""

from __future__ import annotations

# Per table, by default. All the records a document keeps of one function (its body's check, uniformity
# summaries, findings, header steps) take about 190 KiB on the benchmark's 50-line matrix kernels
# (tracemalloc over a lint of the server benchmark's document), so 8 spare functions add at most about
# 1.5 MiB per document to what its latest version uses.
SPARE = 8


class KeptRecords:
    """Records by key: those made or replayed in the current version, the last version's, and a few spare
    ones, older, that may hold another record for a key than the current or last version does (the same
    function text checked against other declarations, before an edit to them was undone)."""

    __slots__ = ("current", "previous", "spare", "limit")

    def __init__(self, limit: int = SPARE) -> None:
        self.current: dict = {}
        self.previous: dict = {}
        self.spare: dict = {}  # insertion order is age: the first is the oldest
        self.limit = limit

    def get(self, key):
        """The current or last version's record for `key`, else the spare one."""
        found = self.current.get(key)
        if found is None:
            found = self.previous.get(key)
            if found is None and self.spare:
                found = self.spare.get(key)
        return found

    def other(self, key, tried):
        """The spare record for `key` when it is not `tried` (a record found invalid): None if none."""
        found = self.spare.get(key) if self.spare else None
        return None if found is tried else found

    def begin(self) -> None:
        self.current = {}

    def end(self) -> None:
        """The current version's records become the previous ones; those of the last version that it did
        not use become spare, the newest last."""
        current, spare = self.current, self.spare
        if self.limit:
            # By the records' identities: a key (a function's text, a tuple) would be hashed again for
            # every function of the document, each version.
            kept = set(map(id, current.values()))
            previous = self.previous
            # (Most versions use every record the last one did: found by set operations, in C, rather than
            # by a step of Python per record; the walks below only where some record is left or kept.)
            if not kept.issuperset(map(id, previous.values())):
                for key, record in previous.items():
                    if id(record) not in kept:
                        spare.pop(key, None)
                        spare[key] = record
            if spare:
                if not kept.isdisjoint(map(id, spare.values())):
                    for key in [key for key, record in spare.items() if id(record) in kept]:
                        del spare[key]
                while len(spare) > self.limit:
                    del spare[next(iter(spare))]
        self.previous = current
