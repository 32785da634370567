"""The server's coop-lsp.runKernel command, through its protocol-free core."""

from __future__ import annotations

import pytest

from coop_lsp.runner.execute import wgpu_adapter
from coop_lsp.server.run_command import run_report_markdown

KERNEL = ("@group(0) @binding(0) var<storage, read_write> c: array<f32>;\n"
          "@compute @workgroup_size(4) fn main(@builtin(local_invocation_index) i: u32) {\n"
          "    c[i] = f32(i);\n}\n")


def test_missing_description_is_explained(tmp_path):
    kernel = tmp_path / "k.wgsl"
    kernel.write_text(KERNEL)
    markdown, ok = run_report_markdown(kernel.as_uri(), None, None)
    assert not ok and "no run description: write k.run.toml beside the kernel" in markdown


def test_untitled_documents_cannot_run():
    markdown, ok = run_report_markdown("untitled:Untitled-1", None, KERNEL)
    assert not ok and "saved as files" in markdown


def test_a_python_without_numpy_is_told_what_to_install(tmp_path, monkeypatch):
    """The VS Code extension's bundled server runs on the user's Python, which may lack the `run` extra."""
    import coop_lsp.runner.execute as execute

    def no_numpy(*args, **kwargs):
        raise ModuleNotFoundError("No module named 'numpy'", name="numpy")

    monkeypatch.setattr(execute, "run_kernel", no_numpy)
    kernel = tmp_path / "k.wgsl"
    kernel.write_text(KERNEL)
    (tmp_path / "k.run.toml").write_text('dispatch = [1]\n[[binding]]\nbinding = 0\ntype = "f32"\nsize = 4\n')
    markdown, ok = run_report_markdown(kernel.as_uri(), "main", KERNEL, tmp_path)
    assert not ok
    assert "needs the Python package `numpy`" in markdown and "-m pip install wgpu numpy" in markdown, markdown
    assert "Traceback" not in markdown


def test_runs_the_editor_text(tmp_path):
    found, what = wgpu_adapter()
    if not found:
        pytest.skip(f"no wgpu-native adapter: {what}")
    kernel = tmp_path / "k.wgsl"
    kernel.write_text(KERNEL.replace("f32(i)", "0.0"))  # the saved file is wrong; the editor's text is right
    (tmp_path / "k.run.toml").write_text(
        'dispatch = [1]\n[[binding]]\nbinding = 0\ntype = "f32"\nsize = 4\n'
        '[check]\nkind = "expression"\noutput = "c"\nexpected = "np.arange(4)"\n[timing]\nrepetitions = 1\n')
    markdown, ok = run_report_markdown(kernel.as_uri(), "main", KERNEL, tmp_path)
    assert ok, markdown
    assert markdown.startswith("## k.wgsl: CORRECT") and "- c: correct" in markdown
