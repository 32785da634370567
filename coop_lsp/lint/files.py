"""Linting one file as coop-lint reports it: plain WGSL, a template, or the WGSL strings of a host file.

The choice between the three is made here and only here; the command line (in its own process and in
its workers) and the server's cheap first test both ask this module. Nothing heavy is imported at module
level: a plain file must never load the template layer, and a run the cache answers never loads the
engine (tests/test_cli_cache.py).
"""

from __future__ import annotations

import re
from dataclasses import replace
from difflib import SequenceMatcher
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from ..core.diagnostic import Diagnostic
from ..core.text import SourceText
from ..source.sniff import may_be_template

if TYPE_CHECKING:
    from ..source import FileCache
    from .config import Settings
    from .templates import TemplateOptions

PLAIN, TEMPLATE, HOST = "plain", "template", "host"

# An unresolved name in capitals is a macro its host program defines, as C programmers spell them (the
# same spelling lint.templates reads in a file with directives).
_MACRO_LIKE = re.compile(r"^[A-Z][A-Z0-9_]*[A-Z0-9]$")
_UNRESOLVED = re.compile(r"^unresolved (?:identifier|type|function|name|value) '([A-Za-z_]\w*)'")
_LETTER = re.compile(r"^[A-Z]$")
_WORD = re.compile(rb"[A-Za-z_]\w*")


class Templates(Protocol):
    """What the caller knows about templates for this run: the options for a file's settings (None when
    nothing is configured or given), the cache of included files, and where findings in included files go."""

    def options(self, settings: Settings) -> TemplateOptions | None: ...

    @property
    def cache(self) -> FileCache: ...

    def add_included(self, path: Path, diagnostics: list[Diagnostic]) -> None: ...


def may_need_templates(data: bytes, language: str | None, configured: bool) -> bool:
    """The cheap first test, for every file and every keystroke: False means plain WGSL (or a host file
    without variants) for sure, and the template layer is not even imported."""
    return configured or (language is None and may_be_template(data))


def kind_of(data: bytes, language: str | None, options: TemplateOptions | None) -> str:
    """PLAIN, TEMPLATE or HOST: how a file with these bytes and this host language (None: a WGSL file)
    is linted, given its template options."""
    if language is not None:
        return HOST
    if not may_need_templates(data, language, options is not None):
        return PLAIN
    from .templates import needs_template_lint
    return TEMPLATE if needs_template_lint(data, options) else PLAIN


def depends_on_other_files(kind: str, options: TemplateOptions | None) -> bool:
    """Whether the findings depend on more than the file's bytes (its includes, its variants): such a
    file is linted by the caller's process, every variant, and never cached by its bytes alone."""
    return kind == TEMPLATE or (kind == HOST and options is not None)


def lint_file(data: bytes, settings: Settings, language: str | None = None, path: Path | None = None,
              templates: Templates | None = None, kind: str | None = None) -> tuple[SourceText, list[Diagnostic]]:
    """(source, findings) of a file, with the settings' selection applied. `language`: the host language
    whose strings embed WGSL (None for a WGSL file); `kind`: what `kind_of` said, if the caller asked it
    already."""
    options = templates.options(settings) if templates is not None else None
    if kind is None:
        kind = kind_of(data, language, options)
    if kind == TEMPLATE:
        return _lint_template(data, settings, path, templates, options)
    if kind == HOST:
        return _lint_host(data, settings, language, options)
    from .engine import lint_source

    result = lint_source(data, targets=settings.targets, dialect=settings.dialect)
    if language is None and host_macro_names(data, result.diagnostics):
        # A host preprocesses this file though it has no directive (ggml's pre_wgsl passes WG_SIZE to
        # every shader): one finding for the names it must define, as for a template with directives.
        from .templates import TemplateOptions
        names = frozenset(host_macro_names(data, result.diagnostics))
        return _lint_template(data, settings, path, templates, TemplateOptions(known_names=names))
    diagnostics = settings.apply(result.diagnostics)
    if result.source.decode_error is not None:
        # Spans count bytes of the repaired text, not of the file: no fixes.
        diagnostics = [d if not d.fixes else without_fixes(d) for d in diagnostics]
    return result.source, diagnostics


def host_macro_names(data: bytes, diagnostics) -> list[str]:
    """The unresolved names of a plain file that are spelled like macros and are no near miss of a name the
    file has (`TILE_SZE` beside `TILE_SIZE` is a typo, not a macro); empty when there is another kind of
    unresolved name, since then the file is not simply waiting for its host's defines."""
    names = []
    for diagnostic in diagnostics:
        match = _UNRESOLVED.match(diagnostic.message) if diagnostic.code == "T001" else None
        if match is None:
            continue
        # One capital letter (ggml's N beside BATCH_N and K_TILE) counts only beside a longer macro name.
        if _MACRO_LIKE.match(match.group(1)) is None and not _LETTER.match(match.group(1)):
            return []
        names.append(match.group(1))
    if not any(_MACRO_LIKE.match(name) for name in names):
        return []
    words = {w.decode() for w in _WORD.findall(data)} - set(names)
    for name in set(names):
        if any(SequenceMatcher(None, name, word).ratio() >= 0.85 for word in words if abs(len(word) - len(name)) <= 2):
            return []
    return sorted(set(names))


def _lint_host(data: bytes, settings: Settings, language: str, options: TemplateOptions | None):
    from ..source.hosts import find_embedded
    from .engine import lint_source

    source = SourceText.from_bytes(data)
    diagnostics = []
    for embedded in find_embedded(data, language):
        if embedded.skipped and embedded.interpolation and options is not None:
            diagnostics.extend(_lint_interpolated(embedded, options, settings, source))
            continue
        if embedded.skipped:
            continue
        for d in settings.apply(lint_source(embedded.content, targets=settings.targets,
                                            dialect=settings.dialect).diagnostics):
            mapped = embedded.map_diagnostic(d)
            diagnostics.append(mapped if source.decode_error is None else without_fixes(mapped))
    diagnostics.sort(key=lambda d: d.sort_key)
    return source, diagnostics


def _lint_template(data: bytes, settings: Settings, path: Path | None, templates: Templates | None,
                   options: TemplateOptions | None):
    """A template, every variant; findings in included files go to `templates.add_included`."""
    from .templates import TemplateOptions, lint_template

    lint = lint_template(path, data, options or TemplateOptions(), settings.targets, settings.dialect,
                         cache=templates.cache if templates is not None else None)
    source = SourceText.from_bytes(data)
    for index, found in lint.diagnostics.items():
        if index != 0 and templates is not None and lint.files[index] is not None:
            templates.add_included(lint.files[index], settings.apply(found))
    diagnostics = settings.apply(lint.main)
    if source.decode_error is not None:
        diagnostics = [d if not d.fixes else without_fixes(d) for d in diagnostics]
    return source, diagnostics


def _lint_interpolated(embedded, options: TemplateOptions, settings: Settings, source: SourceText):
    """An f-string or template literal, linted once per variant with its names' values."""
    from ..source.interpolate import interpolate
    from .templates import lint_template

    lint = lint_template(None, embedded.content, options, settings.targets, settings.dialect,
                         expander=lambda variant: interpolate(embedded.content, embedded.interpolation,
                                                              variant.define_map))
    for diagnostic in settings.apply(lint.main):
        mapped = embedded.map_diagnostic(diagnostic)
        yield mapped if source.decode_error is None else without_fixes(mapped)


def without_fixes(diagnostic: Diagnostic) -> Diagnostic:
    return replace(diagnostic, fixes=())
