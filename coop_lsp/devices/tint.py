"""Tint, the WGSL compiler inside Dawn, as an oracle.

Compiles WGSL with the pinned `wgpudawn` wheel on Dawn's Null backend (no GPU
needed) in a long-lived child process, and returns Tint's messages with
their positions. Used by the tests to check our verdicts against the real
compiler, and by benchmarks to compare speed.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from dataclasses import dataclass

DEFAULT_TIMEOUT_S = 30.0


@dataclass(frozen=True, slots=True)
class TintMessage:
    severity: str  # "error", "warning" or "info" (Tint's notes)
    line: int  # 1-based, as Tint prints it
    column: int  # 1-based
    length: int
    message: str


@dataclass(frozen=True, slots=True)
class TintResult:
    messages: tuple[TintMessage, ...]
    # Set when Tint could not give a verdict: the worker crashed or hung.
    failure: str | None = None

    @property
    def errors(self) -> list[TintMessage]:
        return [m for m in self.messages if m.severity == "error"]

    @property
    def warnings(self) -> list[TintMessage]:
        return [m for m in self.messages if m.severity == "warning"]

    @property
    def accepted(self) -> bool:
        return self.failure is None and not self.errors


class TintUnavailable(RuntimeError):
    """wgpudawn is not installed or Dawn's Null backend could not start."""


def tint_available() -> bool:
    try:
        import importlib.util

        return importlib.util.find_spec("wgpudawn") is not None
    except (ImportError, ValueError):
        return False


class TintOracle:
    """A Tint compiler in a child process; restarts it when it crashes or hangs."""

    def __init__(self, timeout_s: float = DEFAULT_TIMEOUT_S) -> None:
        self._timeout_s = timeout_s
        self._process: subprocess.Popen[str] | None = None
        self._lock = threading.Lock()

    def __enter__(self) -> "TintOracle":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def compile(self, source: str) -> TintResult:
        with self._lock:
            process = self._ensure_started()
            try:
                assert process.stdin is not None and process.stdout is not None
                process.stdin.write(json.dumps({"source": source}) + "\n")
                process.stdin.flush()
                line = _readline_with_timeout(process, self._timeout_s)
            except (BrokenPipeError, OSError) as error:
                self._kill()
                return TintResult((), failure=f"Tint worker died: {error}")
            if line is None:
                self._kill()
                return TintResult((), failure=f"Tint did not answer within {self._timeout_s:.0f} s")
            if not line:
                code = process.poll()
                self._kill()
                return TintResult((), failure=f"Tint worker exited with status {code}")
            reply = json.loads(line)
            return TintResult(tuple(TintMessage(**m) for m in reply["messages"]))

    def close(self) -> None:
        with self._lock:
            self._kill()

    def _ensure_started(self) -> subprocess.Popen[str]:
        if self._process is not None and self._process.poll() is None:
            return self._process
        env = dict(os.environ, WGPU_BACKEND_TYPE="Null")
        process = subprocess.Popen(
            [sys.executable, "-m", "coop_lsp.devices.tint_worker"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            env=env,
        )
        assert process.stdout is not None
        ready = _readline_with_timeout(process, self._timeout_s)
        if not ready or json.loads(ready).get("ready") is not True:
            process.kill()
            process.wait()
            raise TintUnavailable(f"the Tint worker did not start: {ready!r}")
        self._process = process
        return process

    def _kill(self) -> None:
        if self._process is not None:
            self._process.kill()
            self._process.wait()
            self._process = None


def _readline_with_timeout(process: subprocess.Popen[str], timeout_s: float) -> str | None:
    """One line from the child, '' at end of file, None on time-out."""
    result: list[str] = []
    reader = threading.Thread(target=lambda: result.append(process.stdout.readline()), daemon=True)
    reader.start()
    reader.join(timeout_s)
    if reader.is_alive():
        return None
    return result[0] if result else ""
