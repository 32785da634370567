"""coop-lint's result cache: the findings of a file, keyed by everything they depend on.

The key hashes the file's bytes, how it is read (WGSL or a host language),
the settings that apply to it (rules, severities, dialect), the device
profiles its targets name (their content, not only their names: a saved
project profile can change), and coop-lint itself (its version and the size
and time of each of its modules and of the grammar package it parses with,
so that an edited checkout never reads results of the code before the
edit). Entries live in `<cache dir>/<version>/<key>`, each written to a
temporary file and renamed into place, so concurrent runs never read half
an entry. One folder, not git's fan-out into 256 (`<2 hex>/<rest>`): on an
ext4 disk measured here, creating 500 entries spread over 256 new folders
cost 0.42 s of system time, in one folder 0.09 s, and a folder of a few
hundred thousand entries is still indexed. An entry that cannot be read back (corrupt, from another version,
not ours) is ignored and rewritten; a cache that cannot be read or written
at all is ignored. Each kind of problem is reported once, in one line.
"""

from __future__ import annotations

import dataclasses
import hashlib
import io
import os
import pickle
import tempfile
from pathlib import Path

from .. import __version__

MAGIC = b"coop-lint-cache 1\n"
DEFAULT_DIR = ".coop-lint-cache"
ENV_DIR = "COOP_LINT_CACHE_DIR"


class ResultCache:
    def __init__(self, root: Path) -> None:
        self.root = root
        self.folder = root / __version__
        self.notes: list[str] = []
        self._noted: set[str] = set()
        self._readable = True
        self._writable = True
        self._prepared = False
        self.hits = self.misses = 0
        self._settings_texts: dict[int, tuple[object, str]] = {}  # id(settings) -> (settings, its text)

    # ------------------------------------------------------------ keys
    def key(self, data: bytes, language: str | None, settings, profiles: str) -> str:
        digest = hashlib.sha256()
        for part in (MAGIC, __version__.encode(), _code_fingerprint(), (language or "wgsl").encode(),
                     self._settings_text(settings).encode(), profiles.encode()):
            digest.update(len(part).to_bytes(8, "little"))
            digest.update(part)
        digest.update(data)
        return digest.hexdigest()

    def _settings_text(self, settings) -> str:
        # Most runs share one settings object among all their files (settings do not change once made).
        kept = self._settings_texts.get(id(settings))
        if kept is None:
            kept = self._settings_texts[id(settings)] = (settings, _settings_fingerprint(settings))
        return kept[1]

    # ------------------------------------------------------------ entries
    def get(self, key: str):
        if not self._readable:
            return None
        path = self._path(key)
        try:
            raw = path.read_bytes()
        except (FileNotFoundError, NotADirectoryError):
            self.misses += 1
            return None
        except OSError as error:
            self._note("read", f"cannot read the cache at {self.root} ({_reason(error)}); linting without it")
            self._readable = self._writable = False
            return None
        header, _, rest = raw.partition(b"\n")
        version, _, payload = rest.partition(b"\n")
        if header + b"\n" != MAGIC:
            self._note("corrupt", f"ignoring a corrupt cache entry in {self.root} (it is rewritten)")
            self.misses += 1
            return None
        if version.decode(errors="replace") != __version__:
            self._note("version", f"ignoring cache entries of coop-lint {version.decode(errors='replace')} "
                                  f"in {self.root} (this is {__version__})")
            self.misses += 1
            return None
        try:
            value = _Unpickler(io.BytesIO(payload)).load()
        except Exception:  # noqa: BLE001 - whatever is wrong with it, the file is linted afresh
            self._note("corrupt", f"ignoring a corrupt cache entry in {self.root} (it is rewritten)")
            self.misses += 1
            return None
        self.hits += 1
        return value

    def put(self, key: str, value) -> None:
        if not self._writable:
            return
        path = self._path(key)
        try:
            self._prepare()
            path.parent.mkdir(parents=True, exist_ok=True)
            payload = MAGIC + __version__.encode() + b"\n" + pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
            handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=".tmp-")
            try:
                with os.fdopen(handle, "wb") as stream:
                    stream.write(payload)
                os.replace(temporary, path)
            except BaseException:
                _unlink(temporary)
                raise
        except OSError as error:
            self._note("write", f"cannot write the cache at {self.root} ({_reason(error)}); results are not cached")
            self._writable = False

    def prepare(self) -> bool:
        """Makes the cache folder (once); False when the cache cannot be written (said in a note)."""
        if self._writable:
            try:
                self._prepare()
            except OSError as error:
                self._note("write", f"cannot write the cache at {self.root} ({_reason(error)}); results are not cached")
                self._writable = False
        return self._writable

    def note(self, text: str) -> None:
        """A note from another process writing to this cache (said once)."""
        self._note(text, text)

    def _path(self, key: str) -> Path:
        return self.folder / key

    def _prepare(self) -> None:
        """A new cache folder says what it is: git ignores it, backup tools may skip it."""
        if self._prepared:
            return
        self._prepared = True
        if self.root.is_dir():
            return
        self.root.mkdir(parents=True, exist_ok=True)
        for name, text in ((".gitignore", "# made by coop-lint\n*\n"),
                           ("CACHEDIR.TAG", "Signature: 8a477f597d28d172789f06886806bc55\n"
                                            "# coop-lint's result cache; delete it at any time.\n")):
            try:
                (self.root / name).write_text(text)
            except OSError:
                pass

    def _note(self, kind: str, text: str) -> None:
        if kind not in self._noted:
            self._noted.add(kind)
            self.notes.append(text)


def cache_root(option: str | None) -> Path:
    if option:
        return Path(option)
    env = os.environ.get(ENV_DIR)
    return Path(env) if env else Path(DEFAULT_DIR)


def _settings_fingerprint(settings) -> str:
    return canonical(settings)


def canonical(value) -> str:
    """A text that is the same for equal values in every process (a set's repr follows string hashing,
    which differs between processes)."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        fields = ", ".join(f"{f.name}={canonical(getattr(value, f.name))}" for f in dataclasses.fields(value))
        return f"{type(value).__name__}({fields})"
    if isinstance(value, (set, frozenset)):
        return "{" + ", ".join(sorted(canonical(v) for v in value)) + "}"
    if isinstance(value, dict):
        return "{" + ", ".join(sorted(f"{canonical(k)}: {canonical(v)}" for k, v in value.items())) + "}"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(canonical(v) for v in value) + "]"
    return repr(value)


_fingerprint: bytes | None = None


def _code_fingerprint() -> bytes:
    global _fingerprint
    if _fingerprint is None:
        digest = hashlib.sha256()
        # coop_lsp, and the grammar and parser it parses with (installed apart from it).
        for package in _packages():
            for path in sorted(package.rglob("*")):
                if path.suffix in (".py", ".so", ".pyd", ".json") and "__pycache__" not in path.parts:
                    try:
                        stat = path.stat()
                    except OSError:
                        continue
                    digest.update(f"{path}:{stat.st_size}:{stat.st_mtime_ns}\n".encode())
        _fingerprint = digest.digest()
    return _fingerprint


def _packages() -> list[Path]:
    import importlib.util

    found = [Path(__file__).resolve().parent.parent]
    for name in ("tree_sitter_wgsl", "tree_sitter"):
        spec = importlib.util.find_spec(name)
        if spec is not None and spec.origin:
            found.append(Path(spec.origin).resolve().parent)
    return found


class _Unpickler(pickle.Unpickler):
    """Only our own data types: a cache entry someone else wrote cannot make coop-lint run code."""

    def find_class(self, module: str, name: str):
        if module == "builtins" and name in ("frozenset", "set", "tuple", "list", "dict"):
            return super().find_class(module, name)
        if module.startswith("coop_lsp."):
            found = super().find_class(module, name)
            if isinstance(found, type):
                return found
        raise pickle.UnpicklingError(f"{module}.{name} is not allowed in a cache entry")


def _reason(error: OSError) -> str:
    return error.strerror or str(error)


def _unlink(path: str) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass
