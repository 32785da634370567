"""`coop-lint tune` (docs/tune.md): the search space, pruning by the linter, the result file, and the runs:
locally (no engine) and on Dask's local cluster with two CPU workers, emulated on lavapipe. The runs skip
without a wgpu-native adapter, the cluster's without Dask (pip install 'coop-lsp[tune]')."""

from __future__ import annotations

import json
import os
import signal
import time
from pathlib import Path

import pytest

from coop_lsp.cli.main import main as cli_main
from coop_lsp.runner.tune.local import LocalExecutor
from coop_lsp.runner.tune.report import summary_table, tuned_json
from coop_lsp.runner.tune.results import ResultFile
from coop_lsp.runner.tune.session import TuneSession
from coop_lsp.runner.tune.space import TuneError, TuneSection, build_space, define_axes, read_tune_section
from coop_lsp.runner.tune.targets import Target, resolve

ROOT = Path(__file__).resolve().parent.parent
TEMPLATE = ROOT / "examples" / "templates" / "cpp" / "gemm.wgsl"
RUN = TEMPLATE.with_name("gemm.run.toml")
# The runs' space: a correct set, one the run description's dispatch does not fit (wrong results) and one
# whose output type the description does not match (an error before it runs), at two workgroup sizes.
RUN_SETS = ("16x16-f32", "8x8-f32", "16x16-f16")
H100, LAVAPIPE = resolve(["nvidia-h100", "lavapipe"])


def space(variants=("16x16-f32", "8x8-f32"), defines=("WORKGROUP_SIZE=32u,64u",)):
    return build_space(TEMPLATE, RUN, TuneSection(), define_axes(list(defines)), {},
                       list(variants) if variants is not None else None)


# ------------------------------------------------------------------ the space and the pruning
def test_the_space_multiplies_variant_sets_and_define_axes():
    candidates = space()
    # In the configuration's order of the sets, the last axis fastest.
    assert [c.label for c in candidates] == [
        "8x8-f32 WORKGROUP_SIZE=32u", "16x16-f32 WORKGROUP_SIZE=32u",
        "8x8-f32 WORKGROUP_SIZE=64u", "16x16-f32 WORKGROUP_SIZE=64u"]
    first = dict(candidates[1].defines)
    # The set's defines, the run description's [template] defines, and the axis value on top.
    assert first["TILE_16"] == "" and first["M"] == "64u" and first["WORKGROUP_SIZE"] == "32u"
    assert len({c.key for c in candidates}) == 4


def test_every_configured_set_is_tried_without_variant_names():
    assert [c.variant for c in space(variants=None, defines=())] == ["8x8-f32", "8x8-f16", "16x16-f32", "16x16-f16"]


@pytest.mark.parametrize("arguments, message", [
    (["1X=2"], "must be an identifier"),
    (["TILE=8", "TILE=16"], "TILE is given twice"),
])
def test_malformed_define_axes_say_what_is_wrong(arguments, message):
    with pytest.raises(TuneError, match=message):
        define_axes(arguments)


def test_an_unknown_variant_set_or_size_is_refused():
    with pytest.raises(TuneError, match="no configured set of that name"):
        space(variants=["32x32"])
    with pytest.raises(TuneError, match="BM: not a \\[sizes\\] entry"):
        build_space(TEMPLATE, RUN, TuneSection(), {}, {"BM": [64]}, ["16x16-f32"])


def test_the_tune_section_of_the_run_description(tmp_path):
    run = tmp_path / "k.run.toml"
    run.write_text(RUN.read_text() + '\n[tune]\ntargets = ["lavapipe"]\nvariants = ["16x16-f32"]\n'
                   'defines = { WORKGROUP_SIZE = ["32u", "64u"] }\nsizes = { K = [64, 128] }\n')
    section = read_tune_section(run)
    assert section.targets == ["lavapipe"] and section.variants == ["16x16-f32"]
    assert section.defines == {"WORKGROUP_SIZE": ["32u", "64u"]} and section.sizes == {"K": [64, 128]}
    run.write_text(RUN.read_text() + "\n[tune]\ntarget = ['lavapipe']\n")
    with pytest.raises(TuneError, match="tune.target: unknown key"):
        read_tune_section(run)


def test_what_a_target_cannot_run_is_pruned_with_the_reason():
    session = TuneSession(TEMPLATE, RUN, space(), [H100, LAVAPIPE])
    pruned = {(c.label, t.name): reason for c, t, reason in session.pruned()}
    # H100 has no 8x8 configuration; lavapipe emulates every configuration.
    assert set(pruned) == {("8x8-f32 WORKGROUP_SIZE=32u", "nvidia-h100"), ("8x8-f32 WORKGROUP_SIZE=64u", "nvidia-h100")}
    assert all(reason.startswith("D001 ") and "M=8, N=8, K=8" in reason for reason in pruned.values())
    # Performance findings are kept beside the runs, never prune.
    assert any(f.startswith("P") for v in session.verdicts.values() for f in v.findings)


# ------------------------------------------------------------------ the result file
def test_a_second_tune_on_one_result_file_is_refused(tmp_path):
    path = tmp_path / "r.jsonl"
    with ResultFile(path, "gemm.wgsl"):
        with pytest.raises(TuneError, match="another tune is writing it"):
            with ResultFile(path, "gemm.wgsl"):
                pass
    with ResultFile(path, "gemm.wgsl"):  # released at the end
        pass


def test_a_stale_lock_is_taken_over_and_a_torn_record_skipped(tmp_path):
    path = tmp_path / "r.jsonl"
    with ResultFile(path, "gemm.wgsl") as results:
        results.append({"key": "a", "target": "lavapipe", "status": "correct"})
        results.append({"key": "b", "target": "lavapipe", "status": "not run"})
    with path.open("a") as handle:
        handle.write('{"key": "c", "target": "lav')  # killed mid-write
    dead = os.fork()
    if dead == 0:
        os._exit(0)
    os.waitpid(dead, 0)
    path.with_name("r.jsonl.lock").write_text(json.dumps({"host": os.uname().nodename, "pid": dead}))
    with ResultFile(path, "gemm.wgsl") as results:
        # Only finished runs count as done: a run that never happened is run again.
        assert set(results.done()) == {("a", "lavapipe")}
        results.append({"key": "c", "target": "lavapipe", "status": "correct"})
    with ResultFile(path, "gemm.wgsl") as results:
        assert set(results.done()) == {("a", "lavapipe"), ("c", "lavapipe")}
    with pytest.raises(TuneError, match="not a result file of a tune of other.wgsl"):
        with ResultFile(path, "other.wgsl"):
            pass


def test_the_json_for_backends_names_each_targets_best_defines():
    def record(key, target, ms, status="correct"):
        return {"key": key, "target": target, "label": key, "status": status, "median_ms": ms, "tflops": 1.0 / ms,
                "candidate": {"variant": None, "defines": {"TILE": key}, "sizes": {}}}

    records = [record("8", "lavapipe", 2.0), record("16", "lavapipe", 1.0), record("32", "lavapipe", 0.5, "incorrect")]
    tuned = tuned_json(records, [LAVAPIPE, H100], "k.wgsl")
    assert tuned["targets"]["lavapipe"]["defines"] == {"TILE": "16"}
    assert tuned["untuned"] == {"nvidia-h100": "no correct variant (no variants)"}
    row = summary_table(records, [LAVAPIPE]).splitlines()[1].split()
    # best, its time, TFLOP/s, no peak known, correct of run, the next best and how much slower
    assert row == ["lavapipe", "16", "1.0000", "1.0", "-", "2/3", "8", "(2.00x)", "0", "3"]


# ------------------------------------------------------------------ runs (lavapipe)
def outcome(records):
    return {(r["key"], r["target"]): (r["status"], r.get("max_abs_error")) for r in records}


@pytest.fixture(scope="module")
def single(adapter, tmp_path_factory):
    """The reference: the space run in this process's executor, one adapter, no engine."""
    from coop_lsp.runner.tune.targets import local_adapters

    adapters = {r: s for r, s in local_adapters().items() if r == "cpu:lavapipe"}
    if not adapters:
        pytest.skip("the wgpu-native adapter is not lavapipe")
    path = tmp_path_factory.mktemp("tune") / "single.jsonl"
    session = TuneSession(TEMPLATE, RUN, space(RUN_SETS), [LAVAPIPE])
    with ResultFile(path, TEMPLATE.name) as results:
        records = session.run(LocalExecutor(adapters), results)
    return adapters, path, records


def test_a_local_tune_checks_every_variant_and_resumes(single):
    adapters, path, records = single
    statuses = {r["label"]: r["status"] for r in records}
    # The run description dispatches 16x16 tiles: the 8x8 variants compute a quarter of C, which the check sees.
    assert statuses == {"16x16-f32 WORKGROUP_SIZE=32u": "correct", "8x8-f32 WORKGROUP_SIZE=32u": "incorrect",
                        "16x16-f32 WORKGROUP_SIZE=64u": "correct", "8x8-f32 WORKGROUP_SIZE=64u": "incorrect",
                        "16x16-f16 WORKGROUP_SIZE=32u": "error", "16x16-f16 WORKGROUP_SIZE=64u": "error"}
    # A variant that cannot run is reported with its defines and why; the others went on.
    failed = next(r for r in records if r["status"] == "error")
    assert failed["candidate"]["defines"]["ACC_F16"] == "" and "'c' holds f16" in failed["error"]
    session = TuneSession(TEMPLATE, RUN, space(RUN_SETS), [LAVAPIPE])
    ran = []
    with ResultFile(path, TEMPLATE.name) as results:
        again = session.run(LocalExecutor(adapters), results, lambda r, i, n: ran.append(r))
    assert not ran and outcome(again) == outcome(records)


def test_dask_local_cluster_equals_one_process_and_survives_a_killed_worker(single):
    pytest.importorskip("distributed")
    from distributed import Client

    from coop_lsp.runner.tune.cluster import DaskExecutor, local_cluster

    adapters, _, reference = single
    started = time.perf_counter()
    with local_cluster(adapters, 2) as cluster, Client(cluster, set_as_default=False) as client:
        executor = DaskExecutor(client)
        assert executor.resources() == {"cpu:lavapipe"}
        pids = client.run(os.getpid)
        killed: list[str] = []

        def kill_the_other(record, done, total):
            # The first result comes from one worker while the other is mid-run: kill that one.
            if not killed:
                victim = next(a for a in pids if a != record["worker"]["address"])
                os.kill(pids[victim], signal.SIGKILL)
                killed.extend([victim, time.time()])

        records = TuneSession(TEMPLATE, RUN, space(RUN_SETS), [LAVAPIPE]).run(executor, None, kill_the_other)
    assert outcome(records) == outcome(reference)
    victim, kill_time = killed
    # Whatever the killed worker had not finished ran again on a live one: nothing is lost, nothing missing.
    assert all(r["worker"]["finished"] < kill_time for r in records if r["worker"].get("address") == victim)
    assert sum(r["worker"].get("address") != victim for r in records) >= len(records) - 1
    assert time.perf_counter() - started < 90


def test_a_scheduler_that_does_not_answer_is_a_clear_error_within_seconds():
    pytest.importorskip("distributed")
    from coop_lsp.runner.tune.cluster import DaskExecutor

    started = time.perf_counter()
    with pytest.raises(TuneError, match="scheduler at tcp://127.0.0.1:9 did not answer within 2 s"):
        DaskExecutor.connect("tcp://127.0.0.1:9", timeout_s=2)
    assert time.perf_counter() - started < 10


def test_a_target_no_worker_has_is_named_at_the_start(adapter, tmp_path, capsys):
    out = tmp_path / "tuned.json"
    code = cli_main(["tune", str(TEMPLATE), "--target", "nvidia-h100", "--variant", "16x16-f32",
                     "--results", str(tmp_path / "r.jsonl"), "--output", str(out)])
    err = capsys.readouterr().err
    assert code == 1
    assert "no worker has gpu:nvidia-h100: the variants for nvidia-h100 are not run" in err
    assert json.loads(out.read_text())["untuned"] == {"nvidia-h100": "no correct variant (not run)"}


def test_plain_lint_and_a_tune_without_a_cluster_load_no_engine():
    import subprocess
    import sys

    code = ("import sys; from coop_lsp.cli.main import main; main([sys.argv[1]]); "
            "main(['tune', sys.argv[2], '--target', 'nvidia-h100', '--lint-only']); "
            "print('engine loaded:', 'distributed' in sys.modules or 'dask' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code, str(ROOT / "examples" / "chromium" / "gemm_naive.wgsl"),
                           str(TEMPLATE)], capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert "engine loaded: False" in done.stdout, done.stderr


def test_the_html_report_has_the_summary_the_pruned_and_each_targets_chart():
    from coop_lsp.runner.execute import RunReport
    from coop_lsp.runner.tune.report import tune_page

    def record(label, status, ms=None, error=""):
        report = RunReport(kernel="k.wgsl", status=status, adapter="NVIDIA H100 80GB HBM3", error=error)
        if ms:
            report.timing = {"median_ms": ms, "min_ms": ms, "max_ms": ms, "repetitions": 1, "warmup": 0, "source": "GPU"}
            report.tflops = 137.4 / ms
        return {"key": label, "target": "nvidia-h100", "label": label, "status": status, "median_ms": ms,
                "tflops": report.tflops, "error": error, "report": report.to_json() if status != "pruned" else None,
                "candidate": {"variant": None, "defines": {}, "sizes": {}}, "findings": ["P004 occupancy"]}

    records = [record("TILE=8", "pruned", error="D001 not offered"), record("TILE=16 BK=16", "correct", 0.85),
               record("TILE=16 BK=32", "failed", error="compile error")]
    page = tune_page(records, [H100], "k.wgsl", ["48 variants"])
    assert page.count("<svg") >= 1 and "TILE=16 BK=16" in page
    assert "1 variants pruned by the linter before running" in page and "D001 not offered" in page
    assert "compile error" in page and "P004" in page


def test_coop_lint_worker_serves_a_scheduler_and_its_loss_is_reported(single, tmp_path, capsys):
    pytest.importorskip("distributed")
    import socket
    import subprocess
    import sys

    from coop_lsp.runner.tune.cluster import DaskExecutor

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    address = f"tcp://127.0.0.1:{port}"
    scheduler = subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_scheduler", "--host", "127.0.0.1",
                                  "--port", str(port), "--no-dashboard"], stdout=subprocess.DEVNULL,
                                 stderr=subprocess.DEVNULL)
    worker = None
    try:
        time.sleep(2)
        worker = subprocess.Popen([sys.executable, "-m", "coop_lsp.cli.main", "worker", "--scheduler", address],
                                  stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, cwd=ROOT,
                                  start_new_session=True)
        # The worker says where it serves once it is registered.
        assert "cpu:lavapipe" in worker.stdout.readline()
        code = cli_main(["tune", str(TEMPLATE), "--target", "lavapipe", "--variant", "16x16-f32", "--cluster", address,
                         "--results", str(tmp_path / "r.jsonl"), "--format", "json"])
        records = json.loads(capsys.readouterr().out)["records"]
        assert code == 0 and [r["status"] for r in records] == ["correct"]
        assert records[0]["worker"]["address"].startswith("tcp://")

        # The only worker with lavapipe dies, and no nanny brings it back: what it had not run is reported.
        executor = DaskExecutor.connect(address)
        executor.workerless_grace_s = 3

        def kill_the_worker(record, done, total):
            if done == 1:
                os.killpg(worker.pid, signal.SIGKILL)

        candidates = space(["16x16-f32"], ["WORKGROUP_SIZE=32u,64u,96u"])
        try:
            records = TuneSession(TEMPLATE, RUN, candidates, [LAVAPIPE]).run(executor, None, kill_the_worker)
        finally:
            executor.close()
        statuses = [r["status"] for r in records]
        assert statuses.count("not run") >= 1 and set(statuses) <= {"correct", "not run"}
        assert all(r["error"] == "no worker with cpu:lavapipe was left for 3 s" for r in records
                   if r["status"] == "not run")
    finally:
        for process in (worker, scheduler):
            if process is not None and process.poll() is None:
                process.terminate()
                process.wait(timeout=30)
