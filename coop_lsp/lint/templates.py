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
from ..syntax import nodes as sn
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
        parsed = None
        if known is None:
            result = lint_source(expansion.data, targets=targets, project=project, dialect=dialect)
            known = linted_outputs[expansion.data] = (result.diagnostics, result if keep_results else None)
            # Only the one unconfigured variant needs its tree afterwards (see _opaque): not kept for sets.
            parsed = result.parsed if variant.name is None else None
        diagnostics, result = known
        runs.append(VariantLint(variant, expansion, diagnostics, result))
        label = variant.name or "default"
        for file, diagnostic in _variant_findings(expansion, diagnostics, variant, options, parsed, data):
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
                      options: TemplateOptions, parsed=None, data: bytes = b""):
    """This variant's findings, each in the source file and range it came from.

    A variant that no configuration names (a raw template opened as it is) lacks every macro its host
    passes: that is one root cause, reported once per file (M007 naming the macros), and the rest of the
    file is linted with those names opaque: a finding in a statement that uses one, or a value made
    from one, is left out, the others stay. A configured set that lacks a define gets one M007 per use,
    and its type, uniformity and device findings are left out (they are guesses there)."""
    if variant.name is None and parsed is not None:
        yield from _unconfigured_findings(expansion, diagnostics, options, parsed, variant.define_map, data)
        return
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
            name = _unresolved_name(diagnostic)
            if _host_defines(name, expansion, options, defines):
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
        yield file, _mapped(origins, file, span, diagnostic, data)


def _unresolved_name(diagnostic: Diagnostic) -> str | None:
    match = _UNRESOLVED.match(diagnostic.message) if diagnostic.code == "T001" else None
    return match.group(1) if match else None


def _host_defines(name: str | None, expansion: Expansion, options: TemplateOptions, defines) -> bool:
    """Whether an unresolved name is a macro the host would define: one the template tests or defines,
    one the configuration knows, or, in a file with directives, a name spelled like a macro."""
    return name is not None and name not in defines and (
        name in expansion.macro_names or name in options.known_names
        or (not expansion.origins.is_identity and _MACRO_LIKE.match(name) is not None))


def _mapped(origins, file: int, span: Span, diagnostic: Diagnostic, data: bytes = b"") -> Diagnostic:
    related = []
    for item in diagnostic.related:
        related_file, related_span = origins.span(item.span)
        if related_file == file:
            related.append(Related(related_span, item.message))
    fixes = tuple(fix for fix in (_map_fix(origins, fix, file) for fix in diagnostic.fixes) if fix is not None)
    message = diagnostic.message
    if diagnostic.code == "A002" and diagnostic.related and file == 0 and data:
        # The message names the first call's line in the expanded WGSL: name the line the author edits.
        call_file, call = origins.span(diagnostic.related[0].span)
        if call_file == 0:
            line = data.count(b"\n", 0, call.start) + 1
            message = re.sub(r" on line \d+", f" on line {line}", message, count=1)
    return Diagnostic(diagnostic.code, message, span, diagnostic.severity, tuple(related), fixes)


def _unconfigured_findings(expansion: Expansion, diagnostics: list[Diagnostic], options: TemplateOptions,
                           parsed, defines: dict[str, str], data: bytes):
    origins = expansion.origins
    for problem in expansion.problems:
        from ..core.rules import rule
        yield problem.file, Diagnostic(problem.code, problem.message, problem.span, rule(problem.code).severity)
    # name -> (file, span) of each use, in the order of the output
    missing: dict[str, list[tuple[int, Span]]] = {}
    left_out: dict[str, list[tuple[int, Span]]] = {}  # names declared only in conditional blocks left out
    kept: list[tuple[Diagnostic, int, Span]] = []
    for diagnostic in diagnostics:
        if not origins.is_identity and origins.unresolved(diagnostic.span):
            continue  # the placeholder with no value is the finding
        file, span = origins.span(diagnostic.span)
        if diagnostic.code == "T001":
            name = _unresolved_name(diagnostic)
            if _host_defines(name, expansion, options, defines):
                missing.setdefault(name, []).append((file, span))
                continue
            if name is not None and name in expansion.inactive_declarations:
                left_out.setdefault(name, []).append((file, span))
                continue
        kept.append((diagnostic, file, span))
    if missing or left_out:
        yield from _host_macros(missing, left_out)
    opaque = _Opaque(parsed, set(missing) | set(left_out)) if missing or left_out else None
    covered = {id(d) for d, _, _ in kept if opaque is not None and d.code[0] in "TUDP" and opaque.covers(d)}
    hidden_calls = {d.span.start for d, _, _ in kept if id(d) in covered}
    for diagnostic, file, span in kept:
        if id(diagnostic) in covered:
            continue
        if diagnostic.code == "T018" and _return_left_out(expansion, data, file, span):
            continue
        if diagnostic.code == "A002" and diagnostic.related and \
                all(item.span.start in hidden_calls for item in diagnostic.related):
            continue  # every divergent call it points at depends on an opaque name
        yield file, _mapped(origins, file, span, diagnostic, data)


def _host_macros(missing: dict[str, list[tuple[int, Span]]], left_out: dict[str, list[tuple[int, Span]]]):
    """One M007 per file for the unconfigured variant: the macros the host passes that are not given here,
    and the names declared only in conditional blocks that no define selects, at the first use, each
    name's first use as a related location."""
    by_file: dict[int, dict[str, Span]] = {}
    uses: dict[int, set[int]] = {}
    for found in (missing, left_out):
        for name, places in found.items():
            for file, span in places:
                by_file.setdefault(file, {}).setdefault(name, span)
                uses.setdefault(file, set()).add(span.start)
    for file, first_uses in by_file.items():
        def listed(names: list[str]) -> str:
            return ", ".join(names[:6]) + (", ..." if len(names) > 6 else "")
        macros = sorted((n for n in first_uses if n in missing), key=lambda n: first_uses[n].start)
        declared = sorted((n for n in first_uses if n not in missing), key=lambda n: first_uses[n].start)
        parts = []
        if macros:
            parts.append(f"uses {len(macros)} macro{'s' if len(macros) != 1 else ''} its host defines "
                         f"({listed(macros)})")
        if declared:
            parts.append(f"{'and ' if macros else 'uses '}{len(declared)} name{'s' if len(declared) != 1 else ''} "
                         f"declared only in conditional blocks that no define selects ({listed(declared)})")
        count = len(uses[file])
        message = (f"this file {' '.join(parts)}; configure a variant (-D NAME=VALUE, or variants in the "
                   f"configuration: {DOCS}); until then these names are opaque, and what follows from "
                   f"them ({count} use{'s' if count != 1 else ''}) is not checked")
        ordered = sorted(first_uses, key=lambda n: first_uses[n].start)
        related = tuple(Related(first_uses[name], f"'{name}' is first used here") for name in ordered)
        yield file, Diagnostic(UNDEFINED_IN_VARIANT.code, message, first_uses[ordered[0]],
                               UNDEFINED_IN_VARIANT.severity, related)


class _Opaque:
    """Which findings of an unconfigured variant follow from its missing macros.

    A missing macro is opaque: the checker sees an unresolved name, and everything computed from it
    (a const, an alias, a function whose signature names it) has an unknown type or value. Such names
    are found by a fixed point over the declarations; a finding whose statement mentions one of them,
    or that is about an unknown type, says nothing about the code as its host compiles it."""

    _DECLARATIONS = ("const_declaration", "let_declaration", "variable_declaration", "override_declaration",
                     "type_alias_declaration", "struct_declaration")

    def __init__(self, parsed, names: set[str]) -> None:
        self.data = parsed.source.data
        self.root = parsed.root
        self.names = set(names)
        declarations = []
        stack = [self.root]
        while stack:
            node = stack.pop()
            if node.type in self._DECLARATIONS or node.type == "function_declaration":
                name = sn.name(node)
                if name is not None:
                    head = node
                    if node.type == "function_declaration":
                        # A function is opaque when its signature is: its body's findings are judged one
                        # statement at a time.
                        body = sn.body(node)
                        head = (node.start_byte, body.start_byte if body is not None else node.end_byte)
                    declarations.append((self._text(name), self._words(head)))
            stack.extend(node.named_children)
        changed = True
        while changed:
            changed = False
            for name, words in declarations:
                if name not in self.names and words & self.names:
                    self.names.add(name)
                    changed = True

    def _text(self, node) -> str:
        return self.data[node.start_byte:node.end_byte].decode("utf-8", errors="replace")

    def _words(self, node) -> set[str]:
        start, end = node if isinstance(node, tuple) else (node.start_byte, node.end_byte)
        return set(re.findall(r"[A-Za-z_]\w*", self.data[start:end].decode("utf-8", errors="replace")))

    def covers(self, diagnostic: Diagnostic) -> bool:
        if "<error>" in diagnostic.message:
            return True  # a type that could not be resolved: an opaque name's
        if diagnostic.code.startswith("U"):
            # A uniformity finding follows from the branches and values its notes name, not from the
            # statement of the call.
            return any(self._statement_uses(item.span) for item in diagnostic.related)
        return self._statement_uses(diagnostic.span)

    def _statement_uses(self, span: Span) -> bool:
        """Whether the statement at `span` (its header, for a compound statement) names an opaque name."""
        node = self.root.descendant_for_byte_range(span.start, max(span.start, span.end))
        while node is not None and not (node.type.endswith("_statement") or node.type in self._DECLARATIONS
                                        or node.type in ("function_declaration", "global_variable_declaration")):
            node = node.parent
        if node is None:
            return False
        if node.type == "function_declaration":
            body = sn.body(node)
            return bool(self._words((node.start_byte, body.start_byte if body is not None else node.end_byte))
                        & self.names)
        if node.type in ("if_statement", "for_statement", "while_statement", "loop_statement", "switch_statement"):
            # The statement's own header, not the statements inside it (judged on their own).
            body = sn.body(node) or sn.consequence(node)
            end = body.start_byte if body is not None and body.start_byte > span.start else node.end_byte
            return bool(self._words((node.start_byte, end)) & self.names)
        return bool(self._words(node) & self.names)


def _return_left_out(expansion: Expansion, data: bytes, file: int, span: Span) -> bool:
    """A missing return reported at a function's closing brace in the linted file, right after a
    conditional block this variant leaves out: the return is most likely in there."""
    if file != 0:
        return False
    for start, end in expansion.inactive.get(0, []):
        if end <= span.start:
            between = data[end:span.start].decode("utf-8", errors="replace").splitlines()
            if all(not line.strip() or line.strip().startswith(("#", "//")) for line in between):
                return True
    return False


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
