"""Running kernels from the editor, end to end over stdio: progress, cancellation, the last result in hover
and inlay hints, compile errors as R001 diagnostics.

Needs wgpu-native with an adapter (lavapipe in CI); skips without one.
"""

from __future__ import annotations

import asyncio
import sys

import pytest
import pytest_lsp
from lsprotocol import types as lsp
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

from tests.test_server import _make_client, open_document, published

pytestmark = [pytest.mark.asyncio(loop_scope="function"), pytest.mark.usefixtures("adapter")]

KERNEL = ("@group(0) @binding(0) var<storage, read_write> c: array<f32>;\n"
          "@compute @workgroup_size(4) fn main(@builtin(local_invocation_index) i: u32) {\n"
          "    c[i] = f32(i);\n}\n")
DESCRIPTION = ('dispatch = [1]\n[[binding]]\nbinding = 0\ntype = "f32"\nsize = 4\n'
               '[check]\nkind = "expression"\noutput = "c"\nexpected = "np.arange(4)"\n[timing]\nrepetitions = 1\n')
# Each invocation counts to 2^31: far past any time limit on lavapipe (which would cut a loop at 65,535
# iterations, so the count is spread over many workgroups' worth of work instead).
ENDLESS = ("@group(0) @binding(0) var<storage, read_write> c: array<f32>;\n"
           "@compute @workgroup_size(64) fn main(@builtin(global_invocation_id) g: vec3<u32>) {\n"
           "    var x = 0.0;\n"
           "    for (var i = 0u; i < 65535u; i++) { for (var j = 0u; j < 65535u; j++) { x += 1.0; } }\n"
           "    c[g.x % 4u] = x;\n}\n")


@pytest_lsp.fixture(config=ClientServerConfig(server_command=[sys.executable, "-m", "coop_lsp.server.main"],
                                              client_factory=_make_client))
async def client(lsp_client: LanguageClient, tmp_path):
    lsp_client.set_configuration({"dialect": None, "rules": {}}, section="coop-lsp")
    await lsp_client.initialize_session(lsp.InitializeParams(
        capabilities=client_capabilities("visual-studio-code"), root_uri=tmp_path.as_uri()))
    yield
    await lsp_client.shutdown_session()


def kernel_file(tmp_path, text: str, description: str = DESCRIPTION) -> str:
    (tmp_path / "k.wgsl").write_text(text)
    (tmp_path / "k.run.toml").write_text(description)
    return (tmp_path / "k.wgsl").as_uri()


async def run(client: LanguageClient, uri: str):
    return await client.workspace_execute_command_async(lsp.ExecuteCommandParams(
        command="coop-lsp.runKernel", arguments=[uri, "main"]))


async def test_a_run_reports_progress_and_leaves_its_result_in_hover_and_hints(client, tmp_path):
    uri = kernel_file(tmp_path, KERNEL)
    open_document(client, KERNEL, uri)
    await published(client, uri, 1)
    markdown = await run(client, uri)
    assert markdown.startswith("## k.wgsl: CORRECT"), markdown
    steps = [getattr(v, "message", None) for values in client.progress_reports.values() for v in values]
    worker_steps = {"opening the device", "compiling the kernel", "creating the pipeline", "running the kernel",
                    "reading the results back", "timing the kernel"}
    assert steps[0] == "starting" and steps[-1] == "done" and worker_steps & set(steps), steps
    kinds = [v.kind for values in client.progress_reports.values() for v in values]
    assert kinds[0] == "begin" and kinds[-1] == "end"
    assert any(m.message.startswith("coop-lsp: k.wgsl: CORRECT") for m in client.messages)

    hover = await client.text_document_hover_async(lsp.HoverParams(
        text_document=lsp.TextDocumentIdentifier(uri=uri), position=lsp.Position(line=1, character=32)))
    assert "**Last run**" in hover.contents.value and "correct" in hover.contents.value
    hints = await client.text_document_inlay_hint_async(lsp.InlayHintParams(
        text_document=lsp.TextDocumentIdentifier(uri=uri),
        range=lsp.Range(start=lsp.Position(line=0, character=0), end=lsp.Position(line=4, character=0))))
    labels = [h.label for h in hints]
    assert any(isinstance(label, str) and label.startswith("last run: correct") for label in labels), labels

    actions = await client.text_document_code_action_async(lsp.CodeActionParams(
        text_document=lsp.TextDocumentIdentifier(uri=uri),
        range=lsp.Range(start=lsp.Position(line=2, character=4), end=lsp.Position(line=2, character=4)),
        context=lsp.CodeActionContext(diagnostics=[])))
    # pytest-lsp's converter reads a CodeAction that carries a command as a Command, whose `command` is then the
    # whole nested command as a string; VS Code tells the two apart by the type of `command`.
    assert any(a.title == "Run kernel 'main'" and "'command': 'coop-lsp.runKernel'" in str(a.command) for a in actions)


async def test_a_run_can_be_cancelled_and_the_server_keeps_serving(client, tmp_path):
    uri = kernel_file(tmp_path, ENDLESS, DESCRIPTION.replace("dispatch = [1]", "dispatch = [65535, 64]")
                      .replace('expected = "np.arange(4)"', 'expected = "np.zeros(4)"')
                      + "timeout_s = 120\n")
    open_document(client, ENDLESS, uri)
    await published(client, uri, 1)
    running = asyncio.ensure_future(run(client, uri))
    await asyncio.sleep(3)
    assert not running.done()
    cancelled = await client.workspace_execute_command_async(lsp.ExecuteCommandParams(
        command="coop-lsp.cancelRun", arguments=[uri]))
    assert cancelled == 1
    markdown = await asyncio.wait_for(running, timeout=20)
    assert "CANCELLED" in markdown and "cancelled while" in markdown
    hover = await client.text_document_hover_async(lsp.HoverParams(
        text_document=lsp.TextDocumentIdentifier(uri=uri), position=lsp.Position(line=2, character=8)))
    assert hover is not None


async def test_a_compile_error_becomes_a_diagnostic_until_the_next_edit(client, tmp_path):
    # coop-lint accepts `enable subgroups;`; naga (wgpu-native) has not implemented it.
    text = "enable subgroups;\n" + KERNEL
    uri = kernel_file(tmp_path, text)
    open_document(client, text, uri)
    assert [d.code for d in await published(client, uri, 1)] == []
    markdown = await run(client, uri)
    assert "FAILED" in markdown and "k.wgsl:1:8: the `subgroups` enable-extension is not yet supported" in markdown
    for _ in range(100):
        if client.published[-1].uri == uri and [d.code for d in client.published[-1].diagnostics] == ["R001"]:
            break
        await asyncio.sleep(0.05)
    diagnostic = client.published[-1].diagnostics[0]
    assert diagnostic.code == "R001" and diagnostic.range.start.line == 0
    assert "wgpu rejected the kernel: the `subgroups` enable-extension is not yet supported" in diagnostic.message
    client.text_document_did_change(lsp.DidChangeTextDocumentParams(
        text_document=lsp.VersionedTextDocumentIdentifier(uri=uri, version=2),
        content_changes=[lsp.TextDocumentContentChangeWholeDocument(text=text + "\n")]))
    assert [d.code for d in await published(client, uri, 2)] == []
