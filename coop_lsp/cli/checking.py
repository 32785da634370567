"""Linting one file's bytes as coop-lint reports them: the unit of work that runs in a worker process and
whose result the cache keeps."""

from __future__ import annotations

from dataclasses import dataclass, replace

from ..core.diagnostic import Diagnostic
from ..core.text import SourceText
from .. import lint
from ..lint.config import Settings
from ..source.hosts import find_embedded


@dataclass(frozen=True, slots=True)
class Job:
    data: bytes
    settings: Settings
    language: str | None  # None: a WGSL file; else the host language whose strings embed WGSL


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


def run_job(job: Job) -> list[Diagnostic]:
    """What a worker computes: the findings only (the source is rebuilt from the bytes by whoever reports)."""
    return lint_data(job.data, job.settings, job.language)[1]


def without_fixes(diagnostic: Diagnostic) -> Diagnostic:
    return replace(diagnostic, fixes=())
