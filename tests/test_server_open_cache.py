"""Opening a workspace (issue 37): unchanged files open with the diagnostics of their last check, from the
result cache (coop_lsp/server/open_cache.py), and documents only opened wait for those being worked on."""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import random

import pytest
from lsprotocol import types as lsp

from benchmarks.matrix_kernels import matrix_kernel_file
from coop_lsp.lint import lint_source
from coop_lsp.server.server import create_server
from coop_lsp.server.work_queue import FOREGROUND
from tests.support.server_documents import Recorder, kernel, uri, until
from tests.support.server_documents import open_document as open_uri

pytestmark = pytest.mark.asyncio(loop_scope="function")

def open_document(ls, index: int, text: str | None = None, version: int = 1) -> None:
    open_uri(ls, uri(index), kernel(index) if text is None else text, version)


async def checked_and_kept(cache, count: int) -> None:
    """A first server checks `count` documents and writes their entries."""
    ls = create_server(cache_root=cache)
    recorder = Recorder(ls)
    for i in range(count):
        open_document(ls, i)
    await until(lambda: {p.uri for p in recorder.published} == {uri(i) for i in range(count)})
    await until(lambda: ls.open_cache._flush is None and not ls.open_cache._fresh)
    ls.analysis_executor.shutdown(wait=False)


def expected_codes(i: int) -> list:
    return [d.code for d in lint_source(kernel(i)).diagnostics]


async def test_an_unchanged_file_opens_with_its_cached_diagnostics_without_a_check(tmp_path):
    await checked_and_kept(tmp_path, 3)
    ls = create_server(cache_root=tmp_path)
    recorder = Recorder(ls)
    for i in range(3):
        open_document(ls, i)
        # Published during didOpen itself, before the server awaited anything.
        assert recorder.codes(uri(i)) == expected_codes(i) and expected_codes(i)
        state = ls.documents[uri(i)]
        assert state.resting and {s.name for s in state.resting_symbols} >= {"out", f"helper_{i}", "main"}
    await asyncio.sleep(0.2)
    assert recorder.analysed == []
    # Someone works on it: it is checked, and an edit's diagnostics are a fresh check's.
    ls.protocol.fm.features[lsp.TEXT_DOCUMENT_DID_CHANGE](lsp.DidChangeTextDocumentParams(
        text_document=lsp.VersionedTextDocumentIdentifier(uri=uri(0), version=2),
        content_changes=[lsp.TextDocumentContentChangeWholeDocument(text=kernel(0).replace("1.5", "1u"))]))
    await until(lambda: any(p.uri == uri(0) and p.version == 2 for p in recorder.published))
    assert recorder.codes(uri(0)) == [] and recorder.analysed == [uri(0)]
    ls.analysis_executor.shutdown(wait=False)


async def test_other_settings_or_other_text_are_checked_afresh(tmp_path):
    await checked_and_kept(tmp_path, 1)
    ls = create_server(cache_root=tmp_path)
    recorder = Recorder(ls)
    ls.settings = dataclasses.replace(ls.settings, dialect="wgpu")
    open_document(ls, 0)
    open_document(ls, 1, kernel(0) + "// one more line\n")
    await until(lambda: len({p.uri for p in recorder.published}) == 2)
    assert sorted(recorder.analysed) == [uri(0), uri(1)]
    assert recorder.codes(uri(0)) == expected_codes(0)
    ls.analysis_executor.shutdown(wait=False)


def _entry_files(root):
    return [p for p in root.rglob("*") if p.is_file() and not p.name.startswith(".") and p.name != "CACHEDIR.TAG"]


@pytest.mark.parametrize("damage", ["corrupt", "other version", "not json"])
async def test_a_damaged_cache_or_one_of_another_version_is_ignored_with_a_note(tmp_path, caplog, damage):
    await checked_and_kept(tmp_path, 2)
    for path in _entry_files(tmp_path):
        raw = path.read_bytes()
        header, version, payload = raw.split(b"\n", 2)
        if damage == "corrupt":
            # Still JSON, but the finding at the first place says nothing the server could trust.
            raw = raw.replace(b'"diagnostics":[[', b'"diagnostics":[["X999",', 1)
        elif damage == "other version":
            raw = b"\n".join((header, b"0.0.0-elsewhere", payload))
        else:
            raw = raw[: len(raw) // 2]
        path.unlink()  # the entries share one file under several names: each name gets its own copy
        path.write_bytes(raw)
    ls = create_server(cache_root=tmp_path)
    recorder = Recorder(ls)
    with caplog.at_level(logging.WARNING, logger="coop_lsp.server.open_cache"):
        open_document(ls, 0)
        open_document(ls, 1)
        await until(lambda: {p.uri for p in recorder.published} == {uri(0), uri(1)})
    assert recorder.codes(uri(0)) == expected_codes(0) and recorder.codes(uri(1)) == expected_codes(1)
    assert sorted(recorder.analysed) == [uri(0), uri(1)]
    notes = [r.getMessage() for r in caplog.records if "result cache" in r.getMessage()]
    assert len(notes) == 1, notes
    assert ("coop-lint '0.0.0-elsewhere'" in notes[0]) == (damage == "other version")
    ls.analysis_executor.shutdown(wait=False)


async def test_an_edit_is_checked_before_the_documents_only_opened():
    ls = create_server()
    recorder = Recorder(ls)
    # How many checks had started when the edited document's check joined the queue: the opened documents'
    # checks are queued one by one as the event loop gets to them, and on a busy machine the analysis thread
    # may finish one and start the next before the edited document's is queued.
    started_before_the_edit: list[int] = []
    submit_at = ls.analysis_executor.submit_at

    def noted(priority, fn, *args, **kwargs):
        if priority == FOREGROUND and args[5] == uri(7):
            started_before_the_edit.append(len(recorder.analysed))
        return submit_at(priority, fn, *args, **kwargs)
    ls.analysis_executor.submit_at = noted
    rng = random.Random(2)
    for i in range(8):
        open_document(ls, i, matrix_kernel_file(rng, 6))
    ls.protocol.fm.features[lsp.TEXT_DOCUMENT_DID_CHANGE](lsp.DidChangeTextDocumentParams(
        text_document=lsp.VersionedTextDocumentIdentifier(uri=uri(7), version=2),
        content_changes=[lsp.TextDocumentContentChangePartial(
            range=lsp.Range(start=lsp.Position(line=0, character=0), end=lsp.Position(line=0, character=0)),
            text="// edited\n")]))
    await until(lambda: any(p.uri == uri(7) and p.version == 2 for p in recorder.published))
    # Once queued, it went before every document only opened, but for the one check that may have been
    # taken from the queue at that moment.
    at = started_before_the_edit[0]
    assert at < 6, "the machine was too busy to show the order: the opened documents were checked already"
    assert uri(7) in recorder.analysed[at:at + 2], recorder.analysed
    await until(lambda: {p.uri for p in recorder.published} == {uri(i) for i in range(8)})
    assert sorted(set(recorder.analysed)) == sorted(uri(i) for i in range(8))
    ls.analysis_executor.shutdown(wait=False)


async def test_an_edit_to_a_document_whose_first_check_is_still_queued_does_not_wait_for_the_queue():
    ls = create_server()
    recorder = Recorder(ls)
    rng = random.Random(3)
    for i in range(8):
        open_document(ls, i, matrix_kernel_file(rng, 6))
    await until(lambda: ls.analysis_executor.pending() >= 7)  # every first check is queued
    ls.protocol.fm.features[lsp.TEXT_DOCUMENT_DID_CHANGE](lsp.DidChangeTextDocumentParams(
        text_document=lsp.VersionedTextDocumentIdentifier(uri=uri(5), version=2),
        content_changes=[lsp.TextDocumentContentChangePartial(
            range=lsp.Range(start=lsp.Position(line=0, character=0), end=lsp.Position(line=0, character=0)),
            text="// edited\n")]))
    await until(lambda: any(p.uri == uri(5) and p.version == 2 for p in recorder.published))
    # The check of version 1 was dropped. Before version 2's: the check running when the edit came, and at
    # most one the thread took while the cancelled check's waiter was handing over (an event loop turn).
    assert len([u for u in recorder.analysed if u != uri(5)]) <= 2 and recorder.analysed.count(uri(5)) == 1
    await until(lambda: {p.uri for p in recorder.published} == {uri(i) for i in range(8)})
    ls.analysis_executor.shutdown(wait=False)


async def test_asking_about_a_document_only_opened_moves_its_check_up():
    ls = create_server()
    recorder = Recorder(ls)
    rng = random.Random(4)
    for i in range(6):
        open_document(ls, i, matrix_kernel_file(rng, 6))
    hover = ls.protocol.fm.features[lsp.TEXT_DOCUMENT_HOVER](lsp.HoverParams(
        text_document=lsp.TextDocumentIdentifier(uri=uri(4)), position=lsp.Position(line=20, character=8)))
    await hover
    assert recorder.analysed.index(uri(4)) <= 1
    await until(lambda: {p.uri for p in recorder.published} == {uri(i) for i in range(6)})
    ls.analysis_executor.shutdown(wait=False)
