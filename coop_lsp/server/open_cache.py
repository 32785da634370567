"""Opening an unchanged file from the result cache: its diagnostics and symbols without checking it.

The entry of a document is what a resting document keeps (server.rest): its findings before the client's
settings filter them, and its module-scope symbols. It is keyed (lint/result_cache.py) by the text's
bytes, coop-lsp's version and code, the dialect, the targets and what their device profiles say. Only
plain WGSL is kept: a template's findings depend on other files and its variant, and a document whose
unresolved names are a host's macros is analysed as a template (both always get a full check). Entries
are written in batches once the checks of a burst have finished. A cache that cannot be read, an entry of
another version or a corrupt one is ignored, with one log line per kind of problem; the document is then
checked as if there were no cache.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from pathlib import Path

from ..core.diagnostic import Diagnostic
from ..ide.navigation import WorkspaceSymbol
from ..lint.result_cache import (Codec, ResultCache, decode_finding, encode_finding, json_list,
                                 json_span, json_text, profiles_fingerprint)

log = logging.getLogger(__name__)

FLUSH_SECONDS = 0.5
_KIND = "coop-lsp document"


@dataclass(frozen=True)
class Entry:
    diagnostics: list[Diagnostic]
    symbols: list[WorkspaceSymbol]


class _DocumentCodec(Codec):
    def encode(self, value: Entry) -> object:
        return {"diagnostics": [encode_finding(d) for d in value.diagnostics],
                "symbols": [[s.name, s.kind, s.span.start, s.span.end, s.container] for s in value.symbols]}

    def decode(self, item) -> Entry:
        if not isinstance(item, dict) or set(item) != {"diagnostics", "symbols"}:
            raise ValueError("unexpected cache entry")
        symbols = []
        for name, kind, start, end, container in (json_list(s, 5) for s in json_list(item["symbols"])):
            symbols.append(WorkspaceSymbol(json_text(name), json_text(kind), json_span(start, end),
                                           json_text(container)))
        return Entry([decode_finding(d) for d in json_list(item["diagnostics"])], symbols)


@dataclass(frozen=True)
class _KeyParts:
    """What a document's analysis depends on besides its bytes and coop-lsp itself."""
    dialect: str
    targets: tuple[str, ...]


class OpenCache:
    def __init__(self, root: Path) -> None:
        self.store = ResultCache(root, _DocumentCodec())
        self._fresh: dict[str, Entry] = {}
        self._parts: dict[tuple, _KeyParts] = {}
        self._flush: asyncio.TimerHandle | None = None
        self._logged = 0

    def key(self, data: bytes, dialect: str, targets: tuple[str, ...]) -> str | None:
        parts = (dialect, tuple(targets))
        settings = self._parts.get(parts)
        if settings is None:
            # One object per setting: the store keeps the text of each settings object it sees.
            settings = self._parts[parts] = _KeyParts(*parts)
        # Read each time: a project's profile may be saved while the server runs.
        profiles = profiles_fingerprint(parts[1])
        if profiles is None:
            return None  # the live adapter: its answer may change
        return self.store.key(data, _KIND, settings, profiles)

    def get(self, key: str) -> Entry | None:
        try:
            found = self.store.get(key)
        finally:
            self._log_notes()
        return found

    def put(self, key: str, entry: Entry) -> None:
        """Kept, and written with the others of the burst once no check has ended for a moment."""
        self._fresh[key] = entry
        if self._flush is not None:
            self._flush.cancel()
        self._flush = asyncio.get_running_loop().call_later(FLUSH_SECONDS, self.flush)

    def flush(self) -> None:
        if self._flush is not None:
            self._flush.cancel()
        self._flush = None
        fresh, self._fresh = self._fresh, {}
        try:
            self.store.put_many(fresh)
        finally:
            self._log_notes()

    def _log_notes(self) -> None:
        for note in self.store.notes[self._logged:]:
            log.warning("result cache: %s", note)
        self._logged = len(self.store.notes)
