"""Templates to WGSL: C-like directives, naga_oil imports, WESL imports and `@if`, placeholders.

One call expands one file for one set of defines (a variant). Lines stay lines: a directive or a line
that a conditional leaves out becomes an empty line, so the WGSL keeps the template's line structure
wherever it can, and every output byte is in the origin map. Included files are spliced in at their
`#include`; imported modules (naga_oil `#import`, WESL `import`) are appended once, after the file, since
WGSL wants its `enable` directives before any declaration.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import partial
from pathlib import Path

from ..core.text import Span
from .expansion import Expansion, Link, MacroUse, Problem
from .sniff import may_be_template
from .expression import ExpressionError, evaluate, value_of_text
from .files import FileCache, TemplateFile
from .modules import ModuleImports
from .origin import OriginMap
from .output import MAX_OUTPUT_BYTES, Output, TooLarge
from .rules import (BAD_DIRECTIVE, INCLUDE_CYCLE, MISSING_INCLUDE, PATH_OUTSIDE_WORKSPACE, PLACEHOLDER_WITHOUT_VALUE,
                    RECURSIVE_MACRO, UNBALANCED_CONDITIONAL)
from . import wesl

__all__ = ["Expansion", "Link", "MacroUse", "Problem", "expand", "is_template"]

# Anything that makes a file a template; a file without any of these (and no defines given) is WGSL.
_TEMPLATE_MARK = re.compile(rb"^[ \t]*#|\{\{|\$\{|@(?:if|elif|else)\b|^[ \t]*import[ \t]", re.M)
_DIRECTIVE = re.compile(rb"[ \t]*#[ \t]*([A-Za-z_]\w*)?")
# What a code line may hold that the expansion rewrites: placeholders, naga_oil's #{NAME}, paths, names.
_CODE_TOKEN = re.compile(
    rb"\{\{[ \t]*([A-Za-z_]\w*)[ \t]*\}\}|\$\{[ \t]*([A-Za-z_]\w*)[ \t]*\}|#\{([A-Za-z_]\w*)\}"
    rb"|([A-Za-z_]\w*(?:[ \t]*::[ \t]*[A-Za-z_]\w*)+)|([A-Za-z_]\w*)|(//)|(/\*)")
_IDENT = re.compile(r"[A-Za-z_]\w*")
_DECLARATION = re.compile(rb"[ \t]*(?:@\w+(?:\([^)]*\))?[ \t]*)*(?:fn|alias|struct|const|override"
                          rb"|var(?:[ \t]*<[^>]*>)?|let)[ \t]+([A-Za-z_]\w*)")
_MEMBER_DECLARATION = re.compile(rb"[ \t]*:(?!:)")
_GLOBAL_DIRECTIVE = re.compile(rb"(?:enable|requires|diagnostic)\b")
_INCLUDE = re.compile(rb'[ \t]*(?:"([^"]*)"|<([^>]*)>)')

MAX_EXPANSION_DEPTH = 64
MAX_INCLUDE_DEPTH = 64


def is_template(data: bytes) -> bool:
    # The byte test first: on plain WGSL the regex never runs.
    return may_be_template(data) and _TEMPLATE_MARK.search(data) is not None


def expand(path: Path | None, data: bytes, defines: dict[str, str] | None = None,
           include_dirs: tuple[Path, ...] | list[Path] = (), override_file_defines: bool = False,
           cache: FileCache | None = None) -> Expansion:
    """The WGSL of one variant of a template, with the origin of every byte."""
    defines = dict(defines or {})
    if not defines and not is_template(data):
        return Expansion(data, OriginMap.identity(path, len(data)))
    expander = _Expander(path, data, defines, tuple(include_dirs), override_file_defines, cache or FileCache())
    return expander.run()


@dataclass(slots=True)
class _Conditional:
    parent_active: bool
    active: bool
    taken: bool
    span: Span
    seen_else: bool = False


def workspace_roots(main: Path | None, workspace: tuple[Path, ...],
                    include_dirs: tuple[Path, ...]) -> tuple[Path, ...]:
    """The folders a template may read files from: the workspace (the editor's folders, else the current
    folder), the main file's own folder when it lies outside them (it was opened or named explicitly),
    and the include folders given. A repository is untrusted input: `#include "../../.ssh/id_rsa"` or a
    symbolic link out of the checkout must not make coop-lint read, and echo, a file of the user's."""
    roots = [p.resolve() for p in workspace] or [Path.cwd().resolve()]
    if main is not None and not any(main.is_relative_to(r) for r in roots):
        roots.append(main.parent)
    return (*roots, *(p.resolve() for p in include_dirs))


class _Expander(ModuleImports):
    def __init__(self, path, data, defines, include_dirs, override, cache: FileCache) -> None:
        self.main_path = path.resolve() if path is not None else None
        self.main = TemplateFile.of(self.main_path, data)
        self.include_dirs = include_dirs
        self.roots = workspace_roots(self.main_path, cache.workspace, include_dirs)
        self.override = override
        self.cache = cache
        self.given = set(defines)
        self.macros: dict[str, str] = dict(defines)
        self.result = Expansion(b"", OriginMap())
        self.out = Output()
        self.files: list[Path | None] = []
        self.modules_loaded: set[Path] = set()
        self.pending_modules: list[tuple[Path, int, Span]] = []
        self.aliases: dict[str, str] = {}  # naga_oil / WESL: a short name -> the module path it stands for
        self.wesl_root = wesl.package_root(self.main_path, self.roots)
        # name -> (its value, its full expansion) while no macro changes; cleared by #define and #undef
        self._expanded: dict[str, tuple[str, str]] = {}
        # Imported modules join one WGSL module, so a name two of them declare is renamed in the module
        # (`f` -> `f_b`), and references to it (`b::f`, an imported `f`) follow: as the composers mangle.
        self.taken: set[str] = set(self.main.structure.top_level) if b"import" in data else set()
        self.module_renames: dict[Path, dict[str, str]] = {}
        self.renames: dict[str, str] = {}  # the file being expanded: identifier -> its name in the WGSL
        self.hoisted: list[tuple[int, bytes, int, int]] = []  # modules' global directives: (file, data, start, end)

    # -- driver -----------------------------------------------------------

    def run(self) -> Expansion:
        result = self.result
        try:
            self._file(self.main, (), is_main=True)
            while self.pending_modules:
                target, file, span = self.pending_modules.pop(0)
                self._module(target, file, span)
        except TooLarge:
            result.problems.append(Problem(0, Span(0, 0), RECURSIVE_MACRO.code,
                                           f"the expanded WGSL passed {MAX_OUTPUT_BYTES >> 20} MiB; expansion stopped"))
        if self.hoisted:
            self._hoist()
        result.data = b"".join(self.out.chunks)
        result.origins = self.out.origins
        result.origins.files = self.files
        for name in self.macros:
            result.definitions.setdefault(name, (0, Span(0, 0), self.macros[name]))
        return result

    def _index(self, path: Path | None) -> int:
        for index, known in enumerate(self.files):
            if known == path and path is not None:
                return index
        self.files.append(path)
        return len(self.files) - 1

    def _problem(self, file: int, span: Span, code: str, message: str) -> None:
        self.result.problems.append(Problem(file, span, code, message))

    # -- one file ---------------------------------------------------------

    def _file(self, template: TemplateFile, chain: tuple[Path, ...], is_main: bool, is_module: bool = False) -> None:
        file = self._index(template.path if not is_main else self.main_path)
        data = wesl.without_inactive_attributes(template.data, self._feature, lambda s, m: self._problem(
            file, s, BAD_DIRECTIVE.code, m)) if b"@" in template.data else template.data
        if b"#" in template.data:
            self.result.macro_names |= template.structure.macro_names
        stack: list[_Conditional] = []
        inactive_start: int | None = None
        in_comment = False
        lines = template.lines
        index = 0
        import_buffer: list[tuple[int, int, int]] | None = None
        while index < len(lines):
            start, end, after = lines[index]
            line_index = index
            index += 1
            active = not stack or stack[-1].active
            if import_buffer is not None:
                import_buffer.append((start, end, after))
                self.out.generated(file, b"\n" if after > end else b"", Span(end, end))
                if b";" in data[start:end]:
                    self._wesl_import(file, data, import_buffer)
                    import_buffer = None
                continue
            directive = _DIRECTIVE.match(data, start, end) if not in_comment else None
            if directive is not None and data[directive.end() : directive.end() + 1] != b"{":
                name = (directive.group(1) or b"").decode("ascii", "replace")
                rest_start = directive.end()
                was_active = active
                directive_data, directive_end = data, end
                if data[start:end].rstrip().endswith(b"\\"):
                    # A directive continued on the next lines: read it as one line, keep the line breaks.
                    joined = bytearray(data[:end])
                    while joined.rstrip().endswith(b"\\") and index < len(lines):
                        del joined[len(joined.rstrip()) - 1:]
                        next_start, next_end, next_after = lines[index]
                        index += 1
                        joined += b" " + data[next_start:next_end]
                        self.out.generated(file, b"\n", Span(next_end, next_end))
                        after = next_after
                    directive_data, directive_end = bytes(joined), len(joined)
                self._directive(file, directive_data, name, rest_start, directive_end, stack, chain, start, template)
                now_active = not stack or stack[-1].active
                if was_active and not now_active:
                    inactive_start = after
                elif not was_active and now_active and inactive_start is not None:
                    self.result.inactive.setdefault(file, []).append((inactive_start, start))
                    inactive_start = None
                if after > end and name not in ("include",) or (name == "include" and not was_active):
                    self.out.newlines(file, 1, end)
                top = stack[-1] if stack else None
                if top is not None and not top.active and top.parent_active:
                    # A branch this variant leaves out: jump to its #elif/#else/#endif (found once per file).
                    target = template.structure.next_branch.get(line_index, len(lines))
                    if target > index:
                        self._skip(template, file, index, target)
                        index = target
                continue
            if not active:
                if after > end:
                    self.out.newlines(file, 1, end)
                declared = _DECLARATION.match(data, start, end)
                if declared is not None:
                    self.result.inactive_declarations.add(declared.group(1).decode("ascii"))
                continue
            if wesl.starts_import(data, start, end) and not in_comment:
                import_buffer = [(start, end, after)]
                self.out.generated(file, b"\n" if after > end else b"", Span(end, end))
                if b";" in data[start:end]:
                    self._wesl_import(file, data, import_buffer)
                    import_buffer = None
                continue
            if is_module and _GLOBAL_DIRECTIVE.match(data, start, end) is not None:
                self.hoisted.append((file, data, start, end))
                self.out.newlines(file, 1 if after > end else 0, end)
                continue
            if not in_comment and data is template.data:
                names, special, opens_comment = template.line_names(line_index, _scan_line)
                if not special and (not self.macros or names.isdisjoint(self.macros)) and (
                        not self.renames or names.isdisjoint(self.renames)):
                    self.out.copy(file, data, start, end)  # nothing to expand: the common case
                    in_comment = opens_comment
                    if after > end:
                        self.out.copy(file, data, end, after)
                    continue
            in_comment = self._code_line(file, data, start, end, in_comment)
            if after > end:
                self.out.copy(file, data, end, after)
        if import_buffer is not None:
            self._wesl_import(file, data, import_buffer)
        if inactive_start is not None:
            self.result.inactive.setdefault(file, []).append((inactive_start, len(data)))
        for open_block in stack:
            self._problem(file, open_block.span, UNBALANCED_CONDITIONAL.code,
                          "this conditional block has no '#endif' before the end of the file")

    def _skip(self, template: TemplateFile, file: int, first: int, stop: int) -> None:
        lines = template.lines
        breaks = stop - first if lines[stop - 1][2] > lines[stop - 1][1] else stop - first - 1
        self.out.newlines(file, breaks, lines[first][0])
        declared = template.structure.declared
        import bisect
        position = bisect.bisect_left(declared, (first, ""))
        while position < len(declared) and declared[position][0] < stop:
            self.result.inactive_declarations.add(declared[position][1])
            position += 1

    # -- directives -------------------------------------------------------

    def _directive(self, file, data, name, rest_start, end, stack, chain, line_start, template) -> None:
        rest = data[rest_start:end].decode("utf-8", "replace")
        rest = _strip_comment(rest)
        span = Span(line_start + (len(data[line_start:end]) - len(data[line_start:end].lstrip())), end)
        active = not stack or stack[-1].active
        if name == "else" and rest.strip().startswith(("ifdef", "ifndef", "if ")):
            # naga_oil: `#else ifdef NAME` is an `#elif defined(NAME)`.
            word, _, tail = rest.strip().partition(" ")
            rest = {"ifdef": f"defined({tail.strip()})", "ifndef": f"!defined({tail.strip()})"}.get(word, tail)
            name = "elif"
        if name in ("ifdef", "ifndef"):
            macro = rest.strip()
            if not _IDENT.fullmatch(macro):
                self._problem(file, span, BAD_DIRECTIVE.code, f"'#{name}' needs one macro name")
                macro = ""
            self.result.macro_names.add(macro)
            truth = (macro in self.macros) == (name == "ifdef")
            stack.append(_Conditional(active, active and truth, truth, span))
        elif name == "if":
            truth = self._condition(file, span, rest) if active else False
            stack.append(_Conditional(active, active and truth, truth, span))
        elif name == "elif":
            if not stack or stack[-1].seen_else:
                self._problem(file, span, UNBALANCED_CONDITIONAL.code,
                              "'#elif' without an open '#if'" if not stack else "'#elif' after '#else'")
                return
            top = stack[-1]
            truth = not top.taken and top.parent_active and self._condition(file, span, rest)
            top.active = top.parent_active and truth
            top.taken = top.taken or truth
        elif name == "else":
            if not stack or stack[-1].seen_else:
                self._problem(file, span, UNBALANCED_CONDITIONAL.code,
                              "'#else' without an open '#if'" if not stack else "a second '#else' in one block")
                return
            top = stack[-1]
            top.active = top.parent_active and not top.taken
            top.taken, top.seen_else = True, True
        elif name == "endif":
            if not stack:
                self._problem(file, span, UNBALANCED_CONDITIONAL.code, "'#endif' without an open '#if'")
                return
            stack.pop()
        elif not active:
            if name in ("define", "undef"):
                found = re.match(r"\s*([A-Za-z_]\w*)", rest)
                if found is not None:
                    self.result.macro_names.add(found.group(1))
            return
        elif name == "define":
            match = re.match(r"\s*([A-Za-z_]\w*)(\()?\s*(.*)$", rest)
            if match is None:
                self._problem(file, span, BAD_DIRECTIVE.code, "'#define' needs a macro name")
                return
            macro, function_like, value = match.group(1), match.group(2), match.group(3).strip()
            if function_like:
                self._problem(file, span, BAD_DIRECTIVE.code,
                              f"'{macro}' is a function-like macro; coop-lint expands object-like macros only")
                return
            self.result.macro_names.add(macro)
            if macro in self.given and self.override:
                return  # the program's define wins over the file's default
            self.macros[macro] = value
            self._expanded.clear()
            self.result.definitions[macro] = (file, span, value)
        elif name == "undef":
            macro = rest.strip()
            self.result.macro_names.add(macro)
            if not (macro in self.given and self.override):
                self.macros.pop(macro, None)
                self._expanded.clear()
                self.result.definitions.pop(macro, None)
        elif name == "include":
            self._include(file, data, rest_start, end, span, chain, template)
        elif name == "import":
            self._naga_import(file, span, rest)
        elif name == "define_import_path":
            if file == 0:
                self.aliases.setdefault(rest.strip().split("::")[-1], rest.strip())
        elif name == "param":
            # ONNX Runtime's templates declare the values their program passes: macros of the variant.
            self.result.macro_names.update(_IDENT.findall(rest)[:1])
        elif name in ("pragma", "version", "extension", "line", "error", "warning"):
            if name == "error":
                self._problem(file, span, BAD_DIRECTIVE.code, f"#error {rest.strip()}")
        else:
            self._problem(file, span, BAD_DIRECTIVE.code, f"unknown directive '#{name}'")

    def _condition(self, file: int, span: Span, text: str) -> bool:
        for name in _IDENT.findall(text):
            if name not in ("defined", "true", "false"):
                self.result.macro_names.add(name)
        # A bound method, not a closure calling itself: that would be a reference cycle holding the expander.
        value_of = partial(self._macro_value, [0])

        try:
            return evaluate(text, self.macros.__contains__, value_of)
        except (ExpressionError, RecursionError) as error:
            self._problem(file, span, BAD_DIRECTIVE.code, f"cannot evaluate '#if {text.strip()}': {error}")
            return False

    def _macro_value(self, depth: list[int], name: str):
        """An `#if` operand's value: a macro's text evaluated in its turn (0 for a name not defined)."""
        if name not in self.macros:
            return 0
        depth[0] += 1
        if depth[0] > MAX_EXPANSION_DEPTH:
            raise ExpressionError(f"'{name}' expands too deeply")
        try:
            return value_of_text(self.macros[name], self.macros.__contains__, partial(self._macro_value, depth))
        finally:
            depth[0] -= 1

    def _include(self, file, data, rest_start, end, span, chain, template: TemplateFile) -> None:
        match = _INCLUDE.match(data, rest_start, end)
        if match is None:
            self._problem(file, span, BAD_DIRECTIVE.code, "'#include' needs a file name in quotes")
            self.out.generated(file, b"\n", Span(end, end))
            return
        name = (match.group(1) or match.group(2)).decode("utf-8", "replace")
        name_span = Span(match.start(1) if match.group(1) is not None else match.start(2),
                         match.end(1) if match.group(1) is not None else match.end(2))
        base = template.path.parent if template.path is not None else Path.cwd()
        found = outside = None
        for folder in (base, *self.include_dirs):
            candidate = (folder / name)
            if not self.inside(candidate):
                outside = outside or candidate
                continue
            included = self.cache.get(candidate)
            if included is not None:
                found = included
                break
        if found is None and outside is not None:
            self._problem(file, name_span, PATH_OUTSIDE_WORKSPACE.code, self.outside_message(f"'{name}'"))
            self.out.generated(file, b"\n", Span(end, end))
            return
        if found is None:
            searched = ", ".join(str(f) for f in (base, *self.include_dirs))
            self._problem(file, name_span, MISSING_INCLUDE.code, f"cannot find '{name}' (searched: {searched})")
            self.out.generated(file, b"\n", Span(end, end))
            return
        self.result.links.append(Link(file, name_span, found.path))
        current = template.path
        if found.path in chain or found.path == current or len(chain) >= MAX_INCLUDE_DEPTH:
            self._problem(file, name_span, INCLUDE_CYCLE.code,
                          f"'{name}' is already being included here: an include cycle"
                          if len(chain) < MAX_INCLUDE_DEPTH else f"includes nest deeper than {MAX_INCLUDE_DEPTH}")
            self.out.generated(file, b"\n", Span(end, end))
            return
        self._file(found, chain + ((current,) if current is not None else ()), is_main=False)
        if found.data and not found.data.endswith(b"\n"):
            self.out.generated(file, b"\n", Span(end, end))

    # -- the workspace ----------------------------------------------------

    def inside(self, path: Path) -> bool:
        """Whether `path`, with `..` and symbolic links followed, is in one of the folders files are read
        from; checked before a file is read, so nothing outside is read or echoed."""
        resolved = path.resolve()
        return any(resolved.is_relative_to(root) for root in self.roots)

    def outside_message(self, what: str) -> str:
        return (f"{what} leaves the workspace ({self.roots[0]}) through '..' or a symbolic link: not read; "
                "only files inside it or an include folder given with -I are read")

    # -- imports ----------------------------------------------------------

    def _feature(self, name: str) -> bool:
        self.result.macro_names.add(name)
        value = self.macros.get(name)
        return value is not None and value.strip().lower() not in ("false", "0")

    # -- code -------------------------------------------------------------

    def _code_line(self, file: int, data: bytes, start: int, end: int, in_comment: bool) -> bool:
        """Copies one line of code, expanding what it names; returns whether a block comment stays open."""
        pos = start
        out = self.out
        scan = start
        if in_comment:
            close = data.find(b"*/", start, end)
            if close == -1:
                out.copy(file, data, start, end)
                return True
            scan = close + 2
        macros = self.macros
        while True:
            match = _CODE_TOKEN.search(data, scan, end)
            if match is None:
                break
            group = match.lastindex
            if group == 6:  # a line comment: nothing after it is code
                break
            if group == 7:
                close = data.find(b"*/", match.end(), end)
                if close == -1:
                    out.copy(file, data, pos, end)
                    return True
                scan = close + 2
                continue
            scan = match.end()
            token_span = Span(match.start(), match.end())
            if group in (1, 2, 3):
                name = match.group(group).decode("ascii")
                self.result.macro_names.add(name)
                out.copy(file, data, pos, match.start())
                pos = match.end()
                value = macros.get(name)
                if value is None:
                    self._problem(file, token_span, PLACEHOLDER_WITHOUT_VALUE.code,
                                  f"'{match.group(0).decode()}' has no value in this variant (give it one with "
                                  f"-D {name}=VALUE or in the variant sets)")
                    out.generated(file, name.encode(), token_span, unresolved=True)
                else:
                    out.generated(file, self._expand_text(name, value, file, token_span).encode(), token_span)
                continue
            if group == 4:
                path = re.sub(rb"\s+", b"", match.group(4)).decode("ascii")
                last = self._qualified(path, file, token_span)
                out.copy(file, data, pos, match.start())
                out.generated(file, last.encode(), token_span)
                pos = match.end()
                continue
            if not macros and not self.renames:
                continue
            name = match.group(5).decode("ascii")
            value = macros.get(name)
            if value is None:
                renamed = self.renames.get(name)
                if renamed is not None and data[match.start() - 1 : match.start()] not in (b".", b"@") \
                        and not _MEMBER_DECLARATION.match(data, match.end(), end):
                    # Not an attribute (`@fragment`), a member access or a member declared `name: type`.
                    out.copy(file, data, pos, match.start())
                    pos = match.end()
                    out.generated(file, renamed.encode(), token_span)
                continue
            out.copy(file, data, pos, match.start())
            pos = match.end()
            expanded = self._expand_text(name, value, file, token_span)
            self.result.macro_uses.append(MacroUse(file, token_span, name, expanded))
            out.generated(file, expanded.encode(), token_span)
        out.copy(file, data, pos, end)
        return False

    def _expand_text(self, name: str, value: str, file: int, span: Span) -> str:
        """A macro's value with the macros it names expanded; a name is not expanded inside itself."""
        cached = self._expanded.get(name)
        if cached is not None and cached[0] == value:
            return cached[1]
        problems = len(self.result.problems)
        expanded = self._expand_uncached(name, value, file, span)
        if len(self.result.problems) == problems:  # a faulty macro is reported at each use
            self._expanded[name] = (value, expanded)
        return expanded

    def _expand_uncached(self, name: str, value: str, file: int, span: Span) -> str:
        return self._expand_within(name, file, span, [MAX_EXPANSION_DEPTH * 64], value, frozenset({name}), 1)

    def _expand_within(self, name: str, file: int, span: Span, budget: list[int], text: str,
                       active: frozenset[str], depth: int) -> str:
        """`text` with the macros it names expanded, for the expansion of `name` (a method calling itself
        rather than a closure: that would be a reference cycle holding the expander)."""
        if depth > MAX_EXPANSION_DEPTH or budget[0] <= 0:
            self._problem(file, span, RECURSIVE_MACRO.code,
                          f"expanding '{name}' went past {MAX_EXPANSION_DEPTH} levels; expansion stopped")
            budget[0] = 0
            return text

        def one(match: re.Match) -> str:
            inner = match.group(0)
            if inner in active:
                if inner == name:
                    self._problem(file, span, RECURSIVE_MACRO.code,
                                  f"'{name}' expands to itself; the name is left unexpanded")
                return inner
            replacement = self.macros.get(inner)
            if replacement is None:
                return inner
            budget[0] -= 1
            return self._expand_within(name, file, span, budget, replacement, active | {inner}, depth + 1)

        return _IDENT.sub(one, text)


def _scan_line(data: bytes, start: int, end: int) -> tuple[frozenset[str], bool, bool]:
    names: set[str] = set()
    scan = start
    while True:
        match = _CODE_TOKEN.search(data, scan, end)
        if match is None or match.lastindex == 6:
            return frozenset(names), False, False
        group = match.lastindex
        if group == 7:
            close = data.find(b"*/", match.end(), end)
            if close == -1:
                return frozenset(names), False, True
            scan = close + 2
            continue
        if group != 5:
            return frozenset(names), True, False
        names.add(match.group(5).decode("ascii"))
        scan = match.end()


def _strip_comment(text: str) -> str:
    cut = text.find("//")
    if cut != -1:
        text = text[:cut]
    return re.sub(r"/\*.*?\*/", " ", text)
