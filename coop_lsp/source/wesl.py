"""WESL: `import` statements and `@if` / `@elif` / `@else` conditional translation.

Modules are files: `package::a::b` is `<root>/a/b.wesl` (or `.wgsl`), where the root is `root` of the
nearest `wesl.toml` (default: its folder) or, without one, the linted file's folder; `super::x` is `x`
beside the current file. An import names a module or an item of a module; either way the module's text
joins the WGSL once, and `module::item` references become `item`.

`@if(expr)` takes features from the variant's defines: a feature is on when it is defined and its value
is not `false` or `0`. An element whose condition is false is blanked (same length, line breaks kept),
so that positions in the file stay what they were.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Callable
from pathlib import Path

from ..core.text import Span

_IMPORT_START = re.compile(rb"[ \t]*import[ \t]+[A-Za-z_{]")
_CONDITION = re.compile(rb"@(if|elif|else)\b")
_EXTENSIONS = (".wesl", ".wgsl")


def starts_import(data: bytes, start: int, end: int) -> bool:
    return data.startswith(b"import", start + len(data[start:end]) - len(data[start:end].lstrip())) and \
        _IMPORT_START.match(data, start, end) is not None


def package_root(path: Path | None, within: tuple[Path, ...] = ()) -> Path | None:
    """The package root of `path`'s `wesl.toml`; with `within`, a wesl.toml is looked for only in those
    folders (the workspace), not in the folders above it, which are not the repository's."""
    if path is None:
        return None
    for folder in path.parents:
        if within and not any(folder.is_relative_to(root) for root in within):
            break
        config = folder / "wesl.toml"
        if config.is_file():
            try:
                with open(config, "rb") as handle:
                    package = tomllib.load(handle).get("package", {})
            except (OSError, tomllib.TOMLDecodeError, UnicodeDecodeError):
                package = {}
            root = package.get("root") if isinstance(package, dict) else None
            return (folder / root) if isinstance(root, str) else folder
    return path.parent


def import_paths(text: str) -> list[tuple[list[str], str]]:
    """The module paths of one `import ...;` statement, each with the name it makes visible."""
    body = re.sub(r"//[^\n]*|/\*.*?\*/", " ", text, flags=re.S).strip()
    if not body.startswith("import"):
        raise ValueError("expected 'import'")
    body = body[len("import"):].strip().rstrip(";").strip()
    tokens = re.findall(r"[A-Za-z_]\w*|::|[{},]", body)
    if "".join(tokens).replace("as", "") != re.sub(r"\s+", "", body).replace("as", ""):
        raise ValueError(f"unexpected text in '{body[:40]}'")
    paths: list[tuple[list[str], str]] = []
    position = _tree(tokens, 0, [], paths)
    if position != len(tokens):
        raise ValueError("unexpected text after the import path")
    return paths


def _tree(tokens: list[str], i: int, prefix: list[str], out: list) -> int:
    segments = list(prefix)
    while i < len(tokens):
        token = tokens[i]
        if token == "{":
            i += 1
            while i < len(tokens) and tokens[i] != "}":
                i = _tree(tokens, i, segments, out)
                if i < len(tokens) and tokens[i] == ",":
                    i += 1
            if i >= len(tokens):
                raise ValueError("unclosed '{'")
            return i + 1
        if not re.fullmatch(r"[A-Za-z_]\w*", token):
            raise ValueError(f"unexpected '{token}'")
        segments.append(token)
        i += 1
        if i < len(tokens) and tokens[i] == "::":
            i += 1
            continue
        alias = segments[-1]
        if i + 1 < len(tokens) and tokens[i] == "as":
            alias = tokens[i + 1]
            i += 2
        out.append((segments, alias))
        return i
    raise ValueError("incomplete import path")


def resolve(segments: list[str], current: Path | None, root: Path | None) -> tuple[Path, str | None] | None:
    """(module file, item or None) for a path; tries the whole path as a module, then all but the last."""
    if not segments or root is None:
        return None
    if segments[0] == "package":
        base, rest = root, segments[1:]
    elif segments[0] == "super":
        base = current.parent if current is not None else root
        rest = segments[1:]
        while rest and rest[0] == "super":
            base, rest = base.parent, rest[1:]
    else:
        base, rest = root, segments  # a module of this package named without `package::`
    for cut, item in ((len(rest), None), (len(rest) - 1, rest[-1] if rest else None)):
        if cut <= 0:
            continue
        for extension in _EXTENSIONS:
            candidate = base.joinpath(*rest[:cut]).with_suffix(extension)
            if candidate.is_file() and (current is None or candidate.resolve() != current.resolve()):
                return candidate, item
    return None


# -- @if ---------------------------------------------------------------------

def without_inactive_attributes(data: bytes, feature: Callable[[str], bool],
                                report: Callable[[Span, str], None]) -> bytes:
    """`data` with each `@if/@elif/@else` attribute blanked, and the element blanked too where its
    condition is false. Same length as `data`."""
    if _CONDITION.search(data) is None:
        return data
    out = bytearray(data)
    previous_taken: bool | None = None  # whether the chain before an @elif/@else took an element
    position = 0
    comments = _comment_ranges(data)
    for match in _CONDITION.finditer(data):
        if match.start() < position:
            continue  # inside an element already blanked
        if _inside(comments, match.start()):
            continue
        kind = match.group(1).decode()
        cursor = match.end()
        condition = True
        if kind in ("if", "elif"):
            close = _balanced(data, cursor)
            if close is None:
                report(Span(match.start(), match.end()), f"'@{kind}' needs a condition in parentheses")
                continue
            text = data[cursor:close].decode("utf-8", "replace").strip()[1:-1]
            try:
                condition = _feature_expression(text, feature)
            except ValueError as error:
                report(Span(match.start(), close), f"cannot read '@{kind}({text})': {error}")
                condition = False
            cursor = close
        if kind == "if":
            take = condition
            previous_taken = take
        else:
            if previous_taken is None:
                report(Span(match.start(), cursor), f"'@{kind}' must follow an element with '@if' or '@elif'")
                previous_taken = False
            take = not previous_taken and condition
            previous_taken = previous_taken or take
        _blank(out, match.start(), cursor)
        if not take:
            element_end = _element_end(data, cursor)
            _blank(out, cursor, element_end)
            position = element_end
        if kind == "else":
            previous_taken = None
    return bytes(out)


_COMMENT = re.compile(rb"//[^\n]*|/\*.*?(?:\*/|\Z)", re.S)


def _comment_ranges(data: bytes) -> list[tuple[int, int]]:
    return [(m.start(), m.end()) for m in _COMMENT.finditer(data)]


def _inside(ranges: list[tuple[int, int]], offset: int) -> bool:
    import bisect
    index = bisect.bisect_right(ranges, (offset, 1 << 62)) - 1
    return index >= 0 and ranges[index][0] <= offset < ranges[index][1]


def _blank(out: bytearray, start: int, end: int) -> None:
    for i in range(start, end):
        if out[i] not in (0x0A, 0x0D):
            out[i] = 0x20


def _balanced(data: bytes, i: int) -> int | None:
    while i < len(data) and data[i] in b" \t\r\n":
        i += 1
    if i >= len(data) or data[i] != 0x28:
        return None
    depth = 0
    for j in range(i, min(len(data), i + 4096)):
        if data[j] == 0x28:
            depth += 1
        elif data[j] == 0x29:
            depth -= 1
            if depth == 0:
                return j + 1
    return None


def _element_end(data: bytes, i: int) -> int:
    """Where the declaration, statement or member that starts at `i` ends (after its ';', ',' or '}')."""
    depth = 0
    n = len(data)
    while i < n:
        ch = data[i]
        if data.startswith(b"//", i):
            nl = data.find(b"\n", i)
            i = n if nl == -1 else nl
            continue
        if data.startswith(b"/*", i):
            close = data.find(b"*/", i + 2)
            i = n if close == -1 else close + 2
            continue
        if ch in b"([":
            depth += 1
        elif ch in b")]":
            depth -= 1
        elif ch == 0x7B:  # '{'
            depth += 1
        elif ch == 0x7D:  # '}'
            if depth == 0:
                return i  # the end of the enclosing block: a last member without ','
            depth -= 1
            if depth == 0 and not _continues(data, i + 1):
                return i + 1
        elif ch in b";," and depth == 0:
            return i + 1
        i += 1
    return n


def _continues(data: bytes, i: int) -> bool:
    """After a '}': an `else` or a `;` still belongs to the element."""
    rest = data[i : i + 64].lstrip()
    return rest.startswith(b"else") or rest.startswith(b";") or rest.startswith(b"continuing")


def _feature_expression(text: str, feature: Callable[[str], bool]) -> bool:
    tokens = re.findall(r"[A-Za-z_]\w*|&&|\|\||!|\(|\)|\S", text)
    position = [0]

    def peek():
        return tokens[position[0]] if position[0] < len(tokens) else None

    def take():
        token = peek()
        position[0] += 1
        return token

    def primary() -> bool:
        token = take()
        if token == "!":
            return not primary()
        if token == "(":
            value = disjunction()
            if take() != ")":
                raise ValueError("expected ')'")
            return value
        if token == "true":
            return True
        if token == "false":
            return False
        if token is not None and re.fullmatch(r"[A-Za-z_]\w*", token):
            return feature(token)
        raise ValueError("expected a feature name")

    def conjunction() -> bool:
        value = primary()
        while peek() == "&&":
            take()
            value = primary() and value
        return value

    def disjunction() -> bool:
        value = conjunction()
        while peek() == "||":
            take()
            value = conjunction() or value
        return value

    result = disjunction()
    if peek() is not None:
        raise ValueError(f"unexpected '{peek()}'")
    return result
