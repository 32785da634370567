"""A missing token's fix tested when someone asks for it, not on every keystroke.

While a statement is typed into broken code, the server publishes each version from its incrementally
re-parsed tree (a provisional analysis). The findings it publishes carry no fixes (an LSP diagnostic has
none), but testing an "Insert ';'" fix costs two re-parses and two counts of the declarations around it,
a third of such a keystroke. A provisional analysis therefore leaves those tests out and makes them when
its fixes are asked for (`Analysis.diagnostics_with_fixes`, which code actions read). The specification:

- what is published is what a lint that tests every fix at once publishes, except the untested fixes;
- the fixes asked for are exactly that lint's, on every version of random typing and junk edits in
  public-shaped matrix kernels and the examples;
- a provisional analysis makes no fix test; a code action on such a version still offers the fix.
"""

from __future__ import annotations

import asyncio
import random
from dataclasses import replace
from pathlib import Path

import pytest
from lsprotocol import types as lsp

from benchmarks.typing_cost import STATEMENT, _workload
from coop_lsp.core.text import Position, Span
from coop_lsp.ide import Analysis
from coop_lsp.ide.actions import code_actions
from coop_lsp.lint import Reuse, lint_parsed
from coop_lsp.server import server as server_module
from coop_lsp.server.server import create_server
from coop_lsp.syntax import Document
from coop_lsp.syntax import diagnostics as syntax_module
from coop_lsp.syntax.parser import Parsed
from tests.support.server_documents import Recorder, edit_document, open_document, until

ROOT = Path(__file__).resolve().parent.parent
JUNK = ["@@ ", "{", "}", "(", ";", "let = ", "fn (", "<", "var<", ")", "1u 2u", ".", "->", "let y = max(1.0, "]


def _both(document: Document, reuse: Reuse) -> tuple[Analysis, list]:
    """The provisional analysis of the document's tree as the server makes it, and the diagnostics a lint of
    the same tree gives when it tests every fix at once."""
    provisional = Analysis.of_parsed(Parsed(document.source, document.tree.copy()), reuse=reuse, provisional=True)
    at_once = lint_parsed(Parsed(document.source, document.tree.copy())).diagnostics
    return provisional, at_once


def _untested(diagnostics: list) -> list:
    return [replace(d, fixes=()) if d.code == "S001" else d for d in diagnostics]


def _check_version(document: Document, reuse: Reuse) -> int:
    provisional, at_once = _both(document, reuse)
    assert provisional.diagnostics_with_fixes() == at_once
    assert _untested(provisional.diagnostics) == _untested(at_once)
    return sum(1 for d in at_once if d.fixes and d.code == "S001")


def test_typing_a_statement_character_by_character_gives_the_same_fixes_when_asked() -> None:
    text, _, code_line = _workload()
    document, reuse = Document(text), Reuse()
    offered = 0
    for index, char in enumerate(STATEMENT):
        document.replace_range(Position(code_line, index), Position(code_line, index), char)
        if document.tree.root_node.has_error:
            offered += _check_version(document, reuse)
    assert offered, "no version offered an insertion fix: the comparison proved nothing"


def _kernels() -> list[Path]:
    return sorted((ROOT / "examples").rglob("*.wgsl"))


@pytest.mark.parametrize("path", _kernels(), ids=lambda p: p.name)
def test_junk_edits_in_the_examples_give_the_same_fixes_when_asked(path: Path) -> None:
    rng = random.Random(path.name)
    document, reuse = Document(path.read_text(encoding="utf-8")), Reuse()
    for _ in range(12):
        data = document.source.data
        start = rng.randrange(len(data) + 1)
        end = min(len(data), start + rng.choice([0, 0, 1, 3]))
        source = document.source
        start, end = (source.offset(source.position(o, "char"), "char") for o in (start, end))
        document.replace(Span(start, max(start, end)), rng.choice(JUNK))
        if document.tree.root_node.has_error:
            _check_version(document, reuse)


def test_a_provisional_analysis_tests_no_fix_until_asked(monkeypatch) -> None:
    tests: list[int] = []
    real = syntax_module._insertion_helps
    monkeypatch.setattr(syntax_module, "_insertion_helps", lambda *args: (tests.append(1), real(*args))[1])
    text = "@compute @workgroup_size(1)\nfn main() {\n  let x = 1;\n  let y = 2;\n}\n"
    document = Document(text)
    at = text.index("1;") + 1
    document.replace(Span(at, at + 1), "")  # the `;` deleted
    analysis = Analysis.of_parsed(Parsed(document.source, document.tree.copy()), provisional=True)
    assert analysis.provisional and tests == []
    assert [d.message for d in analysis.diagnostics if d.code == "S001"] == ["expected ';' after 'let' declaration"]
    actions = code_actions(analysis, Span(at, at))
    assert tests and [(a.title, a.preferred) for a in actions] == [("Insert ';'", True)]


@pytest.mark.asyncio(loop_scope="function")
async def test_a_code_action_on_a_version_being_typed_offers_the_fix(monkeypatch):
    monkeypatch.setattr(server_module, "CONFIRM_AFTER_SECONDS", 30.0)  # the version stays provisional
    uri = "file:///virtual/typed.wgsl"
    text = "@compute @workgroup_size(1)\nfn main() {\n  let x = 1;\n  let y = 2;\n}\n"
    ls = create_server()
    recorder = Recorder(ls)
    open_document(ls, uri, text)
    await until(lambda: any(p.version == 1 for p in recorder.of(uri)) and not ls.scheduler.busy(uri))
    state = ls.documents[uri]
    at = text.index("1;") + 1
    edit_document(ls, uri, 2, state.document, at, at + 1, "")
    await until(lambda: any(p.version == 2 for p in recorder.of(uri)) and not ls.scheduler.busy(uri))
    assert state.analysis.provisional and state.analysis.result.deferred_fixes
    published = recorder.of(uri)[-1].diagnostics
    actions = await ls.protocol.fm.features[lsp.TEXT_DOCUMENT_CODE_ACTION](lsp.CodeActionParams(
        text_document=lsp.TextDocumentIdentifier(uri=uri), range=published[0].range,
        context=lsp.CodeActionContext(diagnostics=published)))
    fixes = [a for a in actions if a.kind == lsp.CodeActionKind.QuickFix]
    assert [(a.title, a.is_preferred) for a in fixes] == [("Insert ';'", True)]
    assert fixes[0].edit.changes[uri][0].new_text == ";"
    if state.confirming is not None:
        state.confirming.cancel()
    await asyncio.sleep(0)
    ls.analysis_executor.shutdown(wait=False)
