"""The server and templates: an active variant per file, the lines it leaves out, hover on macros, navigation
through #include, and an edit to an included file re-checking the file that includes it."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types as lsp
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities
from pytest_lsp.client import DEFAULT_CLIENT_FEATURES, register_lsp_features
from pygls.protocol import default_converter

pytestmark = pytest.mark.asyncio(loop_scope="function")

ROOT = Path(__file__).resolve().parent.parent
GEMM = ROOT / "examples" / "templates" / "cpp" / "gemm.wgsl"
COMMON = ROOT / "examples" / "templates" / "cpp" / "gemm_common.tmpl"


def _make_client() -> LanguageClient:
    client = LanguageClient(converter_factory=default_converter)
    client.published = []
    client.inactive = []

    def record(client_: LanguageClient, params: lsp.PublishDiagnosticsParams):
        client_.published.append(params)

    features = dict(DEFAULT_CLIENT_FEATURES)
    features[lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS] = record
    register_lsp_features(client, features)

    @client.feature("coop/inactiveRegions")
    def inactive(params):
        client.inactive.append(params)

    return client


@pytest_lsp.fixture(config=ClientServerConfig(server_command=[sys.executable, "-m", "coop_lsp.server.main"],
                                              client_factory=_make_client))
async def client(lsp_client: LanguageClient):
    lsp_client.set_configuration({"dialect": None, "rules": {}}, section="coop-lsp")
    await lsp_client.initialize_session(lsp.InitializeParams(
        capabilities=client_capabilities("visual-studio-code"), root_uri=ROOT.as_uri()))
    yield
    await lsp_client.shutdown_session()


def open_file(client: LanguageClient, path: Path, text: str | None = None, version: int = 1) -> str:
    uri = path.as_uri()
    client.text_document_did_open(lsp.DidOpenTextDocumentParams(text_document=lsp.TextDocumentItem(
        uri=uri, language_id="wgsl", version=version, text=path.read_text() if text is None else text)))
    return uri


async def wait_for(predicate, timeout: float = 15.0):
    deadline = asyncio.get_running_loop().time() + timeout
    while True:
        found = predicate()
        if found:
            return found
        if asyncio.get_running_loop().time() > deadline:
            raise AssertionError("timed out")
        await asyncio.sleep(0.02)


def regions_of(client: LanguageClient, uri: str, variant: str):
    found = [p for p in client.inactive if _get(p, "uri") == uri and _get(p, "variant") == variant]
    return found[-1] if found else None


def _get(params, key):
    return params[key] if isinstance(params, dict) else getattr(params, key)


def first_lines(params) -> list[int]:
    return [_get(_get(r, "start"), "line") + 1 for r in _get(params, "regions")]


def line_of(path: Path, text: str) -> int:
    """0-based line of the first line of `path` that holds `text`."""
    return next(i for i, line in enumerate(path.read_text().splitlines()) if text in line)


async def hover_text(client: LanguageClient, uri: str, line: int, character: int) -> str:
    result = await client.text_document_hover_async(lsp.HoverParams(
        text_document=lsp.TextDocumentIdentifier(uri=uri), position=lsp.Position(line=line, character=character)))
    return result.contents.value if result is not None else ""


async def test_the_first_set_is_active_and_its_left_out_lines_are_reported(client: LanguageClient):
    uri = open_file(client, GEMM)
    params = await wait_for(lambda: regions_of(client, uri, "8x8-f32"))
    assert _get(params, "variants") == ["8x8-f32", "8x8-f16", "16x16-f32", "16x16-f16"]
    lines = first_lines(params)
    assert line_of(GEMM, "#define ACC_TYPE f16") + 1 in lines  # ACC_F16 is not set in 8x8-f32
    assert line_of(GEMM, "#define TILE 16u") + 1 in lines
    assert line_of(GEMM, "#define TILE 8u") + 1 not in lines
    published = await wait_for(lambda: [p for p in client.published if p.uri == uri])
    assert list(published[-1].diagnostics) == []


async def test_hover_on_a_macro_shows_its_value_in_the_active_variant(client: LanguageClient):
    uri = open_file(client, GEMM)
    await wait_for(lambda: regions_of(client, uri, "8x8-f32"))
    line = line_of(GEMM, "alias TileA")
    column = GEMM.read_text().splitlines()[line].index("TILE")
    assert "#define TILE 8u" in await hover_text(client, uri, line, column)
    answer = await client.workspace_execute_command_async(lsp.ExecuteCommandParams(
        command="coop-lsp.selectVariant", arguments=[uri, "16x16-f16"]))
    assert answer == "16x16-f16"
    params = await wait_for(lambda: regions_of(client, uri, "16x16-f16"))
    assert line_of(GEMM, "#define TILE 8u") + 1 in first_lines(params)
    assert line_of(GEMM, "#define ACC_TYPE f16") + 1 not in first_lines(params)
    assert "#define TILE 16u" in await hover_text(client, uri, line, column)
    listed = await client.workspace_execute_command_async(lsp.ExecuteCommandParams(
        command="coop-lsp.variants", arguments=[uri]))
    assert _get(listed, "active") == "16x16-f16"
    refused = await client.workspace_execute_command_async(lsp.ExecuteCommandParams(
        command="coop-lsp.selectVariant", arguments=[uri, "32x32"]))
    assert "no variant named '32x32'" in refused


async def test_definition_follows_include_into_the_other_file(client: LanguageClient):
    uri = open_file(client, GEMM)
    await wait_for(lambda: regions_of(client, uri, "8x8-f32"))
    include_line = line_of(GEMM, "#include")
    result = await client.text_document_definition_async(lsp.DefinitionParams(
        text_document=lsp.TextDocumentIdentifier(uri=uri), position=lsp.Position(line=include_line, character=12)))
    assert [r.uri for r in result] == [COMMON.as_uri()]
    # `c` is declared in the included file.
    use_line = line_of(GEMM, "subgroupMatrixStore")
    column = GEMM.read_text().splitlines()[use_line].index("&c") + 1
    result = await client.text_document_definition_async(lsp.DefinitionParams(
        text_document=lsp.TextDocumentIdentifier(uri=uri), position=lsp.Position(line=use_line, character=column)))
    assert [(r.uri, r.range.start.line) for r in result] == [(COMMON.as_uri(), line_of(COMMON, "var<storage, read_write> c"))]


async def test_an_edit_to_an_included_file_rechecks_the_file_that_includes_it(client: LanguageClient, tmp_path):
    included = tmp_path / "shared.tmpl"
    included.write_text("const SCALE: f32 = 2.0;\n")
    template = tmp_path / "k.wgsl"
    template.write_text('#include "shared.tmpl"\nfn f() -> f32 { return SCALE; }\n')
    uri = open_file(client, template)
    await wait_for(lambda: [p for p in client.published if p.uri == uri and not p.diagnostics])
    shared_uri = open_file(client, included)
    client.text_document_did_change(lsp.DidChangeTextDocumentParams(
        text_document=lsp.VersionedTextDocumentIdentifier(uri=shared_uri, version=2),
        content_changes=[lsp.TextDocumentContentChangeWholeDocument(text="const SCALE: u32 = 2u;\n")]))
    found = await wait_for(lambda: [p for p in client.published if p.uri == uri and p.diagnostics])
    (diagnostic,) = found[-1].diagnostics
    assert diagnostic.range.start.line == 1 and diagnostic.code == "T003"


async def test_a_file_without_directives_using_its_hosts_macros_gets_one_m007_in_the_editor(client: LanguageClient,
                                                                                             tmp_path):
    # The same choice coop-lint makes (lint.files.host_macro_names): one finding for the names its host defines.
    path = tmp_path / "cumsum.wgsl"
    text = ("var<workgroup> s: array<f32, WG_SIZE>;\n@compute @workgroup_size(WG_SIZE)\n"
            "fn main(@builtin(local_invocation_id) lid: vec3u) {\n  s[lid.x] = f32(WG_SIZE);\n}\n")
    uri = open_file(client, path, text)
    published = await wait_for(lambda: [p for p in client.published if p.uri == uri])
    assert [(d.code, d.range.start.line) for d in published[-1].diagnostics] == [("M007", 0)]
    assert "macro its host defines (WG_SIZE)" in published[-1].diagnostics[0].message
