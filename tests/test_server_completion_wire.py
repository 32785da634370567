"""Completion responses written from each item's JSON (server/features/completion.py, wire.ResultJson),
against pygls's own serialisation of the same list as lsprotocol objects: at every position of matrix kernels,
public kernels and broken versions of them, byte for byte through the server; and the work a repeated request
does, counted, so that the per-item conversion does not creep back."""

from __future__ import annotations

import asyncio
import json
import random
from pathlib import Path

import pytest
from lsprotocol import types as lsp
from lsprotocol.converters import get_converter
from pygls.protocol import JsonRPCProtocol, JsonRPCResponseMessage

from benchmarks.common import matrix_heavy_kernel
from coop_lsp.ide.analysis import Analysis
from coop_lsp.ide.completion import completion
from coop_lsp.server.convert import Converter
from coop_lsp.server.features import completion as completion_feature
from coop_lsp.server import completion_json
from coop_lsp.server.completion_json import completion_list, completion_list_json
from coop_lsp.server.work_queue import BACKGROUND
from coop_lsp.server.wire import ResultJson, response_text
from tests.support.trees import public_kernel_sample, public_kernels_with_junk, with_junk
from tests.test_server_wire import Wire, Written

asynchronous = pytest.mark.asyncio(loop_scope="function")

ROOT = Path(__file__).resolve().parent.parent
GEMM = (ROOT / "examples" / "chromium" / "gemm_blocked.wgsl").read_text()
JUNK = [".", "@", "<", "(", ",", " ", "let ", "x.", "é", "\"", "\\", "}", "diagnostic(off, ", "enable ",
        "subgroup_matrix_left<", "var<", "acc[0].", "fn f(a: i32) {"]
UNICODE = "const é = 1.0;\nstruct S { ü: vec3<f32> }\n@compute @workgroup_size(1)\nfn main() {\n  var s: S;\n  s.\n}\n"


def _documents() -> list[str]:
    rng = random.Random(21)
    matrix = matrix_heavy_kernel(random.Random(5), 3)
    texts = [matrix, GEMM, UNICODE, *with_junk(rng, matrix, 3, JUNK), *with_junk(rng, GEMM, 3, JUNK)]
    texts += [text for _, text in public_kernels_with_junk(21, 22, JUNK, per_file=1, largest=8_000)][:12]
    return texts


def _pygls(msg_id, items) -> str:
    """pygls's text for its answer to a client's completion request."""
    return json.dumps(get_converter().unstructure(JsonRPCResponseMessage(id=msg_id, result=completion_list(items),
                                                                         jsonrpc="2.0")))


def test_completion_json_is_pygls_serialisation_at_every_position():
    """Every distinct item offered anywhere, alone; and whole responses at a sample of the positions."""
    converter = get_converter()
    distinct: dict = {}
    responses = 0
    for number, text in enumerate(_documents()):
        analysis = Analysis.of(text)
        size = len(analysis.data)
        sample = set(random.Random(number).sample(range(size + 1), min(size + 1, 12)))
        for offset in range(0, size + 1, 1 if size < 3_000 else 5):
            for dialect in (None, "chromium"):
                items = completion(analysis, offset, dialect)
                distinct.update((item, None) for item in items)
                if offset in sample:
                    msg_id = offset if offset % 2 else f"r{number}-{offset}"
                    fast = response_text(msg_id, ResultJson(completion_list_json(items), lambda: None))
                    assert fast == _pygls(msg_id, items), (number, offset, dialect)
                    responses += 1
    for item in distinct:
        expected = json.dumps(converter.unstructure(completion_json._completion_item(item)))
        assert completion_list_json([item]) == f'{{"isIncomplete": false, "items": [{expected}]}}', item
    kinds = {item.kind for item in distinct}
    # (Most sampled responses come from the public kernels; without the corpora, on a fresh machine, the
    # generated and example documents alone give about 60 responses and 360 distinct items.)
    public = bool(public_kernel_sample(21, count=1))
    assert responses > (300 if public else 40) and len(distinct) > (400 if public else 300)
    assert {"field", "function", "value", "property", "type"} <= kinds
    assert any(not item.detail for item in distinct) and any(item.snippet for item in distinct)
    assert any(not item.isascii() for item in distinct for item in [item.label + item.documentation])


def _written(protocol, send) -> bytes:
    mine, protocol.writer = protocol.writer, Written()
    try:
        send()
        return b"".join(protocol.writer.chunks)
    finally:
        protocol.writer = mine


def test_a_result_json_is_sent_as_pygls_sends_the_result():
    wire = Wire()
    try:
        protocol = wire.ls.protocol
        items = completion(Analysis.of(GEMM), GEMM.index("  let"))
        result = ResultJson(completion_list_json(items), lambda: completion_list(items))
        got = _written(protocol, lambda: protocol._send_response(4, result))
        expected = _written(protocol, lambda: JsonRPCProtocol._send_response(protocol, 4, completion_list(items)))
        assert got == expected and b'"items": [{' in got
        # An id pygls knows a response type for (a request of its own): its serialisation, with that type.
        protocol._result_types["s1"] = lsp.CompletionResponse
        got = _written(protocol, lambda: protocol._send_response("s1", result))
        protocol._result_types["s1"] = lsp.CompletionResponse
        expected = _written(protocol, lambda: JsonRPCProtocol._send_response(protocol, "s1", completion_list(items)))
        assert got == expected and b'"items": [{' in got
        assert got.index(b'"result"') < got.index(b'"jsonrpc"')  # CompletionResponse's order, not the text's
        assert not protocol._result_types
    finally:
        wire.stop()


async def _complete(wire: Wire, uri: str, msg_id: int, line: int, character: int) -> bytes:
    before = len(wire.written.chunks)
    body = json.dumps({"jsonrpc": "2.0", "id": msg_id, "method": "textDocument/completion",
                       "params": {"textDocument": {"uri": uri}, "position": {"line": line, "character": character}}})
    protocol = wire.ls.protocol
    protocol.handle_message(json.loads(body, object_hook=protocol.structure_message))
    marker = f'"id": {msg_id},'.encode()
    for _ in range(6000):
        answer = [chunk for chunk in wire.written.chunks[before:] if marker in chunk]
        if answer:
            return answer[0]
        await asyncio.sleep(0.01)
    raise AssertionError("no answer")


def _positions(text: str, count: int) -> list[tuple[int, int]]:
    rng = random.Random(len(text))
    lines = text.split("\n")
    out = [(i, len(line.encode("utf-16-le")) // 2) for i, line in enumerate(lines) if line.strip()][:3]
    for _ in range(count):
        line = rng.randrange(len(lines))
        out.append((line, rng.randrange(len(lines[line].encode("utf-16-le")) // 2 + 1)))
    return out


@asynchronous
@pytest.mark.parametrize("text", [GEMM, UNICODE], ids=["gemm", "unicode"])
async def test_completion_responses_through_the_server_are_pygls_serialisation(text: str, monkeypatch):
    wire = Wire()
    uri = "file:///virtual/complete.wgsl"
    try:
        wire.open(uri, text)
        await wire.settled(uri)
        protocol = wire.ls.protocol
        answers = escaped = 0
        monkeypatch.setattr(completion_feature, "completion_list", None)  # the slow path, taken by no answer
        for msg_id, (line, character) in enumerate(_positions(text, 25), start=1):
            got = await _complete(wire, uri, msg_id, line, character)
            analysis = wire.ls.documents[uri].analysis
            offset = Converter(analysis.source, wire.ls.unit).offset(lsp.Position(line=line, character=character))
            items = completion(analysis, offset, wire.ls.settings.dialect)
            expected = _written(protocol, lambda: JsonRPCProtocol._send_response(protocol, msg_id,
                                                                                  completion_list(items)))
            assert got == expected, (line, character)
            answers += b'"label"' in got
            escaped += b"\\u00e9" in got
        assert answers > 10 and (escaped > 0 or "\u00e9" not in text)
    finally:
        wire.stop()


@asynchronous
async def test_a_repeated_completion_converts_and_encodes_no_item(monkeypatch):
    """The second request at a version: no item becomes an lsprotocol object, none is encoded again (pygls
    converted, unstructured and encoded all ~250 items of every request)."""
    text = matrix_heavy_kernel(random.Random(5), 3)
    wire = Wire()
    uri = "file:///virtual/matrix.wgsl"
    converted, encoded = [], []
    real_item = completion_json._completion_item
    real_fields = getattr(completion_json, "_item_fields", None)
    monkeypatch.setattr(completion_json, "_completion_item", lambda item: converted.append(1) or real_item(item))
    monkeypatch.setattr(completion_json, "_item_fields", lambda item: encoded.append(1) or real_fields(item),
                        raising=False)
    try:
        wire.open(uri, text)
        await wire.settled(uri)
        line = next(i for i, l in enumerate(text.split("\n")) if l.startswith("  let "))
        first = await _complete(wire, uri, 1, line, 2)
        assert first.count(b'"label"') > 100
        converted.clear(), encoded.clear()
        second = await _complete(wire, uri, 2, line, 2)
        assert second.replace(b'"id": 2,', b'"id": 1,') == first
        assert converted == [] and encoded == []
    finally:
        wire.stop()


@asynchronous
async def test_the_first_completion_of_a_process_finds_the_language_items_made(monkeypatch):
    """The language's items (every builtin with its documentation) and their JSON are made by the document's
    analysis, on the analysis thread: the first request encodes only the document's own symbols' items
    (pygls converted and encoded every item of it; before warming, this request built the language's)."""
    from coop_lsp.ide import completion as ide_completion

    ide_completion.language_items.cache_clear()
    completion_json._ITEM_JSON.clear()
    completion_json._WARM.clear()
    text = matrix_heavy_kernel(random.Random(6), 2)
    wire = Wire()
    uri = "file:///virtual/first.wgsl"
    converted, encoded = [], []
    real_item, real_fields = completion_json._completion_item, completion_json._item_fields
    monkeypatch.setattr(completion_json, "_completion_item", lambda item: converted.append(1) or real_item(item))
    monkeypatch.setattr(completion_json, "_item_fields", lambda item: encoded.append(item) or real_fields(item))
    try:
        wire.open(uri, text)
        await wire.settled(uri)
        # Made behind the check, on the analysis thread: the test waits for that thread's queue to empty.
        await asyncio.get_running_loop().run_in_executor(None, wire.ls.analysis_executor.submit_at(
            BACKGROUND, lambda: None).result)
        built = ide_completion.language_items.cache_info().misses
        assert built == 1 and len(encoded) > 200
        encoded.clear()
        line = next(i for i, l in enumerate(text.split("\n")) if l.startswith("  let "))
        answer = await _complete(wire, uri, 1, line, 2)
        assert answer.count(b'"label"') > 200
        assert ide_completion.language_items.cache_info().misses == built and converted == []
        assert encoded and all(item.sort == "0" for item in encoded)  # the document's symbols only
    finally:
        wire.stop()
