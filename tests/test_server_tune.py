"""Tuning a kernel from the editor, over stdio: the "Tune kernel" lens where the run description gives a
search space, progress per variant, the report written to the workspace's .coop-lint/tune/ and shown,
and cancellation that leaves no run behind.

The tunes run emulated on lavapipe (wgpu-native); they skip without it.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types as lsp
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

from tests.test_server import _make_client, open_document, published

ASYNC = pytest.mark.asyncio(loop_scope="function")


@pytest.fixture(scope="module")
def lavapipe(adapter):
    """The tunes target lavapipe: this host's adapters must include it (a GPU-only host skips)."""
    from coop_lsp.runner.tune.targets import local_adapters

    if "cpu:lavapipe" not in local_adapters():
        pytest.skip("the wgpu-native adapter is not lavapipe")

KERNEL = ("@group(0) @binding(0) var<storage, read_write> c: array<f32>;\n"
          "@compute @workgroup_size(4) fn main(@builtin(global_invocation_id) g: vec3<u32>) {\n"
          "    c[g.x] = f32(g.x);\n}\n")
# N is a [sizes] entry: the dispatch, the buffer and the check follow it, so each size is one variant.
DESCRIPTION = ('dispatch = ["N / 4"]\n[sizes]\nN = 4\n[[binding]]\nbinding = 0\ntype = "f32"\nsize = "N"\n'
               '[check]\nkind = "expression"\noutput = "c"\nexpected = "np.arange(N)"\n[timing]\nrepetitions = 1\n')
SPACE = '[tune]\ntargets = ["lavapipe"]\nsizes = { N = [4, 8] }\n'
# Each invocation counts to 2^32: the first variant is still running when the test cancels.
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


def kernel_file(tmp_path: Path, text: str, description: str) -> str:
    (tmp_path / "k.wgsl").write_text(text)
    (tmp_path / "k.run.toml").write_text(description)
    return (tmp_path / "k.wgsl").as_uri()


async def lenses(client: LanguageClient, uri: str) -> list[tuple[str, str]]:
    found = await client.text_document_code_lens_async(lsp.CodeLensParams(
        text_document=lsp.TextDocumentIdentifier(uri=uri)))
    return [(lens.command.title, lens.command.command) for lens in found or []]


async def tune(client: LanguageClient, uri: str):
    return await client.workspace_execute_command_async(lsp.ExecuteCommandParams(
        command="coop-lsp.tuneKernel", arguments=[uri, "main"]))


def test_the_outputs_stay_in_the_workspace_whatever_the_kernel_is_called(tmp_path):
    from coop_lsp.server.tune_command import output_paths

    paths = output_paths(tmp_path, Path("/elsewhere/../we ird;name.wgsl"))
    assert paths["report"] == (tmp_path / ".coop-lint" / "tune" / "we_ird_name.tune.html").resolve()
    assert {p.parent for p in paths.values()} == {(tmp_path / ".coop-lint" / "tune").resolve()}
    # An output folder that leads out of the workspace (a link) is refused, not written through.
    outside = tmp_path / "outside"
    (tmp_path / "w").mkdir()
    outside.mkdir()
    (tmp_path / "w" / ".coop-lint").symlink_to(outside)
    with pytest.raises(ValueError, match="outside the workspace"):
        output_paths(tmp_path / "w", Path("k.wgsl"))


def runner_children(server_pid: int) -> list[int]:
    """The server's child processes that run a variant (runner.execute's worker)."""
    out = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            cmdline = (entry / "cmdline").read_bytes()
        except (OSError, IndexError, ValueError):
            continue
        if ppid == server_pid and b"coop_lsp.runner.worker" in cmdline:
            out.append(int(entry.name))
    return out


@ASYNC
async def test_the_tune_lens_is_beside_run_only_where_there_is_a_search_space(client, tmp_path):
    uri = kernel_file(tmp_path, KERNEL, DESCRIPTION + SPACE)
    open_document(client, KERNEL, uri)
    await published(client, uri, 1)
    assert await lenses(client, uri) == [("Run kernel", "coop-lsp.runKernel"),
                                         ("Tune kernel", "coop-lsp.tuneKernel")]
    # One size is one variant: nothing to tune, only to run.
    (tmp_path / "k.run.toml").write_text(DESCRIPTION)
    os.utime(tmp_path / "k.run.toml", ns=(1, 1))
    assert await lenses(client, uri) == [("Run kernel", "coop-lsp.runKernel")]


@ASYNC
async def test_a_tune_reports_each_variant_writes_the_report_and_shows_it(client, tmp_path, lavapipe):
    uri = kernel_file(tmp_path, KERNEL, DESCRIPTION + SPACE)
    open_document(client, KERNEL, uri)
    await published(client, uri, 1)
    result = await asyncio.wait_for(tune(client, uri), timeout=120)
    assert result["status"] == "done", result["markdown"]
    steps = [getattr(v, "message", None) for values in client.progress_reports.values() for v in values]
    assert steps[0] == "starting" and steps[1] == "0/2 variants (0 pruned by the linter)", steps
    assert steps[2].startswith("1/2 variants, best so far lavapipe: N=") and steps[3].startswith("2/2 variants"), steps
    assert steps[-1] == "done"
    folder = tmp_path / ".coop-lint" / "tune"
    assert Path(result["report"]) == folder / "k.tune.html"
    page = (folder / "k.tune.html").read_text()
    assert page.startswith("<!doctype html>") and "N=4" in page and "N=8" in page
    tuned = json.loads((folder / "k.tuned.json").read_text())
    assert tuned["format"] == "coop-lint-tuned" and tuned["targets"]["lavapipe"]["sizes"] in ({"N": 4}, {"N": 8})
    records = [json.loads(line) for line in (folder / "k.tune.jsonl").read_text().splitlines()[1:]]
    assert sorted(r["status"] for r in records) == ["correct", "correct"]
    assert [d.uri for d in client.shown_documents] == [(folder / "k.tune.html").as_uri()]
    assert client.shown_documents[0].external
    assert any(m.message.startswith("coop-lsp: Tune of k.wgsl") for m in client.messages)


@ASYNC
async def test_a_cancelled_tune_launches_nothing_more_and_leaves_no_run_behind(client, tmp_path, lavapipe):
    uri = kernel_file(tmp_path, ENDLESS, DESCRIPTION.replace('dispatch = ["N / 4"]', "dispatch = [65535, 64]")
                      .replace('expected = "np.arange(N)"', 'expected = "np.zeros(N)"') + "timeout_s = 120\n"
                      + SPACE)
    open_document(client, ENDLESS, uri)
    await published(client, uri, 1)
    running = asyncio.ensure_future(tune(client, uri))
    pid = client._server.pid
    for _ in range(300):
        if runner_children(pid):
            break
        await asyncio.sleep(0.1)
    assert runner_children(pid), "the first variant never started"
    assert not running.done()
    cancelled = await client.workspace_execute_command_async(lsp.ExecuteCommandParams(
        command="coop-lsp.cancelRun", arguments=[uri]))
    assert cancelled == 1
    result = await asyncio.wait_for(running, timeout=20)
    assert result["status"] == "cancelled" and "after 0/2 variants" in result["markdown"], result
    assert runner_children(pid) == []
    # The second variant was never launched, the first was killed: its record says so.
    lines = (tmp_path / ".coop-lint" / "tune" / "k.tune.jsonl").read_text().splitlines()[1:]
    assert [json.loads(line)["status"] for line in lines] == ["cancelled"]
    assert client.shown_documents == []
