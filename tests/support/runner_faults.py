"""Faults injected into the kernel runner, shared by tests/test_runner_faults.py and benchmarks/stress.py.

A fault is a kernel, a run description and, for some, an injection from outside
(a signal sent to the worker's process group by a thread of ours). `run_fault`
runs it and returns the problems it saw, none when all is well: the report says
what happened and where (status, stage, reason); no process of the worker's
session is left; its job directory is gone; and the next run in the same
process gives the right answer. `parent_killed`, `server_hang` and
`server_client_vanishes` do the same for the faults that need a second process.

What each fault produces was measured on lavapipe (Mesa 22.3, the CI adapter);
where a real GPU would behave differently the expectation accepts both and the
comment says why.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
import types
from collections.abc import Callable
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from coop_lsp.runner import execute
from coop_lsp.runner.description import parse_run_description
from coop_lsp.runner.execute import RunReport, run_kernel
from tests.fuzz.lsp import python_path

ROOT = Path(__file__).resolve().parents[2]

# Many workgroups of a loop with no exit the compiler can prove: llvmpipe cuts any
# loop after 65,535 iterations, so one invocation would end; 4e9 workgroups of them do not.
ENDLESS = """@group(0) @binding(0) var<storage, read_write> x: array<atomic<u32>>;
@compute @workgroup_size(64) fn main() {
    loop {
        atomicAdd(&x[0], 1u);
        if (atomicLoad(&x[1]) == 7u) { break; }
    }
}
"""
ENDLESS_RUN = 'dispatch = [65535, 65535]\n[[binding]]\nbinding = 0\ntype = "u32"\nsize = 2\n'

ONE_ENDLESS = ENDLESS.replace("@workgroup_size(64)", "@workgroup_size(1)")
ONE_ENDLESS_RUN = ('dispatch = [1]\n[[binding]]\nbinding = 0\ntype = "u32"\nsize = 2\n'
                   # No count is right for an endless loop; the check makes the report show the count.
                   '[check]\nkind = "expression"\noutput = "x"\nexpected = "np.zeros(2)"\n'
                   '[timing]\nwarmup = 0\nrepetitions = 1\n')

OUT_OF_BOUNDS = """@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage, read_write> b: array<f32>;
@compute @workgroup_size(4) fn main(@builtin(local_invocation_index) i: u32) {
    b[4u + i] = 1.0 + f32(i);
    b[i] = a[i + 1000000u];
    b[i + 4000000u] = 7.0;
    b[i - 100u] = 9.0;
}
"""
# a holds values in [1, 2], so a read clamped into it cannot pass for the zero of a dropped read.
OUT_OF_BOUNDS_RUN = ('dispatch = [1]\n[[binding]]\nbinding = 0\ntype = "f32"\nsize = 4\nfill = "random"\n'
                     'range = [1.0, 2.0]\n[[binding]]\nbinding = 1\ntype = "f32"\nsize = 8\n'
                     '[check]\nkind = "expression"\noutput = "b"\n'
                     'expected = "np.concatenate([np.zeros(4), 1 + np.arange(4)])"\n'
                     '[timing]\nwarmup = 0\nrepetitions = 1\n')

COUNT = """@group(0) @binding(0) var<storage, read_write> c: array<atomic<u32>>;
@compute @workgroup_size(64) fn main() { atomicAdd(&c[0], 1u); }
"""
# 65535^2 workgroups of 64: valid everywhere, about half an hour on lavapipe.
HUGE_RUN = 'dispatch = [65535, 65535]\n[[binding]]\nbinding = 0\ntype = "u32"\nsize = 1\n'
BEYOND_LIMIT_RUN = ('dispatch = [4294967295]\n[[binding]]\nbinding = 0\ntype = "u32"\nsize = 1\n'
                    '[timing]\nwarmup = 0\nrepetitions = 1\n')
WRAPPING = COUNT.replace("@workgroup_size(64)", "@workgroup_size(1)")
WRAPPING_RUN = ('dispatch = [65535, 65535, 65535]\n[[binding]]\nbinding = 0\ntype = "u32"\nsize = 1\n'
                '[check]\nkind = "expression"\noutput = "c"\nexpected = "np.array([65535**3 % 2**32])"\n'
                '[timing]\nwarmup = 0\nrepetitions = 1\n')

GOOD = """@group(0) @binding(0) var<storage, read_write> c: array<f32>;
@compute @workgroup_size(8) fn main(@builtin(local_invocation_index) i: u32) { c[i] = 3.0 * f32(i) + 1.0; }
"""
GOOD_RUN = ('dispatch = [1]\n[[binding]]\nbinding = 0\ntype = "f32"\nsize = 8\n'
            '[check]\nkind = "expression"\noutput = "c"\nexpected = "3 * np.arange(8) + 1"\n'
            '[timing]\nwarmup = 0\nrepetitions = 1\n')

WORKER_MODULE = "coop_lsp.runner.worker"


@dataclass
class Fault:
    name: str
    kernel: str
    run: str
    timeout_s: float
    expect: Callable[[RunReport], list[str]]
    signal: signal.Signals | None = None  # sent to the worker's group once the kernel runs


@dataclass
class Outcome:
    fault: str
    report: RunReport
    problems: list[str] = field(default_factory=list)
    seconds: float = 0.0
    injected: str = ""


def _on_lavapipe(report: RunReport) -> bool:
    return "llvmpipe" in report.adapter


def _status(report: RunReport, *allowed: str) -> list[str]:
    return [] if report.status in allowed else [f"status {report.status!r}, expected {' or '.join(allowed)}: "
                                                f"{report.render()}"]


def _timed_out(report: RunReport, limit: float) -> list[str]:
    problems = _status(report, "timeout")
    if not problems:
        if f"killed after {limit:g} s" not in report.error:
            problems.append(f"the time-out does not give its limit: {report.error}")
        if report.stage != "running the kernel":
            problems.append(f"killed while {report.stage!r}, not while running the kernel (limit too short?)")
    return problems + _names_adapter(report)


def _names_adapter(report: RunReport) -> list[str]:
    # The worker had opened the device before it was killed; the report must still say which.
    return [] if report.adapter else [f"the report does not name the adapter: {report.render()}"]


def _expect_endless_one(report: RunReport) -> list[str]:
    if _on_lavapipe(report):
        # llvmpipe's loop limit: the run completes and the report shows where the loop was cut.
        problems = _status(report, "incorrect")
        if not problems and report.checks[0].worst_value != 65535:
            problems.append(f"expected the count cut at 65535, got {report.checks[0].worst_value}")
        return problems
    return _timed_out(report, 3)


def _expect_out_of_bounds(report: RunReport) -> list[str]:
    if _on_lavapipe(report):
        # VK_EXT_robustness2: reads past the end give 0, writes past it are dropped.
        return _status(report, "correct")
    # Elsewhere a clamping policy may read a's last element or write b's: a result either way, never a crash.
    return _status(report, "correct", "incorrect")


def _expect_beyond_limit(report: RunReport) -> list[str]:
    problems = _status(report, "failed")
    if not problems:
        if report.stage != "running the kernel":
            problems.append(f"stage {report.stage!r}")
        if "4294967295" not in report.error or "Validation" not in report.error:
            problems.append(f"the error does not say which dispatch is invalid: {report.error}")
    return problems


def _expect_wrapping(report: RunReport) -> list[str]:
    if _on_lavapipe(report):
        problems = _status(report, "correct")  # what lavapipe actually ran: 65535^3 mod 2^32 workgroups
        if not any("lavapipe ran only 196,607 of the" in note for note in report.notes):
            problems.append(f"no note that lavapipe ran a fraction of the dispatch: {report.notes}")
        return problems
    return _timed_out(report, 3)


def _expect_signal(name: str) -> Callable[[RunReport], list[str]]:
    def expect(report: RunReport) -> list[str]:
        problems = _status(report, "failed")
        if not problems:
            if f"signal {name}" not in report.error:
                problems.append(f"the error does not name {name}: {report.error}")
            if report.stage != "running the kernel":
                problems.append(f"stage {report.stage!r}, expected 'running the kernel'")
        return problems + _names_adapter(report)
    return expect


FAULTS = [
    Fault("endless loop, 4e9 workgroups", ENDLESS, ENDLESS_RUN, 3, lambda r: _timed_out(r, 3)),
    Fault("endless loop, one invocation", ONE_ENDLESS, ONE_ENDLESS_RUN, 3, _expect_endless_one),
    Fault("out-of-bounds reads and writes", OUT_OF_BOUNDS, OUT_OF_BOUNDS_RUN, 60, _expect_out_of_bounds),
    Fault("dispatch beyond the workgroup-count limit", COUNT, BEYOND_LIMIT_RUN, 60, _expect_beyond_limit),
    Fault("valid dispatch of 65535^2 workgroups", COUNT, HUGE_RUN, 3, lambda r: _timed_out(r, 3)),
    Fault("dispatch of 65535^3 workgroups (2^32 or more)", WRAPPING, WRAPPING_RUN, 3, _expect_wrapping),
    Fault("worker killed by SIGKILL", ENDLESS, ENDLESS_RUN, 60, _expect_signal("SIGKILL"), signal.SIGKILL),
    Fault("worker killed by SIGSEGV", ENDLESS, ENDLESS_RUN, 60, _expect_signal("SIGSEGV"), signal.SIGSEGV),
]


# ------------------------------------------------------------------ processes
def _stat(pid: int) -> tuple[str, int, int, int] | None:
    """(state, parent, process group, session) from /proc, or None once the process is gone."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as handle:
            fields = handle.read().rsplit(b")", 1)[1].split()
        return fields[0].decode(), int(fields[1]), int(fields[2]), int(fields[3])
    except (OSError, IndexError, ValueError):
        return None


def session_members(leader: int) -> list[int]:
    """Live processes in the session or group that `leader` led, and their zombies that a member of it has
    not reaped. A zombie handed to init or a subreaper outside the session has ended and holds nothing: a
    machine whose init reaps late (the device machine's, about 5 s) still shows it for a while."""
    stats = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            stat = _stat(int(entry))
            if stat is not None and leader in (stat[2], stat[3]):
                stats[int(entry)] = stat
    return [pid for pid, (state, parent, _, _) in stats.items() if state != "Z" or parent in stats]


def workers_under(pid: int) -> list[int]:
    """Runner workers among the descendants of `pid`."""
    from tests.fuzz.lsp import children_of

    found = []
    for child in children_of(pid):
        try:
            if WORKER_MODULE in Path(f"/proc/{child}/cmdline").read_bytes().decode(errors="replace"):
                found.append(child)
        except OSError:
            continue
    return found


def _job_dir(pid: int) -> Path | None:
    try:
        return Path(Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")[-2].decode())
    except (OSError, IndexError):
        return None


def _wait_until_running(job_dir: Path | None, deadline: float) -> bool:
    while time.monotonic() < deadline:
        try:
            if job_dir is not None and (job_dir / "stage").read_text() == "running the kernel":
                time.sleep(0.3)  # well inside the dispatch
                return True
        except OSError:
            pass
        time.sleep(0.02)
    return False


@contextmanager
def recording_workers():
    """Every worker Popen that the runner starts, in a list (the runner's own `subprocess` is swapped)."""
    started: list[subprocess.Popen] = []

    class Recording(subprocess.Popen):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            started.append(self)

    proxy = types.ModuleType("subprocess")
    proxy.__dict__.update(subprocess.__dict__)
    proxy.Popen = Recording
    saved = execute.subprocess
    execute.subprocess = proxy
    try:
        yield started
    finally:
        execute.subprocess = saved


@contextmanager
def no_core_files():
    """A SIGSEGV'd worker must not litter the working directory where core dumps are on."""
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_CORE)
    resource.setrlimit(resource.RLIMIT_CORE, (0, hard))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_CORE, (soft, hard))


def leftovers(processes: list[subprocess.Popen]) -> list[str]:
    problems = []
    for process in processes:
        if process.returncode is None:
            problems.append(f"worker {process.pid} was never waited for")
        members = session_members(process.pid)
        if members:
            problems.append(f"processes left in worker {process.pid}'s session: {members}")
        job_dir = Path(process.args[-1])
        if job_dir.exists():
            problems.append(f"job directory {job_dir} left behind")
    return problems


# ------------------------------------------------------------------ in-process faults
def run_good(directory: Path, backend: str = "auto") -> list[str]:
    """The run after a fault: a small kernel that must come out right."""
    kernel = directory / "good.wgsl"
    kernel.write_text(GOOD)
    report = run_kernel(kernel, parse_run_description(GOOD_RUN), backend=backend)
    return [] if report.status == "correct" else [f"the next run is {report.status}: {report.render()}"]


def run_fault(fault: Fault, directory: Path, backend: str = "auto", robustness: bool | None = None) -> Outcome:
    directory.mkdir(parents=True, exist_ok=True)
    kernel = directory / "fault.wgsl"
    kernel.write_text(fault.kernel)
    description = parse_run_description(fault.run)
    injected: list[str] = []
    started = time.perf_counter()
    with recording_workers() as processes, no_core_files():
        killer = None
        if fault.signal is not None:
            def inject() -> None:
                deadline = time.monotonic() + 60
                while not processes and time.monotonic() < deadline:
                    time.sleep(0.01)
                if processes and _wait_until_running(Path(processes[0].args[-1]), deadline):
                    os.killpg(processes[0].pid, fault.signal)
                    injected.append(f"{fault.signal.name} to process group {processes[0].pid}")

            killer = threading.Thread(target=inject, daemon=True)
            killer.start()
        report = run_kernel(kernel, description, backend=backend, timeout_s=fault.timeout_s,
                            robustness=robustness)
        if killer is not None:
            killer.join(5)
    outcome = Outcome(fault.name, report, seconds=time.perf_counter() - started,
                      injected=injected[0] if injected else "")
    if fault.signal is not None and not injected:
        outcome.problems.append("the signal was never sent (the kernel did not start running?)")
    outcome.problems += fault.expect(report)
    outcome.problems += leftovers(processes)
    outcome.problems += run_good(directory, backend)
    return outcome


# ------------------------------------------------------------------ faults across processes
_PARENT = """
import sys
from pathlib import Path
from coop_lsp.runner.description import parse_run_description
from coop_lsp.runner.execute import run_kernel
kernel = Path(sys.argv[1])
run_kernel(kernel, parse_run_description(kernel.with_suffix(".run.toml").read_text()), timeout_s=60)
"""


def parent_killed(directory: Path) -> tuple[list[str], str]:
    """The process that asked for the run dies by SIGKILL mid-kernel: its worker must not outlive it."""
    directory.mkdir(parents=True, exist_ok=True)
    kernel = directory / "endless.wgsl"
    kernel.write_text(ENDLESS)
    kernel.with_suffix(".run.toml").write_text(ENDLESS_RUN)
    parent = subprocess.Popen([sys.executable, "-c", _PARENT, str(kernel)], env=dict(os.environ, PYTHONPATH=python_path()),
                              stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    problems: list[str] = []
    try:
        deadline = time.monotonic() + 60
        workers: list[int] = []
        while not workers and time.monotonic() < deadline and parent.poll() is None:
            workers = workers_under(parent.pid)
            time.sleep(0.05)
        if not workers or not _wait_until_running(_job_dir(workers[0]), deadline):
            return [f"no worker started running the kernel (parent status {parent.poll()})"], ""
        worker = workers[0]
        parent.kill()
        parent.wait()
        gone = time.monotonic() + 5
        while session_members(worker) and time.monotonic() < gone:
            time.sleep(0.05)
        left = session_members(worker)
        if left:
            problems.append(f"the worker's session outlived its parent by 5 s: {left}")
            for pid in left:  # our own mess: end it so the machine stays usable
                os.kill(pid, signal.SIGKILL)
        return problems, f"SIGKILL to the parent {parent.pid} of worker {worker}"
    finally:
        if parent.poll() is None:
            parent.kill()
            parent.wait()


def _write_kernel(directory: Path, stem: str, text: str, run: str) -> Path:
    kernel = directory / f"{stem}.wgsl"
    kernel.write_text(text)
    kernel.with_suffix(".run.toml").write_text(run)
    return kernel


def _execute_command(uri: str) -> dict:
    return {"command": "coop-lsp.runKernel", "arguments": [uri]}


def _hover(server, uri: str) -> dict:
    return server.call("textDocument/hover", {"textDocument": {"uri": uri}, "position": {"line": 3, "character": 12}},
                       timeout=10)


def server_hang(directory: Path) -> tuple[list[str], dict]:
    """runKernel on a kernel that hangs: reported as a time-out, the server answers hovers during and after
    the run, no worker is left, and the next run through the server is right. Returns (problems, figures)."""
    from tests.fuzz.lsp import RawServer

    directory.mkdir(parents=True, exist_ok=True)
    hang = _write_kernel(directory, "hang", ENDLESS, ENDLESS_RUN + "[timing]\ntimeout_s = 3\n")
    good = _write_kernel(directory, "good", GOOD, GOOD_RUN)
    problems: list[str] = []
    figures = {"requests": 0, "hover_ms_during_run": None}
    server = RawServer()
    try:
        server.initialize(root=directory)
        server.open(hang.as_uri(), ENDLESS)
        server.open(good.as_uri(), GOOD)
        run = server.request("workspace/executeCommand", _execute_command(hang.as_uri()))
        time.sleep(1.5)
        started = time.perf_counter()
        during = _hover(server, hang.as_uri())
        figures["hover_ms_during_run"] = round((time.perf_counter() - started) * 1e3, 1)
        if run in server.responses:
            problems.append("the hanging run had already ended when the hover was sent")
        if "error" in during or not during.get("result"):
            problems.append(f"no hover while the kernel ran: {during}")
        reply = server.response(run, timeout=30)
        markdown = reply.get("result") or ""
        if "TIMEOUT" not in markdown or "killed after 3 s" not in markdown or "running the kernel" not in markdown:
            problems.append(f"runKernel did not report the time-out with its stage: {reply}")
        after = _hover(server, hang.as_uri())
        if "error" in after or not after.get("result"):
            problems.append(f"no hover after the run: {after}")
        left = [pid for pid in workers_under(server.process.pid)]
        if left:
            problems.append(f"workers left under the server: {left}")
        next_run = server.call("workspace/executeCommand", _execute_command(good.as_uri()), timeout=60)
        if not (next_run.get("result") or "").startswith("## good.wgsl: CORRECT"):
            problems.append(f"the next run through the server is not right: {next_run}")
        figures["requests"] = 5
        status = server.shutdown()
        if status != 0:
            problems.append(f"the server exited with {status}")
        return problems, figures
    finally:
        server.kill()


def server_client_vanishes(directory: Path) -> tuple[list[str], dict]:
    """The client goes away while a hanging kernel runs (time limit 60 s): the server exits within 5 s and
    takes the worker with it."""
    from tests.fuzz.lsp import RawServer

    directory.mkdir(parents=True, exist_ok=True)
    hang = _write_kernel(directory, "hang", ENDLESS, ENDLESS_RUN + "[timing]\ntimeout_s = 60\n")
    problems: list[str] = []
    server = RawServer()
    try:
        server.initialize(root=directory)
        server.open(hang.as_uri(), ENDLESS)
        server.request("workspace/executeCommand", _execute_command(hang.as_uri()))
        deadline = time.monotonic() + 60
        workers: list[int] = []
        while not workers and time.monotonic() < deadline:
            workers = workers_under(server.process.pid)
            time.sleep(0.05)
        if not workers or not _wait_until_running(_job_dir(workers[0]), deadline):
            return ["the kernel never started running"], {}
        started = time.monotonic()
        server.process.stdin.close()
        try:
            server.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            problems.append("the server was still running 5 s after its client went away mid-run")
        seconds = time.monotonic() - started
        gone = time.monotonic() + 3
        while session_members(workers[0]) and time.monotonic() < gone:
            time.sleep(0.05)
        if session_members(workers[0]):
            problems.append(f"the worker outlived the server: {session_members(workers[0])}")
            for pid in session_members(workers[0]):
                os.kill(pid, signal.SIGKILL)
        return problems, {"server_exit_s": round(seconds, 2)}
    finally:
        server.kill()
