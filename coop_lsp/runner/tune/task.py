"""One run of a tune: a payload (plain data, so an engine can ship it to another machine) in, a record out.

The payload carries everything the run needs: the variant's WGSL, the run description's text and the
[sizes] values; the worker's machine needs no copy of the project. The record is what the result file,
the tables and the JSON for backends are made of.
"""

from __future__ import annotations

import os
import socket
import time
from pathlib import Path

# The adapter a worker process runs its variants on (worker.pick_adapter's selector); set per worker by
# `coop-lint worker` and the local cluster, so that two workers on one host use two GPUs.
ADAPTER_ENV = "COOP_LSP_ADAPTER"


def make_payload(kernel: Path, key: str, label: str, target, text: str, run_path: Path, sizes: dict,
                 timeout_s: float | None) -> dict:
    return {"kernel": kernel.name, "key": key, "label": label, "target": target.name, "resource": target.resource,
            "backend": target.backend, "text": text, "run_text": run_path.read_text(), "run_path": str(run_path),
            "sizes": sizes, "timeout_s": timeout_s}


def run_payload(payload: dict, adapter: str | None = None, cancel=None) -> dict:
    """Runs, checks and times one variant on this machine (on `adapter` where given); never raises for
    the variant's own faults, which the record reports with the stage they happened at. Setting `cancel`
    (a threading.Event) kills the run: its record says "cancelled"."""
    from ..description import RunDescriptionError, parse_run_description
    from ..execute import RunReport, run_kernel

    started = time.time()
    try:
        description = parse_run_description(payload["run_text"], Path(payload["run_path"]),
                                             size_values=payload["sizes"])
    except RunDescriptionError as error:
        report = RunReport(kernel=payload["kernel"], error=str(error), stage="reading the run description")
    else:
        report = run_kernel(Path(payload["kernel"]), description, backend=payload["backend"], text=payload["text"],
                            timeout_s=payload.get("timeout_s"), adapter=adapter, cancel=cancel)
    return {"key": payload["key"], "target": payload["target"], "label": payload["label"],
            "report": report.to_json(),
            "worker": {"host": socket.gethostname(), "pid": os.getpid(), "adapter": adapter or "",
                       "started": started, "finished": time.time()}}


def run_on_engine_worker(payload: dict) -> dict:
    """The function an engine's worker calls: its adapter comes from the worker's environment."""
    record = run_payload(payload, os.environ.get(ADAPTER_ENV) or None)
    try:
        from distributed import get_worker

        record["worker"]["address"] = get_worker().address
    except (ImportError, ValueError):
        pass
    return record
