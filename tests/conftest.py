from __future__ import annotations

import os
import tempfile

import pytest
from hypothesis import settings

# CI runs the same inputs every time: a failure there reproduces here with CI=true.
# Outside CI, Hypothesis explores new inputs on each run.
settings.register_profile("ci", derandomize=True, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")

# The CLI and the server keep results in ~/.cache/coop-lint by default. The suite gets a cache of its own,
# empty at each start, so no test is answered from what an earlier run (or the developer's own linting)
# stored, and the suite leaves the user's cache alone. Tests of the default location unset this.
os.environ.setdefault("COOP_LINT_CACHE_DIR", tempfile.mkdtemp(prefix="coop-lint-test-cache-"))

from coop_lsp.devices.tint import TintOracle, TintUnavailable, tint_available

from .support import agreement


@pytest.fixture(scope="session")
def adapter():
    """The wgpu-native adapter's name (lavapipe in CI); tests that run kernels skip without one."""
    from coop_lsp.runner.execute import wgpu_adapter

    found, what = wgpu_adapter()
    if not found:
        pytest.skip(f"no wgpu-native adapter: {what} (install the wgpu package and, without a GPU, "
                    "Debian's mesa-vulkan-drivers libvulkan1)")
    return what


@pytest.fixture(scope="session")
def tint():
    """The pinned Tint on Dawn's Null backend; tests that need it skip without it."""
    if not tint_available():
        pytest.skip("wgpudawn is not installed")
    oracle = TintOracle()
    try:
        oracle.compile("")
    except TintUnavailable as error:
        pytest.skip(f"Tint is unavailable: {error}")
    yield oracle
    oracle.close()


def pytest_sessionfinish(session):
    # Under pytest-xdist (./dev test runs one worker per core) each worker records its own cases: it hands
    # them to the controller, which prints the summary of them all.
    workeroutput = getattr(session.config, "workeroutput", None)
    if workeroutput is not None:
        workeroutput["agreement"] = agreement.exported()


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node, error):
    found = getattr(node, "workeroutput", {}).get("agreement")
    if found is not None:
        agreement.merge(found)


def pytest_terminal_summary(terminalreporter):
    lines = agreement.summary_lines()
    if lines:
        terminalreporter.section("agreement with the real compilers")
        for line in lines:
            terminalreporter.write_line(line)


@pytest.fixture(scope="session")
def naga():
    """The pinned naga-cli (30.0.1, built into .tools by ./dev test); tests that need it skip without it."""
    from coop_lsp.devices.naga import NagaOracle, naga_available

    if not naga_available():
        pytest.skip("naga is not installed (./dev test builds it into .tools/bin)")
    oracle = NagaOracle()
    yield oracle
    oracle.close()


def pytest_configure(config):
    config.addinivalue_line("markers", "naga: asks the real naga (naga-cli 30.0.1 from .tools/bin)")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """Marks a test whose body failed, for fixtures that keep evidence (tests/test_vscode_e2e.py's screenshots)."""
    outcome = yield
    if call.when == "call" and outcome.get_result().failed:
        item.failed_call = True


@pytest.fixture
def counted(monkeypatch) -> list[int]:
    """The length of every re-parse the syntax repairs make (tests of their cost)."""
    from coop_lsp.syntax import diagnostics as syntax

    parses: list[int] = []
    parser = syntax._parser()

    class Counting:
        def parse(self, data, *args):
            parses.append(len(data))
            return parser.parse(data, *args)

    monkeypatch.setattr(syntax, "_parser", Counting)
    return parses
