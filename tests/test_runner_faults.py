"""Runner faults on wgpu-native (lavapipe in CI): endless loops, out-of-bounds access, huge and invalid
dispatches, a worker killed by a signal, a parent killed mid-run, and the same through the language server.

Each must be reported with its reason and stage, leave no process of the worker's session and no job
directory behind, and be followed by a run that comes out right. The faults themselves live in
tests/support/runner_faults.py, which benchmarks/stress.py runs too.

Device loss is not here: no fault we could inject made lavapipe report a lost
device (it runs shaders on CPU threads with no GPU watchdog, robustness2 makes
stray accesses harmless, and it cuts loops at 65,535 iterations), and a test
that called device.destroy() would be faking it. On a real GPU one fault does
lose the device (an emulation the driver will not compile, through
wgpu-native): benchmarks/runner_faults_gpu.py runs it there, with all of these;
tests/test_runner_failure_notes.py checks how the runner reports it.
"""

from __future__ import annotations

import pytest

from .support import runner_faults
from .support.runner_faults import FAULTS


@pytest.mark.parametrize("fault", FAULTS, ids=[f.name for f in FAULTS])
def test_fault_is_reported_and_the_next_run_works(adapter, fault, tmp_path):
    outcome = runner_faults.run_fault(fault, tmp_path)
    assert outcome.problems == [], "\n".join(outcome.problems)
    assert outcome.seconds < 30


def test_parent_killed_mid_run_takes_its_worker_along(adapter, tmp_path):
    problems, _ = runner_faults.parent_killed(tmp_path)
    assert problems == []


def test_server_reports_a_hanging_kernel_and_keeps_serving(adapter, tmp_path):
    problems, figures = runner_faults.server_hang(tmp_path)
    assert problems == []
    assert figures["hover_ms_during_run"] < 2000


def test_server_whose_client_vanishes_mid_run_exits_with_its_worker(adapter, tmp_path):
    problems, figures = runner_faults.server_client_vanishes(tmp_path)
    assert problems == []
