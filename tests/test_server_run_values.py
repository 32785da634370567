"""What a run saw, shown in the editor after Run kernel: watch and print values as inlay hints at their lines
and a per-lane hover table on the comment, and after a failed check the blame's R004 on the store that
wrote the wrong elements. All of it until the next edit (docs/debugging.md, docs/debugging-blame.md).

End to end over stdio, through the server's own run command. Needs wgpu-native with an adapter (lavapipe
in CI); skips without one.
"""

from __future__ import annotations

import asyncio
import sys

import pytest
import pytest_lsp
from lsprotocol import types as lsp
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

from tests.test_server import _make_client, open_document, published
from tests.test_server_runs import kernel_file, run

pytestmark = [pytest.mark.asyncio(loop_scope="function"), pytest.mark.usefixtures("adapter")]

# Eight invocations, each watching v = 3 i and printing i and v; the check holds.
WATCHED = ("@group(0) @binding(0) var<storage, read_write> c: array<f32>;\n"
           "@compute @workgroup_size(8) fn main(@builtin(local_invocation_index) i: u32) {\n"
           "    let v = f32(i) * 3.0;\n"
           "    c[i] = v; // coop: watch v\n"
           '    // coop: print "i=%u v=%f", i, v\n'
           "}\n")
WATCHED_RUN = ('dispatch = [1]\n[[binding]]\nbinding = 0\ntype = "f32"\nsize = 8\n'
               '[check]\nkind = "expression"\noutput = "c"\nexpected = "np.arange(8) * 3.0"\n'
               "[timing]\nrepetitions = 1\n")
# The planted bug: invocation 5 stores one too many.
PLANTED = ("@group(0) @binding(0) var<storage, read_write> c: array<f32>;\n"
           "@compute @workgroup_size(8) fn main(@builtin(local_invocation_index) i: u32) {\n"
           "    let v = f32(i) * 3.0;\n"
           "    if (i == 5u) { c[i] = v + 1.0; } else { c[i] = v; }\n"
           "}\n")


@pytest_lsp.fixture(config=ClientServerConfig(server_command=[sys.executable, "-m", "coop_lsp.server.main"],
                                              client_factory=_make_client))
async def client(lsp_client: LanguageClient, tmp_path):
    lsp_client.set_configuration({"dialect": None, "rules": {}}, section="coop-lsp")
    capabilities = client_capabilities("visual-studio-code")
    # As VS Code (vscode-languageclient 9) announces; pytest-lsp's copy of its capabilities predates it.
    capabilities.workspace.inlay_hint = lsp.InlayHintWorkspaceClientCapabilities(refresh_support=True)
    lsp_client.inlay_hint_refreshes = 0

    @lsp_client.feature(lsp.WORKSPACE_INLAY_HINT_REFRESH)
    def inlay_hint_refresh(params):
        lsp_client.inlay_hint_refreshes += 1

    await lsp_client.initialize_session(lsp.InitializeParams(capabilities=capabilities,
                                                             root_uri=tmp_path.as_uri()))
    yield
    await lsp_client.shutdown_session()


WHOLE = lsp.Range(start=lsp.Position(line=0, character=0), end=lsp.Position(line=6, character=0))


async def hints(client, uri: str) -> list[str]:
    found = await client.text_document_inlay_hint_async(lsp.InlayHintParams(
        text_document=lsp.TextDocumentIdentifier(uri=uri), range=WHOLE))
    return found or []


async def hover(client, uri: str, line: int, character: int):
    return await client.text_document_hover_async(lsp.HoverParams(
        text_document=lsp.TextDocumentIdentifier(uri=uri), position=lsp.Position(line=line, character=character)))


async def test_watch_values_are_hints_and_a_hover_table_until_the_next_edit(client, tmp_path):
    uri = kernel_file(tmp_path, WATCHED, WATCHED_RUN)
    open_document(client, WATCHED, uri)
    await published(client, uri, 1)
    assert not [h for h in await hints(client, uri) if "lane" in str(h.label)]
    markdown = await run(client, uri)
    assert markdown.startswith("## k.wgsl: CORRECT"), markdown
    # VS Code asks for inlay hints only on edits and scrolls: the server asks it to, once the run is done.
    for _ in range(100):
        if client.inlay_hint_refreshes:
            break
        await asyncio.sleep(0.05)
    assert client.inlay_hint_refreshes == 1

    found = {h.position.line: h for h in await hints(client, uri) if "lane" in str(h.label)}
    watch_line, print_line = WATCHED.splitlines()[3], WATCHED.splitlines()[4]
    # At the end of the watched line: the first four lanes of eight, each v = 3 i as the kernel computed it.
    assert found[3].label == "lane 0: 0.0, lane 1: 3.0, lane 2: 6.0, lane 3: 9.0, … (8 lanes)"
    assert found[3].position.character == len(watch_line)
    # The print's own line, as the runner formats it.
    assert found[4].label.startswith("lane 0: i=0 v=0, lane 1: i=1 v=3")
    assert found[4].label.endswith("(8 lanes)") and "lane 3: i=3 v=9," in found[4].label
    assert found[4].position.character == len(print_line)

    table = await hover(client, uri, 3, watch_line.index("watch"))
    text = table.contents.value
    assert "**watch** `v` (`f32`): 8 records" in text and "| workgroup | lane | `v` |" in text
    for lane in range(8):
        assert f"| (0, 0, 0) | {lane} | {3.0 * lane:.1f} |" in text, text
    assert table.range.start == lsp.Position(line=3, character=watch_line.index("//"))
    printed = (await hover(client, uri, 4, 10)).contents.value
    assert "| (0, 0, 0) | 7 | i=7 v=21 |" in printed, printed

    client.text_document_did_change(lsp.DidChangeTextDocumentParams(
        text_document=lsp.VersionedTextDocumentIdentifier(uri=uri, version=2),
        content_changes=[lsp.TextDocumentContentChangeWholeDocument(text=WATCHED + "\n")]))
    await published(client, uri, 2)
    assert not [h for h in await hints(client, uri) if "lane" in str(h.label)]
    after = await hover(client, uri, 3, watch_line.index("watch"))
    assert after is None or "**watch**" not in after.contents.value


async def test_a_wrong_result_marks_the_store_that_wrote_it(client, tmp_path):
    uri = kernel_file(tmp_path, PLANTED, WATCHED_RUN)
    open_document(client, PLANTED, uri)
    assert [d.code for d in await published(client, uri, 1)] == []
    markdown = await run(client, uri)
    assert "INCORRECT" in markdown and "blame (an instrumented re-run" in markdown, markdown
    for _ in range(100):
        blamed = [d for d in client.published[-1].diagnostics if d.code == "R004"] \
            if client.published[-1].uri == uri else []
        if blamed:
            break
        await asyncio.sleep(0.05)
    assert len(blamed) == 1, client.published[-1]
    diagnostic = blamed[0]
    line = PLANTED.splitlines()[3]
    # The wrong store, not its correct twin on the same line.
    assert diagnostic.range == lsp.Range(start=lsp.Position(line=3, character=line.index("c[i] = v + 1.0")),
                                         end=lsp.Position(line=3, character=line.index("c[i] = v + 1.0;") + 15))
    assert diagnostic.severity == lsp.DiagnosticSeverity.Warning
    assert "1 of the 1 wrong elements of 'c' (8 in all)" in diagnostic.message, diagnostic.message
    assert "c[5] = 16.0, expected 15.0" in diagnostic.message
    related = [r.message for r in diagnostic.related_information]
    assert "c[5] = 16.0, expected 15.0: written by workgroup (0, 0, 0), invocation 5" in related, related
    assert "workgroup (0, 0, 0), invocation 5 wrote 1 wrong element(s), first at c[5]" in related, related
    assert all(r.location.uri == uri and r.location.range.start.line == 3 for r in diagnostic.related_information)

    client.text_document_did_change(lsp.DidChangeTextDocumentParams(
        text_document=lsp.VersionedTextDocumentIdentifier(uri=uri, version=2),
        content_changes=[lsp.TextDocumentContentChangeWholeDocument(text=PLANTED + "\n")]))
    assert [d.code for d in await published(client, uri, 2)] == []


async def test_the_watch_value_action_makes_the_next_run_record_the_expression(client, tmp_path):
    """The code action's edit, applied as the editor applies it: the run after it records the expression."""
    plain = WATCHED.replace(" // coop: watch v", "").replace('    // coop: print "i=%u v=%f", i, v\n', "")
    uri = kernel_file(tmp_path, plain, WATCHED_RUN)
    open_document(client, plain, uri)
    await published(client, uri, 1)
    line = plain.splitlines()[3]  # `    c[i] = v;`
    cursor = lsp.Position(line=3, character=line.index("v;"))
    actions = await client.text_document_code_action_async(lsp.CodeActionParams(
        text_document=lsp.TextDocumentIdentifier(uri=uri), range=lsp.Range(start=cursor, end=cursor),
        context=lsp.CodeActionContext(diagnostics=[])))
    [watch] = [a for a in actions if a.title.startswith("Watch 'v'")]
    [edit] = watch.edit.changes[uri]
    assert edit.range.start == lsp.Position(line=3, character=len(line)) and edit.new_text == " // coop: watch v"
    lines = plain.splitlines(keepends=True)
    lines[3] = line + edit.new_text + "\n"
    watched = "".join(lines)
    client.text_document_did_change(lsp.DidChangeTextDocumentParams(
        text_document=lsp.VersionedTextDocumentIdentifier(uri=uri, version=2),
        content_changes=[lsp.TextDocumentContentChangeWholeDocument(text=watched)]))
    await published(client, uri, 2)
    assert "## k.wgsl: CORRECT" in await run(client, uri)
    for _ in range(100):
        found = [h for h in await hints(client, uri) if "lane" in str(h.label)]
        if found:
            break
        await asyncio.sleep(0.05)
    assert [h.label for h in found] == ["lane 0: 0.0, lane 1: 3.0, lane 2: 6.0, lane 3: 9.0, … (8 lanes)"]
    assert found[0].position.line == 3
