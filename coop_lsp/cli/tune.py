"""coop-lint tune KERNEL.wgsl [--run RUN.toml] [--target NAME]... [-D NAME=V1,V2,...]... [--sweep NAME=V1,...]...
                             [--variant NAME]... [--results FILE.jsonl] [--output TUNED.json] [--report FILE.html]
                             [--cluster ADDRESS | --local-cluster N] [--timeout SECONDS] [--format text|markdown]

Finds each target's fastest correct variant (docs/tune.md). Every variant is linted for every target
first; what a target cannot run (D001, D010, errors) is pruned and listed. The rest run on this host's
adapters (one at a time per adapter, adapters in parallel, no engine), on a Dask scheduler
(--cluster) or on a Dask cluster started here (--local-cluster N). Exit status: 0 when every target has a
correct variant, 1 when one has none, 2 on usage errors and unreachable schedulers.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="coop-lint tune", description="Find each target's best kernel variant.")
    parser.add_argument("kernel", metavar="KERNEL.wgsl")
    parser.add_argument("--run", metavar="RUN.toml", help="the run description (default: KERNEL.run.toml beside it)")
    parser.add_argument("--target", action="append", default=[], metavar="NAME",
                        help="a device profile to tune for; may repeat (default: [tune] targets, then the "
                             "configuration's targets)")
    parser.add_argument("-D", "--define", action="append", default=[], metavar="NAME=V1,V2,...",
                        help="a define axis: every value is tried; several -D multiply")
    parser.add_argument("--sweep", action="append", default=[], metavar="NAME=V1,V2,...",
                        help="a [sizes] axis of the run description; several multiply")
    parser.add_argument("--variant", action="append", default=None, metavar="NAME",
                        help="only these configured variant sets (default: every set, or [tune] variants)")
    parser.add_argument("--results", metavar="FILE.jsonl", help="the result file: appended as runs end, resumed "
                        "when it exists, locked while in use (default: KERNEL.tune.jsonl beside the kernel)")
    parser.add_argument("--output", metavar="TUNED.json", help="write each target's best defines for a backend")
    parser.add_argument("--report", metavar="FILE.html", help="write the HTML report")
    parser.add_argument("--format", choices=("text", "markdown", "json"), default="text")
    parser.add_argument("--timeout", type=float, metavar="SECONDS", help="kill a run after this long")
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--cluster", metavar="ADDRESS", help="run on the Dask scheduler at ADDRESS "
                       "(tcp://host:8786); its workers come from `coop-lint worker`")
    where.add_argument("--local-cluster", type=int, metavar="N", help="start Dask's local cluster with N workers "
                       "here (one per adapter; past the adapters, extra CPU-emulation workers)")
    parser.add_argument("--lint-only", action="store_true", help="list the space and what is pruned; run nothing")
    return parser


def main(argv: list[str]) -> int:
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exit_:
        return int(exit_.code or 0)
    from ..runner.description import sidecar_path
    from ..runner.tune.space import TuneError

    kernel = Path(args.kernel)
    if not kernel.is_file():
        return _error(f"{kernel}: no such file")
    run_path = Path(args.run) if args.run else sidecar_path(kernel)
    try:
        return _tune(args, kernel, run_path)
    except TuneError as error:
        return _error(str(error))


def _error(message: str) -> int:
    print(f"coop-lint: error: {message}", file=sys.stderr)
    return 2


def _say(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def _targets(args, kernel: Path, section) -> list:
    from ..lint.config import ConfigError, ConfigFinder
    from ..runner.tune.space import TuneError
    from ..runner.tune.targets import resolve

    names = args.target or section.targets
    if not names:
        try:
            names = list(ConfigFinder().for_path(kernel).settings_for(kernel).targets)
        except ConfigError as error:
            raise TuneError(str(error)) from None
    if not names:
        raise TuneError("no target: pass --target NAME, or set [tune] targets or the configuration's targets")
    return resolve(list(dict.fromkeys(names)), Path.cwd())


def _tune(args, kernel: Path, run_path: Path) -> int:
    from ..runner.tune.report import summary_table, target_table, tune_page, tuned_json
    from ..runner.tune.results import ResultFile
    from ..runner.tune.session import TuneSession
    from ..runner.tune.space import build_space, define_axes, read_tune_section, size_axes

    if not run_path.exists():
        return _error(f"no run description: write {run_path.name} beside the kernel (see docs/runner.md)")
    section = read_tune_section(run_path)
    targets = _targets(args, kernel, section)
    candidates = build_space(kernel, run_path, section, define_axes(args.define), size_axes(args.sweep),
                             args.variant)
    session = TuneSession(kernel, run_path, candidates, targets, args.timeout)
    pruned = session.pruned()
    _say(f"{len(candidates)} variants x {len(targets)} targets ({', '.join(t.name for t in targets)}); "
         f"{len(pruned)} pruned by the linter")
    for candidate, target, reason in pruned:
        _say(f"  pruned for {target.name}: {candidate.label}: {reason}")
    if args.lint_only:
        return 0
    executor, cluster = _executor(args, targets)
    try:
        missing = session.unreachable(executor.resources())
        for target in missing:
            _say(f"coop-lint: warning: no worker has {target.resource}: the variants for {target.name} are not run")
        results_path = Path(args.results) if args.results else kernel.with_suffix(".tune.jsonl")
        started = time.perf_counter()

        def progress(record, done, total):
            timing = f" {record['median_ms']:.4f} ms" if record.get("median_ms") else ""
            where = (record.get("worker") or {}).get("address") or (record.get("worker") or {}).get("adapter", "")
            _say(f"[{done}/{total}] {record['target']}: {record['label']}: {record.get('status')}{timing}"
                 + (f" ({where})" if where else "")
                 + (f": {record.get('error')}" if record.get("status") not in ("correct", "pruned") else ""))

        with ResultFile(results_path, kernel.name) as results:
            resumed = len(results.done())
            if resumed:
                _say(f"resuming {results_path}: {resumed} runs already there")
            records = session.run(executor, results, progress)
        wall = time.perf_counter() - started
    finally:
        executor_close = getattr(executor, "close", None)
        if executor_close is not None:
            executor_close()
        if cluster is not None:
            cluster.close()
    ran = sum(r.get("status") not in ("pruned", "not run") and not r.get("resumed") for r in records)
    notes = [f"{len(candidates)} variants, {len(targets)} targets, {len(pruned)} (variant, target) pairs pruned "
             f"by the linter, {ran} runs in {wall:.1f} s"]
    if args.format == "json":
        print(json.dumps({"records": records, "tuned": tuned_json(records, targets, kernel.name),
                          "wall_s": wall}, indent=2, default=str))
    else:
        markdown = args.format == "markdown"
        for target in targets:
            print(("## " if markdown else "") + f"{target.name} ({target.title})\n")
            print(target_table(records, target, markdown))
        print(summary_table(records, targets, markdown), end="")
        print(("\n" if markdown else "") + notes[0])
    tuned = tuned_json(records, targets, kernel.name)
    if args.output:
        Path(args.output).write_text(json.dumps(tuned, indent=2) + "\n")
    if args.report:
        Path(args.report).write_text(tune_page(records, targets, kernel.name, notes))
    return 0 if not tuned["untuned"] else 1


def _executor(args, targets):
    """(executor, the local cluster to close or None)."""
    if args.cluster:
        from ..runner.tune.cluster import DaskExecutor

        return DaskExecutor.connect(args.cluster), None
    from ..runner.tune.targets import local_adapters

    adapters = local_adapters()
    wanted = {t.resource for t in targets}
    adapters = {r: s for r, s in adapters.items() if r in wanted}
    if args.local_cluster is not None:
        from ..runner.tune.cluster import DaskExecutor, local_cluster

        cluster = local_cluster(adapters, args.local_cluster)
        from distributed import Client

        return DaskExecutor(Client(cluster, set_as_default=False)), cluster
    from ..runner.tune.local import LocalExecutor

    return LocalExecutor(adapters), None
