"""The result cache of coop-lint and of the language server: what a file's check found, keyed by everything
it depends on.

coop-lint keeps each file's findings; the language server keeps, under keys of its own (they hash its
dialect and targets, and a different `kind`), the findings and the module-scope symbols of an open
document, so that opening an unchanged file publishes its diagnostics without checking it (a `Codec`
turns each kind's values into JSON and back, refusing anything else).

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

Entries are JSON: numbers, strings and lists, turned back into findings field
by field. A cache someone else wrote (a folder committed to a repository, a
restored CI cache) can at worst hold wrong findings; it cannot construct an
object or run code, as a pickle could. The default folder is the user's cache
folder, not the project, so a repository cannot bring entries of its own
(docs/ci.md).
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import sys
import tempfile
from pathlib import Path

from .. import __version__
from ..core.diagnostic import Diagnostic, Edit, Fix, Related, Severity
from ..core.text import Span

# 3: entries are JSON (2 was a pickle); a file holds the entries of one run, under each key's name.
MAGIC = b"coop-lint-cache 3\n"
ENV_DIR = "COOP_LINT_CACHE_DIR"


class Codec:
    """coop-lint's entries: a file's findings."""

    def encode(self, value) -> object:
        return [_encode(d) for d in value]

    def decode(self, item) -> object:
        return [_diagnostic(d) for d in _list(item)]


FINDINGS = Codec()


class ResultCache:
    def __init__(self, root: Path, codec: Codec = FINDINGS) -> None:
        self.root = root
        self.codec = codec
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
                # The entries of one run share one file (see put_many): read and decoded once.
                identity = (stat.st_dev, stat.st_ino, stat.st_size, stat.st_mtime_ns)
                entries = self._files.get(identity)
                if entries is None:
                    entries = self._files[identity] = self._read_entries(stream.read())
                    if len(self._files) > 256:  # a long-lived server reads many one-entry files
                        self._files = {identity: entries}
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
            if header.startswith(b"coop-lint-cache "):
                self._note("format", f"ignoring cache entries in an older format in {self.root} (they are rewritten)")
            else:
                self._note("corrupt", f"ignoring a corrupt cache entry in {self.root} (it is rewritten)")
            return None
        if version.decode(errors="replace") != __version__:
            self._note("version", f"ignoring cache entries of coop-lint {version.decode(errors='replace')[:40]!r} "
                                  f"in {self.root} (this is {__version__})")
            return None
        try:
            return _decode(payload, self.codec)
        except (ValueError, TypeError, KeyError, IndexError, RecursionError):
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
                    stream.write(_payload(entries, self.codec))
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
                stream.write(_payload({key: entries[key]}, self.codec))
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


def cache_root(option: str | None) -> Path | None:
    """--cache-dir, else $COOP_LINT_CACHE_DIR, else the user's cache folder; None when there is none."""
    if option:
        return Path(option)
    env = os.environ.get(ENV_DIR)
    return Path(env) if env else user_cache_dir()


def user_cache_dir() -> Path | None:
    """Where a user's caches go on this system (XDG on Linux). Not the project: a cache inside it could be
    committed by whoever wrote the repository, and its entries would then be theirs."""
    try:
        home = Path.home()
    except (RuntimeError, KeyError):
        home = None
    if sys.platform == "win32":
        local = os.environ.get("LOCALAPPDATA")
        base = Path(local) if local else (home / "AppData" / "Local" if home else None)
        return base / "coop-lint" / "Cache" if base else None
    if sys.platform == "darwin":
        return home / "Library" / "Caches" / "coop-lint" if home else None
    xdg = os.environ.get("XDG_CACHE_HOME")
    # The XDG specification: a relative XDG_CACHE_HOME is invalid and is ignored.
    if xdg and os.path.isabs(xdg):
        return Path(xdg) / "coop-lint"
    return home / ".cache" / "coop-lint" if home else None


def profiles_fingerprint(targets: tuple[str, ...]) -> str | None:
    """What the targets' device profiles say, for a cache key; None when a target is the live adapter
    (its answer may change between runs: no caching)."""
    if not targets:
        return "()"
    if "connected" in targets:
        return None
    from ..devices.profiles import resolve_targets

    chosen, problems = resolve_targets(targets)
    return canonical((chosen, problems))


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


def _reason(error: OSError) -> str:
    return error.strerror or str(error)


def _payload(entries: dict, codec: Codec) -> bytes:
    """A cache file's bytes: the format, the version that wrote it, then the entries (key -> value)."""
    data = {key: codec.encode(value) for key, value in entries.items()}
    return MAGIC + __version__.encode() + b"\n" + json.dumps(data, separators=(",", ":")).encode()


def _encode(d: Diagnostic) -> list:
    return [d.code, d.message, d.span.start, d.span.end, int(d.severity),
            [[r.span.start, r.span.end, r.message] for r in d.related],
            [[f.title, f.safe, [[e.span.start, e.span.end, e.new_text] for e in f.edits]] for f in d.fixes]]


def _decode(payload: bytes, codec: Codec) -> dict:
    """key -> value, built field by field from plain JSON: anything else is refused (ValueError)."""
    data = json.loads(payload)
    if not isinstance(data, dict):
        raise ValueError("not a table of entries")
    return {key: codec.decode(items) for key, items in data.items()}


def _diagnostic(item) -> Diagnostic:
    code, message, start, end, severity, related, fixes = _list(item, 7)
    return Diagnostic(_text(code), _text(message), _span(start, end), Severity(_number(severity)),
                      tuple(Related(_span(s, e), _text(m)) for s, e, m in (_list(r, 3) for r in _list(related))),
                      tuple(Fix(_text(title), tuple(Edit(_span(s, e), _text(t))
                                                    for s, e, t in (_list(x, 3) for x in _list(edits))), _flag(safe))
                            for title, safe, edits in (_list(f, 3) for f in _list(fixes))))


def _list(value, length: int | None = None) -> list:
    if not isinstance(value, list) or (length is not None and len(value) != length):
        raise ValueError("unexpected cache entry")
    return value


def _text(value) -> str:
    if not isinstance(value, str):
        raise ValueError("unexpected cache entry")
    return value


def _number(value) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError("unexpected cache entry")
    return value


def _flag(value) -> bool:
    if not isinstance(value, bool):
        raise ValueError("unexpected cache entry")
    return value


def _span(start, end) -> Span:
    return Span(_number(start), _number(end))  # Span refuses a negative or reversed range


def _unlink(path: str) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass


# For other kinds of entries (server/open_cache.py) that hold findings among other fields.
encode_finding, decode_finding = _encode, _diagnostic
json_list, json_text, json_number, json_span = _list, _text, _number, _span
