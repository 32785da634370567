"""benchmarks/server_instructions.py: its scripted session runs against the real server (without valgrind,
which takes minutes a session), and the figures it reports are its sessions' counts per edit."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from benchmarks import server_instructions
from benchmarks.server_instructions import WARM_UP, Session, figures_of, session

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("workload", server_instructions.WORKLOADS)
def test_the_client_reads_every_versions_diagnostics_and_the_server_exits_cleanly(workload):
    edits = 2
    done = session(ROOT, sys.executable, workload, edits, valgrind=False, timeout=300)
    # One publication per version, in order: each edit waits for its own (1 is the open).
    assert done.published == list(range(1, 2 + WARM_UP + edits))
    assert done.returncode == 0  # shutdown, then exit
    assert done.threads == {}  # nothing counted without valgrind


def test_figures_are_the_difference_per_edit_with_the_analysis_thread_apart():
    done = {1: 5_300_000, 2: 41_000_000, 3: 700_000}
    setup = {1: 2_000_000, 2: 1_000_000, 3: 500_000}
    figures = figures_of(done, setup, edits=10)
    assert figures["whole_M"] == 4.35
    assert figures["analysis_thread_M"] == 4.0
    assert figures["server_steps_M"] == 0.35  # the main thread and the stdin reader
    assert figures["by_thread_M"] == {1: 0.33, 2: 4.0, 3: 0.02}
    assert figures["with_edits"] is done and figures["set_up_only"] is setup


def test_a_thread_in_one_session_only_counts_as_none_in_the_other():
    figures = figures_of({1: 3_000_000, 2: 2_000_000, 4: 1_000_000}, {1: 1_000_000, 2: 2_000_000}, edits=1)
    assert figures["by_thread_M"] == {1: 2.0, 2: 0.0, 4: 1.0} and figures["whole_M"] == 3.0


def test_the_result_holds_each_checkout_and_workload(monkeypatch, tmp_path):
    counts = {0: {1: 10_000_000, 2: 20_000_000}, 4: {1: 18_000_000, 2: 100_000_000}}
    runs = []

    def counted(root, python, workload, edits, keep=None, valgrind=True, timeout=None):
        runs.append((workload, edits, valgrind))
        return Session(dict(counts[edits]), list(range(1, 2 + WARM_UP + edits)), 0)

    written = {}

    def write(name, figures, notes=""):
        written.update(name=name, figures=figures)
        return tmp_path / name

    monkeypatch.setattr(server_instructions, "session", counted)
    monkeypatch.setattr(server_instructions, "write_result", write)
    monkeypatch.setattr(server_instructions.shutil, "which", lambda name: "/usr/bin/" + name)
    assert server_instructions.main(["--checkout", str(ROOT), "--edits", "4", "--result", "server_x"]) == 0
    assert runs == [("literal", 4, True), ("literal", 0, True), ("lines", 4, True), ("lines", 0, True)]
    figures = written["figures"]
    assert written["name"] == "server_x" and figures["edits"] == 4
    per = figures["checkouts"][str(ROOT)]
    assert set(per) == set(server_instructions.WORKLOADS)
    assert per["literal"]["whole_M"] == 22.0 and per["literal"]["server_steps_M"] == 2.0
    json.dumps(figures)  # what write_result writes


def test_without_valgrind_the_command_line_says_so(monkeypatch, capsys):
    monkeypatch.setattr(server_instructions.shutil, "which", lambda name: None)
    assert server_instructions.main(["--result", "unused"]) == 2
    assert "valgrind is not installed" in capsys.readouterr().err
