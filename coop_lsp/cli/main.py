"""coop-lint [PATHS...]: report problems in WGSL files.

    coop-lint [options] PATH...     lint files and folders ('-' reads standard input)
    coop-lint rules [--markdown]    every rule, as a table (or docs/rules.md)
    coop-lint devices [--save NAME] the connected adapter and the known target profiles
    coop-lint rule CODE             one rule's documentation
    coop-lint run KERNEL.wgsl       run, check and time a kernel (docs/runner.md)
    coop-lint format [--check|--diff] PATH...  lay out WGSL in the canonical style (docs/ci.md)
    coop-lint tune KERNEL.wgsl      each target's best variant over a search space (docs/tune.md)
    coop-lint worker --scheduler ADDRESS  serve this host's adapters to a Dask scheduler for tune --cluster

Exit status: 0 when no findings, 1 when there are findings (with --diff:
when a file would change), 2 when the command was used wrongly, the
configuration is invalid, or a file could not be read.
"""

from __future__ import annotations

import argparse
import difflib
import os
import signal
import sys
from pathlib import Path

from .. import __version__
from ..core.diagnostic import Diagnostic
from ..core.rules import find as find_rule
from ..core.text import SourceText, Span
from ..lint.config import DIALECTS, ConfigError, ConfigFinder, Settings, codes_of, targets_of, with_command_line
from ..lint.fixes import fix_until_stable
from ..source.hosts import language_of
from ..source.rules import PATH_OUTSIDE_WORKSPACE
from ..lint.rules import INTERNAL_ERROR
from . import render
from ..lint.result_cache import ResultCache, cache_root, profiles_fingerprint
from ..lint.files import depends_on_other_files, kind_of, lint_file
from .checking import Job, run_job
from . import baseline as baseline_file
from .baseline import Baseline, BaselineError
from .files import UsageError, collect
from .parallel import default_jobs, run_parallel

EXIT_CLEAN, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="coop-lint",
        description="Lint WGSL compute shaders that use cooperative / subgroup matrices. "
                    "Also: 'coop-lint rules' lists the rules, 'coop-lint rule CODE' explains one.",
    )
    parser.add_argument("paths", nargs="*", metavar="PATH",
                        help="files or folders to lint (folders are searched for .wgsl files); '-' reads standard input")
    parser.add_argument("--stdin-filename", metavar="NAME",
                        help="the name to report for standard input (also picks its configuration and language)")
    parser.add_argument("--output-format", choices=render.FORMATS, default="text",
                        help="text (default, with the source line), concise, json, sarif, github (workflow "
                             "annotations), junit")
    parser.add_argument("-o", "--output-file", metavar="FILE", help="write the report to FILE instead of standard output")
    parser.add_argument("--no-source", action="store_true", help="print only the one-line form of each finding")
    parser.add_argument("--select", action="append", metavar="RULES",
                        help="only these rules: codes, code prefixes (T0), names, or ALL; comma-separated; "
                             "replaces the configuration's select")
    parser.add_argument("--ignore", action="append", metavar="RULES", help="leave these rules out; adds to the configuration's")
    parser.add_argument("--dialect", choices=DIALECTS, help="the matrix dialect to check against (default: auto)")
    parser.add_argument("--target", action="append", metavar="NAME", help="a target device profile; may repeat")
    parser.add_argument("--config", metavar="FILE", help="use this pyproject.toml or coop-lint.toml for every file")
    parser.add_argument("--isolated", action="store_true", help="read no configuration files")
    parser.add_argument("--fix", action="store_true", help="apply the safe fixes to the files")
    parser.add_argument("--diff", action="store_true", help="print the safe fixes as a unified diff; change nothing")
    parser.add_argument("--statistics", action="store_true", help="print how many findings of each rule, not the findings")
    parser.add_argument("-q", "--quiet", action="store_true", help="print the findings and nothing else")
    parser.add_argument("--exit-zero", action="store_true", help="exit 0 even when there are findings")
    parser.add_argument("-D", "--define", action="append", metavar="NAME[=VALUE]", default=[],
                        help="define a macro, placeholder or WESL feature for templates; may repeat (docs/templates.md)")
    parser.add_argument("-I", "--include-dir", action="append", metavar="DIR", default=[],
                        help="a folder to search for #include files and naga_oil modules; may repeat")
    parser.add_argument("--variant", action="append", metavar="NAME",
                        help="lint only these variant sets of the configuration (comma-separated; may repeat)")
    parser.add_argument("--hosts", action="store_true",
                        help="in folders, also lint WGSL tagged in .py, .js, .ts and .rs files (see docs/embedded.md)")
    parser.add_argument("-j", "--jobs", type=int, default=0, metavar="N",
                        help="lint in N worker processes (default 0: one per CPU core; 1: in this process)")
    parser.add_argument("--no-cache", action="store_true",
                        help="neither read nor write the result cache")
    parser.add_argument("--cache-dir", metavar="DIR",
                        help="where the result cache lives (default $COOP_LINT_CACHE_DIR, else the user's cache folder, "
                             "~/.cache/coop-lint on Linux)")
    parser.add_argument("--force-exclude", action="store_true",
                        help="apply the configuration's exclude to files named on the command line too (pre-commit)")
    parser.add_argument("--write-baseline", metavar="FILE",
                        help="record the current findings in FILE and exit 0 (adopting coop-lint in an existing codebase)")
    parser.add_argument("--baseline", metavar="FILE",
                        help="report only findings that are not in FILE (a --write-baseline file); "
                             "also lists its entries that no longer occur")
    parser.add_argument("--baseline-prune", action="store_true",
                        help="with --baseline: remove the entries that no longer occur from FILE")
    parser.add_argument("--watch", action="store_true",
                        help="lint, then re-lint the files that change and print only what changed, until Ctrl-C")
    parser.add_argument("--version", action="version", version=f"coop-lint {__version__}")
    return parser


def _error(message: str) -> int:
    print(f"coop-lint: error: {message}", file=sys.stderr)
    return EXIT_ERROR


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        if not {"--version", "-h", "--help"} & set(argv):
            # Before any work (and any worker process): a broken install is one line and status 2.
            from ..syntax.grammar import problem

            broken = problem()
            if broken:
                return _error(broken)
        return _main(argv)
    except BrokenPipeError:
        # The reader went away (`coop-lint ... | head`): stop quietly, as a program killed by SIGPIPE
        # would, instead of a traceback, and keep the interpreter's last flush from failing again.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 128 + signal.SIGPIPE


def _main(argv: list[str]) -> int:
    if argv and argv[0] in ("rules", "rule"):
        return _rules_command(argv)
    if argv and argv[0] == "run":
        from .run import main as run_main
        return run_main(argv[1:])
    if argv and argv[0] == "format":
        from .format import main as format_main

        return format_main(argv[1:])
    if argv and argv[0] == "tune":
        from .tune import main as tune_main

        return tune_main(argv[1:])
    if argv and argv[0] == "worker":
        from .worker import main as worker_main

        return worker_main(argv[1:])
    if argv and argv[0] == "devices":
        from .devices import devices_command

        return devices_command(argv[1:])
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exit_:
        # argparse exits 2 on usage errors and 0 for --help/--version.
        return int(exit_.code or 0)
    if not args.paths:
        parser.print_usage(sys.stderr)
        return _error("no files given (pass PATHs, or '-' for standard input)")
    if args.fix and args.diff:
        return _error("--fix and --diff cannot be used together (--diff shows what --fix would do)")
    if args.jobs < 0:
        return _error("--jobs expects a number of processes, 0 for one per CPU core")
    if args.watch and (args.fix or args.diff or args.write_baseline or "-" in args.paths):
        return _error("--watch re-lints files as they change: it cannot be combined with --fix, --diff, "
                      "--write-baseline or standard input")
    if args.write_baseline and (args.fix or args.diff or args.baseline):
        return _error("--write-baseline records findings as they are: it cannot be combined with --fix, --diff or --baseline")
    try:
        return _lint(args)
    except ConfigError as error:
        return _error(str(error))
    except UsageError as error:
        return _error(str(error))
    except KeyboardInterrupt:
        return 130


def _lint(args: argparse.Namespace) -> int:
    finder = ConfigFinder(Path(args.config) if args.config else None, isolated=args.isolated)
    try:
        baseline = _open_baseline(args, finder)
    except BaselineError as error:
        return _error(str(error))
    cli_select = codes_of(",".join(args.select), "command line", "--select") if args.select else None
    cli_ignore = codes_of(",".join(args.ignore), "command line", "--ignore", ignoring=True) if args.ignore else frozenset()
    cli_targets = targets_of(",".join(args.target), "command line", "--target") if args.target else None

    shared_settings: dict[int, tuple[object, Settings]] = {}  # id(configuration) -> settings of all its files

    def settings_for(path: Path | None) -> Settings:
        config = finder.for_path(path if path is not None else Path.cwd())
        if config.depends_on_path:
            return with_command_line(config.settings_for(path), cli_select, cli_ignore, args.dialect, cli_targets)
        # One object for all the files of a configuration: its cache-key text is built once.
        kept = shared_settings.get(id(config))
        if kept is None:
            kept = shared_settings[id(config)] = (config, with_command_line(
                config.settings_for(None), cli_select, cli_ignore, args.dialect, cli_targets))
        return kept[1]

    defines = {}
    if args.define:
        # Only then: the template layer imports the whole checker, which a run the cache answers never needs.
        from ..lint.templates import parse_define
        try:
            defines = dict(parse_define(d) for d in args.define)
        except ValueError as error:
            raise UsageError(str(error)) from None
    chosen = frozenset(n.strip() for v in args.variant for n in v.split(",") if n.strip()) if args.variant else None
    templates = _Templates(defines, tuple(Path(d) for d in args.include_dir), chosen)

    if args.watch:
        return _watch(args, finder, settings_for, baseline, templates)

    inputs = []  # (display, path, is standard input, data or None, error)
    for display, path, reader in _inputs(args, finder):
        try:
            inputs.append((display, path, reader is _read_stdin, reader(), None))
        except OSError as error:
            inputs.append((display, path, reader is _read_stdin, None, _os_error(error)))
    if args.fix or args.diff:
        return _fix(args, inputs, settings_for, baseline, templates)
    root = None if args.no_cache else cache_root(args.cache_dir)
    cache = ResultCache(root) if root is not None else None
    reports: list[render.FileReport | None] = []
    keys: dict[int, str] = {}
    jobs: dict[int, Job] = {}
    profiles: dict[tuple[str, ...], str | None] = {}
    for index, (display, path, is_stdin, data, error) in enumerate(inputs):
        if data is None:
            reports.append(render.FileReport(display, None, error=error))
            continue
        settings = settings_for(path)
        language = language_of(path.suffix) if path is not None else None
        reports.append(None)
        options = templates.options(settings)
        kind = kind_of(data, language, options)
        if depends_on_other_files(kind, options):
            # A template's findings depend on the files it includes and collect findings in them:
            # linted here, every variant, and never cached by its own bytes alone.
            reports[index] = _lint_one(display, data, settings, language, fix=False, path=path,
                                       templates=templates)[0]
            continue
        if cache is not None and not is_stdin:
            fingerprint = profiles.get(settings.targets, "")
            if fingerprint == "":
                fingerprint = profiles[settings.targets] = profiles_fingerprint(settings.targets)
            if fingerprint is not None:
                keys[index] = cache.key(data, language, settings, fingerprint)
                found = cache.get(keys[index])
                if found is not None:
                    reports[index] = render.FileReport(display, SourceText.from_bytes(data), found)
                    continue
        jobs[index] = Job(data, settings, language, kind)
    workers = args.jobs or default_jobs()
    order = list(jobs)
    if order:
        # Imported once here, before the workers fork, rather than in each of them; a run the cache
        # answers whole never imports it.
        from ..lint import engine  # noqa: F401
    if workers > 1 and len(order) > 1:
        found = run_parallel([jobs[i] for i in order], run_job, workers, _died, _failed)
    else:
        found = [run_job(jobs[i]) for i in order]
    fresh = {}  # cache key -> findings, written together at the end
    for index, diagnostics in zip(order, found):
        display, _, _, data, _ = inputs[index]
        reports[index] = render.FileReport(display, SourceText.from_bytes(data), diagnostics)
        if index in keys and not any(d.code == INTERNAL_ERROR.code for d in diagnostics):
            fresh[keys[index]] = diagnostics
    if cache is not None:
        cache.put_many(fresh)
        for note in cache.notes:
            print(f"coop-lint: note: {note}", file=sys.stderr)
    return _conclude(args, baseline, reports, [], None, templates)


def _conclude(args, baseline: Baseline | None, reports: list[render.FileReport], diffs: list[str],
              fixed_stdin: bytes | None, templates: "_Templates") -> int:
    """Findings in included files, the baseline's say on the findings, then the report and the exit status."""
    if templates.chosen is not None and not templates.chosen <= templates.matched:
        unknown = ", ".join(sorted(templates.chosen - templates.matched))
        return _error(f"--variant {unknown}: no variant set of that name applies to the files linted")
    reports.extend(templates.included_reports(reports))
    if baseline is not None:
        try:
            if args.write_baseline:
                return _write_baseline(args, baseline, reports)
            _apply_baseline(args, baseline, reports)
        except BaselineError as error:
            return _error(str(error))
    return _finish(args, reports, diffs, fixed_stdin)


def _fix(args, inputs, settings_for, baseline: Baseline | None, templates: "_Templates") -> int:
    """--fix and --diff: one file after the other, in this process (each fix is checked by linting again)."""
    reports: list[render.FileReport] = []
    fixed_stdin: bytes | None = None
    diffs: list[str] = []
    for display, path, is_stdin, data, error in inputs:
        if data is None:
            reports.append(render.FileReport(display, None, error=error))
            continue
        settings = settings_for(path)
        language = language_of(path.suffix) if path is not None else None
        report, fixed = _lint_one(display, data, settings, language, fix=True, path=path, templates=templates)
        reports.append(report)
        if is_stdin and args.fix:
            # --fix on standard input writes the text, fixed or not, to standard output.
            fixed_stdin = fixed if fixed is not None else data
        elif fixed is None or fixed == data:
            continue
        elif args.diff:
            diffs.append(_unified_diff(display, data, fixed))
        else:
            try:
                path.write_bytes(fixed)
            except OSError as error:
                report.error = f"cannot write the fixed file: {_os_error(error)}"
    return _conclude(args, baseline, reports, diffs, fixed_stdin, templates)


def _died(job: Job, why: str) -> list[Diagnostic]:
    return [Diagnostic(INTERNAL_ERROR.code, f"internal error: the worker process checking this file {why}; "
                                            "its findings are unknown", Span(0, 0))]


def _failed(job: Job, trace: str) -> list[Diagnostic]:
    last = trace.strip().splitlines()[-1] if trace.strip() else "unknown error"
    return [Diagnostic(INTERNAL_ERROR.code, f"internal error while checking this file: {last}", Span(0, 0))]


class _Templates:
    """The command line's template options, and the findings in included files (each file once)."""

    def __init__(self, defines: dict[str, str], include_dirs: tuple[Path, ...], chosen: frozenset[str] | None):
        self.defines, self.include_dirs, self.chosen = defines, include_dirs, chosen
        self._cache = None
        self.matched: set[str] = set()
        self.included: dict[Path, dict] = {}

    @property
    def cache(self):
        if self._cache is None:
            from ..source import FileCache
            self._cache = FileCache()
        return self._cache

    def options(self, settings: Settings):
        if not settings.variants and not self.defines and not self.include_dirs and self.chosen is None:
            return None  # plain linting: the template layer is not even imported
        from ..lint.templates import options_for
        options = options_for(settings.variants, self.defines, self.include_dirs, self.chosen)
        if options is not None and self.chosen is not None:
            self.matched.update(v.name for v in options.variants if v.name in self.chosen)
        return options

    def add_included(self, path: Path, diagnostics) -> None:
        kept = self.included.setdefault(path, {})
        for diagnostic in diagnostics:
            kept.setdefault((diagnostic.span, diagnostic.code, diagnostic.message), diagnostic)

    def included_reports(self, reports: list[render.FileReport]) -> list[render.FileReport]:
        if not self.included:
            return []
        linted = {Path(r.display).resolve() for r in reports}
        extra = []
        for path, found in sorted(self.included.items()):
            if path in linted or not found:
                continue
            try:
                source = SourceText.from_bytes(path.read_bytes())
            except OSError:
                continue
            try:
                display = os.path.relpath(path)
            except ValueError:
                display = str(path)
            extra.append(render.FileReport(display, source, sorted(found.values(), key=lambda d: d.sort_key)))
        return extra


def _watch(args, finder: ConfigFinder, settings_for, baseline: Baseline | None, templates=None) -> int:
    from .watch import watch

    def collect_files() -> list[Path]:
        found = []
        for name in args.paths:
            try:
                found.extend(collect([name], finder, hosts=args.hosts, force_exclude=args.force_exclude))
            except UsageError:
                pass  # a folder deleted while watching: its files drop out
        return found

    def lint_files(paths: list[Path]) -> list[render.FileReport]:
        reports = []
        for path in paths:
            try:
                data = path.read_bytes()
            except OSError as error:
                reports.append(render.FileReport(str(path), None, error=_os_error(error)))
                continue
            report, _ = _lint_one(str(path), data, settings_for(path), language_of(path.suffix), fix=False,
                                  path=path, templates=templates)
            reports.append(report)
        if baseline is not None:
            _apply_baseline(args, baseline, reports)
        return reports

    def show(stream, reports: list[render.FileReport]) -> None:
        for report in reports:
            if report.error:
                stream.write(f"{report.display}: error: {report.error}\n")
            elif not report.diagnostics:
                stream.write(f"{report.display}: no findings\n")
        _render(args, stream, [r for r in reports if not r.error and r.diagnostics])
        stream.flush()

    # Up front, once: a missing path is a usage error and an empty one is named, as without --watch.
    for _ in collect(args.paths, finder, hosts=args.hosts, force_exclude=args.force_exclude,
                     on_empty=_warn_nothing_to_lint):
        pass
    return watch(collect_files, lint_files, show, sys.stdout, sys.stderr)


def _open_baseline(args: argparse.Namespace, finder: ConfigFinder) -> Baseline | None:
    """The baseline of this run, read before any linting so that a bad file stops the run early."""
    if args.write_baseline:
        return Baseline(Path(args.write_baseline), [])
    path = Path(args.baseline) if args.baseline else finder.for_path(Path.cwd()).baseline
    if path is None:
        if args.baseline_prune:
            raise BaselineError("--baseline-prune needs a baseline (--baseline FILE, or `baseline` in the configuration)")
        return None
    return baseline_file.read(path)


def _write_baseline(args, baseline: Baseline, reports: list[render.FileReport]) -> int:
    errors = [r for r in reports if r.error]
    for report in errors:
        print(f"coop-lint: error: {report.display}: {report.error}", file=sys.stderr)
    if errors:
        return EXIT_ERROR  # a baseline missing the findings of unreadable files would hide them later
    entries = [baseline_file.entry_for(baseline, r.display, r.source, d)
               for r in reports if r.source is not None for d in r.diagnostics]
    baseline_file.write(baseline.path, entries)
    if not args.quiet:
        files = len({e.file for e in entries})
        print(f"Wrote {len(entries)} finding{'s' if len(entries) != 1 else ''} in {files} file{'s' if files != 1 else ''} "
              f"to {baseline.path} ({len(reports)} file{'s' if len(reports) != 1 else ''} checked).", file=sys.stderr)
    return EXIT_CLEAN


def _apply_baseline(args, baseline: Baseline, reports: list[render.FileReport]) -> None:
    baseline.start_matching()
    checked = set()
    known = 0
    for report in reports:
        if report.source is None:
            continue
        key = baseline.key_of(report.display)
        checked.add(key)
        findings = [(d.code, *baseline_file.fingerprints(report.source, d)) for d in report.diagnostics]
        in_baseline = baseline.match_file(key, findings)
        known += sum(in_baseline)
        report.diagnostics = [d for d, old in zip(report.diagnostics, in_baseline) if not old]
    stale = baseline.stale(checked)
    if not args.quiet and known:
        print(f"coop-lint: {known} finding{'s' if known != 1 else ''} in the baseline {baseline.path} not shown.",
              file=sys.stderr)
    if stale and baseline.written_by != __version__:
        print(f"coop-lint: the baseline was written by coop-lint {baseline.written_by}; its entries that no longer "
              f"match are listed below, not dropped.", file=sys.stderr)
    for entry in stale:
        print(f"coop-lint: baseline: {entry.file}:{entry.line}: {entry.code} no longer occurs ({entry.message})",
              file=sys.stderr)
    if stale and args.baseline_prune:
        gone = set(map(id, stale))
        baseline_file.write(baseline.path, [e for e in baseline.entries if id(e) not in gone])
        print(f"coop-lint: removed {len(stale)} stale entr{'ies' if len(stale) != 1 else 'y'} from {baseline.path}.",
              file=sys.stderr)
    elif stale:
        print(f"coop-lint: {len(stale)} baseline entr{'ies' if len(stale) != 1 else 'y'} no longer occur; "
              f"--baseline-prune removes {'them' if len(stale) != 1 else 'it'}.", file=sys.stderr)


def _read_stdin() -> bytes:
    return sys.stdin.buffer.read()


def _inputs(args: argparse.Namespace, finder: ConfigFinder):
    for name in args.paths:
        if name == "-":
            display = args.stdin_filename or "<stdin>"
            yield display, (Path(args.stdin_filename) if args.stdin_filename else None), _read_stdin
            continue
        for path in collect([name], finder, hosts=args.hosts, force_exclude=args.force_exclude,
                            on_empty=_warn_nothing_to_lint):
            yield str(path), path, path.read_bytes


def _warn_nothing_to_lint(name: str, reason: str) -> None:
    print(f"coop-lint: warning: {name}: nothing to lint: {reason}", file=sys.stderr)


def _os_error(error: OSError) -> str:
    if isinstance(error, IsADirectoryError):
        return "is a directory"
    return error.strerror or str(error)


def _lint_data(data: bytes, settings: Settings, language: str | None, path: Path | None = None,
               templates: _Templates | None = None):
    """(source, findings) of a WGSL file, a template or the WGSL embedded in a host file."""
    return lint_file(data, settings, language, path, templates)


def _lint_one(display: str, data: bytes, settings: Settings, language: str | None, fix: bool,
              path: Path | None = None, templates: _Templates | None = None):
    source, diagnostics = _lint_data(data, settings, language, path, templates)
    report = render.FileReport(display, source, diagnostics)
    if not fix or not any(render.fixable(d) for d in diagnostics):
        return report, None
    outcome = fix_until_stable(data, lambda text: _lint_data(text, settings, language, path, templates)[1], diagnostics)
    if outcome.refused:
        report.notes.append(outcome.refused)
    if outcome.applied:
        report.source, report.diagnostics = _lint_data(outcome.data, settings, language, path, templates)
        report.fixed = outcome.applied
    return report, outcome.data


def _unified_diff(display: str, before: bytes, after: bytes) -> str:
    old = before.decode("utf-8", errors="replace").splitlines(keepends=True)
    new = after.decode("utf-8", errors="replace").splitlines(keepends=True)
    prefix = ("", "") if Path(display).is_absolute() else ("a/", "b/")
    lines = difflib.unified_diff(old, new, fromfile=prefix[0] + display, tofile=prefix[1] + display)
    return "".join(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n" for line in lines)


def _finish(args, reports: list[render.FileReport], diffs: list[str], fixed_stdin: bytes | None) -> int:
    errors = [r for r in reports if r.error]
    for report in errors:
        print(f"coop-lint: error: {report.display}: {report.error}", file=sys.stderr)
    for report in reports:
        for note in report.notes:
            print(f"coop-lint: {report.display}: {note}", file=sys.stderr)
    if args.diff:
        sys.stdout.write("".join(diffs))
        if not args.quiet:
            count = sum(r.fixed for r in reports)
            print(f"Would fix {count} finding{'s' if count != 1 else ''} in {len(diffs)} "
                  f"file{'s' if len(diffs) != 1 else ''}.", file=sys.stderr)
        return EXIT_ERROR if errors else (EXIT_FINDINGS if diffs and not args.exit_zero else EXIT_CLEAN)

    linted = [r for r in reports if not r.error]
    if fixed_stdin is not None:
        sys.stdout.buffer.write(fixed_stdin)
        sys.stdout.flush()
        out = sys.stderr  # the fixed text owns standard output
    else:
        out = None
    try:
        stream = open(args.output_file, "w", encoding="utf-8") if args.output_file else (out or sys.stdout)
    except OSError as error:
        return _error(f"{args.output_file}: cannot write: {_os_error(error)}")
    findings = sum(len(r.diagnostics) for r in linted)
    try:
        _render(args, stream, reports if args.output_format in ("junit", "sarif") else linted)
        if not args.quiet and args.output_format in ("text", "concise") and not args.statistics:
            summary = _summary(linted, findings, args.fix)
            if summary:
                stream.write(summary + "\n")
            elif not linted and not errors:
                print("No files were checked.", file=sys.stderr)
            elif linted:
                # Standard error, so that clean output stays empty for tools that read it.
                count = len(linted)
                print(f"No findings in {count} file{'s' if count != 1 else ''}.", file=sys.stderr)
    finally:
        if args.output_file:
            stream.close()
    # A path refused for leaving the workspace is an error of the input, like a broken configuration:
    # the lint of that file is partial, so no run may pass on it, --exit-zero or not.
    if errors or any(d.code == PATH_OUTSIDE_WORKSPACE.code for r in linted for d in r.diagnostics):
        return EXIT_ERROR
    return EXIT_FINDINGS if findings and not args.exit_zero else EXIT_CLEAN


def _render(args, stream, reports: list[render.FileReport]) -> None:
    fmt = args.output_format
    if args.statistics:
        render.render_statistics(stream, reports, as_json=fmt == "json")
    elif fmt == "text":
        render.render_text(stream, reports, show_source=not args.no_source)
    elif fmt == "concise":
        render.render_text(stream, reports, show_source=False)
    elif fmt == "json":
        render.render_json(stream, reports)
    elif fmt == "sarif":
        render.render_sarif(stream, reports)
    elif fmt == "github":
        render.render_github(stream, reports)
    elif fmt == "junit":
        render.render_junit(stream, reports)


def _summary(reports: list[render.FileReport], findings: int, fixing: bool) -> str:
    fixed = sum(r.fixed for r in reports)
    if not findings and not fixed:
        return ""
    files = sum(1 for r in reports if r.diagnostics)
    parts = []
    if fixed:
        parts.append(f"Fixed {fixed} finding{'s' if fixed != 1 else ''}.")
    if findings:
        fixable = sum(render.fixable(d) for r in reports for d in r.diagnostics)
        text = f"Found {findings} finding{'s' if findings != 1 else ''} in {files} file{'s' if files != 1 else ''}"
        if fixable and not fixing:
            text += f" ({fixable} fixable with --fix)"
        parts.append(text + ".")
    parts.append(f"{len(reports)} file{'s' if len(reports) != 1 else ''} checked.")
    return " ".join(parts)


# -- rules / rule -------------------------------------------------------------

def _rules_command(argv: list[str]) -> int:
    from . import ruledocs
    if argv[0] == "rules":
        parser = argparse.ArgumentParser(prog="coop-lint rules", description="List every rule.")
        parser.add_argument("--markdown", action="store_true",
                            help=f"print docs/rules.md (regenerate with: {ruledocs.REGENERATE})")
    else:
        parser = argparse.ArgumentParser(prog="coop-lint rule", description="Explain one rule.")
        parser.add_argument("code", metavar="CODE", help="a rule code (T012) or name (deprecated_builtin)")
    try:
        args = parser.parse_args(argv[1:])
    except SystemExit as exit_:
        return int(exit_.code or 0)
    if argv[0] == "rules":
        sys.stdout.write(ruledocs.markdown() if args.markdown else ruledocs.table())
        return EXIT_CLEAN
    from ..lint.catalogue import all_rules
    all_rules()
    rule = find_rule(args.code)
    if rule is None:
        return _error(f"unknown rule '{args.code}' (`coop-lint rules` lists them)")
    sys.stdout.write(ruledocs.text(rule))
    return EXIT_CLEAN


if __name__ == "__main__":
    sys.exit(main())
