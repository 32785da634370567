"""Linting one file's bytes as coop-lint reports them: the unit of work that runs in a worker process and
whose result the cache keeps. Which way a file is linted is lint.files' choice, made once in the parent."""

from __future__ import annotations

from dataclasses import dataclass

from ..core.diagnostic import Diagnostic
from ..lint.config import Settings
from ..lint.files import lint_file


@dataclass(frozen=True, slots=True)
class Job:
    data: bytes
    settings: Settings
    language: str | None  # None: a WGSL file; else the host language whose strings embed WGSL
    kind: str  # lint.files' PLAIN or HOST (templates are linted by the parent, never in a job)


def run_job(job: Job) -> list[Diagnostic]:
    """What a worker computes: the findings only (the source is rebuilt from the bytes by whoever reports)."""
    return lint_file(job.data, job.settings, job.language, kind=job.kind)[1]
