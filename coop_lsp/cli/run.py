"""coop-lint run KERNEL.wgsl [--run RUN.toml] [--backend auto|dawn|wgpu|emulate] [--format text|json|markdown]
                             [--set NAME=V]... [--sweep NAME=V1,V2,...]... [--report FILE.md|FILE.html] [--explain]
                             [-D NAME[=VALUE]]... [-I DIR]... [--variant NAME] [--blame | --no-blame]
                             [--explain [--try] [--target PROFILE]]

Compiles, runs and checks a kernel with its run description (by default
KERNEL.run.toml beside it; see docs/runner.md). --set changes a [sizes] value;
--sweep runs every combination of the listed values and prints a table with the
fastest correct variant marked. Every timed run says where it sits on the
target's roofline; --explain also times the kernel with the other bounds-check
setting and lists the performance findings for the adapter's profile
(coop_lsp/ide/explain.py, docs/performance.md); --try also applies each
mechanical fix to the kernel, runs and checks it, and reports its speed-up
(coop_lsp/runner/trial.py, docs/try.md). Exit status: 0 when the results are correct (or
unchecked; for a sweep: when at least one variant is correct), 1 when they are
wrong or the run failed (time-out, compile error, lost device), 2 on usage
errors and mistakes in the run description.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..runner.description import BACKENDS


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="coop-lint run", description="Run a kernel, check its results, time it.")
    parser.add_argument("kernel", metavar="KERNEL.wgsl")
    parser.add_argument("--run", metavar="RUN.toml", help="the run description (default: KERNEL.run.toml beside it)")
    parser.add_argument("--backend", choices=BACKENDS, default="auto",
                        help="auto (default): Dawn on a GPU with subgroup matrices for matrix kernels, else "
                             "emulation on wgpu-native; wgpu-native for plain WGSL")
    parser.add_argument("--format", choices=("text", "json", "markdown"), default="text")
    parser.add_argument("--timeout", type=float, metavar="SECONDS", help="kill the run after this long "
                        "(default: the description's timing.timeout_s, 60)")
    parser.add_argument("--no-robustness", action="store_true",
                        help="Dawn only: run without bounds checks (device toggle disable_robustness)")
    parser.add_argument("--strict", action="store_true",
                        help="judge results by the output type's tolerance even where the kernel accumulates in "
                             "f16 (by default such results are judged against the error f16 accumulation gives)")
    parser.add_argument("--show-lowered", action="store_true",
                        help="print the WGSL that would run (emulated or translated, prints and watches instrumented) and exit")
    parser.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                        help="replace a [sizes] value of the run description (M=1024); may repeat")
    parser.add_argument("--sweep", action="append", default=[], metavar="NAME=V1,V2,...",
                        help="run once per value of a [sizes] entry; several --sweep run every combination")
    parser.add_argument("--explain", action="store_true",
                        help="also time the kernel with the other bounds-check setting (Dawn) and list the "
                             "performance findings (P rules) for the adapter's device profile")
    parser.add_argument("--try", dest="try_fixes", action="store_true",
                        help="with --explain: apply each finding's fix that is mechanical (bounds checks off, "
                             "padding of staged rows, unrolling, f32 accumulators) to the kernel, one at a time, "
                             "run and check each variant, and report its measured speed-up (docs/try.md)")
    parser.add_argument("--target", metavar="PROFILE",
                        help="with --explain: the device profile whose findings to list and try (default: the "
                             "profile that names the adapter)")
    parser.add_argument("--subgroup-sizes", metavar="N,N,...",
                        help="emulate the kernel at each of these subgroup sizes and compare the results")
    parser.add_argument("--targets", metavar="NAME,...",
                        help="with --backend emulate: emulate at every subgroup size these device profiles "
                             "allow (intel-arc: 8 to 32, amd-rdna3: 32 and 64) and compare the results")
    parser.add_argument("--bounds-check", action="store_true",
                        help="run a second time without bounds checks (canaries after every buffer; on Dawn also "
                             "disable_robustness) and compare: different results mean out-of-bounds accesses")
    parser.add_argument("--edges", nargs="?", const="M,N,K", metavar="NAMES",
                        help="also run at sizes that are not multiples of the tiles (M, N and K, or the [sizes] "
                             "named, one less, one more and odd) and check each; needs a dispatch that rounds up "
                             "(cdiv)")
    parser.add_argument("--report", metavar="FILE", help="also write a report page with a chart: FILE.md or "
                        "FILE.html")
    parser.add_argument("-D", "--define", action="append", default=[], metavar="NAME[=VALUE]",
                        help="a template's define: the kernel runs as this variant (docs/templates.md); may repeat")
    parser.add_argument("-I", "--include-dir", action="append", default=[], metavar="DIR",
                        help="a folder to search for the template's #include files; may repeat")
    parser.add_argument("--variant", metavar="NAME", help="run the configuration's variant set of this name")
    parser.add_argument("--watch", action="append", default=[], metavar="EXPR@LINE",
                        help="record EXPR each time LINE runs, as a '// coop: watch EXPR' comment there would "
                             "(docs/debugging.md); may repeat")
    parser.add_argument("--watch-lanes", choices=("subgroup", "workgroup", "all"), default="subgroup",
                        help="whose watch values to record: the first subgroup of the first workgroup (default), "
                             "the whole first workgroup, or every invocation")
    parser.add_argument("--print-limit", type=int, metavar="N",
                        help="records kept from prints and watches (default 4096); the rest are counted")
    parser.add_argument("--blame", action="store_true",
                        help="re-run with every store recorded and name, for each wrong output element, the "
                             "workgroup, subgroup and lane that wrote it and the line (done anyway when a check "
                             "fails; docs/debugging-blame.md)")
    parser.add_argument("--no-blame", action="store_true", help="no instrumented re-run when a check fails")
    return parser


def main(argv: list[str]) -> int:
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exit_:
        return int(exit_.code or 0)
    from ..runner.description import RunDescriptionError, load_run_description, sidecar_path
    from ..runner.execute import run_kernel
    from ..runner.kernel import KernelError

    kernel = Path(args.kernel)
    if not kernel.is_file():
        print(f"coop-lint: error: {kernel}: no such file", file=sys.stderr)
        return 2
    try:
        variant_text = _variant_text(args, kernel)
    except ValueError as error:
        print(f"coop-lint: error: {error}", file=sys.stderr)
        return 2
    if args.show_lowered:
        from ..runner.show_lowered import lowered_text
        try:
            text = variant_text if variant_text is not None else kernel.read_text()
            debug = {"watches": args.watch, "limit": args.print_limit, "watch_lanes": args.watch_lanes}
            print(lowered_text(text, args.backend, debug), end="")
        except KernelError as error:
            print(f"coop-lint: error: {error}", file=sys.stderr)
            return 2
        return 0
    from ..runner.sweep import SweepError, parse_assignment, sweep_axes

    run_path = Path(args.run) if args.run else sidecar_path(kernel)
    workspace = Path.cwd() if _inside(run_path) else None
    try:
        fixed = dict(parse_assignment(a, many=False) for a in args.set)
        fixed = {name: values[0] for name, values in fixed.items()}
        variants = sweep_axes(args.sweep)
        description = load_run_description(run_path, workspace=workspace, size_values=fixed)
    except (RunDescriptionError, SweepError) as error:
        print(f"coop-lint: error: {error}", file=sys.stderr)
        return 2
    if variant_text is None and (description.template_defines or description.template_include
                                 or description.template_variant):
        # The run description names the variant it runs; -D, -I and --variant on the command line win.
        try:
            variant_text = _template_variant(kernel, description.template_defines, description.template_include,
                                             description.template_variant)
        except ValueError as error:
            print(f"coop-lint: error: {run_path.name}: [template]: {error}", file=sys.stderr)
            return 2
    options = {"backend": args.backend, "timeout_s": args.timeout,
               "robustness": False if args.no_robustness else None, "strict": args.strict,
               "bounds_check": args.bounds_check}
    if args.watch or args.print_limit is not None or args.watch_lanes != "subgroup":
        options["debug"] = {"watches": args.watch, "limit": args.print_limit, "watch_lanes": args.watch_lanes}
    if sys.stderr.isatty():  # a person is watching: say what the worker is doing
        options["progress"] = lambda step: print(f"  {step}...", file=sys.stderr, flush=True)
    if variant_text is not None and not args.sweep:
        options["text"] = variant_text
    if args.edges:
        return _edges(args, kernel, run_path, fixed, workspace, options)
    if args.sweep:
        if variant_text is not None:
            print("coop-lint: error: -D, -I and --variant do not combine with --sweep yet", file=sys.stderr)
            return 2
        return _sweep(args, kernel, run_path, variants, fixed, workspace, options)
    if args.subgroup_sizes or args.targets:
        return _subgroup_sizes(args, kernel, description, options)
    report = run_kernel(kernel, description, **options,
                        blame="on" if args.blame else "off" if args.no_blame else "failed")
    if args.try_fixes and not args.explain:
        print("coop-lint: error: --try goes with --explain", file=sys.stderr)
        return 2
    if args.explain:
        _print_explained(report, kernel, description, options, args.format, args.target, args.try_fixes)
    else:
        print(report.render(args.format), end="")
    if args.report:
        from ..runner.sweep import SweepResult, sweep_page

        from ..runner.blame_report import blame_html

        page = sweep_page([SweepResult({}, report)], _page_format(args.report), title=f"{kernel.name}")
        if _page_format(args.report) == "html":
            page += blame_html(report.blame)
        _write_report(args.report, page)
    if report.status == "error":
        return 2
    return 0 if report.ok else 1


def _subgroup_sizes(args, kernel, description, options) -> int:
    from ..runner.subgroup_sizes import SubgroupSizeError, run_at_subgroup_sizes, sizes_for_targets

    try:
        if args.subgroup_sizes:
            sizes = []
            for word in args.subgroup_sizes.split(","):
                if not word.strip().isdigit():
                    raise SubgroupSizeError(f"--subgroup-sizes: '{word.strip()}' is not a subgroup size")
                sizes.append(int(word))
        else:
            sizes = sizes_for_targets([n.strip() for n in args.targets.split(",") if n.strip()])
        options = {k: v for k, v in options.items() if k != "backend"}
        comparison = run_at_subgroup_sizes(kernel, description, sorted(set(sizes)), **options)
    except SubgroupSizeError as error:
        print(f"coop-lint: error: {error}", file=sys.stderr)
        return 2
    print(comparison.render(args.format), end="")
    if comparison.status == "error":
        return 2
    return 0 if comparison.ok else 1


def _sweep(args, kernel, run_path, variants, fixed, workspace, options) -> int:
    import json

    from ..runner.sweep import fastest, run_sweep, sweep_page, sweep_table

    def progress(index, total, label):
        print(f"[{index + 1}/{total}] {label}", file=sys.stderr, flush=True)

    options.pop("progress", None)  # one line per variant is enough
    results = run_sweep(kernel, run_path, variants, fixed, workspace, progress=progress, **options)
    if args.format == "json":
        print(json.dumps([{"values": r.values, **r.report.to_json()} for r in results], indent=2))
    else:
        print(sweep_table(results, markdown=args.format == "markdown"), end="")
    if args.report:
        _write_report(args.report, sweep_page(results, _page_format(args.report),
                                              title=f"{kernel.name}: sweep over {', '.join(variants[0])}"))
    if all(r.report.status == "error" for r in results):
        return 2
    return 0 if fastest(results) is not None else 1


def _variant_text(args, kernel: Path) -> str | None:
    """The WGSL of the variant that -D/-I/--variant pick from a template; None when none is asked for."""
    if not args.define and not args.include_dir and not args.variant:
        return None
    from ..lint.templates import parse_define

    defines = dict(parse_define(d) for d in args.define)
    return _template_variant(kernel, defines, tuple(Path(d) for d in args.include_dir), args.variant)


def _template_variant(kernel: Path, defines: dict[str, str], include_dirs: tuple[Path, ...],
                      variant_name: str | None) -> str:
    """A variant of a templated kernel, from defines, include folders and a configured variant set."""
    from ..core.rules import rule
    from ..lint.config import ConfigError, ConfigFinder
    from ..lint.templates import options_for
    from ..source import expand

    try:
        tables = ConfigFinder().for_path(kernel).settings_for(kernel).variants
    except ConfigError as error:
        raise ValueError(str(error)) from None
    options = options_for(tables, defines, include_dirs, frozenset({variant_name}) if variant_name else None)
    variant = options.variants[0] if options is not None else None
    if variant_name and (variant is None or variant.name != variant_name):
        raise ValueError(f"--variant {variant_name}: no variant set of that name applies to {kernel}")
    expansion = expand(kernel, kernel.read_bytes(), variant.define_map if variant else defines,
                       options.include_dirs if options else (), options.override_file_defines if options else False)
    errors = [p for p in expansion.problems if rule(p.code).severity.name == "ERROR"]
    if errors:
        raise ValueError(f"{kernel}: {errors[0].code} {errors[0].message} (coop-lint {kernel} shows where)")
    return expansion.data.decode("utf-8", "replace")


def _print_explained(report, kernel, description, options, fmt: str, target: str | None = None,
                     try_fixes: bool = False) -> None:
    import json

    from ..runner.execute import run_kernel
    from ..ide.explain import explain

    options = {k: v for k, v in options.items() if k not in ("debug",)}
    runs = {}  # robustness -> a report of the kernel as written, shared by the trials and the explanation

    def variant(text=None, robustness=None):
        changes = {"blame": "off"}
        if text is not None:
            changes["text"] = text
        if robustness is not None:
            changes["robustness"] = robustness
        result = run_kernel(kernel, description, **{**options, **changes})
        if text is None and robustness is not None:
            runs[robustness] = result
        return result

    def rerun(robustness: bool):
        return runs.get(robustness) or variant(robustness=robustness)

    trials = None
    if try_fixes:
        from ..runner.trial import run_trials

        chosen = target or report.peak_profile
        trials = [t.to_json() for t in run_trials(report, chosen, variant)] if chosen else []
    # Read from the run's own lint of the kernel as it ran (a template's variant, constants written in).
    explanation = explain(report, rerun, target)
    explanation.trials = trials
    if fmt == "json":
        print(json.dumps({**report.to_json(), "explain": explanation.to_json()}, indent=2))
    else:
        print(report.render(fmt) + ("\n" if fmt == "markdown" else "") + explanation.render(fmt == "markdown"),
              end="")


def _edges(args, kernel, run_path, fixed, workspace, options) -> int:
    """The run as described, then every edge size; exit 0 only when all are correct."""
    import json

    from ..runner.description import RunDescriptionError
    from ..runner.edges import edge_variants
    from ..runner.sweep import run_sweep, sweep_table

    if args.sweep:
        print("coop-lint: error: --edges and --sweep do not combine; run them one after the other", file=sys.stderr)
        return 2
    try:
        names = tuple(n.strip() for n in args.edges.split(",") if n.strip())
        variants = [{}] + edge_variants(run_path, workspace, fixed, names)
    except RunDescriptionError as error:
        print(f"coop-lint: error: {error}", file=sys.stderr)
        return 2
    options.pop("progress", None)
    results = run_sweep(kernel, run_path, variants, fixed, workspace,
                        progress=lambda i, n, label: print(f"[{i + 1}/{n}] {label}", file=sys.stderr, flush=True),
                        **options)
    if args.format == "json":
        print(json.dumps([{"values": r.values, **r.report.to_json()} for r in results], indent=2))
    else:
        print(sweep_table(results, markdown=args.format == "markdown"), end="")
        wrong = [r for r in results if r.report.status != "correct"]
        for r in wrong:
            print(f"\n{r.label}:\n{r.report.render(args.format)}", end="")
    if any(r.report.status == "error" for r in results):
        return 2
    return 0 if all(r.report.ok for r in results) else 1


def _page_format(path: str) -> str:
    return "html" if path.lower().endswith((".html", ".htm")) else "markdown"


def _write_report(path: str, page: str) -> None:
    Path(path).write_text(page)
    print(f"report written to {path}", file=sys.stderr)


def _inside(path: Path) -> bool:
    return path.resolve().is_relative_to(Path.cwd().resolve())
