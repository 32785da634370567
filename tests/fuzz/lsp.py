"""A small LSP client over the server's stdio, for stress and fault tests: nothing between the test and
the bytes on the wire, so it can send what no well-behaved client would.

A reader thread collects every message; requests from the server
(workspace/configuration, progress, registrations) are answered at once.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def python_path() -> str:
    """This checkout first, then whatever the suite itself runs with: a machine whose libraries come from
    PYTHONPATH rather than a virtual environment (the device machine's carried wheels) keeps them."""
    return os.pathsep.join(part for part in (str(ROOT), os.environ.get("PYTHONPATH", "")) if part)


class RawServer:
    def __init__(self, argv: list[str] | None = None, settings: dict | None = None, env: dict | None = None,
                 cwd: Path | None = None) -> None:
        argv = argv or [sys.executable, "-m", "coop_lsp.server.main", "--debounce-ms", "20"]
        environment = dict(os.environ, PYTHONPATH=python_path())
        environment.update(env or {})
        self.settings = settings if settings is not None else {}
        self.process = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=subprocess.DEVNULL, env=environment, cwd=cwd or ROOT)
        self.lock = threading.Condition()
        self.responses: dict = {}
        self.published: list[dict] = []
        self.server_requests: list[dict] = []
        self.closed = False
        self.next_id = 1000
        self.reader = threading.Thread(target=self._read_loop, daemon=True)
        self.reader.start()

    # ------------------------------------------------------------ wire
    def send_bytes(self, data: bytes) -> None:
        self.process.stdin.write(data)
        self.process.stdin.flush()

    def send(self, message: dict) -> None:
        body = json.dumps(message).encode()
        self.send_bytes(b"Content-Length: %d\r\n\r\n" % len(body) + body)

    def notify(self, method: str, params) -> None:
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    def request(self, method: str, params, id_=None):
        """Sends a request and returns its id; `response(id)` waits for the answer."""
        if id_ is None:
            self.next_id += 1
            id_ = self.next_id
        self.send({"jsonrpc": "2.0", "id": id_, "method": method, "params": params})
        return id_

    def call(self, method: str, params, timeout: float = 20.0) -> dict:
        return self.response(self.request(method, params), timeout)

    def response(self, id_, timeout: float = 20.0) -> dict:
        deadline = time.monotonic() + timeout
        with self.lock:
            while id_ not in self.responses:
                remaining = deadline - time.monotonic()
                if remaining <= 0 or self.closed:
                    raise AssertionError(f"no response to request {id_!r}")
                self.lock.wait(remaining)
            return self.responses[id_]

    def _read_message(self) -> dict | None:
        stdout = self.process.stdout
        length = None
        while True:
            line = stdout.readline()
            if not line:
                return None
            if line in (b"\r\n", b"\n"):
                break
            name, _, value = line.decode("ascii", errors="replace").partition(":")
            if name.strip().lower() == "content-length":
                length = int(value)
        body = stdout.read(length or 0)
        return json.loads(body)

    def _read_loop(self) -> None:
        try:
            while True:
                message = self._read_message()
                if message is None:
                    break
                if "method" in message and "id" in message:
                    self._answer(message)
                    continue
                with self.lock:
                    if "method" not in message:
                        self.responses[message.get("id")] = message
                    elif message["method"] == "textDocument/publishDiagnostics":
                        self.published.append(message["params"])
                    self.lock.notify_all()
        except (OSError, ValueError):
            pass
        finally:
            with self.lock:
                self.closed = True
                self.lock.notify_all()

    def _answer(self, message: dict) -> None:
        with self.lock:
            self.server_requests.append(message)
        result = None
        if message["method"] == "workspace/configuration":
            result = [self.settings for _ in message["params"]["items"]]
        try:
            self.send({"jsonrpc": "2.0", "id": message["id"], "result": result})
        except OSError:
            pass

    # ------------------------------------------------------------ session
    def initialize(self, root: Path | None = None, initialization_options=None,
                   capabilities: dict | None = None) -> dict:
        capabilities = capabilities if capabilities is not None else {
            "workspace": {"configuration": True},
            "textDocument": {"publishDiagnostics": {"versionSupport": True}}}
        reply = self.call("initialize", {"processId": os.getpid(), "rootUri": (root or ROOT).as_uri(),
                                         "capabilities": capabilities,
                                         "initializationOptions": initialization_options})
        self.notify("initialized", {})
        return reply

    def open(self, uri: str, text: str, version: int = 1) -> None:
        self.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "wgsl", "version": version,
                                                              "text": text}})

    def change(self, uri: str, version: int, changes: list[dict]) -> None:
        self.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": version},
                                               "contentChanges": changes})

    def diagnostics_for(self, uri: str, version: int, timeout: float = 20.0) -> list[dict]:
        deadline = time.monotonic() + timeout
        with self.lock:
            while True:
                for params in reversed(self.published):
                    if params["uri"] == uri and params.get("version") == version:
                        return params["diagnostics"]
                remaining = deadline - time.monotonic()
                if remaining <= 0 or self.closed:
                    raise AssertionError(f"no diagnostics published for {uri} version {version}")
                self.lock.wait(remaining)

    def shutdown(self, timeout: float = 10.0) -> int:
        try:
            self.call("shutdown", None, timeout=timeout)
            self.notify("exit", None)
        except (OSError, AssertionError):
            pass
        return self.wait(timeout)

    def wait(self, timeout: float) -> int:
        try:
            return self.process.wait(timeout=timeout)
        finally:
            self.kill()

    def kill(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        for stream in (self.process.stdin, self.process.stdout):
            try:
                stream.close()
            except OSError:
                pass


def children_of(pid: int) -> list[int]:
    """Every process whose parent is `pid` (Linux /proc), recursively."""
    found = []
    try:
        entries = os.listdir("/proc")
    except OSError:
        return found
    parents = {}
    for entry in entries:
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as handle:
                stat = handle.read().rsplit(b")", 1)[1].split()
            parents[int(entry)] = int(stat[1])
        except (OSError, IndexError, ValueError):
            continue
    frontier = [pid]
    while frontier:
        parent = frontier.pop()
        for child, ppid in parents.items():
            if ppid == parent and child not in found:
                found.append(child)
                frontier.append(child)
    return found


def alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat", "rb") as handle:
            return handle.read().rsplit(b")", 1)[1].split()[0] != b"Z"
    except OSError:
        return False
