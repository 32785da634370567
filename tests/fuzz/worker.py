"""Runs invariant checks in a child process, one input at a time, with a time limit per input.

A hang (an input that takes longer than the limit) or a crash of the
interpreter itself (a segfault in the parser) then fails one input instead
of the whole test run: the child is killed, replaced, and the input is
reported. The parent and child speak length-prefixed pickles over the
child's stdin and stdout; nothing else runs in the child.

    with Worker() as worker:
        outcome = worker.check("lint", text)
        assert outcome.ok, outcome.explain()
"""

from __future__ import annotations

import os
import pickle
import select
import struct
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DEFAULT_LIMIT = 10.0  # seconds per input; a lint takes milliseconds
_HEADER = struct.Struct("<Q")


@dataclass
class Outcome:
    kind: str
    payload: object
    problems: list[str] = field(default_factory=list)
    hung: bool = False
    crashed: str | None = None  # how the child died
    seconds: float = 0.0

    @property
    def ok(self) -> bool:
        """Nothing broke at all."""
        return not self.problems and not self.hung and self.crashed is None

    @property
    def new_problems(self) -> list[str]:
        from .known import unknown_problems

        return unknown_problems(self.problems)

    @property
    def passes(self) -> bool:
        """Nothing broke except bugs already filed in known.py (with their regression test)."""
        return not self.new_problems and not self.hung and self.crashed is None

    @property
    def known_hits(self) -> int:
        return len(self.problems) - len(self.new_problems)

    def explain(self) -> str:
        lines = [f"{self.kind} check failed on input {self.payload!r}"[:4000]]
        if self.hung:
            lines.append(f"no answer within the time limit ({self.seconds:.1f} s): a hang")
        if self.crashed:
            lines.append(f"the checking process died: {self.crashed}")
        lines += self.new_problems or self.problems
        return "\n".join(lines)


class Worker:
    def __init__(self, limit: float = DEFAULT_LIMIT) -> None:
        self.limit = limit
        self.process: subprocess.Popen | None = None
        self.checked = 0
        self.restarts = 0

    def __enter__(self) -> "Worker":
        self.start()
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def start(self) -> None:
        env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])))
        # stderr goes to a file: a child that logs a lot must not block on a full pipe.
        self.stderr = tempfile.TemporaryFile()
        self.process = subprocess.Popen([sys.executable, "-m", "tests.fuzz.worker"], cwd=ROOT, env=env,
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.stderr)

    def close(self) -> None:
        process, self.process = self.process, None
        if process is None:
            return
        try:
            process.stdin.close()
            process.wait(timeout=5)
        except Exception:  # noqa: BLE001
            process.kill()
            process.wait()
        process.stdout.close()
        self.stderr.close()

    def _kill(self) -> str:
        process, self.process = self.process, None
        stderr = b""
        if process is not None:
            process.kill()
            process.wait()
            try:
                self.stderr.seek(0)
                stderr = self.stderr.read()[-2000:]
                self.stderr.close()
            except Exception:  # noqa: BLE001
                pass
            for stream in (process.stdin, process.stdout):
                try:
                    stream.close()
                except Exception:  # noqa: BLE001
                    pass
        self.restarts += 1
        return stderr.decode(errors="replace")

    def check(self, kind: str, *args) -> Outcome:
        """Runs invariants.check_<kind>(*args) in the child."""
        if self.process is None or self.process.poll() is not None:
            if self.process is not None:
                self._kill()
            self.start()
        outcome = Outcome(kind, args[0] if len(args) == 1 else args)
        body = pickle.dumps((kind, args))
        started = time.monotonic()
        try:
            self.process.stdin.write(_HEADER.pack(len(body)) + body)
            self.process.stdin.flush()
            reply = self._read(started + self.limit)
        except (BrokenPipeError, EOFError) as error:
            outcome.seconds = time.monotonic() - started
            code = self.process.poll() if self.process else None
            outcome.crashed = f"exit status {code} ({type(error).__name__}); stderr: {self._kill()}"
            return outcome
        except TimeoutError:
            outcome.seconds = time.monotonic() - started
            outcome.hung = True
            self._kill()
            return outcome
        outcome.seconds = time.monotonic() - started
        outcome.problems = reply
        self.checked += 1
        return outcome

    def _read(self, deadline: float) -> list[str]:
        stdout = self.process.stdout
        header = self._read_exactly(stdout, _HEADER.size, deadline)
        (length,) = _HEADER.unpack(header)
        return pickle.loads(self._read_exactly(stdout, length, deadline))

    @staticmethod
    def _read_exactly(stream, count: int, deadline: float) -> bytes:
        chunks, got = [], 0
        fd = stream.fileno()
        while got < count:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise TimeoutError
            ready, _, _ = select.select([fd], [], [], remaining)
            if not ready:
                raise TimeoutError
            chunk = os.read(fd, count - got)
            if not chunk:
                raise EOFError
            chunks.append(chunk)
            got += len(chunk)
        return b"".join(chunks)


def _serve() -> None:
    from . import invariants

    stdin, stdout = sys.stdin.buffer, sys.stdout.buffer
    # Anything the checked code prints must not corrupt the channel.
    sys.stdout = sys.stderr
    while True:
        header = stdin.read(_HEADER.size)
        if len(header) < _HEADER.size:
            return
        (length,) = _HEADER.unpack(header)
        kind, args = pickle.loads(stdin.read(length))
        problems = getattr(invariants, f"check_{kind}")(*args)
        body = pickle.dumps(problems)
        stdout.write(_HEADER.pack(len(body)) + body)
        stdout.flush()


if __name__ == "__main__":
    _serve()
