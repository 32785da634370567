"""Completion and signature help, from the text before the cursor and the semantic model.

The text being typed is usually not WGSL yet, so the context (after `.`,
inside `diagnostic(...)`, after `enable`, after `@`, inside a template list)
is read from the characters before the cursor; names and types come from the
last analysis of the document.
"""

from __future__ import annotations

import functools

import re
from dataclasses import dataclass

from ..lint.catalogue import all_rules
from ..core.text import Span
from ..semantic import types as t
from ..semantic.builtins.language import DIALECT, LOAD, STORE
from ..semantic.builtins.matrix import MAJORNESS, MATRIX_ELEMENTS
from ..semantic.builtins.table import Builtin
from ..semantic.checker import KNOWN_EXTENSIONS
from ..semantic.context import CORE_TABLE, MATRIX_TABLES
from ..semantic.entry_points import BUILTIN_VALUES as ENTRY_BUILTIN_VALUES
from ..semantic.model import Symbol
from ..syntax.keywords import KEYWORDS
from ..syntax import nodes as sn
from .analysis import Analysis
from .docs import DIALECT_LABELS, MATRIX_TYPE_DOCS, builtin_markdown, module_dialect, type_markdown
from .hover import describe_symbol


@dataclass(frozen=True)
class CompletionItem:
    label: str
    kind: str  # keyword, type, function, variable, constant, struct, field, module, property, value, snippet
    detail: str = ""
    documentation: str = ""  # markdown
    insert_text: str | None = None
    snippet: bool = False  # insert_text uses ${1:placeholder} syntax
    sort: str = ""


# Tint's own diagnostic rule names (besides ours, which are `coop.<name>`).
TINT_RULES = {
    "derivative_uniformity": "Tint: derivative builtins called in non-uniform control flow.",
    "subgroup_uniformity": "Tint: subgroup builtins called in non-uniform control flow.",
    "chromium.subgroup_matrix_uniformity": "Tint: subgroup matrix builtins called in non-uniform control flow.",
}
SEVERITIES = ("off", "info", "warning", "error")
ATTRIBUTES = {
    "compute": "compute", "workgroup_size": "workgroup_size(${1:64}, ${2:1}, ${3:1})",
    "group": "group(${1:0})", "binding": "binding(${1:0})", "builtin": "builtin(${1:global_invocation_id})",
    "id": "id(${1:0})", "align": "align(${1:16})", "size": "size(${1:16})", "must_use": "must_use",
    "diagnostic": "diagnostic(${1:off}, ${2:derivative_uniformity})", "const": "const",
    "location": "location(${1:0})", "interpolate": "interpolate(${1:flat})", "invariant": "invariant",
    "vertex": "vertex", "fragment": "fragment",
}
# The compute shader inputs every compiler has, in the entry-point table's order.
BUILTIN_VALUES = tuple(v.name for v in ENTRY_BUILTIN_VALUES.values()
                       if ("compute", "in") in v.uses and v.compiler is None)
# Where the majorness template argument sits in Tint's current load and store forms.
_MAJORNESS_AT = {b.name: next(i for i, p in enumerate(b.overloads[0].templates) if p.name == "L")
                 for b in DIALECT["chromium"].builtins if b.memory in (LOAD, STORE)}
TYPE_NAMES = ("bool", "i32", "u32", "f32", "f16", "vec2", "vec3", "vec4", "mat2x2", "mat2x3", "mat2x4", "mat3x2",
              "mat3x3", "mat3x4", "mat4x2", "mat4x3", "mat4x4", "array", "atomic", "ptr", "vec2f", "vec3f",
              "vec4f", "vec2u", "vec3u", "vec4u", "vec2i", "vec3i", "vec4i", "vec2h", "vec3h", "vec4h")
ADDRESS_SPACES = ("function", "private", "workgroup", "uniform", "storage")
ACCESS_MODES = ("read", "write", "read_write")

_MEMBER = re.compile(r"([A-Za-z_]\w*(?:\s*\[[^\[\]]*\])*(?:\s*\.\s*[A-Za-z_]\w*(?:\s*\[[^\[\]]*\])*)*)\s*\.\s*(\w*)$")
_DIAGNOSTIC_RULE = re.compile(r"diagnostic\s*\(\s*(?:off|info|warning|error)\s*,\s*([\w.]*)$")
_DIAGNOSTIC_SEVERITY = re.compile(r"diagnostic\s*\(\s*(\w*)$")
_ENABLE = re.compile(r"^\s*enable\s+(?:\w+\s*,\s*)*(\w*)$")
_ATTRIBUTE = re.compile(r"@\s*(\w*)$")
_BUILTIN_VALUE = re.compile(r"@\s*builtin\s*\(\s*(\w*)$")
_TEMPLATE = re.compile(r"\b([A-Za-z_]\w*)\s*<([^<>;{}()]*)$")


def _line_prefix(analysis: Analysis, offset: int) -> str:
    line = analysis.source.line_of(offset)
    start = analysis.source.line_start(line)
    return analysis.data[start:offset].decode("utf-8", errors="replace")


def _in_comment(analysis: Analysis, offset: int) -> bool:
    node = analysis.node_at(max(offset - 1, 0))
    return node is not None and node.type in ("line_comment", "block_comment") and \
        node.start_byte < offset <= node.end_byte and not (node.type == "block_comment" and offset == node.end_byte)


def completion(analysis: Analysis, offset: int, dialect: str | None = None) -> list[CompletionItem]:
    offset = analysis.clamp(offset)
    if _in_comment(analysis, offset):
        return []
    prefix = _line_prefix(analysis, offset)
    dialect = module_dialect(analysis.model.enables, dialect)
    if _DIAGNOSTIC_RULE.search(prefix):
        return rule_items()
    if _DIAGNOSTIC_SEVERITY.search(prefix):
        return [CompletionItem(s, "value", "diagnostic severity") for s in SEVERITIES]
    if _ENABLE.search(prefix):
        return enable_items()
    if _BUILTIN_VALUE.search(prefix):
        return [CompletionItem(v, "value", "builtin value") for v in BUILTIN_VALUES]
    if _ATTRIBUTE.search(prefix):
        return [CompletionItem(name, "property", "attribute", insert_text=text, snippet="$" in text)
                for name, text in ATTRIBUTES.items()]
    member = _MEMBER.search(prefix)
    if member is not None and not re.search(r"\d\.\w*$", prefix):
        receiver_end = offset - len(member.group(2).encode()) - len(prefix[member.end(1):len(prefix) - len(member.group(2))].encode())
        receiver_start = receiver_end - len(member.group(1).encode())
        return member_items(analysis, receiver_start, receiver_end, member.group(1))
    template = _TEMPLATE.search(prefix)
    if template is not None:
        items = template_items(template.group(1), template.group(2).count(","), dialect)
        if items is not None:
            return items
    return general_items(analysis, offset, dialect)


def rule_items() -> list[CompletionItem]:
    items = [CompletionItem(rule.qualified_name, "property", f"{rule.code}: {rule.summary}",
                            rule.explanation) for rule in all_rules() if rule.suppressible]
    items += [CompletionItem(name, "property", doc) for name, doc in TINT_RULES.items()]
    return items


def enable_items() -> list[CompletionItem]:
    labels = {enable: label for dialect, label in DIALECT_LABELS.items()
              for enable in [label.split("`enable ")[1].rstrip(";`)")]}
    return [CompletionItem(name, "module", labels.get(name, "extension")) for name in sorted(KNOWN_EXTENSIONS)]


def template_items(name: str, argument: int, dialect: str | None) -> list[CompletionItem] | None:
    """Template arguments for the matrix types, var, ptr, and the matrix builtins' majorness."""
    elements = [CompletionItem(e.name, "type", "matrix element type") for e in MATRIX_ELEMENTS]
    if name.startswith("subgroup_matrix_"):
        if argument == 0:
            return elements
        return [CompletionItem(str(n), "value", "tile dimension", sort=f"{n:03}") for n in (8, 16, 32)]
    if re.fullmatch(r"coop_mat\d+x\d+", name):
        if argument == 0:
            return [CompletionItem(e, "type", "naga matrix element type") for e in ("f32", "f16")]
        return [CompletionItem(role, "value", doc) for role, doc in
                (("A", "left operand"), ("B", "right operand"), ("C", "accumulator"))]
    if name == "var":
        return [CompletionItem(s, "value", "address space") for s in ADDRESS_SPACES if s != "function"] \
            if argument == 0 else [CompletionItem(a, "value", "access mode") for a in ACCESS_MODES]
    if name == "ptr":
        if argument == 0:
            return [CompletionItem(s, "value", "address space") for s in ADDRESS_SPACES]
        if argument == 2:
            return [CompletionItem(a, "value", "access mode") for a in ACCESS_MODES]
        return None
    at = _MAJORNESS_AT.get(name)
    # The store's only template argument is its majorness: offered wherever the cursor is.
    if at is not None and (argument == at or at == 0):
        return [CompletionItem(m, "value", "majorness") for m in MAJORNESS]
    return None


def member_items(analysis: Analysis, start: int, end: int, receiver: str) -> list[CompletionItem]:
    value_type = analysis.model.type_at(start, end, _node_type_at(analysis, start, end))
    if value_type is None:
        value_type = _chain_type(analysis, receiver, start)
    if value_type is None:
        return []
    value_type = t.store_type(value_type)
    if isinstance(value_type, t.Pointer):
        value_type = value_type.store
    if isinstance(value_type, t.Struct):
        return [CompletionItem(m.name, "field", m.type.describe(), sort=f"{i:04}")
                for i, m in enumerate(value_type.members)]
    if isinstance(value_type, t.Vector):
        names = "xyzw"[: value_type.size]
        items = [CompletionItem(c, "field", value_type.element.describe(), sort=f"0{i}") for i, c in enumerate(names)]
        items += [CompletionItem(c, "field", value_type.element.describe(), sort=f"1{i}")
                  for i, c in enumerate("rgba"[: value_type.size])]
        if value_type.size >= 2:
            items.append(CompletionItem(names[:2], "field", f"vec2<{value_type.element.describe()}>", sort="2"))
        if value_type.size >= 3:
            items.append(CompletionItem(names[:3], "field", f"vec3<{value_type.element.describe()}>", sort="3"))
        return items
    if isinstance(value_type, t.Scalar) and False:
        return []
    # frexp / modf results are predeclared structs.
    described = value_type.describe()
    if described.startswith("__frexp_result"):
        return [CompletionItem("fract", "field"), CompletionItem("exp", "field")]
    if described.startswith("__modf_result"):
        return [CompletionItem("fract", "field"), CompletionItem("whole", "field")]
    return []


def _node_type_at(analysis: Analysis, start: int, end: int) -> str:
    root = analysis.root
    if root is None or end <= start:
        return ""
    node = root.descendant_for_byte_range(start, end)
    while node is not None and (node.start_byte, node.end_byte) != (start, end):
        node = node.parent if node.start_byte >= start and node.end_byte <= end else None
    return node.type if node is not None else ""


def _chain_type(analysis: Analysis, receiver: str, offset: int):
    """Types `a.b[i].c` from its first name's declaration, when the tree around the cursor is broken."""
    parts = [p.strip() for p in re.split(r"\.", receiver)]
    head = re.match(r"([A-Za-z_]\w*)((?:\s*\[[^\[\]]*\])*)", parts[0])
    symbol = analysis.lookup(head.group(1), offset)
    if symbol is None or symbol.kind in ("function", "struct", "alias"):
        return None
    value_type = _index(t.store_type(symbol.type), head.group(2).count("["))
    for part in parts[1:]:
        match = re.match(r"([A-Za-z_]\w*)((?:\s*\[[^\[\]]*\])*)", part)
        value_type = t.store_type(value_type)
        if isinstance(value_type, t.Pointer):
            value_type = value_type.store
        if isinstance(value_type, t.Struct):
            member = value_type.member(match.group(1))
            if member is None:
                return None
            value_type = member.type
        elif isinstance(value_type, t.Vector):
            size = len(match.group(1))
            value_type = value_type.element if size == 1 else t.Vector(size, value_type.element)
        else:
            return None
        value_type = _index(value_type, match.group(2).count("["))
    return value_type


def _index(value_type, count: int):
    for _ in range(count):
        value_type = t.store_type(value_type)
        if isinstance(value_type, t.Pointer):
            value_type = value_type.store
        if isinstance(value_type, t.Array):
            value_type = value_type.element
        elif isinstance(value_type, t.Vector):
            value_type = value_type.element
        elif isinstance(value_type, t.Matrix):
            value_type = t.Vector(value_type.rows, value_type.element)
        else:
            return t.ERROR
    return value_type


def builtin_snippet(builtin: Builtin) -> str:
    overload = builtin.overloads[0]
    index = 1
    text = builtin.name
    if overload.templates:
        parts = []
        for parameter in overload.templates:
            parts.append(f"${{{index}:{parameter.name}}}")
            index += 1
        text += "<" + ", ".join(parts) + ">"
    arguments = []
    for parameter in overload.parameters:
        arguments.append(f"${{{index}:{parameter.name}}}")
        index += 1
    return text + "(" + ", ".join(arguments) + ")"


def _function_snippet(analysis: Analysis, symbol: Symbol) -> str:
    names = _parameter_names(analysis, symbol)
    return symbol.name + "(" + ", ".join(f"${{{i + 1}:{n}}}" for i, n in enumerate(names)) + ")"


def _parameter_names(analysis: Analysis, symbol: Symbol) -> list[str]:
    declaration = symbol.declaration
    parameters = sn.parameters(declaration) if declaration is not None else None
    names = []
    for child in parameters.named_children if parameters is not None else []:
        name = sn.name(child) if child.type == "parameter" else None
        if name is not None:
            names.append(analysis.slice(Span(name.start_byte, name.end_byte)))
    return names


_SYMBOL_ITEM_KIND = {"function": "function", "struct": "struct", "alias": "type", "const": "constant",
                     "override": "constant"}


def general_items(analysis: Analysis, offset: int, dialect: str | None) -> list[CompletionItem]:
    # An item depends only on its symbol in this version; module-scope symbols come up at every position.
    memo = analysis.memo.setdefault("completion_items", {})
    items: list[CompletionItem] = []
    for symbol in analysis.visible_symbols(offset):
        item = memo.get(id(symbol))
        if item is None or item[0] is not symbol:
            item = memo[id(symbol)] = (symbol, _symbol_item(analysis, symbol))
        items.append(item[1])
    return items + list(language_items(dialect))


def _symbol_item(analysis: Analysis, symbol: Symbol) -> CompletionItem:
    kind = _SYMBOL_ITEM_KIND.get(symbol.kind, "variable")
    detail = describe_symbol(analysis, symbol)
    if symbol.kind == "function":
        return CompletionItem(symbol.name, kind, detail, insert_text=_function_snippet(analysis, symbol),
                              snippet=True, sort="0")
    return CompletionItem(symbol.name, kind, detail, sort="0")


# The same for every document and position, and the larger part of a completion list (every builtin
# with its documentation): built once per dialect.
@functools.lru_cache(maxsize=None)
def language_items(dialect: str | None) -> tuple[CompletionItem, ...]:
    items: list[CompletionItem] = []
    for keyword in sorted(KEYWORDS):
        items.append(CompletionItem(keyword, "keyword", sort="3"))
    for name in TYPE_NAMES:
        items.append(CompletionItem(name, "type", documentation=type_markdown(name) or "", sort="2"))
    tables = [CORE_TABLE] + ([MATRIX_TABLES[dialect]] if dialect else list(MATRIX_TABLES.values()))
    seen = set()
    for table in tables:
        for builtin in table:
            if builtin.name in seen:
                continue
            seen.add(builtin.name)
            # The first overload's signature (Builtin.signatures() describes every one of them).
            detail = builtin.overloads[0].describe(builtin.name) if builtin.overloads else ""
            items.append(CompletionItem(builtin.name, "function", detail,
                                        builtin_markdown(builtin.name, dialect) or builtin.doc,
                                        insert_text=builtin_snippet(builtin), snippet=True, sort="1"))
    for name, (signature, _doc, _example, dialects) in MATRIX_TYPE_DOCS.items():
        if dialect is None or dialect in dialects:
            items.append(CompletionItem(name, "type", signature, type_markdown(name) or "", sort="2"))
    return tuple(items)


# ------------------------------------------------------------------ signature help
@dataclass(frozen=True)
class Signature:
    label: str
    parameters: tuple[tuple[int, int], ...]  # [start, end) of each parameter within the label
    documentation: str = ""


@dataclass(frozen=True)
class SignatureHelp:
    signatures: list[Signature]
    active_signature: int
    active_parameter: int


def _open_call(data: bytes, offset: int) -> tuple[str, int] | None:
    """The callee name of the innermost unclosed `(` before `offset`, and the index of the argument."""
    depth, commas, position = 0, 0, offset - 1
    low = max(0, offset - 4000)
    while position >= low:
        char = data[position]
        if char in b")]":
            depth += 1
        elif char in b"([":
            if depth == 0:
                if char == ord("["):
                    return None
                break
            depth -= 1
        elif char == ord(",") and depth == 0:
            commas += 1
        elif char in b";{}" and depth == 0:
            return None
        position -= 1
    else:
        return None
    end = position
    while end > 0 and data[end - 1 : end].isspace():
        end -= 1
    if end > 0 and data[end - 1 : end] == b">":  # a template list: skip to its `<`
        level, end = 0, end - 1
        while end >= low:
            if data[end : end + 1] == b">":
                level += 1
            elif data[end : end + 1] == b"<":
                level -= 1
                if level == 0:
                    break
            end -= 1
        while end > 0 and data[end - 1 : end].isspace():
            end -= 1
    start = end
    while start > 0 and (chr(data[start - 1]).isalnum() or data[start - 1] == ord("_")):
        start -= 1
    name = data[start:end].decode("ascii", errors="replace")
    if not name or not re.match(r"[A-Za-z_]", name):
        return None
    return name, commas


def signature_help(analysis: Analysis, offset: int, dialect: str | None = None) -> SignatureHelp | None:
    offset = analysis.clamp(offset)
    call = _open_call(analysis.data, offset)
    if call is None:
        return None
    name, active = call
    signatures: list[Signature] = []
    symbol = analysis.lookup(name, offset)
    if symbol is not None and symbol.kind == "function":
        names = _parameter_names(analysis, symbol)
        types = [p.describe() for p in symbol.parameters] if len(symbol.parameters) == len(names) else []
        params = [f"{n}: {ty}" for n, ty in zip(names, types)] if types else names
        result = f" -> {symbol.return_type.describe()}" if symbol.return_type is not None else ""
        signatures.append(_signature(name, params, result, ""))
    else:
        from .docs import pick_builtin
        picked = pick_builtin(name, module_dialect(analysis.model.enables, dialect))
        if picked is None:
            return None
        builtin = picked[1]
        for overload in builtin.overloads:
            template = f"<{', '.join(f'{p.name}: {p.pattern}' for p in overload.templates)}>" \
                if overload.templates else ""
            params = [f"{p.name}: {p.pattern}" for p in overload.parameters]
            result = f" -> {overload.result}" if overload.result else ""
            signatures.append(_signature(name + template, params, result, builtin.doc))
    if not signatures:
        return None
    chosen = next((i for i, s in enumerate(signatures) if len(s.parameters) > active), 0)
    return SignatureHelp(signatures, chosen, active)


def _signature(head: str, params: list[str], result: str, doc: str) -> Signature:
    label = head + "("
    spans = []
    for index, param in enumerate(params):
        if index:
            label += ", "
        spans.append((len(label), len(label) + len(param)))
        label += param
    label += ")" + result
    return Signature(label, tuple(spans), doc)
