"""`coop-lsp`: the language server's command line (stdio by default, `--tcp HOST:PORT` for sockets).

Imports only what answering `initialize` needs (see fast_start.py); the server itself, pygls and the
checks are imported after the answer, while the editor gets on with its own start.
"""

from __future__ import annotations

import argparse
import sys

from .capabilities import VERSION

DEBOUNCE_MS = 0.0  # no fixed wait by default: see scheduling.py
SWITCH_INTERVAL_SECONDS = 0.0005


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="coop-lsp", description="Language server for WGSL matrix kernels.")
    parser.add_argument("--stdio", action="store_true", help="talk over standard input and output (the default)")
    parser.add_argument("--tcp", metavar="[HOST:]PORT",
                        help="listen on a TCP socket instead; on 127.0.0.1 unless HOST is given (anyone who can "
                             "reach the socket can ask the server to run kernels)")
    parser.add_argument("--debounce-ms", type=float, default=DEBOUNCE_MS,
                        help="check a document only once it has been quiet this long (default %(default)s: check at "
                             "once, one check at a time per document; the diagnosticsDelayMs setting overrides it)")
    parser.add_argument("--cache-dir", metavar="DIR",
                        help="the result cache that unchanged files open from (default $COOP_LINT_CACHE_DIR, else "
                             "coop-lint's: ~/.cache/coop-lint on Linux)")
    parser.add_argument("--no-cache", action="store_true", help="neither read nor write the result cache")
    parser.add_argument("--workers", type=int, metavar="N",
                        help="worker processes that check the documents only opened, so that the analysis thread "
                             "keeps to the ones being worked on (default: one per core, at most 4; 0 checks "
                             "everything in the server's process)")
    parser.add_argument("--log-file", metavar="PATH", help="write the server's log here")
    parser.add_argument("--log-level", default="WARNING", choices=["DEBUG", "INFO", "WARNING", "ERROR"])
    parser.add_argument("--version", action="version", version=f"coop-lsp {VERSION}")
    args = parser.parse_args(argv)
    if args.tcp:
        host, _, port = args.tcp.rpartition(":")
        if not port.isdigit():
            parser.error("--tcp expects PORT or HOST:PORT, for example 2087 or 127.0.0.1:2087")

    # Editors put a server's stderr in its log: a broken install says there, in one line, what is
    # missing, and ends with status 2 before answering initialize, since nothing could be served.
    from ..syntax.grammar import problem

    broken = problem()
    if broken:
        print(f"coop-lsp: error: {broken}", file=sys.stderr)
        return 2

    stdin, answered = None, None
    if not args.tcp:
        # Before the slow imports: the client sends `initialize` at once and waits for the answer.
        from .fast_start import Replay, answer_initialize, read_message

        # stdin's raw file, not its buffer: the server's reader thread (stdio.py) may be blocked in a read
        # when the process exits, and a buffered reader's lock held then aborts the interpreter.
        raw = getattr(sys.stdin.buffer, "raw", sys.stdin.buffer)
        first, message = read_message(raw)
        answered = answer_initialize(message, sys.stdout.buffer)
        stdin = Replay(first, raw)

    import logging

    from ..lint.result_cache import cache_root
    from .idle_gc import defer_full_collections
    from .server import create_server

    destination = {"filename": args.log_file} if args.log_file else {"stream": sys.stderr}
    logging.basicConfig(level=args.log_level, format="%(asctime)s %(levelname)s %(name)s: %(message)s",
                        **destination)
    defer_full_collections()
    # The analysis thread runs checks in plain Python; a message that arrives meanwhile waits for the GIL
    # at each step of its way (reader thread, event loop) for up to the switch interval, 5 ms by default.
    # Edits made during a check reached their diagnostics sooner with 0.5 ms (benchmarks/results/
    # server_edit_overhead.json); the other threads are brief, so the check itself hardly pays for it.
    sys.setswitchinterval(SWITCH_INTERVAL_SECONDS)
    from .check_pool import default_workers

    server = create_server(debounce=max(args.debounce_ms, 0.0) / 1000,
                           cache_root=None if args.no_cache else cache_root(args.cache_dir),
                           workers=default_workers() if args.workers is None else max(args.workers, 0))
    try:
        if args.tcp:
            host, _, port = args.tcp.rpartition(":")
            # Only this machine, unless a host is named: the server reads the workspace and runs kernels.
            server.start_tcp(host or "127.0.0.1", int(port))
        else:
            if answered is not None:
                server.protocol.answered_early.add(answered)
            server.start_io(stdin=stdin)
    finally:
        server.stop_workers()  # the client went away without exit, or the server failed
    # The client has gone: a kernel still running for it would hold the process open until its time limit.
    execute = sys.modules.get("coop_lsp.runner.execute")
    if execute is not None:
        execute.stop_all_runs()
    # LSP: an 'exit' that no 'shutdown' preceded ends with status 1.
    return 0 if getattr(server.protocol, "_shutdown", False) else 1


if __name__ == "__main__":
    sys.exit(main())
