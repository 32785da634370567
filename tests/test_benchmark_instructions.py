"""benchmarks/instructions.py's workloads run as written in a checkout, without valgrind: the script each
checkout's interpreter runs under callgrind must not rot when the benchmarks it borrows from change."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from benchmarks import instructions

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("workload", sorted(instructions.UNITS))
@pytest.mark.parametrize("repeat", [0, 1])
def test_each_workload_runs_with_and_without_its_work(workload, repeat):
    script = instructions._WORKLOAD.replace("VERSIONS", "2")
    completed = subprocess.run([sys.executable, "-c", script, workload, str(repeat), str(ROOT)], cwd=ROOT,
                               capture_output=True, text=True, env=dict(os.environ, PYTHONPATH=str(ROOT)),
                               timeout=600)
    assert completed.returncode == 0, completed.stderr[-2000:]


def test_a_units_count_is_the_work_done_once():
    from benchmarks.typing_cost import STATEMENT
    assert instructions._units("typing") == len(STATEMENT)
    assert instructions._units("cold") == 3 and instructions._units("counter") == instructions.VERSIONS


@pytest.mark.parametrize("given", ["typing_lead", "typing_lead.json"])
def test_a_result_named_as_a_file_is_written_once_under_that_name(tmp_path, given):
    from benchmarks.common import write_result
    path = write_result(given, {"x": 1}, folder=tmp_path)
    assert [p.name for p in tmp_path.iterdir()] == ["typing_lead.json"] and path == tmp_path / "typing_lead.json"
    assert json.loads(path.read_text())["benchmark"] == "typing_lead"


def test_the_typing_workload_keeps_its_text_and_the_large_one_makes_the_same_edit_among_more_functions():
    from benchmarks.server_matrix import documents
    from benchmarks.typing_cost import LARGE_KERNELS, _workload
    text, middle, code_line = _workload()
    assert text == documents(1, seed=1)[0] and (middle, code_line) == (530, 531)  # the figures before stay
    large, large_middle, large_code_line = _workload(LARGE_KERNELS)
    lines, large_lines = text.split("\n"), large.split("\n")
    assert 3_900 <= len(large_lines) <= 4_100 and large_code_line == large_middle + 1
    assert large_middle >= len(large_lines) // 2 - 1
    assert (large_lines[large_middle], large_lines[large_code_line]) == (lines[middle], lines[code_line])
    assert large.count("\nfn ") > 3 * text.count("\nfn ")
    assert instructions._units("typing_large") == instructions._units("typing")
