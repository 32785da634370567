"""Child process of benchmarks.semantic: times Tint's shader-module creation on Dawn's Null backend.

Reads a JSON list of {"name", "source", "repeats"} on stdin; prints one JSON
object of median seconds per name. Runs apart so that Dawn never shares a
process with the measurements of coop-lsp.
"""

from __future__ import annotations

import json
import os
import statistics
import sys
import time

from coop_lsp.devices.tint_worker import _compile, _open_device


def main() -> None:
    channel = os.fdopen(os.dup(sys.stdout.fileno()), "w")
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())
    device = _open_device()
    timings = {}
    for job in json.load(sys.stdin):
        samples = []
        for _ in range(job["repeats"]):
            start = time.perf_counter()
            messages = _compile(device, job["source"])
            samples.append(time.perf_counter() - start)
        timings[job["name"]] = {
            "seconds": statistics.median(samples),
            "errors": sum(1 for m in messages if m["severity"] == "error"),
        }
    channel.write(json.dumps(timings))
    channel.flush()


if __name__ == "__main__":
    main()
