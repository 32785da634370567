"""What a worker process does for a document only opened (check_pool.py): the findings and symbols a
resting document keeps, computed as the analysis thread computes them for a plain document.

A worker builds no template view: a document whose unresolved names are its host's macros is analysed as
a template, so the worker answers None for it and the server checks it in its own process, as it does
every document that may need templates.
"""

from __future__ import annotations

from dataclasses import dataclass

from .open_cache import Entry


@dataclass(frozen=True)
class Job:
    text: str
    dialect: str
    targets: tuple[str, ...]


def check(job: Job) -> Entry | None:
    """In the worker: the document's entry; None when it is a host's template after all."""
    from ..ide import navigation
    from ..ide.analysis import Analysis
    from ..lint.files import host_macro_names

    analysis = Analysis.of(job.text, None, job.targets, None, job.dialect)
    if host_macro_names(job.text.encode("utf-8", errors="surrogatepass"), analysis.diagnostics):
        return None
    return Entry(list(analysis.diagnostics), navigation.workspace_symbols(analysis, ""))
