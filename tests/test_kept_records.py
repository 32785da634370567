"""The records a reuse table keeps between versions (coop_lsp/semantic/kept.py): the latest version's, the
last version's, and at most `limit` spare ones that neither used, the oldest dropped first."""

from __future__ import annotations

from coop_lsp.semantic.kept import KeptRecords


class Record:
    """A stand-in for a record: only its identity matters to the table."""


def version(table: KeptRecords, used: dict) -> None:
    table.begin()
    for key, record in used.items():
        table.current[key] = record
    table.end()


def test_a_record_a_version_did_not_use_is_found_later() -> None:
    table = KeptRecords(limit=2)
    a, b = Record(), Record()
    version(table, {"f": a, "g": b})
    version(table, {"g": b})  # f's text changed (or had a syntax error): its record is not used
    version(table, {"g": b})
    assert table.get("f") is a and table.get("g") is b


def test_spare_records_are_bounded_and_the_oldest_go_first() -> None:
    table = KeptRecords(limit=2)
    records = {name: Record() for name in "abcd"}
    for name, record in records.items():
        version(table, {name: record})  # each version uses one record, the one before becomes spare
    version(table, {})
    assert len(table.spare) == 2
    assert table.get("a") is None and table.get("b") is None
    assert table.get("c") is records["c"] and table.get("d") is records["d"]


def test_another_record_for_the_same_key_stays_spare() -> None:
    """The same text checked against other declarations makes a second record; undoing that edit finds
    the first one again through `other`."""
    table = KeptRecords()
    first, second = Record(), Record()
    version(table, {"f": first})
    version(table, {"f": second})
    table.begin()
    assert table.get("f") is second
    assert table.other("f", second) is first
    assert table.other("f", first) is None
    table.current["f"] = first
    table.end()
    assert table.spare == {"f": second}


def test_no_spare_records_with_a_limit_of_zero() -> None:
    table = KeptRecords(limit=0)
    version(table, {"f": Record()})
    version(table, {})
    version(table, {})
    assert table.get("f") is None and not table.spare


def _reference_end(previous: dict, current: dict, spare: dict, limit: int) -> None:
    """KeptRecords.end as it was written before its set operations: a step per record, every version."""
    if limit:
        kept = set(map(id, current.values()))
        for key, record in previous.items():
            if id(record) not in kept:
                spare.pop(key, None)
                spare[key] = record
        if spare:
            for key in [key for key, record in spare.items() if id(record) in kept]:
                del spare[key]
            while len(spare) > limit:
                del spare[next(iter(spare))]


def test_random_versions_keep_what_a_walk_over_every_record_keeps() -> None:
    import random
    rng = random.Random(21)
    for limit in (0, 1, 2, 8):
        table = KeptRecords(limit=limit)
        previous, spare = {}, {}
        pool = [Record() for _ in range(12)]
        for _ in range(300):
            used = {}
            for _ in range(rng.randrange(0, 7)):
                key = rng.choice("abcdefgh")
                # (mostly the record the key had, as an unchanged function keeps it; now and then another)
                used[key] = table.get(key) if rng.random() < 0.7 and table.get(key) is not None else rng.choice(pool)
            version(table, used)
            _reference_end(previous, used, spare, limit)
            previous = dict(used)
            assert table.previous == previous and table.spare == spare
            assert list(table.spare) == list(spare)  # (the same order: the oldest go first)
