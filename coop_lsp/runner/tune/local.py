"""Running a tune on this host's adapters with no engine: one worker thread per adapter.

Each thread takes the next variant for its adapter's resource and runs it in a child process
(runner.execute: a time limit, killed when it hangs, its stage reported when it fails), so a variant
runs alone on its adapter and the adapters of one host work in parallel. No engine process starts.
Setting the `cancel` event (the editor's Cancel) stops the threads taking new variants and kills the
running ones; what was never launched gets no record.
"""

from __future__ import annotations

import queue
import threading

from .task import run_payload


class LocalExecutor:
    def __init__(self, adapters: dict[str, list[str]], cancel: threading.Event | None = None):
        """`adapters`: resource ("gpu:nvidia-h100") -> adapter selectors (targets.local_adapters)."""
        self.adapters = adapters
        self.cancel = cancel

    def resources(self) -> set[str]:
        return {r for r, selectors in self.adapters.items() if selectors}

    def run(self, payloads: list[dict], on_record) -> None:
        queues: dict[str, queue.Queue] = {r: queue.Queue() for r in self.adapters}
        for payload in payloads:
            queues[payload["resource"]].put(payload)
        lock = threading.Lock()

        def work(resource: str, selector: str | None) -> None:
            while self.cancel is None or not self.cancel.is_set():
                try:
                    payload = queues[resource].get_nowait()
                except queue.Empty:
                    return
                try:
                    record = run_payload(payload, selector, self.cancel)
                except Exception as error:  # noqa: BLE001 - a bug here must not stop the other adapters
                    record = {"key": payload["key"], "target": payload["target"],
                              "error": f"{type(error).__name__}: {error}"}
                with lock:
                    on_record(record)

        threads = []
        for resource, selectors in self.adapters.items():
            for selector in selectors:
                thread = threading.Thread(target=work, args=(resource, selector), daemon=True,
                                          name=f"tune-{resource}-{selector}")
                thread.start()
                threads.append(thread)
        for thread in threads:
            thread.join()
