"""The result file of a tune: one JSON record per line, appended as each run ends, with a lock.

    with ResultFile(Path("tune.jsonl"), kernel="gemm.wgsl") as results:
        done = results.done()                  # (key, target) -> record, from an earlier, stopped run
        results.append(record)                 # flushed at once: a killed tune loses nothing finished

A partial file resumes: a tune skips every (variant, target) the file already has a finished record
for. Records of runs that were cut short (not run, a lost worker) are run again. Two tunes writing one
file are refused: the first holds `FILE.lock` (its host and process id) until it ends; a lock whose
process is gone (on this host) is taken over.
"""

from __future__ import annotations

import json
import os
import socket
from pathlib import Path

from .space import TuneError

FORMAT = "coop-lint-tune-results"
VERSION = 1
# A run that ended this way says nothing about the variant: resuming runs it again.
RETRIED = ("not run", "cancelled")


class ResultFile:
    def __init__(self, path: Path, kernel: str, fresh: bool = False):
        """`fresh`: start over (under the lock) instead of resuming, for a kernel that may have changed
        since the file's runs (the editor's tunes of unsaved-then-saved edits)."""
        self.path = path
        self.fresh = fresh
        self.lock = path.with_name(path.name + ".lock")
        self.kernel = kernel
        self._handle = None

    def __enter__(self) -> "ResultFile":
        self._take_lock()
        try:
            if self.fresh:
                self.path.unlink(missing_ok=True)
            records = self._read()
            self._handle = self.path.open("a")
            if not records and self.path.stat().st_size == 0:
                self._write({"format": FORMAT, "version": VERSION, "kernel": self.kernel})
        except BaseException:
            self.lock.unlink(missing_ok=True)
            raise
        self._records = records
        return self

    def __exit__(self, *_exc) -> None:
        if self._handle is not None:
            self._handle.close()
        self.lock.unlink(missing_ok=True)

    def _take_lock(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        mine = json.dumps({"host": socket.gethostname(), "pid": os.getpid()})
        for _ in range(2):
            try:
                fd = os.open(self.lock, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
            except FileExistsError:
                holder = self._holder()
                if holder is not None:
                    raise TuneError(f"{self.path}: another tune is writing it ({holder}; lock file {self.lock}); "
                                    "wait for it or write to another file") from None
                self.lock.unlink(missing_ok=True)  # its process is gone: a stale lock
                continue
            with os.fdopen(fd, "w") as handle:
                handle.write(mine)
            return
        raise TuneError(f"{self.path}: could not take the lock {self.lock}")

    def _holder(self) -> str | None:
        """Who holds the lock, or None when its holder is known to be gone."""
        try:
            data = json.loads(self.lock.read_text() or "{}")
        except (OSError, ValueError):
            return "an unreadable lock"
        if data.get("host") != socket.gethostname():
            return f"process {data.get('pid')} on {data.get('host')}"
        try:
            os.kill(int(data.get("pid", 0)), 0)
        except ProcessLookupError:
            return None
        except (PermissionError, ValueError):
            pass
        return f"process {data.get('pid')}"

    def _read(self) -> dict[tuple[str, str], dict]:
        if not self.path.exists():
            self.path.touch()
            return {}
        data = self.path.read_bytes()
        if data and not data.endswith(b"\n"):
            # A tune killed while writing a record: the torn record goes, the run is done again.
            with self.path.open("r+b") as handle:
                handle.truncate(data.rfind(b"\n") + 1)
        records: dict[tuple[str, str], dict] = {}
        lines = self.path.read_text().splitlines()
        for number, line in enumerate(lines, 1):
            if not line.strip():
                continue
            try:
                record = json.loads(line)
            except ValueError:
                raise TuneError(f"{self.path}:{number}: not a JSON record") from None
            if number == 1 or "format" in record:
                if record.get("format") != FORMAT or record.get("kernel") != self.kernel:
                    raise TuneError(f"{self.path}: not a result file of a tune of {self.kernel} "
                                    f"(it is of {record.get('kernel') or 'something else'}); use another file")
                continue
            records[(record["key"], record["target"])] = record
        return records

    def done(self) -> dict[tuple[str, str], dict]:
        return {k: r for k, r in self._records.items() if r.get("status") not in RETRIED}

    def append(self, record: dict) -> None:
        self._records[(record["key"], record["target"])] = record
        self._write(record)

    def _write(self, record: dict) -> None:
        self._handle.write(json.dumps(record, default=str) + "\n")
        self._handle.flush()
