"""coop-lint [PATHS...]: report problems in WGSL files.

Exit status: 0 when no findings, 1 when there are findings, 2 when the
command was used wrongly or a file could not be read.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from .. import __version__
from ..lint import lint_source
from .files import UsageError, collect
from .render import render_text

EXIT_CLEAN, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="coop-lint",
        description="Lint WGSL compute shaders that use cooperative / subgroup matrices.",
    )
    parser.add_argument("paths", nargs="*", metavar="PATH",
                        help="files or folders to lint (folders are searched for .wgsl files); '-' reads standard input")
    parser.add_argument("--stdin-filename", metavar="NAME", help="the name to report for standard input")
    parser.add_argument("--no-source", action="store_true", help="print only the one-line form of each finding")
    parser.add_argument("--version", action="version", version=f"coop-lint {__version__}")
    return parser




def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exit_:
        # argparse exits 2 on usage errors and 0 for --help/--version.
        return int(exit_.code or 0)
    if not args.paths:
        parser.print_usage(sys.stderr)
        print("coop-lint: error: no files given (pass PATHs, or '-' for standard input)", file=sys.stderr)
        return EXIT_ERROR

    findings = 0
    status = EXIT_CLEAN
    out = sys.stdout
    try:
        inputs = list(_inputs(args))
    except UsageError as error:
        print(f"coop-lint: error: {error}", file=sys.stderr)
        return EXIT_ERROR
    for display_name, reader in inputs:
        try:
            data = reader()
        except OSError as error:
            print(f"coop-lint: error: {display_name}: {error.strerror or error}", file=sys.stderr)
            status = EXIT_ERROR
            continue
        result = lint_source(data)
        findings += len(result.diagnostics)
        render_text(out, display_name, result, show_source=not args.no_source)
    if status == EXIT_ERROR:
        return EXIT_ERROR
    return EXIT_FINDINGS if findings else EXIT_CLEAN


def _inputs(args: argparse.Namespace):
    for name in args.paths:
        if name == "-":
            yield (args.stdin_filename or "<stdin>"), sys.stdin.buffer.read
            continue
        for path in collect([name]):
            yield str(path), Path(path).read_bytes


if __name__ == "__main__":
    sys.exit(main())
