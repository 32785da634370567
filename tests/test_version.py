"""The version lives in coop_lsp/__init__.py; everything that reports one reports that one."""

from __future__ import annotations

import json
import subprocess
import sys
from importlib.metadata import version
from pathlib import Path

import pytest

from coop_lsp import __version__

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent


def test_the_distribution_metadata_reads_it():
    assert version("coop-lsp") == __version__


@pytest.mark.parametrize("command", ["coop-lint", "coop-lsp"])
def test_the_commands_report_it(command):
    done = subprocess.run([str(BIN / command), "--version"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == [command, __version__]


def test_the_vscode_extension_has_the_same_version():
    # The extension and the server it starts are released together (docs/releasing.md).
    assert json.loads((ROOT / "vscode-client" / "package.json").read_text())["version"] == __version__
    lock = json.loads((ROOT / "vscode-client" / "package-lock.json").read_text())
    assert lock["version"] == lock["packages"][""]["version"] == __version__


def test_the_changelog_has_a_section_for_it():
    assert f"## {__version__} " in (ROOT / "CHANGELOG.md").read_text() + " "
