"""Versions with syntax errors: published at once from the incrementally re-parsed tree, then confirmed
by a fresh parse off the critical path; what the client ends up with for every version is exactly a fresh
parse and check's diagnostics (tree-sitter's error recovery after an incremental edit may differ from a
fresh parse's, tree-sitter issues #1444 and #1645)."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import pytest

from coop_lsp.core.diagnostic import Diagnostic
from coop_lsp.core.text import SourceText, Span
from coop_lsp.ide import analysis as ide_analysis
from coop_lsp.ide.analysis import Analysis
from coop_lsp.lint import engine
from coop_lsp.server import server as server_module
from coop_lsp.server.server import create_server
from coop_lsp.syntax import Document, parse
from coop_lsp.syntax.parser import parse_unless, same_tree
from tests.support.server_documents import Recorder, edit_document, fresh_diagnostics, open_document, until

asynchronous = pytest.mark.asyncio(loop_scope="function")

ROOT = Path(__file__).resolve().parent.parent
URI = "file:///virtual/errored.wgsl"
KERNEL = """\
@group(0) @binding(0) var<storage, read_write> out: array<f32>;
fn helper(x: f32) -> f32 { return x * 2.0; }
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
  let y = helper(f32(id.x));
  out[id.x] = y;
}
"""
JUNK = ["@@ ", "{", "}", "(", ";", "let = ", "fn (", "<", "var<", "/*", ")", "1u 2u", ".", "->"]


def _settled(ls, uri: str, recorder: Recorder, version: int):
    state = ls.documents[uri]
    return lambda: any(p.version == version for p in recorder.of(uri)) and state.confirming is None \
        and not ls.scheduler.busy(uri)


def test_same_tree_tells_trees_of_one_text_from_different_ones() -> None:
    document = Document(KERNEL)
    offset = KERNEL.index("let y")
    document.replace(Span(offset, offset), "@@ ")
    assert document.tree.root_node.has_error
    assert same_tree(document.tree, parse(document.text).tree)
    # The same named nodes (one ERROR) but another split of the unnamed tokens: not the same tree.
    other = parse(document.text.replace("@@ ", "@ @"))
    assert str(other.tree.root_node) == str(document.tree.root_node)
    assert not same_tree(document.tree, other.tree)


def test_an_interruptible_fresh_parse_gives_the_plain_parse_and_stops_when_asked() -> None:
    texts = [path.read_text(encoding="utf-8") for path in sorted((ROOT / "examples").rglob("*.wgsl"))]
    texts.append("// é 🙂 " * 900 + "\n" + KERNEL)  # characters across the 4 KiB chunks
    for text in texts:
        chunked = parse_unless(SourceText(text), lambda: False)
        assert same_tree(chunked.tree, parse(text).tree) and chunked.source.text == text
    big = parse(KERNEL * 40)
    assert parse_unless(big.source, lambda: True) is None
    assert same_tree(big.tree, parse(KERNEL * 40).tree, lambda: True) is None  # asked after 1,024 nodes
    assert same_tree(big.tree, parse(KERNEL * 40).tree, lambda: False) is True


@asynchronous
async def test_an_errored_version_is_published_before_any_fresh_parse_and_corrected_after(monkeypatch):
    """A fresh parse that disagrees (injected: the incremental tree and the fresh one agree on this edit)
    replaces the published diagnostics; before that, the version went out with no fresh parse at all."""
    monkeypatch.setattr(server_module, "CONFIRM_AFTER_SECONDS", 0.0)
    events: list[str] = []
    for module, name in ((ide_analysis, "parse_unless"), (engine, "parse")):
        real = getattr(module, name)
        monkeypatch.setattr(module, name, lambda *args, real=real: (events.append("fresh parse"), real(*args))[1])
    real_against = Analysis.against_fresh_parse

    def disagreeing(self, stale=None):
        events.append("compared")
        return False, real_against(self, stale)[1]
    monkeypatch.setattr(Analysis, "against_fresh_parse", disagreeing)
    real_of_parsed = Analysis.of_parsed.__func__
    injected = Diagnostic("syntax-error", "what the fresh parse found", Span(0, 1))

    def of_fresh(cls, parsed, *args, **kwargs):
        analysis = real_of_parsed(cls, parsed, *args, **kwargs)
        if kwargs.get("fresh") and parsed.root.has_error:
            analysis.result.diagnostics.append(injected)
        return analysis
    monkeypatch.setattr(Analysis, "of_parsed", classmethod(of_fresh))

    ls = create_server()
    recorder = Recorder(ls)
    publish = recorder.published.append
    ls.text_document_publish_diagnostics = lambda params: (events.append(f"published {params.version}"),
                                                           publish(params))
    open_document(ls, URI, KERNEL)
    await until(_settled(ls, URI, recorder, 1))
    events.clear()
    state = ls.documents[URI]
    offset = KERNEL.index("let y")
    edit_document(ls, URI, 2, state.document, offset, offset, "@@ ")
    await until(_settled(ls, URI, recorder, 2))
    text = state.document.text
    assert events[0] == "published 2" and "fresh parse" not in events[:events.index("published 2")]
    # The confirmation checks the tree of its one fresh parse: the text is not parsed a second time.
    assert events.count("fresh parse") == 1 and events.count("compared") == 1
    first, last = [p for p in recorder.of(URI) if p.version == 2][0], recorder.of(URI)[-1]
    assert last.version == 2
    honest = ls.lsp_diagnostics(URI, Analysis(text, 2, engine.lint_source(text)))
    assert first.diagnostics == honest
    assert [d.message for d in last.diagnostics] == [d.message for d in honest] + [injected.message]
    assert state.analysis.diagnostics[-1] == injected and not state.analysis.provisional
    ls.analysis_executor.shutdown(wait=False)


@asynchronous
async def test_a_confirmed_version_is_published_once(monkeypatch):
    monkeypatch.setattr(server_module, "CONFIRM_AFTER_SECONDS", 0.0)
    ls = create_server()
    recorder = Recorder(ls)
    open_document(ls, URI, KERNEL)
    await until(_settled(ls, URI, recorder, 1))
    state = ls.documents[URI]
    offset = KERNEL.index("let y")
    edit_document(ls, URI, 2, state.document, offset, offset, "@@ ")
    await until(_settled(ls, URI, recorder, 2))
    assert [p.version for p in recorder.of(URI)] == [1, 2]
    assert state.analysis.result.parsed.root.has_error and not state.analysis.provisional
    assert recorder.of(URI)[-1].diagnostics == fresh_diagnostics(ls, URI, state.document.text)
    ls.analysis_executor.shutdown(wait=False)


def _corpus() -> list[Path]:
    examples = sorted((ROOT / "examples").rglob("*.wgsl"))
    spec = sorted((ROOT / "tests" / "spec").rglob("*.wgsl"))
    return examples + spec[::3]


@asynchronous
@pytest.mark.parametrize("path", _corpus(), ids=lambda p: str(p.relative_to(ROOT)))
async def test_random_error_edits_end_with_a_fresh_checks_diagnostics(path: Path, monkeypatch):
    monkeypatch.setattr(server_module, "CONFIRM_AFTER_SECONDS", 0.0)
    rng = random.Random(path.name)
    text = path.read_text(encoding="utf-8")
    ls = create_server()
    recorder = Recorder(ls)
    open_document(ls, URI, text)
    await until(_settled(ls, URI, recorder, 1))
    state = ls.documents[URI]
    for version in range(2, 6):
        data = state.document.source.data
        start = rng.randrange(len(data) + 1)
        end = min(len(data), start + rng.choice([0, 0, 1, 3, 12]))
        source = state.document.source
        # On character boundaries (the client speaks UTF-16).
        start, end = (source.offset(source.position(o, "char"), "char") for o in (start, end))
        edit_document(ls, URI, version, state.document, start, max(start, end), rng.choice(JUNK))
        await until(_settled(ls, URI, recorder, version))
        last = recorder.of(URI)[-1]
        assert last.version == version
        assert last.diagnostics == fresh_diagnostics(ls, URI, state.document.text), (path, version)
    ls.analysis_executor.shutdown(wait=False)


@asynchronous
async def test_a_recheck_stops_the_confirmation_of_the_check_it_replaces(monkeypatch):
    """New settings check every document again: a confirmation made for the old check must not publish."""
    monkeypatch.setattr(server_module, "CONFIRM_AFTER_SECONDS", 30.0)
    ls = create_server()
    recorder = Recorder(ls)
    open_document(ls, URI, KERNEL)
    await until(_settled(ls, URI, recorder, 1))
    state = ls.documents[URI]
    offset = KERNEL.index("let y")
    edit_document(ls, URI, 2, state.document, offset, offset, "@@ ")
    await until(lambda: any(p.version == 2 for p in recorder.of(URI)) and state.confirming is not None)
    waiting = state.confirming
    ls.republish_all()
    assert state.confirming is None
    await until(lambda: waiting.done() and not ls.scheduler.busy(URI))
    assert waiting.done()  # its 30 s wait was cut short: it will publish nothing
    assert recorder.of(URI)[-1].version == 2
    # The new check is provisional too: its own confirmation waits (30 s here); stopped with the test.
    assert state.confirming is not None and state.confirming is not waiting
    state.confirming.cancel()
    await asyncio.sleep(0)
    ls.analysis_executor.shutdown(wait=False)
