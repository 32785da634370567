"""Formatting through the language server: document, range, on-type; stale requests are refused."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types as lsp
from pygls.exceptions import JsonRpcException
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

from coop_lsp.format import format_text

pytestmark = pytest.mark.asyncio(loop_scope="function")

ROOT = Path(__file__).resolve().parent.parent
URI = "file:///virtual/format.wgsl"
OPTIONS = lsp.FormattingOptions(tab_size=4, insert_spaces=True)
UGLY = "fn a(){let x=1;}\nfn b() {\n  let y=2;\n  if y>1 {return;}\n}\n"


@pytest_lsp.fixture(config=ClientServerConfig(server_command=[sys.executable, "-m", "coop_lsp.server.main"]))
async def client(lsp_client: LanguageClient):
    lsp_client.set_configuration({"dialect": None, "rules": {}}, section="coop-lsp")
    lsp_client.initialize_result = await lsp_client.initialize_session(lsp.InitializeParams(
        capabilities=client_capabilities("visual-studio-code"), root_uri=ROOT.as_uri()))
    yield
    await lsp_client.shutdown_session()


def open_document(client: LanguageClient, text: str, version: int = 1) -> None:
    client.text_document_did_open(lsp.DidOpenTextDocumentParams(
        text_document=lsp.TextDocumentItem(uri=URI, language_id="wgsl", version=version, text=text)))


def apply(text: str, edits: list[lsp.TextEdit]) -> str:
    lines = text.split("\n")
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line) + 1)

    def offset(position: lsp.Position) -> int:
        return offsets[position.line] + position.character

    for edit in sorted(edits, key=lambda e: offset(e.range.start), reverse=True):
        text = text[:offset(edit.range.start)] + edit.new_text + text[offset(edit.range.end):]
    return text


async def test_the_server_announces_every_kind_of_formatting(client: LanguageClient):
    capabilities = client.initialize_result.capabilities
    assert capabilities.document_formatting_provider and capabilities.document_range_formatting_provider
    on_type = capabilities.document_on_type_formatting_provider
    assert on_type.first_trigger_character == "}" and list(on_type.more_trigger_character) == [";"]


async def test_document_formatting_gives_the_formatters_text(client: LanguageClient):
    open_document(client, UGLY)
    edits = await client.text_document_formatting_async(lsp.DocumentFormattingParams(
        text_document=lsp.TextDocumentIdentifier(uri=URI), options=OPTIONS))
    assert apply(UGLY, edits) == format_text(UGLY).text


async def test_range_formatting_changes_only_the_lines_of_the_range(client: LanguageClient):
    open_document(client, UGLY)
    edits = await client.text_document_range_formatting_async(lsp.DocumentRangeFormattingParams(
        text_document=lsp.TextDocumentIdentifier(uri=URI),
        range=lsp.Range(start=lsp.Position(line=3, character=0), end=lsp.Position(line=3, character=5)),
        options=OPTIONS))
    # Only the white space between the tokens of line 3 changed; line 2 keeps its two spaces.
    assert apply(UGLY, edits) == "fn a(){let x=1;}\nfn b() {\n  let y=2;\n    if y > 1 {\n        return;\n    }\n}\n"


async def test_typing_a_closing_brace_formats_the_block_it_closed(client: LanguageClient):
    open_document(client, UGLY)
    edits = await client.text_document_on_type_formatting_async(lsp.DocumentOnTypeFormattingParams(
        text_document=lsp.TextDocumentIdentifier(uri=URI), position=lsp.Position(line=0, character=16),
        ch="}", options=OPTIONS))
    assert apply(UGLY, edits).startswith("fn a() {\n    let x = 1;\n}\n\nfn b() {\n  let y=2;\n")


async def test_a_syntax_error_leaves_the_document_alone_and_says_why(client: LanguageClient):
    open_document(client, "fn main() {\n  let x = 1\n}\n")
    edits = await client.text_document_formatting_async(lsp.DocumentFormattingParams(
        text_document=lsp.TextDocumentIdentifier(uri=URI), options=OPTIONS))
    assert not edits
    for _ in range(100):
        if client.messages:
            break
        await asyncio.sleep(0.02)
    assert "not formatted: line 2, column 12: expected ';' after 'let' declaration" in client.messages[-1].message
    # Typing in broken text says nothing.
    edits = await client.text_document_on_type_formatting_async(lsp.DocumentOnTypeFormattingParams(
        text_document=lsp.TextDocumentIdentifier(uri=URI), position=lsp.Position(line=2, character=1),
        ch="}", options=OPTIONS))
    assert not edits and len(client.messages) == 1


async def test_a_request_on_a_version_that_changed_meanwhile_is_refused(client: LanguageClient):
    big = "".join(f"fn f{i}(a:f32,b:f32)->f32{{let c=a*b+{i}.0;return c;}}\n" for i in range(4000))
    open_document(client, big)
    request = asyncio.ensure_future(client.text_document_formatting_async(lsp.DocumentFormattingParams(
        text_document=lsp.TextDocumentIdentifier(uri=URI), options=OPTIONS)))
    await asyncio.sleep(0)  # sent: the edit below reaches the server after the request
    client.text_document_did_change(lsp.DidChangeTextDocumentParams(
        text_document=lsp.VersionedTextDocumentIdentifier(uri=URI, version=2),
        content_changes=[lsp.TextDocumentContentChangePartial(
            range=lsp.Range(start=lsp.Position(line=0, character=0), end=lsp.Position(line=0, character=0)),
            text="// typed while formatting\n")]))
    with pytest.raises(JsonRpcException) as refused:
        await request
    assert refused.value.code == lsp.LSPErrorCodes.ContentModified
    # Asked again, it formats the new version.
    edits = await client.text_document_formatting_async(lsp.DocumentFormattingParams(
        text_document=lsp.TextDocumentIdentifier(uri=URI), options=OPTIONS))
    assert apply("// typed while formatting\n" + big, edits) == format_text("// typed while formatting\n" + big).text
