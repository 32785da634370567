"""WGSL embedded in Python, JavaScript/TypeScript and Rust source.

The convention (docs/embedded.md): a tag comment right before a string
literal marks the string as WGSL.

    /* wgsl */ `...`          // wgsl      r#"..."#      # wgsl
    wgsl`...`                 (a JS tagged template named wgsl)

`language=wgsl` (the JetBrains injection comment) is a tag too. Between the
tag and the string there may be only white space, or the start of an
assignment whose value is the string (`const SHADER: &str =`,
`SHADER = (`). A small scanner per language skips comments and other
strings, so a tag inside a string is not one. Positions come back in the
host file: every byte of the WGSL text keeps the offset it came from, which
also covers escape sequences in ordinary strings.

JS template literals with `${...}` substitutions and Python f-strings are
skipped: their text is only known at run time, unless the variant gives the
interpolated names values (-D or variant sets; docs/templates.md).

It lives in the source layer because finding strings is a matter of the host
file's text, not of WGSL: the linter and the formatter both read it, and neither
has to import the other for it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from ..core.diagnostic import Diagnostic, Edit, Fix, Related
from ..core.text import Span

LANGUAGES = {".py": "python", ".pyi": "python", ".js": "js", ".mjs": "js", ".cjs": "js", ".jsx": "js",
             ".ts": "js", ".mts": "js", ".cts": "js", ".tsx": "js", ".rs": "rust"}
# The folder walk picks these up with --hosts (or `hosts = true`).
HOST_SUFFIXES = frozenset({".py", ".js", ".ts", ".rs"})

_TAG = re.compile(rb"^\s*(?:wgsl|language\s*=\s*wgsl)\s*$", re.IGNORECASE)
# What may stand between a tag and its string: an assignment's left side.
_BRIDGE = re.compile(
    rb"\s*(?:(?:(?:pub(?:\([^)]*\))?|export|const|let|var|static|mut)\s+)*"
    rb"[A-Za-z_$][\w$.]*\s*(?::[^=\n;]*)?=(?!=)\s*)?\(?\s*")


@dataclass(frozen=True, slots=True)
class Embedded:
    """One WGSL string in a host file."""

    start: int  # host byte offset of the first content byte
    end: int  # host byte offset of the closing delimiter
    content: bytes
    offsets: tuple[int, ...] | None  # host offset of each content byte (and one past); None: verbatim
    forbidden: bytes  # what a fix may not write into this literal (its delimiters, escapes)
    skipped: str | None = None  # why it is not linted
    # "python" (an f-string) or "js" (a template literal with ${...}): lintable once the names have values
    interpolation: str | None = None

    def to_host(self, offset: int) -> int:
        offset = max(0, min(offset, len(self.content)))
        if self.offsets is None:
            return self.start + offset
        return self.offsets[offset]

    def map_diagnostic(self, diagnostic: Diagnostic) -> Diagnostic:
        span = Span(self.to_host(diagnostic.span.start), self.to_host(diagnostic.span.end))
        related = tuple(Related(Span(self.to_host(r.span.start), self.to_host(r.span.end)), r.message)
                        for r in diagnostic.related)
        fixes = tuple(fix for fix in (self._map_fix(f) for f in diagnostic.fixes) if fix is not None)
        return replace(diagnostic, span=span, related=related, fixes=fixes)

    def _map_fix(self, fix: Fix) -> Fix | None:
        # Only where the literal holds the WGSL verbatim, and the new text
        # needs no escaping in it.
        if self.offsets is not None:
            return None
        for edit in fix.edits:
            data = edit.new_text.encode()
            if any(ch in data for ch in self.forbidden):
                return None
        return Fix(fix.title, tuple(Edit(Span(self.to_host(e.span.start), self.to_host(e.span.end)), e.new_text)
                                    for e in fix.edits), fix.safe)


def language_of(suffix: str) -> str | None:
    return LANGUAGES.get(suffix.lower())


def find_embedded(data: bytes, language: str) -> list[Embedded]:
    scanner = _Scanner(data, language)
    return scanner.run()


class _Scanner:
    def __init__(self, data: bytes, language: str) -> None:
        self.data = data
        self.language = language
        self.found: list[Embedded] = []
        self.pending_tag_end: int | None = None  # end of the last tag comment

    def run(self) -> list[Embedded]:
        data, n, i = self.data, len(self.data), 0
        lang = self.language
        while i < n:
            ch = data[i]
            if lang == "python" and ch == 0x23:  # '#'
                end = _line_end(data, i)
                self._comment(data[i + 1 : end], end)
                i = end
            elif lang != "python" and data.startswith(b"//", i):
                end = _line_end(data, i)
                self._comment(data[i + 2 : end], end)
                i = end
            elif lang != "python" and data.startswith(b"/*", i):
                end = self._block_comment_end(i)
                self._comment(data[i + 2 : end - 2] if end - i >= 4 else b"", end)
                i = end
            elif ch in (0x22, 0x27, 0x60) or (ch == 0x72 and lang == "rust" and _raw_rust_start(data, i)):
                if lang == "rust" and ch == 0x27:
                    i = _skip_rust_char(data, i)
                    continue
                if lang == "js" and ch == 0x60 and self._tagged_template(i):
                    self.pending_tag_end = i
                i = self._string(i, prefix=b"")
            elif ch == 0x2F and lang == "js" and self._regex_allowed(i):  # '/': a regex literal
                i = _skip_regex(data, i)
            elif _is_ident_start(ch):
                j = i
                while j < n and _is_ident(data[j]):
                    j += 1
                word = data[i:j]
                if j < n and data[j] in (0x22, 0x27) and self._is_prefix(word, data[j]):
                    i = self._string(j, prefix=word.lower())
                elif lang == "rust" and j < n and word in (b"r", b"br") and _raw_rust_start(data, j - 1):
                    i = self._string(j - 1, prefix=b"b" if word == b"br" else b"")
                else:
                    i = j
            else:
                i += 1
        return self.found

    # -- tags ------------------------------------------------------------

    def _comment(self, text: bytes, end: int) -> None:
        self.pending_tag_end = end if _TAG.match(text) else None

    def _tag_applies(self, string_start: int) -> bool:
        tag_end = self.pending_tag_end
        self.pending_tag_end = None
        if tag_end is None:
            return False
        bridge = _BRIDGE.match(self.data, tag_end, string_start)
        return bridge is not None and bridge.end() == string_start

    def _tagged_template(self, i: int) -> bool:
        j = i
        while j > 0 and self.data[j - 1] in b" \t":
            j -= 1
        return self.data[max(0, j - 4) : j] == b"wgsl" and (j < 5 or not _is_ident(self.data[j - 5]))

    # -- strings ---------------------------------------------------------

    def _is_prefix(self, word: bytes, quote: int) -> bool:
        lower = word.lower()
        if self.language == "python":
            return lower in (b"r", b"u", b"b", b"f", b"rb", b"br", b"fr", b"rf", b"t", b"tr", b"rt")
        if self.language == "rust":
            return word == b"b" and quote == 0x22 or word in (b"c",) and quote == 0x22
        return False

    def _string(self, i: int, prefix: bytes) -> int:
        """Scans the string literal at `i` (its opening delimiter); returns the offset after it."""
        data, lang = self.data, self.language
        tagged_start = i - len(prefix)
        raw = b"r" in prefix
        if lang == "rust" and data[i] == 0x72:  # r"..." r#"..."#
            j = i + 1
            while j < len(data) and data[j] == 0x23:
                j += 1
            hashes = j - i - 1
            closing = b'"' + b"#" * hashes
            content_start = j + 1
            end = data.find(closing, content_start)
            end = len(data) if end == -1 else end
            after = min(len(data), end + len(closing))
            self._found(tagged_start, content_start, end, None, closing, raw=True)
            return after
        quote = data[i : i + 1]
        if lang == "python" and data.startswith(quote * 3, i):
            delimiter = quote * 3
        else:
            delimiter = quote
        content_start = i + len(delimiter)
        multiline = len(delimiter) == 3 or lang == "rust" or quote == b"`"
        end, substitution = self._string_end(content_start, delimiter, raw, multiline)
        after = min(len(data), end + len(delimiter))
        skipped = interpolation = None
        if b"f" in prefix or b"t" in prefix:
            skipped = "an f-string: its text is only known at run time"
            interpolation = "python" if b"f" in prefix else None
        elif substitution:
            skipped = "a template literal with ${...}: its text is only known at run time"
            interpolation = "js"
        forbidden = delimiter[:1] + b"\\" + (b"$" if quote == b"`" else b"") + (b"" if multiline else b"\n")
        self._found(tagged_start, content_start, end, forbidden, delimiter, raw=raw, skipped=skipped,
                    interpolation=interpolation)
        return after

    def _string_end(self, i: int, delimiter: bytes, raw: bool, multiline: bool) -> tuple[int, bool]:
        data, n = self.data, len(self.data)
        substitution = False
        while i < n:
            ch = data[i]
            if ch == 0x5C:  # backslash: in raw Python strings it still keeps the quote
                i += 2
                continue
            if data.startswith(delimiter, i):
                return i, substitution
            if ch == 0x0A and not multiline:
                return i, substitution
            if delimiter == b"`" and data.startswith(b"${", i):
                substitution = True
                i = self._skip_substitution(i + 2)
                continue
            i += 1
        return n, substitution

    def _skip_substitution(self, i: int) -> int:
        depth, data, n = 1, self.data, len(self.data)
        while i < n and depth:
            ch = data[i]
            if ch in (0x22, 0x27, 0x60):
                saved = self.found, self.pending_tag_end
                self.found = []
                i = self._string(i, b"")
                self.found, self.pending_tag_end = saved
                continue
            depth += ch == 0x7B
            depth -= ch == 0x7D
            i += 1
        return i

    def _found(self, tagged_start: int, start: int, end: int, forbidden: bytes | None, delimiter: bytes,
               raw: bool, skipped: str | None = None, interpolation: str | None = None) -> None:
        if not self._tag_applies(tagged_start):
            return
        body = self.data[start:end]
        if raw or b"\\" not in body:
            content, offsets = body, None
        else:
            content, offsets = _unescape(body, start, self.language)
        self.found.append(Embedded(start, end, content, offsets, forbidden if forbidden is not None else delimiter,
                                   skipped, interpolation))

    # -- other tokens ------------------------------------------------------

    def _block_comment_end(self, i: int) -> int:
        data, n = self.data, len(self.data)
        if self.language != "rust":
            end = data.find(b"*/", i + 2)
            return n if end == -1 else end + 2
        depth, j = 0, i
        while j < n:
            if data.startswith(b"/*", j):
                depth += 1
                j += 2
            elif data.startswith(b"*/", j):
                depth -= 1
                j += 2
                if depth == 0:
                    return j
            else:
                j += 1
        return n

    def _regex_allowed(self, i: int) -> bool:
        j = i - 1
        while j >= 0 and self.data[j] in b" \t\r\n":
            j -= 1
        if j < 0:
            return True
        if self.data[j : j + 1] in (b"/", b"*"):
            return False
        return self.data[j] in b"(,=:[!&|?{};+-%<>~^" or self.data[max(0, j - 5) : j + 1].endswith(b"return")


def _line_end(data: bytes, i: int) -> int:
    end = data.find(b"\n", i)
    return len(data) if end == -1 else end


def _is_ident_start(ch: int) -> bool:
    return ch == 0x5F or 0x41 <= ch <= 0x5A or 0x61 <= ch <= 0x7A or ch == 0x24 or ch >= 0x80


def _is_ident(ch: int) -> bool:
    return _is_ident_start(ch) or 0x30 <= ch <= 0x39


def _raw_rust_start(data: bytes, i: int) -> bool:
    if data[i] != 0x72 or (i > 0 and _is_ident(data[i - 1]) and data[i - 1 : i] != b"b"):
        return False
    j = i + 1
    while j < len(data) and data[j] == 0x23:
        j += 1
    return j < len(data) and data[j] == 0x22


def _skip_rust_char(data: bytes, i: int) -> int:
    """A char literal ('a', '\\n', 'é') or a lifetime ('a): returns the offset after it."""
    if data.startswith(b"\\", i + 1):
        end = data.find(b"'", i + 3)
        return i + 1 if end == -1 or end - i > 12 else end + 1
    if i + 1 < len(data):
        first = data[i + 1]
        width = 1 if first < 0x80 else 2 if first < 0xE0 else 3 if first < 0xF0 else 4
        if data[i + 1 + width : i + 2 + width] == b"'":
            return i + 2 + width
    return i + 1


def _skip_regex(data: bytes, i: int) -> int:
    j, in_class = i + 1, False
    while j < len(data) and data[j] != 0x0A:
        ch = data[j]
        if ch == 0x5C:
            j += 2
            continue
        if ch == 0x5B:
            in_class = True
        elif ch == 0x5D:
            in_class = False
        elif ch == 0x2F and not in_class:
            return j + 1
        j += 1
    return i + 1  # not a regex after all: a division


_SIMPLE_ESCAPES = {ord("n"): b"\n", ord("t"): b"\t", ord("r"): b"\r", ord("\\"): b"\\", ord("'"): b"'",
                   ord('"'): b'"', ord("`"): b"`", ord("0"): b"\0", ord("a"): b"\a", ord("b"): b"\b",
                   ord("f"): b"\f", ord("v"): b"\v", ord("$"): b"$"}


def _unescape(body: bytes, base: int, language: str) -> tuple[bytes, tuple[int, ...]]:
    """Decodes escape sequences; each output byte remembers the host offset of what produced it."""
    out = bytearray()
    offsets: list[int] = []
    i, n = 0, len(body)
    while i < n:
        ch = body[i]
        if ch != 0x5C or i + 1 >= n:
            out.append(ch)
            offsets.append(base + i)
            i += 1
            continue
        nxt = body[i + 1]
        produced = b""
        length = 2
        if nxt == 0x0A or (nxt == 0x0D and body[i + 2 : i + 3] == b"\n"):  # line continuation
            length = 2 if nxt == 0x0A else 3
            if language == "rust":
                while i + length < n and body[i + length] in b" \t\r\n":
                    length += 1
        elif nxt == ord("x") and re.fullmatch(rb"[0-9a-fA-F]{2}", body[i + 2 : i + 4]):
            produced, length = chr(int(body[i + 2 : i + 4], 16)).encode(), 4
        elif nxt == ord("u") and body[i + 2 : i + 3] == b"{":
            close = body.find(b"}", i + 3)
            try:
                produced, length = chr(int(body[i + 3 : close], 16)).encode("utf-8", "surrogatepass"), close - i + 1
            except ValueError:
                produced = body[i : i + 2]
        elif nxt in (ord("u"), ord("U")) and language in ("python", "js"):
            width = 4 if nxt == ord("u") else 8
            digits = body[i + 2 : i + 2 + width]
            if re.fullmatch(rb"[0-9a-fA-F]+", digits) and len(digits) == width:
                produced, length = chr(int(digits, 16)).encode("utf-8", "surrogatepass"), 2 + width
            else:
                produced = body[i : i + 2]
        elif nxt in _SIMPLE_ESCAPES:
            produced = _SIMPLE_ESCAPES[nxt]
        else:
            # Unknown escapes: Python keeps the backslash, JS drops it.
            produced = body[i + 1 : i + 2] if language == "js" else body[i : i + 2]
        out += produced
        offsets.extend([base + i] * len(produced))
        i += length
    offsets.append(base + n)
    return bytes(out), tuple(offsets)
