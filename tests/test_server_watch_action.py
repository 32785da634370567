"""The "Watch value" code action (docs/debugging.md): on a selected expression, or the name under the cursor,
it writes `// coop: watch EXPR` at the end of the statement's line (or adds EXPR to the watch already there),
so that the next Run kernel records it. Nothing is offered for what is not a value: a type, a called
function's name, a literal, a keyword, a selection that cuts an expression.

Over stdio through the server, as an editor asks; no GPU (running the watch is tests/test_server_run_values.py).
"""

from __future__ import annotations

import sys

import pytest
import pytest_lsp
from lsprotocol import types as lsp
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

from coop_lsp.core.diagnostic import Edit
from coop_lsp.core.text import Span
from coop_lsp.lint.fixes import apply_edits
from tests.test_server import ROOT, URI, _make_client, open_document, published

pytestmark = pytest.mark.asyncio(loop_scope="function")


@pytest_lsp.fixture(config=ClientServerConfig(server_command=[sys.executable, "-m", "coop_lsp.server.main"],
                                              client_factory=_make_client))
async def client(lsp_client: LanguageClient):
    lsp_client.set_configuration({"dialect": None, "rules": {}}, section="coop-lsp")
    await lsp_client.initialize_session(lsp.InitializeParams(
        capabilities=client_capabilities("visual-studio-code"), root_uri=ROOT.as_uri()))
    yield
    await lsp_client.shutdown_session()

KERNEL = """\
@group(0) @binding(0) var<storage, read_write> out: array<f32>;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let scaled = sin(f32(id.x)) * 2.0;
    for (var j = 0u; j < 4u; j++) {
        out[id.x + j] = scaled; // coop: watch j
    }
    out[0] = scaled; // coop: print "s=%f", scaled
    out[1] = 1.0 +
        scaled;
}
"""


def at(text: str, needle: str, nth: int = 0) -> int:
    found = -1
    for _ in range(nth + 1):
        found = text.index(needle, found + 1)
    return found


def position(text: str, offset: int) -> lsp.Position:  # the kernels here are ASCII: a byte is a column
    line = text.count("\n", 0, offset)
    return lsp.Position(line=line, character=offset - (text.rfind("\n", 0, offset) + 1))


def lsp_range(text: str, start: int, end: int) -> lsp.Range:
    return lsp.Range(start=position(text, start), end=position(text, end))


async def watch_actions(client, text: str, start: int, end: int | None = None) -> list[lsp.CodeAction]:
    found = await client.text_document_code_action_async(lsp.CodeActionParams(
        text_document=lsp.TextDocumentIdentifier(uri=URI), range=lsp_range(text, start, start if end is None else end),
        context=lsp.CodeActionContext(diagnostics=[])))
    return [a for a in found or [] if a.title.startswith("Watch")]


def applied(text: str, action: lsp.CodeAction) -> str:
    lines = text.splitlines(keepends=True)

    def offset(p: lsp.Position) -> int:
        return sum(len(line) for line in lines[:p.line]) + p.character

    edits = [Edit(Span(offset(e.range.start), offset(e.range.end)), e.new_text) for e in action.edit.changes[URI]]
    return apply_edits(text.encode(), edits).decode()


async def opened(client, text: str = KERNEL) -> None:
    open_document(client, text)
    await published(client, URI, 1)


async def test_a_selected_expression_is_watched_at_its_statements_line(client):
    await opened(client)
    start = at(KERNEL, "sin(f32(id.x))")
    [action] = await watch_actions(client, KERNEL, start, start + len("sin(f32(id.x))"))
    assert action.kind == lsp.CodeActionKind.RefactorRewrite
    assert "sin(f32(id.x))" in action.title and "line 5" in action.title
    assert "    let scaled = sin(f32(id.x)) * 2.0; // coop: watch sin(f32(id.x))\n" in applied(KERNEL, action)


async def test_the_name_under_the_cursor_is_watched_and_a_member_with_its_value(client):
    await opened(client)
    [action] = await watch_actions(client, KERNEL, at(KERNEL, "scaled; // coop: watch") + 2)
    assert "'scaled'" in action.title
    [member] = await watch_actions(client, KERNEL, at(KERNEL, "id.x)") + 3)  # on the `x` of id.x
    assert "'id.x'" in member.title


async def test_a_watch_on_the_line_grows_and_a_name_already_watched_is_not_offered(client):
    await opened(client)
    line = "        out[id.x + j] = scaled; // coop: watch j\n"
    [action] = await watch_actions(client, KERNEL, at(KERNEL, "scaled; // coop: watch j") + 1)
    assert "        out[id.x + j] = scaled; // coop: watch j, scaled\n" in applied(KERNEL, action)
    assert line in KERNEL
    assert await watch_actions(client, KERNEL, at(KERNEL, "j] = scaled")) == []  # j is watched there


async def test_a_loop_header_value_is_watched_on_the_header_line(client):
    await opened(client)
    [action] = await watch_actions(client, KERNEL, at(KERNEL, "j < 4u"))
    assert "    for (var j = 0u; j < 4u; j++) { // coop: watch j\n" in applied(KERNEL, action)


@pytest.mark.parametrize("what, start, length", [
    ("a type name", "f32(id.x)", 3),
    ("a called builtin's name", "sin(", 3),
    ("a literal", "2.0;", 3),
    ("a keyword", "let scaled", 3),
    ("half an expression", "sin(f32(id.x)) * 2.0", 8),
    ("an attribute", "workgroup_size", 14),
    ("a declared name", "scaled = sin", 6),
    ("a line that holds a print", "scaled; // coop: print", 6),
    ("a statement over two lines", "scaled;\n}", 6),
    ("a builtin value's declaration", "id: vec3", 2),
])
async def test_nothing_is_offered_for_what_is_not_a_value_to_watch(client, what, start, length):
    await opened(client)
    begin = at(KERNEL, start)
    assert await watch_actions(client, KERNEL, begin, begin + length) == [], what
