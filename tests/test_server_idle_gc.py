"""The server's full garbage collections wait for a pause in the analyses (coop_lsp/server/idle_gc.py)."""

from __future__ import annotations

import asyncio
import gc

from coop_lsp.server.idle_gc import IdleCollector, defer_full_collections


def test_collects_once_after_a_pause_and_during_a_flood() -> None:
    async def scenario() -> tuple[int, int, int]:
        collector = IdleCollector(idle=0.05, most=5)
        for _ in range(3):
            collector.analysed()
        during = collector.collections
        await asyncio.sleep(0.15)
        after_pause = collector.collections
        for _ in range(5):  # a flood: the fifth analysis in a row collects at once
            collector.analysed()
        return during, after_pause, collector.collections

    assert asyncio.run(scenario()) == (0, 1, 2)


def test_full_collections_are_never_started_by_python_itself() -> None:
    saved = gc.get_threshold()
    try:
        defer_full_collections()
        young, middle, full = gc.get_threshold()
        assert (young, middle) == saved[:2] and full >= 1_000_000
    finally:
        gc.set_threshold(*saved)
