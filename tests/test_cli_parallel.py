"""Worker processes with jobs queued ahead: a death costs only the job that was running."""

import os
import signal

from coop_lsp.cli.parallel import IN_FLIGHT, MAX_AHEAD_BYTES, run_parallel


def _square_or_die(job):
    kind, value, marker = job
    if kind == "die" or (kind == "die once" and not os.path.exists(marker)):
        if marker:
            open(marker, "w").close()
        os.kill(os.getpid(), signal.SIGKILL)
    return value * value


def _run(jobs, workers=2):
    return run_parallel(jobs, _square_or_die, workers, on_death=lambda job, why: f"lost: {why}",
                        on_error=lambda job, trace: "error")


def test_jobs_queued_behind_a_dying_one_get_their_results(tmp_path):
    assert IN_FLIGHT > 1  # otherwise nothing is queued behind a running job
    jobs = [("ok", i, "") for i in range(6)]
    jobs[2] = ("die", 2, "")
    results = _run(jobs, workers=1)  # one worker: jobs 3.. were in its pipe when it died
    assert results[:2] == [0, 1] and results[3:] == [9, 16, 25]
    assert results[2] == "lost: killed by SIGKILL"


def test_a_job_whose_worker_dies_once_is_tried_again(tmp_path):
    jobs = [("ok", i, "") for i in range(5)]
    jobs[1] = ("die once", 1, str(tmp_path / "died"))
    assert _run(jobs, workers=1) == [0, 1, 4, 9, 16]


def test_large_jobs_are_not_sent_ahead_yet_all_answered():
    big = MAX_AHEAD_BYTES * 4
    jobs = [("ok", i, "x" * big) for i in range(4)]
    assert _run(jobs) == [0, 1, 4, 9]
