"""coop-lint format [PATHS...]: lay out WGSL files in the one canonical style.

    coop-lint format PATH...          rewrite the files that change
    coop-lint format --check PATH...  say which files would change; write nothing
    coop-lint format --diff PATH...   print what would change; write nothing
    coop-lint format -                read standard input, write the result to standard output

With --hosts (or `hosts = true`), WGSL strings in Python, JS/TS and Rust
files are formatted in place where the string allows it (docs/embedded.md).
Options come from `[tool.coop-lint.format]` (indent-width, line-width) and
can be overridden here.

Exit status: 0 when nothing (else) would change; 1 with --check or --diff
when a file would change; 2 when a file could not be read, written or
formatted (a syntax error: the message says where), or on a usage error.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..format import Options, format_text
from ..format.embedded import format_host
from ..lint.config import ConfigError, ConfigFinder
from ..source.hosts import language_of
from .files import UsageError, collect

EXIT_CLEAN, EXIT_CHANGED, EXIT_ERROR = 0, 1, 2


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="coop-lint format",
                                     description="Format WGSL files (and WGSL strings in host files with --hosts).")
    parser.add_argument("paths", nargs="*", metavar="PATH", help="files or folders; '-' reads standard input")
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--check", action="store_true", help="exit 1 when a file would change; write nothing")
    mode.add_argument("--diff", action="store_true", help="print a unified diff of what would change; exit 1 if any")
    parser.add_argument("--hosts", action="store_true", help="also format WGSL strings in .py/.js/.ts/.rs files")
    parser.add_argument("--indent-width", type=int, metavar="N", help="spaces per level (default 4)")
    parser.add_argument("--line-width", type=int, metavar="N", help="where long lists break (default 100)")
    parser.add_argument("--config", metavar="FILE", help="read configuration from FILE only")
    parser.add_argument("--isolated", action="store_true", help="ignore configuration files")
    parser.add_argument("--force-exclude", action="store_true",
                        help="apply the configuration's exclude patterns to files named on the command line too")
    parser.add_argument("--stdin-filename", metavar="NAME", help="the name standard input is reported under")
    return parser


def main(argv: list[str]) -> int:
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exit_:
        return int(exit_.code or 0)
    if not args.paths:
        parser.print_usage(sys.stderr)
        return _error("no files given (pass PATHs, or '-' for standard input)")
    for name in ("indent_width", "line_width"):
        value = getattr(args, name)
        if value is not None and not (1 <= value <= 16 if name == "indent_width" else 20 <= value <= 1000):
            return _error(f"--{name.replace('_', '-')}: out of range")
    try:
        finder = ConfigFinder(Path(args.config) if args.config else None, isolated=args.isolated)
        return _run(args, finder)
    except (ConfigError, UsageError) as error:
        return _error(str(error))
    except KeyboardInterrupt:
        return 130


def _error(message: str) -> int:
    print(f"coop-lint format: error: {message}", file=sys.stderr)
    return EXIT_ERROR


def _options(args, finder: ConfigFinder, path: Path | None) -> Options:
    config = finder.for_path(path) if path is not None else finder.for_path(Path.cwd() / "-")
    return Options(args.indent_width or config.indent_width, args.line_width or config.line_width)


def _run(args, finder: ConfigFinder) -> int:
    changed = failed = 0
    for name in args.paths:
        if name == "-":
            display = args.stdin_filename or "<stdin>"
            path = Path(args.stdin_filename) if args.stdin_filename else None
            data = sys.stdin.buffer.read()
            new, problem = _format(data, path, args, finder)
            if problem:
                print(f"{display}: {problem}", file=sys.stderr)
                failed += 1
                new = data
            if args.diff:
                changed += _show_diff(display, data, new)
            elif args.check:
                changed += new != data
            else:
                sys.stdout.buffer.write(new)
            continue
        for path in collect([name], finder, hosts=args.hosts, force_exclude=args.force_exclude):
            try:
                data = path.read_bytes()
            except OSError as error:
                print(f"{path}: cannot read: {error.strerror or error}", file=sys.stderr)
                failed += 1
                continue
            new, problem = _format(data, path, args, finder)
            if problem:
                print(f"{path}: {problem}", file=sys.stderr)
                failed += 1
                continue
            if new == data:
                continue
            changed += 1
            if args.diff:
                _show_diff(str(path), data, new)
            elif args.check:
                print(f"would reformat {path}")
            else:
                try:
                    path.write_bytes(new)
                except OSError as error:
                    print(f"{path}: cannot write: {error.strerror or error}", file=sys.stderr)
                    failed += 1
    if not (args.check or args.diff) and changed:
        print(f"{changed} file{'s' if changed != 1 else ''} reformatted", file=sys.stderr)
    elif args.check and changed:
        print(f"{changed} file{'s' if changed != 1 else ''} would be reformatted", file=sys.stderr)
    if failed:
        return EXIT_ERROR
    return EXIT_CHANGED if changed and (args.check or args.diff) else EXIT_CLEAN


def _format(data: bytes, path: Path | None, args, finder: ConfigFinder) -> tuple[bytes, str | None]:
    options = _options(args, finder, path)
    language = language_of(path.suffix) if path is not None else None
    if language is not None:
        result = format_host(data, language, options)
        for offset, note in result.notes:
            line = data.count(b"\n", 0, offset) + 1
            print(f"{path}:{line}: WGSL string {note}", file=sys.stderr)
        return result.data, None
    formatted = format_text(data, options)
    if formatted.text is None:
        return data, formatted.refused
    return formatted.text.encode(), None


def _show_diff(display: str, before: bytes, after: bytes) -> int:
    if before == after:
        return 0
    from .main import _unified_diff

    sys.stdout.write(_unified_diff(display, before, after))
    return 1
