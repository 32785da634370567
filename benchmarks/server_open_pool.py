"""Opening a workspace with the check workers (coop_lsp/server/check_pool.py) and without (`--workers 0`),
in one run, on the matrix-heavy documents of benchmarks/server_matrix.py:

    .venv/bin/python -m benchmarks.server_open_pool [--documents N] [--result NAME]

For each server: cold (an empty result cache), warm (a new process, the same cache), and cold again with the
first document edited right after the burst. Each figure is server_matrix.open_workspace's; the child
processes' memory is reported beside the server's, since with workers the server's own RSS is not the
whole cost.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import tempfile

from .common import write_result
from .server_matrix import DOCUMENTS, documents, open_workspace


async def measure(workers: str, texts: list[str]) -> dict:
    command = [sys.executable, "-m", "coop_lsp.server.main"] + ([] if workers == "default" else ["--workers", workers])
    figures = {}
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, COOP_LINT_CACHE_DIR=cache)
        figures["cold"] = await open_workspace(command, env, texts, edit=False)
        figures["warm_from_the_cache"] = await open_workspace(command, env, texts, edit=False)
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, COOP_LINT_CACHE_DIR=cache)
        figures["cold_with_an_edit"] = await open_workspace(command, env, texts, edit=True)
    return figures


async def run(count: int) -> dict:
    from coop_lsp.server.check_pool import default_workers

    texts = documents(count)
    figures: dict = {"corpus": f"matrix-heavy (benchmarks/matrix_kernels.py, 21 kernels a document), {count} documents",
                     "default_workers_here": default_workers(),
                     "load_average_at_start": [round(x, 2) for x in os.getloadavg()]}
    figures["workers_default"] = await measure("default", texts)
    figures["workers_0_in_process"] = await measure("0", texts)
    figures["load_average_at_end"] = [round(x, 2) for x in os.getloadavg()]
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--documents", type=int, default=DOCUMENTS)
    parser.add_argument("--result", default="server_open_workspace_pool")
    parser.add_argument("--notes", default="")
    args = parser.parse_args()
    figures = asyncio.run(run(args.documents))
    path = write_result(args.result, figures, notes=(
        "Whole coop-lsp processes over stdio (benchmarks/server_matrix.py's open_workspace), this checkout, "
        "the check workers (default) against --workers 0 in the same run. " + args.notes).strip())
    print(path.read_text())


if __name__ == "__main__":
    main()
