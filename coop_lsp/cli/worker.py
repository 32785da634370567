"""coop-lint worker --scheduler ADDRESS [--cpu-workers N]

Starts a Dask worker process per adapter of this host that a device profile names, attached to the
scheduler at ADDRESS; each advertises its adapter as a resource (gpu:nvidia-h100, cpu:lavapipe) and runs
`coop-lint tune --cluster ADDRESS`'s variants for that target, one at a time (docs/tune.md).
"""

from __future__ import annotations

import argparse
import asyncio
import sys


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="coop-lint worker", description="Serve this host's adapters to a "
                                     "Dask scheduler for coop-lint tune --cluster.")
    parser.add_argument("--scheduler", required=True, metavar="ADDRESS", help="tcp://host:8786")
    parser.add_argument("--cpu-workers", type=int, default=None, metavar="N",
                        help="workers for CPU emulation (lavapipe); default: 1 when the host has no GPU, else 0")
    try:
        args = parser.parse_args(argv)
    except SystemExit as exit_:
        return int(exit_.code or 0)
    from ..runner.tune.cluster import serve_workers
    from ..runner.tune.space import TuneError
    from ..runner.tune.targets import local_adapters

    try:
        adapters = local_adapters()
        gpus = [r for r in adapters if r.startswith("gpu:")]
        cpu = args.cpu_workers if args.cpu_workers is not None else (0 if gpus else 1)
        for resource, selectors in sorted(adapters.items()):
            print(f"found {resource}: {', '.join(selectors)}", file=sys.stderr, flush=True)
        asyncio.run(serve_workers(args.scheduler, adapters, cpu))
    except TuneError as error:
        print(f"coop-lint: error: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 0
    return 0
