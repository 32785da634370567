"""Prints left in a kernel, and prints whose format does not match their values.

`// coop: print "fmt", args...` comments (and `coop: watch`, and naga's `debugPrintf("fmt", args...)`) are
what `coop-lint run` instruments (coop_lsp/runner/debug_print.py); they cost nothing in a build, but a
kernel shipped with them still
carries debugging intent, and a print whose conversions disagree with its values would read garbage
back. The format's grammar and the conversion table live here, below the runner, which reuses them.
"""

from __future__ import annotations

import re

import tree_sitter as ts

from ..core.diagnostic import Diagnostic, Edit, Fix, Severity
from ..core.rules import Rule, register
from ..core.text import SourceText, Span
from ..semantic import types as t
from ..syntax import nodes
from ..semantic.builtins.core import DEBUG_PRINTF
from ..semantic.model import SemanticModel

PRINT_LEFT = register(Rule(
    code="R002", name="debug_print_left", severity=Severity.WARNING, layer="analysis",
    summary="A print or watch for `coop-lint run` is still in the kernel.",
    explanation="`// coop: print \"fmt\", values` and `// coop: watch EXPR` comments make `coop-lint run` "
                "record values into a hidden buffer (docs/debugging.md). Compilers ignore them, so a build is "
                "unchanged, but the next run of the kernel records again and the comment outlives the bug it "
                "chased. naga's `debugPrintf(\"fmt\", values)` is flagged too: no released compiler accepts "
                "it. Suppress the rule in a file kept for debugging.",
    example="out[i] = v; // coop: watch v",
    fix="Removes the comment, or the debugPrintf statement (safe: compilers never read the comment, and "
        "the print has no effect on the kernel's results).",
))

FORMAT_MISMATCH = register(Rule(
    code="R003", name="debug_print_format", severity=Severity.ERROR, layer="analysis",
    summary="A print's format string does not match the values it prints.",
    explanation="Each conversion of the format takes one value: `%d` and `%i` a signed or unsigned integer, "
                "`%u` and `%x` an integer, `%f`, `%e`, `%g` a float (f16 is printed as f32), `%v` a vector of "
                "anything; `%%` is a percent sign. A print with more or fewer values than conversions, or a "
                "float under `%d`, would show numbers that were never in the kernel: `coop-lint run` refuses "
                "it before running. The same holds for naga's `debugPrintf(\"fmt\", values)`. Give one value per "
                "conversion, of the conversion's type.",
    example='// coop: print "i=%u x=%f", i',
))

COMMENT = re.compile(r"//\s*coop:\s*(print|watch)\b\s*(.*)$")
CONVERSION = re.compile(r"%(?:%|[-+ #0]*\d*(?:\.\d+)?([a-zA-Z]))")
# The scalar types each conversion letter accepts; f16 is recorded as f32, bool as 0 or 1.
ACCEPTS = {"d": ("i32", "u32", "bool"), "i": ("i32", "u32", "bool"), "u": ("u32", "i32", "bool"),
           "x": ("u32", "i32", "bool"), "X": ("u32", "i32", "bool"), "c": ("u32",),
           "f": ("f32", "f16"), "e": ("f32", "f16"), "g": ("f32", "f16"), "a": ("f32", "f16"),
           "v": ("f32", "f16", "i32", "u32", "bool")}
_LITERAL = re.compile(r"^-?(?:0[xX][0-9a-fA-F]+|\d+\.?\d*(?:[eE][-+]?\d+)?|\.\d+(?:[eE][-+]?\d+)?)([iuhf]?)$")


def split_arguments(text: str) -> list[str]:
    """Top-level comma-separated pieces of `text`, strings and brackets kept whole."""
    out, depth, start, quoted = [], 0, 0, False
    for i, ch in enumerate(text):
        if quoted:
            quoted = ch != '"' or text[i - 1] == "\\"
        elif ch == '"':
            quoted = True
        elif ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        elif ch == "," and depth == 0:
            out.append(text[start:i].strip())
            start = i + 1
    last = text[start:].strip()
    if last:
        out.append(last)
    return out


def conversions(fmt: str) -> list[str]:
    """The conversion letters of a printf format, `%%` left out."""
    return [m.group(1) for m in CONVERSION.finditer(fmt) if m.group(0) != "%%"]


def print_parts(arguments: list[str]) -> tuple[str, list[str]] | None:
    """(format, value expressions) of a print's arguments; None when the first is no quoted string."""
    if not arguments or len(arguments[0]) < 2 or not (arguments[0][0] == arguments[0][-1] == '"'):
        return None
    return arguments[0][1:-1], arguments[1:]


def scalar_of(ty: t.Type | None) -> str | None:
    if isinstance(ty, (t.Vector, t.Matrix)):
        ty = ty.element
    if not isinstance(ty, t.Scalar):
        return None
    return {"abstract-int": "i32", "abstract-float": "f32"}.get(ty.name, ty.name)


def format_problem(fmt: str, types: list[t.Type | None]) -> str:
    """What is wrong with `fmt` for values of `types` (None: a value whose type is not known here); ''."""
    letters = conversions(fmt)
    if len(letters) != len(types):
        return (f"the format \"{fmt}\" has {len(letters)} conversion(s) but the print passes {len(types)} "
                "value(s)")
    for n, (letter, ty) in enumerate(zip(letters, types), 1):
        accepted = ACCEPTS.get(letter)
        if accepted is None:
            return f"'%{letter}' (conversion {n}) is not a conversion a print understands (d i u x f e g v)"
        scalar = scalar_of(ty)
        if ty is not None and scalar is not None and scalar not in accepted:
            return f"'%{letter}' (conversion {n}) does not take a {ty.describe()}"
    return ""


def _literal_type(text: str) -> t.Type | None:
    match = _LITERAL.match(text.strip())
    if match is None:
        return None
    suffix = match.group(1)
    if suffix:
        return t.Scalar({"i": "i32", "u": "u32", "h": "f16", "f": "f32"}[suffix])
    return t.Scalar("f32") if any(c in text for c in ".eE") and "x" not in text.lower() else t.Scalar("i32")


def _named_type(name: str, before: int, root: ts.Node, model: SemanticModel) -> t.Type | None:
    """The type of the last declaration of `name` before byte `before` in the same function or at module
    scope: the value a comment there sees in straight-line code (the runner types every expression
    exactly, with the kernel's own scopes)."""
    function = next((f for f in root.named_children if f.type == "function_declaration"
                     and f.start_byte <= before < f.end_byte), None)
    best = None
    for symbol in model.symbols:
        node = symbol.declaration
        if node is None or symbol.name != name or symbol.type is None or node.start_byte >= before:
            continue
        inside = function is not None and function.start_byte <= node.start_byte < function.end_byte
        if inside or node.parent is not None and node.parent.type == root.type:
            if best is None or node.start_byte > best.declaration.start_byte:
                best = symbol
    return t.store_type(best.type) if best is not None else None


def _calls(node: ts.Node, name: bytes, data: bytes):
    """Every call of `name` under `node`."""
    stack = [node]
    while stack:
        current = stack.pop()
        if current.type == "call_expression":
            callee = nodes.callee(current)
            if callee is not None and data[callee.start_byte:callee.end_byte] == name:
                yield current
        stack.extend(reversed(current.children))


def _statement_cut(call: ts.Node, data: bytes) -> Span:
    """The bytes that remove the statement around `call`: with its ';', and its line when nothing else is
    on it."""
    statement = call.parent if call.parent is not None and call.parent.type == "call_statement" else call
    end = statement.end_byte
    after = statement.next_sibling
    if after is not None and after.type == ";":
        end = after.end_byte
    line_start = data.rfind(b"\n", 0, statement.start_byte) + 1
    line_end = data.find(b"\n", end)
    line_end = len(data) if line_end < 0 else line_end
    if not data[line_start:statement.start_byte].strip() and not data[end:line_end].strip():
        return Span(line_start, min(line_end + 1, len(data)))
    start = statement.start_byte
    while start > line_start and data[start - 1:start] in (b" ", b"\t"):
        start -= 1
    return Span(start, end)


def debug_printf_diagnostics(root: ts.Node, source: SourceText, model: SemanticModel) -> list[Diagnostic]:
    """naga's `debugPrintf("fmt", values...)`: left in the kernel (R002), and its format against the
    values' types as the checker found them (R003)."""
    data = source.data
    if DEBUG_PRINTF.encode() not in data:  # most kernels: no walk at all
        return []
    out = []
    for call in _calls(root, DEBUG_PRINTF.encode(), data):
        callee = nodes.callee(call)
        span = Span(callee.start_byte, callee.end_byte)
        out.append(Diagnostic(PRINT_LEFT.code, f"a '{DEBUG_PRINTF}' is still in the kernel", span,
                              PRINT_LEFT.severity,
                              fixes=(Fix(f"Remove the {DEBUG_PRINTF} statement",
                                         (Edit(_statement_cut(call, data), ""),)),)))
        values = nodes.argument_nodes(call)
        if not values or values[0].type != "string_literal":
            continue  # the checker says so (T004)
        fmt = data[values[0].start_byte + 1:values[0].end_byte - 1].decode("utf-8", "replace")
        types = [model.type_at(v.start_byte, v.end_byte, v.type) for v in values[1:]]
        problem = format_problem(fmt, [None if ty is None or ty is t.ERROR else t.concretize(t.store_type(ty))
                                       for ty in types])
        if problem:
            out.append(Diagnostic(FORMAT_MISMATCH.code, problem, Span(values[0].start_byte, values[0].end_byte),
                                  FORMAT_MISMATCH.severity))
    return out


def debug_print_diagnostics(root: ts.Node, source: SourceText, model: SemanticModel) -> list[Diagnostic]:
    out = debug_printf_diagnostics(root, source, model)
    for offset, line in _marked_lines(source.data):
        match = COMMENT.search(line)
        if match is not None:
            start = len(line[:match.start()].encode()) + offset
            end = offset + len(line.encode())
            span = Span(start, end)
            # The fix takes the comment and the blanks before it; a line left empty goes whole.
            code = line[:match.start()]
            cut = Span(offset + len(code.rstrip().encode()), end) if code.strip() else \
                Span(offset, min(end + 1, len(source.data)))
            kind = match.group(1)
            out.append(Diagnostic(PRINT_LEFT.code, f"a 'coop: {kind}' is still in the kernel", span,
                                  PRINT_LEFT.severity,
                                  fixes=(Fix(f"Remove the {kind} comment", (Edit(cut, ""),)),)))
            if kind == "print":
                parts = print_parts(split_arguments(match.group(2).strip()))
                if parts is None:
                    out.append(Diagnostic(FORMAT_MISMATCH.code, "a print starts with its format string in "
                                          "double quotes", span, FORMAT_MISMATCH.severity))
                else:
                    fmt, values = parts
                    types = [_literal_type(v) or (_named_type(v, start, root, model) if v.isidentifier() else None)
                             for v in values]
                    problem = format_problem(fmt, types)
                    if problem:
                        out.append(Diagnostic(FORMAT_MISMATCH.code, problem, span, FORMAT_MISMATCH.severity))
    return out


def _marked_lines(data: bytes):
    """(byte offset, text) of each line that may hold a `coop:` comment: this runs on every lint, and
    matching every line of a large module cost more than the rest of an edit's passes."""
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        # Offsets as the decoded lines count them (a replaced byte may change its length): every line.
        offset = 0
        for line in data.decode("utf-8", "replace").split("\n"):
            yield offset, line
            offset += len(line.encode()) + 1
        return
    at = data.find(b"coop:")
    while at >= 0:
        start = data.rfind(b"\n", 0, at) + 1
        end = data.find(b"\n", at)
        end = len(data) if end < 0 else end
        yield start, data[start:end].decode("utf-8")
        at = data.find(b"coop:", end)
