"""benchmarks/server_latency.py's alternating mode: two trees' servers in one call, round by round, each
tree's samples pooled over the rounds (single runs of one tree scatter more than trees differ)."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

from lsprotocol import types as lsp

from benchmarks import server_latency, typing_cost
from benchmarks.common import matrix_heavy_kernel


def test_rounds_alternate_the_checkouts():
    order = []
    typing_cost.alternate({"a": Path("/a"), "b": Path("/b")}, 3, lambda name, checkout: order.append(name))
    assert order == ["a", "b"] * 3


def test_each_trees_samples_are_pooled_over_its_rounds(monkeypatch):
    servers = []

    class Quiet:
        async def start(self):
            servers.append(server_latency.SERVER["cwd"])

        async def stop(self):
            pass

    async def measure(editor, name, text, characters, kept=None):
        # A tree's samples tell which tree's server was started for them.
        tree = servers[-1]
        return server_latency.percentiles([len(servers) / 1000, 0.001 if tree == "/b" else 0.002],
                                          "edit_to_diagnostics_typing_a_statement", kept)

    monkeypatch.setattr(server_latency, "Editor", Quiet)
    monkeypatch.setattr(server_latency, "measure_file", measure)
    monkeypatch.setattr(server_latency, "SERVER", dict(server_latency.SERVER))
    figures = server_latency.alternating({"a": Path("/a"), "b": Path("/b")}, 2, quick=True, matrix_heavy=True)
    assert servers == ["/a", "/b", "/a", "/b"]
    assert figures["rounds"] == 2 and figures["alternating"] == {"a": "/a", "b": "/b"}
    a = figures["a"]["matrix_1000"]["edit_to_diagnostics_typing_a_statement"]
    b = figures["b"]["matrix_1000"]["edit_to_diagnostics_typing_a_statement"]
    assert a["samples"] == b["samples"] == 4
    assert a == server_latency.percentiles([0.001, 0.002, 0.003, 0.002])
    assert b == server_latency.percentiles([0.002, 0.001, 0.004, 0.001])


def test_kept_samples_leave_the_percentiles_as_they_were():
    kept: dict = {}
    samples = [0.004, 0.001, 0.003]
    assert server_latency.percentiles(samples, "x", kept) == server_latency.percentiles(samples)
    assert kept == {"x": samples}


def test_a_request_is_timed_to_its_parsed_response_and_apart_to_the_clients_conversion():
    # The time a completion list took pygls's client to convert into objects was inside the completion
    # figure until session 21; an editor parses the JSON and is done. Both are kept, the first one first.
    async def run():
        editor = server_latency.Editor()
        await editor.start()
        try:
            uri = "file:///bench/timed.wgsl"
            text = matrix_heavy_kernel(random.Random(3), functions=2)
            await editor.open(uri, text)
            where = lsp.Position(line=text[:text.index("subgroupMatrix")].count("\n"), character=4)
            converted: list[float] = []
            parsed = await editor.timed([
                lambda: editor.client.text_document_completion_async(lsp.CompletionParams(
                    text_document=lsp.TextDocumentIdentifier(uri=uri), position=where))] * 3, converted)
        finally:
            await editor.stop()
        return parsed, converted

    parsed, converted = asyncio.run(run())
    assert len(parsed) == len(converted) == 3
    assert all(0 < a <= b for a, b in zip(parsed, converted))
