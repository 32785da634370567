"""coop-lint [PATHS...]: report problems in WGSL files.

    coop-lint [options] PATH...     lint files and folders ('-' reads standard input)
    coop-lint rules [--markdown]    every rule, as a table (or docs/rules.md)
    coop-lint devices [--save NAME] the connected adapter and the known target profiles
    coop-lint rule CODE             one rule's documentation
    coop-lint run KERNEL.wgsl       run, check and time a kernel (docs/runner.md)
    coop-lint format [--check|--diff] PATH...  lay out WGSL in the canonical style (docs/ci.md)

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
from dataclasses import replace
from pathlib import Path

from .. import __version__
from ..core.rules import find as find_rule
from ..core.text import SourceText
from ..lint import lint_source
from ..lint.config import DIALECTS, ConfigError, ConfigFinder, Settings, codes_of, targets_of, with_command_line
from ..lint.fixes import fix_until_stable
from ..lint.hosts import find_embedded, language_of
from . import render
from .files import UsageError, collect

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
    parser.add_argument("--hosts", action="store_true",
                        help="in folders, also lint WGSL tagged in .py, .js, .ts and .rs files (see docs/embedded.md)")
    parser.add_argument("--force-exclude", action="store_true",
                        help="apply the configuration's exclude to files named on the command line too (pre-commit)")
    parser.add_argument("--version", action="version", version=f"coop-lint {__version__}")
    return parser


def _error(message: str) -> int:
    print(f"coop-lint: error: {message}", file=sys.stderr)
    return EXIT_ERROR


def main(argv: list[str] | None = None) -> int:
    try:
        return _main(list(sys.argv[1:] if argv is None else argv))
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
    cli_select = codes_of(",".join(args.select), "command line", "--select") if args.select else None
    cli_ignore = codes_of(",".join(args.ignore), "command line", "--ignore", ignoring=True) if args.ignore else frozenset()
    cli_targets = targets_of(",".join(args.target), "command line", "--target") if args.target else None

    def settings_for(path: Path | None) -> Settings:
        base = finder.for_path(path if path is not None else Path.cwd()).settings_for(path)
        return with_command_line(base, cli_select, cli_ignore, args.dialect, cli_targets)

    reports: list[render.FileReport] = []
    fixed_stdin: bytes | None = None
    diffs: list[str] = []
    for display, path, reader in _inputs(args, finder):
        is_stdin = reader is _read_stdin
        try:
            data = reader()
        except OSError as error:
            reports.append(render.FileReport(display, None, error=_os_error(error)))
            continue
        settings = settings_for(path)
        language = language_of(path.suffix) if path is not None else None
        report, fixed = _lint_one(display, data, settings, language, fix=args.fix or args.diff)
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
    return _finish(args, reports, diffs, fixed_stdin)


def _read_stdin() -> bytes:
    return sys.stdin.buffer.read()


def _inputs(args: argparse.Namespace, finder: ConfigFinder):
    for name in args.paths:
        if name == "-":
            display = args.stdin_filename or "<stdin>"
            yield display, (Path(args.stdin_filename) if args.stdin_filename else None), _read_stdin
            continue
        for path in collect([name], finder, hosts=args.hosts, force_exclude=args.force_exclude):
            yield str(path), path, path.read_bytes


def _os_error(error: OSError) -> str:
    if isinstance(error, IsADirectoryError):
        return "is a directory"
    return error.strerror or str(error)


def _lint_data(data: bytes, settings: Settings, language: str | None):
    """(source, findings) of a WGSL file or of the WGSL embedded in a host file."""
    if language is None:
        result = lint_source(data, targets=settings.targets, dialect=settings.dialect)
        diagnostics = settings.apply(result.diagnostics)
        if result.source.decode_error is not None:
            # Spans count bytes of the repaired text, not of the file: no fixes.
            diagnostics = [d if not d.fixes else _without_fixes(d) for d in diagnostics]
        return result.source, diagnostics
    source = SourceText.from_bytes(data)
    diagnostics = []
    for embedded in find_embedded(data, language):
        if embedded.skipped:
            continue
        for d in settings.apply(lint_source(embedded.content, targets=settings.targets, dialect=settings.dialect).diagnostics):
            mapped = embedded.map_diagnostic(d)
            diagnostics.append(mapped if source.decode_error is None else _without_fixes(mapped))
    diagnostics.sort(key=lambda d: d.sort_key)
    return source, diagnostics


def _without_fixes(diagnostic):
    return replace(diagnostic, fixes=())


def _lint_one(display: str, data: bytes, settings: Settings, language: str | None, fix: bool):
    source, diagnostics = _lint_data(data, settings, language)
    report = render.FileReport(display, source, diagnostics)
    if not fix or not any(render.fixable(d) for d in diagnostics):
        return report, None
    outcome = fix_until_stable(data, lambda text: _lint_data(text, settings, language)[1], diagnostics)
    if outcome.refused:
        report.notes.append(outcome.refused)
    if outcome.applied:
        report.source, report.diagnostics = _lint_data(outcome.data, settings, language)
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
            elif linted:
                # Standard error, so that clean output stays empty for tools that read it.
                count = len(linted)
                print(f"No findings in {count} file{'s' if count != 1 else ''}.", file=sys.stderr)
    finally:
        if args.output_file:
            stream.close()
    if errors:
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
    from ..core.rules import all_rules
    all_rules()
    rule = find_rule(args.code)
    if rule is None:
        return _error(f"unknown rule '{args.code}' (`coop-lint rules` lists them)")
    sys.stdout.write(ruledocs.text(rule))
    return EXIT_CLEAN


if __name__ == "__main__":
    sys.exit(main())
