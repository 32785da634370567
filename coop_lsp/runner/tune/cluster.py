"""Running a tune on a Dask cluster: variants go where their target's adapter is, results stream back.

Workers advertise one resource per adapter, named by its device profile (`gpu:nvidia-h100`,
`cpu:lavapipe`); a variant for a target asks for one unit of the target's resource, so it runs only
on a worker that has that adapter, and alone there. Each worker process serves one adapter (its
selector in COOP_LSP_ADAPTER), so a host with two GPUs runs two variants at once. A worker lost mid-run
(killed, its machine gone) has its variant rescheduled by Dask on another worker with the resource;
a variant that loses workers too often is reported not run.

Dask is an optional dependency (`pip install coop-lsp[tune]`): nothing here is imported by plain
linting, and a tune without --cluster or --local-cluster starts no engine at all.
"""

from __future__ import annotations

import asyncio
import os
import threading
import time

from .space import TuneError
from .task import ADAPTER_ENV, run_on_engine_worker

CONNECT_TIMEOUT_S = 5.0
POLL_S = 2.0
# How long variants wait when no worker offers their resource any more before they are reported not run.
WORKERLESS_GRACE_S = 60.0
# Dask reschedules a task whose worker died; past this many deaths it gives up (KilledWorker).
ALLOWED_FAILURES = 2


def _distributed():
    try:
        import distributed
    except ImportError:
        raise TuneError("Dask distributed is not installed: pip install 'coop-lsp[tune]'") from None
    return distributed


class DaskExecutor:
    def __init__(self, client, workerless_grace_s: float = WORKERLESS_GRACE_S):
        self.client = client
        self.workerless_grace_s = workerless_grace_s

    @classmethod
    def connect(cls, address: str, timeout_s: float = CONNECT_TIMEOUT_S) -> "DaskExecutor":
        distributed = _distributed()
        try:
            client = distributed.Client(address, timeout=f"{timeout_s}s", set_as_default=False)
        except (OSError, TimeoutError, asyncio.TimeoutError, ValueError) as error:
            raise TuneError(f"the Dask scheduler at {address} did not answer within {timeout_s:g} s "
                            f"({type(error).__name__}: {str(error).splitlines()[0] if str(error) else 'no reply'})"
                            ) from None
        return cls(client)

    def resources(self) -> set[str]:
        workers = self.client.scheduler_info(n_workers=-1)["workers"]
        return {name for w in workers.values() for name, amount in (w.get("resources") or {}).items() if amount}

    def run(self, payloads: list[dict], on_record) -> None:
        distributed = _distributed()
        futures = {}
        for payload in payloads:
            future = self.client.submit(run_on_engine_worker, payload, resources={payload["resource"]: 1},
                                        key=f"coop-tune-{payload['target']}-{payload['key']}", pure=False)
            futures[future] = payload
        finished: set = set()
        given_up: dict = {}  # future -> why it was cancelled
        stop = threading.Event()
        watch = threading.Thread(target=self._watch_resources, args=(futures, finished, given_up, stop),
                                 name="tune-resource-watch", daemon=True)
        watch.start()
        try:
            for future in distributed.as_completed(futures, loop=self.client.loop):
                finished.add(future)
                payload = futures[future]
                if future in given_up:
                    on_record({"key": payload["key"], "target": payload["target"], "error": given_up[future]})
                else:
                    on_record(self._record(distributed, future, payload))
        finally:
            stop.set()
            watch.join()

    def _watch_resources(self, futures: dict, finished: set, given_up: dict, stop: threading.Event) -> None:
        """Dask waits forever for a worker with a resource; when none has offered it for the grace period
        (every worker with that GPU gone, no nanny bringing one back), its variants are given up."""
        gone_since: dict[str, float] = {}
        while not stop.wait(POLL_S):
            pending = [(f, p) for f, p in futures.items() if f not in finished and f not in given_up]
            if not pending:
                continue
            try:
                offered = self.resources()
            except Exception:  # noqa: BLE001 - the scheduler is busy or gone: as_completed will tell
                continue
            now = time.monotonic()
            for resource in {p["resource"] for _, p in pending}:
                if resource in offered:
                    gone_since.pop(resource, None)
                elif now - gone_since.setdefault(resource, now) >= self.workerless_grace_s:
                    for future, payload in pending:
                        if payload["resource"] == resource:
                            given_up[future] = f"no worker with {resource} was left for {self.workerless_grace_s:g} s"
                            future.cancel()

    @staticmethod
    def _record(distributed, future, payload: dict) -> dict:
        try:
            return future.result()
        except distributed.KilledWorker as error:
            return {"key": payload["key"], "target": payload["target"],
                    "error": f"every worker that took it was lost ({error})"}
        except Exception as error:  # noqa: BLE001 - one variant's trouble is reported, the rest go on
            return {"key": payload["key"], "target": payload["target"], "error": f"{type(error).__name__}: {error}"}

    def close(self) -> None:
        self.client.close()


def worker_specs(adapters: dict[str, list[str]], count: int | None = None) -> dict[str, dict]:
    """One Nanny per adapter (each with its selector and one unit of its resource). `count` caps the
    number of workers, or (past the number of adapters) adds workers that share the CPU emulation."""
    from distributed import Nanny

    slots = [(resource, selector) for resource, selectors in sorted(adapters.items()) for selector in selectors]
    if count is not None:
        cpu = [s for s in slots if s[0].startswith("cpu:")]
        while len(slots) < count and cpu:
            slots.append(cpu[len(slots) % len(cpu)])
        slots = slots[:count]
    specs = {}
    for i, (resource, selector) in enumerate(slots):
        specs[f"{resource.replace(':', '-')}-{i}"] = {"cls": Nanny, "options": {
            "nthreads": 1, "resources": {resource: 1}, "env": {ADAPTER_ENV: selector},
            "dashboard": False, "silence_logs": 40}}
    return specs


def local_cluster(adapters: dict[str, list[str]], count: int | None = None):
    """Dask's local cluster (the SpecCluster that LocalCluster builds on), with the workers of worker_specs:
    LocalCluster gives every worker the same resources and environment, one GPU each needs its own."""
    _distributed()
    from distributed import Scheduler, SpecCluster

    import dask

    dask.config.set({"distributed.scheduler.allowed-failures": ALLOWED_FAILURES})
    specs = worker_specs(adapters, count)
    if not specs:
        raise TuneError("no adapter on this host provides any target's resource: nothing to start workers for")
    scheduler = {"cls": Scheduler, "options": {"host": "127.0.0.1", "dashboard": False,
                                               "dashboard_address": None}}
    return SpecCluster(workers=specs, scheduler=scheduler, silence_logs=40, name="coop-lint-tune")


async def serve_workers(scheduler: str, adapters: dict[str, list[str]], cpu_workers: int = 0) -> None:
    """`coop-lint worker`: a Nanny per adapter of this host, attached to `scheduler`, until interrupted."""
    from distributed import Nanny

    slots = [(resource, selector) for resource, selectors in sorted(adapters.items()) for selector in selectors
             if not resource.startswith("cpu:")]
    cpu = [(r, s) for r, selectors in adapters.items() if r.startswith("cpu:") for s in selectors]
    slots += (cpu * cpu_workers)[:cpu_workers] if cpu else []
    if not slots:
        raise TuneError("this host has no adapter that a device profile names (coop-lint devices lists them); "
                        "--cpu-workers N serves CPU emulation where lavapipe is installed")
    nannies = [Nanny(scheduler, nthreads=1, resources={resource: 1}, env={ADAPTER_ENV: selector},
                     dashboard=False, name=f"{os.uname().nodename}-{resource}-{i}")
               for i, (resource, selector) in enumerate(slots)]
    for nanny, (resource, selector) in zip(nannies, slots):
        await nanny
        print(f"worker {nanny.worker_address}: {resource} ({selector})", flush=True)
    try:
        await asyncio.gather(*(n.finished() for n in nannies))
    finally:
        await asyncio.gather(*(n.close() for n in nannies), return_exceptions=True)
