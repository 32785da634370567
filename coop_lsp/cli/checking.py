"""Linting one file's bytes as coop-lint reports them: the unit of work that runs in a worker process and
whose result the cache keeps."""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

from ..core.diagnostic import Diagnostic
from ..core.text import SourceText
from .. import lint
from ..lint.config import Settings
from ..lint.hosts import find_embedded
from ..lint.rules import INTERNAL_ERROR
from .cache import ResultCache


@dataclass(frozen=True, slots=True)
class Job:
    data: bytes
    settings: Settings
    language: str | None  # None: a WGSL file; else the host language whose strings embed WGSL
    # (cache folder, key): where whoever lints the file keeps its findings. The worker writes the entry
    # itself, while the other workers go on, instead of leaving 500 writes to the parent at the end.
    cache_entry: tuple[Path, str] | None = None


@dataclass(slots=True)
class JobResult:
    diagnostics: list[Diagnostic]
    cache_notes: tuple[str, ...] = ()  # what went wrong with the cache in this job (each said once per run)


def lint_data(data: bytes, settings: Settings, language: str | None) -> tuple[SourceText, list[Diagnostic]]:
    """(source, findings) of a WGSL file or of the WGSL embedded in a host file."""
    if language is None:
        result = lint.lint_source(data, targets=settings.targets, dialect=settings.dialect)
        diagnostics = settings.apply(result.diagnostics)
        if result.source.decode_error is not None:
            # Spans count bytes of the repaired text, not of the file: no fixes.
            diagnostics = [d if not d.fixes else without_fixes(d) for d in diagnostics]
        return result.source, diagnostics
    source = SourceText.from_bytes(data)
    diagnostics = []
    for embedded in find_embedded(data, language):
        if embedded.skipped:
            continue
        for d in settings.apply(lint.lint_source(embedded.content, targets=settings.targets, dialect=settings.dialect).diagnostics):
            mapped = embedded.map_diagnostic(d)
            diagnostics.append(mapped if source.decode_error is None else without_fixes(mapped))
    diagnostics.sort(key=lambda d: d.sort_key)
    return source, diagnostics


def run_job(job: Job) -> JobResult:
    """What a worker computes: the findings only (the source is rebuilt from the bytes by whoever reports),
    kept in the cache when the job names an entry and nothing failed inside (X001 is never kept)."""
    diagnostics = lint_data(job.data, job.settings, job.language)[1]
    if job.cache_entry is None or any(d.code == INTERNAL_ERROR.code for d in diagnostics):
        return JobResult(diagnostics)
    root, key = job.cache_entry
    cache = _caches.get(root)
    if cache is None:
        cache = _caches[root] = ResultCache(root)
    noted = len(cache.notes)
    cache.put(key, diagnostics)
    return JobResult(diagnostics, tuple(cache.notes[noted:]))


# The caches this process has written to, by folder: a worker keeps its own across its jobs.
_caches: dict[Path, ResultCache] = {}


def without_fixes(diagnostic: Diagnostic) -> Diagnostic:
    return replace(diagnostic, fixes=())
