"""One kernel run lints the kernel once, and what reads the kernel after the run (the performance
advice of `coop-lint run --explain` and of the editor's run) uses that lint.

Before, a run with [constants] linted the text up to five times: loading the kernel, loading it again
with the constants written in, the translation to Tint's dialect loading it a third time, and the advice
loading it and linting it once more. The count is taken at the engine's one entry (lint.engine._lint),
which every lint_source and lint_parsed goes through.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from coop_lsp.ide.explain import advice_markdown, explain, performance_findings
from coop_lsp.lint import engine
from coop_lsp.runner import execute
from coop_lsp.runner.description import parse_run_description
from coop_lsp.runner.execute import run_kernel

ROOT = Path(__file__).resolve().parent.parent
KERNEL = ROOT / "examples" / "chromium" / "gemm_naive.wgsl"


def _description():
    path = ROOT / "examples" / "runs" / "gemm_naive.run.toml"
    text = path.read_text()
    text = re.sub(r"(?m)^M = \d+\nN = \d+\nK = \d+$", "M = 32\nN = 32\nK = 32", text)
    text = re.sub(r"(?m)^warmup = \d+$", "warmup = 0", text)
    text = re.sub(r"(?m)^repetitions = \d+$", "repetitions = 1", text)
    description = parse_run_description(text, path)
    description.timeout_s = 180
    assert description.constants, "the example must write constants in (the case that used to lint twice)"
    return description


@pytest.fixture
def lints(monkeypatch):
    """The texts the engine linted, in order."""
    seen: list[bytes] = []
    real = engine._lint

    def counting(parsed, *args, **kwargs):
        seen.append(parsed.source.data)
        return real(parsed, *args, **kwargs)

    monkeypatch.setattr(engine, "_lint", counting)
    return seen


def _kernel_lints(seen: list[bytes], ran: str) -> int:
    """Lints of the kernel itself (as written, or as it ran with the constants in), not of WGSL the runner
    generated (the emulation checks its own output for barriers in non-uniform control flow)."""
    written = KERNEL.read_bytes()
    return sum(1 for data in seen if data in (written, ran.encode()))


def test_an_emulated_run_and_its_advice_lint_the_kernel_once(adapter, lints):
    report = run_kernel(KERNEL, _description(), backend="emulate")
    assert report.ok, report.error
    assert report.lint is not None and report.lint.model is not None
    ran = report.lint.source.text
    assert ran != KERNEL.read_text()  # linted with the constants written in, as it ran
    advice_markdown(report)
    explain(report, lambda robustness: pytest.fail("no second run for an emulation"))
    performance_findings(report.lint, "nvidia-h100")  # a profile that has findings to give
    assert _kernel_lints(lints, ran) == 1
    assert "lint" not in report.to_json()


def test_a_translated_run_lints_the_kernel_once(lints, monkeypatch):
    # The Dawn path without Dawn: the kernel is loaded, translated to Tint's dialect, and handed to a
    # stand-in for the worker that fails before compiling (no predictions: they lint against profiles).
    monkeypatch.setattr(execute, "choose_backend", lambda dialect, requested: ("dawn", False))
    handed = []

    def no_gpu(code, *args, **kwargs):
        handed.append(code)
        return None, None

    monkeypatch.setattr(execute, "_execute", no_gpu)
    report = run_kernel(KERNEL, _description(), backend="dawn")
    assert handed and report.lint is not None
    assert _kernel_lints(lints, report.lint.source.text) == 1
    assert len(lints) == 1
