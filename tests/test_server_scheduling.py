"""When the server checks and publishes diagnostics (coop_lsp/server/scheduling.py), with checks whose
speed the tests control."""

from __future__ import annotations

import asyncio
import random
from dataclasses import dataclass

import pytest

from coop_lsp.server.scheduling import DiagnosticsScheduler

pytestmark = pytest.mark.asyncio(loop_scope="function")
URI = "file:///k.wgsl"


@dataclass(eq=False)
class Text:
    version: int


@dataclass(eq=False)
class Result:
    key: Text
    version: int


class Editor:
    """One document whose versions are `Text` objects; checks wait for `release(version)` or a delay."""

    def __init__(self, durations: dict[int, float] | None = None) -> None:
        self.text: Text | None = Text(1)
        self.checked: list[int] = []
        self.published: list[int] = []
        self.current_when_published: list[bool] = []
        self.gates: dict[int, asyncio.Event] = {}
        self.durations = durations

    def current(self, uri):
        return None if self.text is None else (self.text, self.text.version)

    async def check(self, uri):
        text = self.text
        self.checked.append(text.version)
        if self.durations is not None:
            await asyncio.sleep(self.durations.get(text.version, 0.0))
        else:
            await self.gates.setdefault(text.version, asyncio.Event()).wait()
        return Result(text, text.version)

    def publish(self, uri, result):
        self.published.append(result.version)
        self.current_when_published.append(result.key is self.text)

    def release(self, version: int) -> None:
        self.gates.setdefault(version, asyncio.Event()).set()

    def edit(self, scheduler: DiagnosticsScheduler) -> None:
        self.text = Text(self.text.version + 1)
        scheduler.changed(URI)


async def until(condition, timeout: float = 10.0) -> None:
    deadline = asyncio.get_running_loop().time() + timeout
    while not condition():
        assert asyncio.get_running_loop().time() < deadline, "timed out"
        await asyncio.sleep(0.005)


async def settle() -> None:
    for _ in range(5):
        await asyncio.sleep(0)


async def test_edits_during_a_check_coalesce_and_the_stale_result_is_never_published():
    editor = Editor()
    scheduler = DiagnosticsScheduler(editor.current, editor.check, editor.publish)
    scheduler.changed(URI)
    await settle()
    assert editor.checked == [1]  # at once: no fixed wait
    editor.edit(scheduler)  # version 2 and 3 arrive while 1 is being checked
    editor.edit(scheduler)
    await settle()
    editor.release(1)
    await settle()
    assert editor.published == []  # version 1's result came after version 3 existed
    assert editor.checked == [1, 3]  # version 2 was never checked
    editor.release(3)
    await settle()
    assert editor.published == [3]
    old = Result(Text(1), 1)  # e.g. a kernel run republishing an analysis of an older version
    assert not scheduler.offer(URI, old)
    assert scheduler.offer(URI, Result(editor.text, 3))
    assert editor.published == [3, 3]


async def test_an_idle_document_is_checked_at_once_after_every_edit():
    editor = Editor(durations={})
    scheduler = DiagnosticsScheduler(editor.current, editor.check, editor.publish)
    for _ in range(5):
        editor.edit(scheduler)
        await settle()
    assert editor.published == [2, 3, 4, 5, 6]


async def test_random_typing_never_publishes_an_older_version_after_a_newer_one():
    rng = random.Random(7)
    for _ in range(20):
        editor = Editor(durations={v: rng.choice((0.0, 0.001, 0.003)) for v in range(1, 80)})
        scheduler = DiagnosticsScheduler(editor.current, editor.check, editor.publish)
        scheduler.changed(URI)
        for _ in range(rng.randrange(5, 60)):
            await asyncio.sleep(rng.choice((0.0, 0.0005, 0.002)))
            editor.edit(scheduler)
        await until(lambda: editor.published and editor.published[-1] == editor.text.version)
        assert editor.published == sorted(set(editor.published))
        assert all(editor.current_when_published)
        assert editor.published[-1] == editor.text.version


async def test_a_delay_waits_until_the_document_is_quiet():
    editor = Editor(durations={})
    scheduler = DiagnosticsScheduler(editor.current, editor.check, editor.publish, delay=0.5)
    for _ in range(3):
        editor.edit(scheduler)
        await asyncio.sleep(0.01)
    assert editor.checked == []
    editor.edit(scheduler)
    editor.edit(scheduler)
    await until(lambda: editor.published)
    assert editor.checked == [6] and editor.published == [6]


async def test_a_closed_document_is_not_published():
    editor = Editor()
    scheduler = DiagnosticsScheduler(editor.current, editor.check, editor.publish)
    scheduler.changed(URI)
    await settle()
    editor.text = None
    editor.release(1)
    await settle()
    assert editor.published == []


async def test_an_edit_without_a_delay_does_not_wait_out_the_delay_of_the_edit_before():
    # A comment's edit asks for a delay (its diagnostics were published at once); code typed right after it
    # asks for none, and its check must start then, not when the comment's delay would have ended.
    editor = Editor(durations={})
    scheduler = DiagnosticsScheduler(editor.current, editor.check, editor.publish)
    scheduler.changed(URI, delay=60.0)
    await settle()
    assert editor.checked == []
    editor.text = Text(2)
    scheduler.changed(URI)
    await until(lambda: editor.published == [2], timeout=10.0)
    assert editor.checked == [2]
    scheduler.stop()
    await settle()


async def test_a_newer_delayed_edit_still_waits_its_own_delay():
    editor = Editor(durations={})
    scheduler = DiagnosticsScheduler(editor.current, editor.check, editor.publish)
    scheduler.changed(URI, delay=0.05)
    await settle()
    editor.text = Text(2)
    scheduler.changed(URI, delay=60.0)  # woken, the worker measures the wait from this edit again
    await asyncio.sleep(0.2)
    assert editor.checked == [] and editor.published == []
    scheduler.stop()
    await settle()
