"""Stress and fault figures: the test suite's server stress and runner faults at a larger scale, counted.

    .venv/bin/python -m benchmarks.stress                      # a few minutes on 2 cores
    .venv/bin/python -m benchmarks.stress --documents 2 --edits 40 --fault-rounds 1 --no-write

Server: random edit streams (insert, delete, replace, undo; several changes per
notification) at editor speed and as a flood, with hover, completion, code
actions, signature help, definitions and semantic tokens interleaved and some
cancelled (tests/fuzz/test_server_stress.run_stream). After each stream, and
again for every document once all streams are done, the server's pushed and
pulled diagnostics and its semantic tokens must equal those computed from the
client's text. Then malformed and out-of-order messages, and clients that
disappear. Runner: every fault of tests/support/runner_faults.py, each
followed by a run that must come out right, plus a parent killed mid-run and
the server faults (a hanging kernel through runKernel, a client that leaves
mid-run). Writes benchmarks/results/stress.json; exits 1 if anything was lost.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks.common import write_result  # noqa: E402


def _counting_server():
    from tests.fuzz.lsp import RawServer

    class CountingServer(RawServer):
        """Counts what the client sends, so that the figures are of the wire, not of intentions."""

        def __init__(self, *args, **kwargs) -> None:
            self.sent = Counter()
            super().__init__(*args, **kwargs)

        def change(self, uri, version, changes) -> None:
            self.sent["didChange notifications"] += 1
            self.sent["content changes"] += len(changes)
            super().change(uri, version, changes)

        def request(self, method, params, id_=None):
            self.sent["requests"] += 1
            return super().request(method, params, id_)

        def notify(self, method, params) -> None:
            if method == "$/cancelRequest":
                self.sent["cancellations"] += 1
            super().notify(method, params)

        def answered(self) -> Counter:
            replies = Counter()
            with self.lock:
                for reply in self.responses.values():
                    code = (reply.get("error") or {}).get("code")
                    replies["served" if code is None else "cancelled" if code == -32800 else f"error {code}"] += 1
            return replies

    return CountingServer


def server_streams(documents: int, edits: int, seed: int, failures: list[str]) -> dict:
    from tests.fuzz.mutate import seeds
    from tests.fuzz.test_server_stress import actual, expected_diagnostics, expected_tokens, run_stream

    pool = [s for s in seeds() if s.name.startswith(("examples/", "tests/spec/"))]
    figures = Counter()
    for mode, pause in (("editor speed (10 ms between notifications)", 0.01), ("flood (no pause)", 0.0)):
        rng = random.Random(f"{seed}-{mode}")
        server = _counting_server()()
        final: dict[str, str] = {}
        try:
            server.initialize()
            for index in range(documents):
                uri = f"file:///virtual/stress-{pause}-{index}.wgsl"
                try:
                    result = run_stream(server, uri, rng.choice(pool).text, rng, edits=edits, pause=pause)
                    final[uri] = result["text"]
                    figures["documents verified after their stream"] += 1
                except AssertionError as error:
                    failures.append(f"{mode}, {uri}: {str(error)[:500]}")
            # Every document again, now that the others have been edited after it.
            for uri, text in final.items():
                pulled = server.call("textDocument/diagnostic", {"textDocument": {"uri": uri}})["result"]["items"]
                tokens = server.call("textDocument/semanticTokens/full", {"textDocument": {"uri": uri}})
                if actual(pulled) != expected_diagnostics(text) or tokens["result"]["data"] != expected_tokens(text):
                    failures.append(f"{mode}, {uri}: the server's copy drifted after later streams")
                else:
                    figures["documents verified at the end"] += 1
            figures.update(server.sent)
            figures["requests"] -= 2  # initialize and shutdown are not stress requests
            answered = server.answered()
            if server.shutdown() != 0:
                failures.append(f"{mode}: the server did not exit cleanly")
            figures["requests served"] += answered["served"] - 2
            figures["requests cancelled before an answer"] += answered["cancelled"]
            for key, value in answered.items():
                if key.startswith("error"):
                    failures.append(f"{mode}: {value} replies with {key}")
        finally:
            server.kill()
    return dict(figures)


def server_faults(failures: list[str]) -> dict:
    from tests.fuzz import conftest
    from tests.fuzz.test_server_stress import test_client_that_disappears, test_malformed_and_out_of_order_messages

    conftest.FIGURES.clear()
    for name, action in [("malformed and out-of-order messages", test_malformed_and_out_of_order_messages)] + [
            (f"client disappears ({how})", lambda how=how: test_client_that_disappears(how))
            for how in ("close-stdin", "close-both", "exit-without-shutdown")]:
        try:
            action()
        except (AssertionError, Exception) as error:  # noqa: BLE001 - pytest.fail raises its own kind
            failures.append(f"{name}: {str(error)[:500]}")
    return {"malformed or out-of-order messages injected": conftest.FIGURES["server: faults injected"],
            "documents verified after them": conftest.FIGURES["server: documents verified"],
            "client disappearances survived (exit within 5 s, no child left)":
                conftest.FIGURES["server: client disappearances survived"]}


def runner_faults(rounds: int, failures: list[str]) -> dict:
    from coop_lsp.runner.execute import wgpu_adapter
    from tests.support import runner_faults as rf

    found, adapter = wgpu_adapter()
    if not found:
        failures.append(f"runner faults not run: no wgpu-native adapter ({adapter})")
        return {"adapter": None}
    faults, injected, next_runs = [], 0, 0
    with tempfile.TemporaryDirectory(prefix="coop-stress-") as tmp:
        directory = Path(tmp)
        for round_ in range(rounds):
            for number, fault in enumerate(rf.FAULTS):
                outcome = rf.run_fault(fault, directory / f"{round_}-{number}")
                injected += 1
                next_runs += "the next run" not in " ".join(outcome.problems)
                failures += [f"runner, {fault.name}: {p}" for p in outcome.problems]
                if round_ == 0:
                    r = outcome.report
                    faults.append({"fault": fault.name, "injected": outcome.injected or "the kernel itself",
                                   "status": r.status, "stage": r.stage,
                                   "message": r.error or "; ".join(
                                       f"{c.name}: {c.verdict}, worst at {c.worst_index}: {c.worst_value:g}, "
                                       f"expected {c.expected_value:g}" for c in r.checks),
                                   "notes": r.notes, "seconds": round(outcome.seconds, 2),
                                   "problems": outcome.problems})
            for name, action in (("parent killed mid-run", rf.parent_killed),
                                 ("server: runKernel on a hanging kernel", rf.server_hang),
                                 ("server: client leaves mid-run", rf.server_client_vanishes)):
                started = time.perf_counter()
                problems, extra = action(directory / f"{round_}-{name.split(':')[0].replace(' ', '-')}")
                injected += 1
                failures += [f"{name}: {p}" for p in problems]
                if round_ == 0:
                    detail = extra if isinstance(extra, dict) else {"injected": extra}
                    faults.append({"fault": name, **detail, "seconds": round(time.perf_counter() - started, 2),
                                   "problems": problems})
    return {"adapter": adapter, "rounds": rounds, "faults injected": injected,
            "in-process faults followed by a correct run": next_runs, "faults (first round)": faults}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--documents", type=int, default=10, help="edit streams per speed, one document each")
    parser.add_argument("--edits", type=int, default=300, help="didChange notifications per stream")
    parser.add_argument("--fault-rounds", type=int, default=3, help="times each runner fault is injected")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--no-write", action="store_true")
    args = parser.parse_args(argv)
    failures: list[str] = []
    started = time.perf_counter()
    server = server_streams(args.documents, args.edits, args.seed, failures)
    server_seconds = time.perf_counter() - started
    server.update(server_faults(failures))
    faults_started = time.perf_counter()
    runner = runner_faults(args.fault_rounds, failures)
    figures = {
        "edits applied (didChange notifications)": server.get("didChange notifications", 0),
        "content changes applied": server.get("content changes", 0),
        "requests served": server.get("requests served", 0),
        "faults injected": server["malformed or out-of-order messages injected"]
                           + server["client disappearances survived (exit within 5 s, no child left)"]
                           + runner.get("faults injected", 0),
        "documents verified": server.get("documents verified after their stream", 0)
                              + server.get("documents verified at the end", 0)
                              + server["documents verified after them"],
        "mismatches and other failures": len(failures),
        "nothing lost": not failures,
        "server": server,
        "server_stream_seconds": round(server_seconds, 1),
        "runner": runner,
        "runner_seconds": round(time.perf_counter() - faults_started, 1),
        "seconds": round(time.perf_counter() - started, 1),
        "failures": failures,
        "settings": {"documents per speed": args.documents, "edits per stream": args.edits,
                     "fault rounds": args.fault_rounds, "seed": args.seed},
    }
    print(json.dumps(figures, indent=2, default=str))
    if not args.no_write:
        path = write_result("stress", json.loads(json.dumps(figures, default=str)),
                            "Server stress from tests/fuzz/test_server_stress.py, runner faults from "
                            "tests/support/runner_faults.py (lavapipe here), at a larger scale than the tests.")
        print(f"wrote {path}", file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
