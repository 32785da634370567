"""Linting a template: every variant expanded, linted, mapped back to the lines the author edits.

A finding that several variants share is reported once, on the source line, naming the variants it
occurs in. Variants share their work: included files are read and split once, each file's conditional
structure and each line's names are worked out once (FileCache), and a variant whose WGSL equals an
earlier one's is not linted again. (Replaying unchanged declarations with lint.Reuse was measured and
cost more than it saved: a define such as a tile size changes nearly every function.)
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from pathlib import Path

from ..core.diagnostic import Diagnostic, Edit, Fix, Related, Severity
from ..core.text import Span
from .rules import UNUSED_SUPPRESSION
from ..source import Expansion, FileCache, expand
from ..source.rules import CODE_IN_NO_VARIANT, TOO_MANY_VARIANTS, UNDEFINED_IN_VARIANT
from .engine import LintResult, lint_source

MAX_VARIANTS = 256
DOCS = "docs/templates.md"
# In a template, an unresolved name in capitals is a macro the program passes, as C programmers write them.
_MACRO_LIKE = re.compile(r"^[A-Z][A-Z0-9_]*[A-Z0-9]$")
_UNRESOLVED = re.compile(r"^unresolved (?:identifier|type|function|name|value) '([A-Za-z_]\w*)'")


@dataclass(frozen=True, slots=True)
class Variant:
    name: str | None  # None: the one unnamed variant of a file linted with the command line's defines
    defines: tuple[tuple[str, str], ...] = ()

    @property
    def define_map(self) -> dict[str, str]:
        return dict(self.defines)


@dataclass(frozen=True, slots=True)
class TemplateOptions:
    variants: tuple[Variant, ...] = (Variant(None),)
    include_dirs: tuple[Path, ...] = ()
    override_file_defines: bool = False
    # Every name any set defines: a name in this list that the WGSL cannot resolve is a missing define.
    known_names: frozenset[str] = frozenset()
    skipped_variants: int = 0  # past MAX_VARIANTS
    # Whether the variants are every configured set (no --variant subset, nothing skipped): only then can
    # a filter that no variant needs be called unused.
    every_set: bool = False


@dataclass(slots=True)
class VariantLint:
    variant: Variant
    expansion: Expansion
    diagnostics: list[Diagnostic]  # in the variant's WGSL, before mapping
    # The whole lint (tree, semantic model), kept only when asked: a hundred variants' trees held at once
    # made each further variant slower (the garbage collector walks them all).
    result: LintResult | None = None


@dataclass(slots=True)
class TemplateLint:
    """Findings per source file (index into `files`, 0 is the linted file) and each variant's lint."""

    files: list[Path | None]
    diagnostics: dict[int, list[Diagnostic]] = field(default_factory=dict)
    variants: list[VariantLint] = field(default_factory=list)

    @property
    def main(self) -> list[Diagnostic]:
        return self.diagnostics.get(0, [])


def needs_template_lint(data: bytes, options: TemplateOptions | None) -> bool:
    from ..source import is_template
    if options is None:
        return is_template(data)
    named = any(v.name is not None or v.defines for v in options.variants)
    return named or options.skipped_variants > 0 or is_template(data)


def lint_template(path: Path | None, data: bytes, options: TemplateOptions, targets=(), dialect: str = "auto",
                  project: Path | None = None, cache: FileCache | None = None, expander=None,
                  keep_results: bool = False) -> TemplateLint:
    """`expander(variant)` makes a variant's Expansion; by default the file's template is expanded.
    `keep_results` keeps each variant's LintResult (the editor analyses its one active variant)."""
    cache = cache or FileCache()
    files: list[Path | None] = [path.resolve() if path is not None else None]
    variants = options.variants or (Variant(None),)
    linted_outputs: dict[bytes, tuple[list[Diagnostic], LintResult | None]] = {}
    # key -> (diagnostic in its source file, file index, names of the variants it occurs in)
    found: dict[tuple, tuple[Diagnostic, int, list[str]]] = {}
    runs: list[VariantLint] = []
    for variant in variants:
        expansion = expander(variant) if expander is not None else expand(
            path, data, variant.define_map, options.include_dirs, options.override_file_defines, cache)
        known = linted_outputs.get(expansion.data)
        if known is None:
            result = lint_source(expansion.data, targets=targets, project=project, dialect=dialect)
            known = linted_outputs[expansion.data] = (result.diagnostics, result if keep_results else None)
        diagnostics, result = known
        runs.append(VariantLint(variant, expansion, diagnostics, result))
        label = variant.name or "default"
        for file, diagnostic in _variant_findings(expansion, diagnostics, variant, options):
            index = _file_index(files, expansion.origins.files[file] if file < len(expansion.origins.files)
                                else None, file)
            key = (index, diagnostic.span.start, diagnostic.span.end, diagnostic.code, diagnostic.message)
            entry = found.get(key)
            if entry is None:
                found[key] = (diagnostic, index, [label])
            elif label not in entry[2]:
                entry[2].append(label)
    lint = TemplateLint(files, {}, runs)
    total = len(variants)
    for diagnostic, index, labels in found.values():
        if diagnostic.code == UNUSED_SUPPRESSION.code and (len(labels) < total or not options.every_set):
            continue  # another variant needs the filter, or variants not linted here may
        if total > 1 or (diagnostic.code == "D001" and variants[0].name is not None):
            diagnostic = replace(diagnostic, message=diagnostic.message + _naming(labels, total, diagnostic.code))
        lint.diagnostics.setdefault(index, []).append(diagnostic)
    if total > 1 and all(v.name is not None for v in variants) and expander is None:
        lint.diagnostics.setdefault(0, []).extend(_code_in_no_variant(runs, data))
    if options.skipped_variants:
        lint.diagnostics.setdefault(0, []).append(Diagnostic(
            TOO_MANY_VARIANTS.code,
            f"{len(variants) + options.skipped_variants} variant sets apply to this file; only the first "
            f"{len(variants)} were checked ({options.skipped_variants} skipped, the cap is {MAX_VARIANTS})",
            Span(0, 0), TOO_MANY_VARIANTS.severity))
    for diagnostics in lint.diagnostics.values():
        diagnostics.sort(key=lambda d: d.sort_key)
    return lint


def _file_index(files: list[Path | None], path: Path | None, local: int) -> int:
    if local == 0:
        return 0
    for index, known in enumerate(files):
        if known == path:
            return index
    files.append(path)
    return len(files) - 1


def _naming(labels: list[str], total: int, code: str) -> str:
    if len(labels) == total:
        return f" (in all {total} variants)" if total > 1 else f" (variant {labels[0]})"
    shown = ", ".join(labels[:6]) + (", ..." if len(labels) > 6 else "")
    return f" (in {len(labels)} of {total} variants: {shown})"


def _variant_findings(expansion: Expansion, diagnostics: list[Diagnostic], variant: Variant,
                      options: TemplateOptions):
    """This variant's findings, each in the source file and range it came from."""
    origins = expansion.origins
    for problem in expansion.problems:
        from ..core.rules import rule
        found = rule(problem.code)
        yield problem.file, Diagnostic(problem.code, problem.message, problem.span, found.severity)
    defines = variant.define_map
    data = expansion.data
    missing_lines: set[int] = set()  # output lines with a name a define would have given
    pending = []
    for diagnostic in diagnostics:
        if not origins.is_identity and origins.unresolved(diagnostic.span):
            continue  # the placeholder with no value is the finding
        file, span = origins.span(diagnostic.span)
        line = data.count(b"\n", 0, diagnostic.span.start)
        if line in missing_lines and diagnostic.code != "T001":
            continue
        if diagnostic.code == "T001":
            match = _UNRESOLVED.match(diagnostic.message)
            name = match.group(1) if match else None
            if name is not None and name not in defines and (
                    name in expansion.macro_names or name in options.known_names
                    or (not origins.is_identity and _MACRO_LIKE.match(name))):
                missing_lines.add(line)
                yield file, Diagnostic(
                    UNDEFINED_IN_VARIANT.code,
                    f"'{name}' is not defined in this variant; configure variants: {DOCS}", span,
                    UNDEFINED_IN_VARIANT.severity)
                continue
            if name is not None and name in expansion.inactive_declarations:
                missing_lines.add(line)
                yield file, Diagnostic(
                    UNDEFINED_IN_VARIANT.code,
                    f"'{name}' is declared only in lines this variant leaves out; configure variants: {DOCS}",
                    span, UNDEFINED_IN_VARIANT.severity)
                continue
        pending.append((line, file, span, diagnostic))
    for line, file, span, diagnostic in pending:
        if line in missing_lines:
            continue  # what the checks say about a line with a missing define follows from it
        if missing_lines and diagnostic.code[0] in "TUD" and diagnostic.code != "T001":
            # Types, uniformity and devices of a variant that lacks defines are guesses (a constant made
            # from a missing define has no type, an array sized by it no size): only names and syntax count.
            continue
        related = []
        for item in diagnostic.related:
            related_file, related_span = origins.span(item.span)
            if related_file == file:
                related.append(Related(related_span, item.message))
        fixes = tuple(fix for fix in (_map_fix(origins, fix, file) for fix in diagnostic.fixes) if fix is not None)
        yield file, Diagnostic(diagnostic.code, diagnostic.message, span, diagnostic.severity, tuple(related), fixes)


def _map_fix(origins, fix: Fix, file: int) -> Fix | None:
    edits = []
    for edit in fix.edits:
        mapped = origins.verbatim_span(edit.span)
        if mapped is None or mapped[0] != file:
            return None  # a fix may only change text the author wrote, in this file
        edits.append(Edit(mapped[1], edit.new_text))
    return Fix(fix.title, tuple(edits), fix.safe)


def _has_code(text: bytes) -> bool:
    """Whether lines hold WGSL, not only directives (an `#error` guard), comments or blanks."""
    for line in text.splitlines():
        stripped = line.strip()
        if stripped and not stripped.startswith((b"#", b"//")):
            return True
    return False


def _code_in_no_variant(runs: list[VariantLint], data: bytes) -> list[Diagnostic]:
    common: list[tuple[int, int]] | None = None
    for run in runs:
        ranges = sorted(run.expansion.inactive.get(0, []))
        common = ranges if common is None else _intersect(common, ranges)
        if not common:
            return []
    return [Diagnostic(CODE_IN_NO_VARIANT.code,
                       f"no configured variant compiles these lines ({len(runs)} variants checked)",
                       Span(start, _trimmed_end(data, start, end)), Severity.INFO)
            for start, end in (common or []) if end > start and _has_code(data[start:end])]


def _trimmed_end(data: bytes, start: int, end: int) -> int:
    while end > start and data[end - 1 : end] in (b"\n", b"\r"):
        end -= 1
    return end


def _intersect(a: list[tuple[int, int]], b: list[tuple[int, int]]) -> list[tuple[int, int]]:
    out, i, j = [], 0, 0
    while i < len(a) and j < len(b):
        start, end = max(a[i][0], b[j][0]), min(a[i][1], b[j][1])
        if start < end:
            out.append((start, end))
        if a[i][1] < b[j][1]:
            i += 1
        else:
            j += 1
    return out


def options_for(tables, defines: dict[str, str], include_dirs: tuple[Path, ...] = (),
                chosen: frozenset[str] | None = None) -> TemplateOptions | None:
    """The variants of one file: the sets of the variant tables that match it (only the `chosen` names
    when given), each with the command line's defines on top; None when nothing is configured or given."""
    sets: list[Variant] = []
    includes: list[Path] = list(include_dirs)
    override = False
    known: set[str] = set(defines)
    for table in tables:
        includes.extend(table.include)
        override = override or table.override_file_defines
        for name, pairs in table.sets:
            known.update(define for define, _ in pairs)
            if chosen is not None and name not in chosen:
                continue
            merged = dict(pairs)
            merged.update(defines)
            sets.append(Variant(name, tuple(merged.items())))
    if not sets and not defines and not includes and not tables:
        return None
    if not sets:
        sets = [Variant(None, tuple(defines.items()))]
    skipped = max(0, len(sets) - MAX_VARIANTS)
    every_set = chosen is None and skipped == 0 and any(v.name is not None for v in sets)
    return TemplateOptions(tuple(sets[:MAX_VARIANTS]), tuple(includes), override, frozenset(known), skipped,
                           every_set)


def parse_define(text: str) -> tuple[str, str]:
    """`NAME` or `NAME=VALUE`, as a C compiler's -D takes it; ValueError for anything else."""
    name, _, value = text.partition("=")
    name = name.strip()
    if not re.fullmatch(r"[A-Za-z_]\w*", name):
        raise ValueError(f"-D {text}: a define's name must be an identifier")
    return name, value
