"""The analysis of the version before an edit is freed after the edit's diagnostics are written, not on the
way to them (freeing it cost about as much as the rest of that way): alive at the write, gone once the
event loop has turned, and never what a request is answered from."""

from __future__ import annotations

import asyncio
import gc
import weakref

import pytest
from lsprotocol import types as lsp

from benchmarks import typing_cost
from tests.test_server_wire import Wire, _typed

asynchronous = pytest.mark.asyncio(loop_scope="function")
URI = "file:///bench/typing.wgsl"


@asynchronous
async def test_the_version_befores_analysis_is_freed_after_the_write():
    gc.disable()  # only reference counts free it: no collection that would blur when
    wire = Wire()
    ls = wire.ls
    seen: list[weakref.ref] = []
    alive_at_write: list[bool] = []
    protocol, notify = ls.protocol, ls.protocol.notify

    def watching(method, params=None):
        if method == lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS and URI in ls.documents:
            analysis = ls.documents[URI].analysis
            if analysis is not None and (not seen or seen[-1]() is not analysis):
                alive_at_write.append(bool(seen) and seen[-1]() is not None)
                seen.append(weakref.ref(analysis))
        return notify(method, params)
    protocol.notify = watching
    try:
        text, _, code_line = typing_cost._workload()
        wire.open(URI, text)
        await wire.settled(URI)
        for index, char in enumerate(typing_cost.STATEMENT[:12]):
            wire.change(URI, _typed(code_line, index, char))
            await wire.settled(URI)
            await asyncio.sleep(0)
            assert all(ref() is None for ref in seen[:-1])  # freed once the loop has turned
        # A request after the edits: answered from the newest version's analysis.
        assert await ls.analysis(ls.documents[URI]) is seen[-1]()
    finally:
        gc.enable()
        wire.stop()
    assert len(alive_at_write) >= 12
    assert alive_at_write[1:] == [True] * (len(alive_at_write) - 1)
