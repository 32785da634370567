"""The attack suite's vectors as the editor meets them (tests/test_attacks.py has the CLI's): an include or
import that leaves the workspace folder is an error diagnostic naming the path, and nothing of the file
outside shows."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types as lsp
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

pytestmark = pytest.mark.asyncio(loop_scope="function")

SECRET = "SECRET_51d0e2"


@pytest.fixture
def repository(tmp_path: Path) -> Path:
    repo, outside = tmp_path / "repo", tmp_path / "outside"
    repo.mkdir()
    outside.mkdir()
    (outside / "secret.wgsl").write_text(f"const {SECRET}: u32 = 1.5;\n")
    (repo / "linked.wgsl").symlink_to(outside / "secret.wgsl")
    (repo / "k.wgsl").write_text('#include "../outside/secret.wgsl"\n#include "linked.wgsl"\n'
                                 "@compute @workgroup_size(1) fn main() {}\n")
    return repo


@pytest_lsp.fixture(config=ClientServerConfig(server_command=[sys.executable, "-m", "coop_lsp.server.main"]))
async def client(lsp_client: LanguageClient, repository: Path):
    lsp_client.set_configuration({"dialect": None, "rules": {}}, section="coop-lsp")
    await lsp_client.initialize_session(lsp.InitializeParams(
        capabilities=client_capabilities("visual-studio-code"), root_uri=repository.as_uri(),
        workspace_folders=[lsp.WorkspaceFolder(uri=repository.as_uri(), name="repo")]))
    yield
    await lsp_client.shutdown_session()


async def test_an_include_out_of_the_workspace_folder_is_an_error_diagnostic(client: LanguageClient,
                                                                            repository: Path):
    path = repository / "k.wgsl"
    uri = path.as_uri()
    client.text_document_did_open(lsp.DidOpenTextDocumentParams(text_document=lsp.TextDocumentItem(
        uri=uri, language_id="wgsl", version=1, text=path.read_text())))
    deadline = asyncio.get_running_loop().time() + 30
    while not client.diagnostics.get(uri):
        assert asyncio.get_running_loop().time() < deadline, "no diagnostics"
        await asyncio.sleep(0.05)
    diagnostics = client.diagnostics[uri]
    refused = [d for d in diagnostics if d.code == "M011"]
    assert [d.range.start.line for d in refused] == [0, 1]
    assert all(d.severity == lsp.DiagnosticSeverity.Error and "leaves the workspace" in d.message for d in refused)
    assert "'../outside/secret.wgsl'" in refused[0].message and "'linked.wgsl'" in refused[1].message
    # Nothing of the file outside is shown, on this document or on the file itself.
    assert not any(SECRET in d.message for published in client.diagnostics.values() for d in published)
    assert not [u for u in client.diagnostics if "outside" in u]
