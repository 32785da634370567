"""The server keeps track of whether a document's bytes hold a template mark from edit to edit, looking at
the edited bytes alone (source.sniff.marks_near), so that checking a keystroke does not scan the whole
text for marks; what it keeps must always be what a scan of the whole text says."""

from __future__ import annotations

import random

import pytest

from coop_lsp.server import server as server_module
from coop_lsp.server.server import create_server
from coop_lsp.source.sniff import marks_near, may_be_template
from tests.support.server_documents import Recorder, edit_document, open_document, until

asynchronous = pytest.mark.asyncio(loop_scope="function")

URI = "file:///virtual/marks.wgsl"
TEXT = """\
@group(0) @binding(0) var<storage, read_write> out: array<f32>;
fn helper(x: f32) -> f32 { return x * 2.0; }
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
  let i = id.x; // ports and imp ort
  out[i] = helper(f32(i));
}
"""
# Halves of marks and whole ones: joined by an insertion or by deleting what lies between them.
PIECES = ["@", "i", "f", "e", "l", "{", "$", "im", "port", " ", "x", "", "ort", "imp"]


def test_marks_near_finds_every_mark_an_edit_makes():
    rng = random.Random(3)
    alphabet = "@ief{}$#lmportx ;"
    checked = 0
    while checked < 3000:
        old = "".join(rng.choice(alphabet) for _ in range(rng.randrange(0, 14)))
        if may_be_template(old.encode()):
            continue
        start = rng.randrange(len(old) + 1)
        end = rng.randrange(start, len(old) + 1)
        inserted = "".join(rng.choice(alphabet) for _ in range(rng.randrange(0, 4)))
        new = (old[:start] + inserted + old[end:]).encode()
        assert marks_near(new, start, len(inserted)) == may_be_template(new), (old, start, end, inserted)
        checked += 1


@asynchronous
async def test_what_the_server_keeps_is_a_whole_scan_and_checks_do_not_scan(monkeypatch):
    scans = []
    real = server_module.may_need_templates
    monkeypatch.setattr(server_module, "may_need_templates", lambda *args: (scans.append(1), real(*args))[1])
    ls = create_server()
    recorder = Recorder(ls)
    open_document(ls, URI, TEXT)
    state = ls.documents[URI]
    await until(lambda: any(p.version == 1 for p in recorder.of(URI)) and not ls.scheduler.busy(URI))
    rng = random.Random(11)
    unmarked_checks = 0
    for version in range(2, 42):
        data = state.document.source.data
        start = rng.randrange(len(data) + 1)
        end = min(len(data), start + rng.choice([0, 0, 1, 2]))
        source = state.document.source
        start, end = (source.offset(source.position(o, "char"), "char") for o in (start, end))
        before = len(scans)
        edit_document(ls, URI, version, state.document, start, max(start, end), rng.choice(PIECES))
        unmarked = not may_be_template(state.document.source.data)
        assert (state.unmarked is state.document.parsed) == unmarked, version
        await until(lambda: any(p.version == version for p in recorder.of(URI)) and not ls.scheduler.busy(URI)
                    and state.confirming is None)
        if unmarked:
            unmarked_checks += 1
            assert len(scans) == before, "a check of a text known to hold no mark scanned it"
    assert 5 <= unmarked_checks < 40  # both kinds of version
    ls.analysis_executor.shutdown(wait=False)


@asynchronous
async def test_a_resting_document_keeps_no_tree_for_its_marks():
    ls = create_server()
    recorder = Recorder(ls)
    open_document(ls, URI, TEXT)
    state = ls.documents[URI]
    await until(lambda: any(p.version == 1 for p in recorder.of(URI)) and not ls.scheduler.busy(URI))
    assert state.unmarked is state.document.parsed
    assert ls.rest(state) and state.unmarked is None
    edit_document(ls, URI, 2, state.document, 0, 0, " ")
    assert state.unmarked is state.document.parsed
    await until(lambda: any(p.version == 2 for p in recorder.of(URI)) and not ls.scheduler.busy(URI))
    ls.analysis_executor.shutdown(wait=False)
