"""coop-lint's result cache: the findings of a file, keyed by everything they depend on.

The key hashes the file's bytes, how it is read (WGSL or a host language),
the settings that apply to it (rules, severities, dialect), the device
profiles its targets name (their content, not only their names: a saved
project profile can change), and coop-lint itself (its version and the size
and time of each of its modules and of the grammar package it parses with,
so that an edited checkout never reads results of the code before the
edit). Entries live in `<cache dir>/<version>/<key>`, one folder (git's
fan-out into 256 folders cost 0.42 s of system time for 500 new entries on
this machine's ext4). A run writes the entries it made as one file, named
under each key by a hard link (a file system without them gets a file per
entry); the file is complete before its first name appears and names are
renamed into place, so concurrent runs never read half an entry. An entry
that cannot be read back (corrupt, from another version,
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

MAGIC = b"coop-lint-cache 2\n"  # 2: a file holds a dict of entries (one run's, under each key's name)
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
        self._files: dict[tuple, dict | None] = {}  # (device, inode, size, mtime) -> the entries of a file
        self._links = True  # whether the file system gives a file more than one name

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
            with open(path, "rb") as stream:
                stat = os.fstat(stream.fileno())
                # The entries of one run share one file (see put_many): read and unpickled once.
                identity = (stat.st_dev, stat.st_ino, stat.st_size, stat.st_mtime_ns)
                entries = self._files.get(identity)
                if entries is None:
                    entries = self._files[identity] = self._read_entries(stream.read())
        except (FileNotFoundError, NotADirectoryError):
            self.misses += 1
            return None
        except OSError as error:
            self._note("read", f"cannot read the cache at {self.root} ({_reason(error)}); linting without it")
            self._readable = self._writable = False
            return None
        if entries is None:
            self.misses += 1
            return None
        if not isinstance(entries, dict) or key not in entries:
            self._note("corrupt", f"ignoring a corrupt cache entry in {self.root} (it is rewritten)")
            self.misses += 1
            return None
        self.hits += 1
        return entries[key]

    def _read_entries(self, raw: bytes):
        """The entries a cache file holds (key -> findings); None, with a note, when it cannot be used."""
        header, _, rest = raw.partition(b"\n")
        version, _, payload = rest.partition(b"\n")
        if header + b"\n" != MAGIC:
            self._note("corrupt", f"ignoring a corrupt cache entry in {self.root} (it is rewritten)")
            return None
        if version.decode(errors="replace") != __version__:
            self._note("version", f"ignoring cache entries of coop-lint {version.decode(errors='replace')} "
                                  f"in {self.root} (this is {__version__})")
            return None
        try:
            return _Unpickler(io.BytesIO(payload)).load()
        except Exception:  # noqa: BLE001 - whatever is wrong with it, the file is linted afresh
            self._note("corrupt", f"ignoring a corrupt cache entry in {self.root} (it is rewritten)")
            return None

    def put_many(self, entries: dict) -> None:
        """Writes entries (key -> findings) as one file, hard-linked under each key's name.

        Creating and filling a file costs far more than naming it again: on this machine's ext4, 500
        small entry files took 0.2-0.6 s of system time (more when two processes write at once), 500
        links to one file under 0.01 s. The file is complete before its first name appears, and a
        name is put in place by a rename, so a concurrent run sees an entry whole or not at all."""
        if not self._writable or not entries:
            return
        try:
            self._prepare()
            self.folder.mkdir(parents=True, exist_ok=True)
            handle, temporary = tempfile.mkstemp(dir=self.folder, prefix=".tmp-")
            try:
                with os.fdopen(handle, "wb") as stream:
                    stream.write(_payload(entries))
                for key in entries:
                    self._name(temporary, key, entries)
            finally:
                _unlink(temporary)
        except OSError as error:
            self._note("write", f"cannot write the cache at {self.root} ({_reason(error)}); results are not cached")
            self._writable = False

    def _name(self, written: str, key: str, entries: dict) -> None:
        path = self._path(key)
        if self._links:
            try:
                os.link(written, path)
                return
            except FileExistsError:
                # A corrupt entry, or one another run wrote meanwhile: replaced, by a rename.
                spare = f"{written}-{key[:16]}"
                _unlink(spare)
                os.link(written, spare)
                os.replace(spare, path)
                return
            except OSError:
                self._links = False  # a file system without hard links: a file per entry
        handle, temporary = tempfile.mkstemp(dir=self.folder, prefix=".tmp-")
        try:
            with os.fdopen(handle, "wb") as stream:
                stream.write(_payload({key: entries[key]}))
            os.replace(temporary, path)
        except BaseException:
            _unlink(temporary)
            raise

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
        # coop_lsp (the compiled grammar included), and the parser runtime installed apart from it.
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
    for name in ("tree_sitter",):
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


def _payload(entries: dict) -> bytes:
    """A cache file's bytes: the format, the version that wrote it, then the entries (key -> findings)."""
    return MAGIC + __version__.encode() + b"\n" + pickle.dumps(entries, protocol=pickle.HIGHEST_PROTOCOL)


def _unlink(path: str) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass
