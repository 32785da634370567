"""Overload signatures written as text, and the matching of calls against them.

A signature reads like WGSL: `(e: vecN<S>) -> vecN<S>`. Upper-case names are
variables: `N` is a vector width (2, 3, 4), `C`/`R` a matrix size, and any
other variable is declared by the overload with the set of values it may
take (scalar types, enumerants or integers); `ANY` leaves an integer free,
to be bound by the arguments (matrix dimensions). This is the notation of
Tint's intrinsic definitions, kept small enough to read in one sitting.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass, field

from .. import types as t

ANY = "ANY"  # an integer variable bound only by the arguments

# Parameters matched exactly by `_unify`, without conversions to rank.
_EXACT_HEADS = frozenset(("ptr", "sampler", "sampler_comparison") + t.TEXTURE_NAMES)

_BUILTIN_SIZE_VARS = {"N": (2, 3, 4), "C": (2, 3, 4), "R": (2, 3, 4)}


@dataclass(frozen=True)
class Pattern:
    head: str
    args: tuple["Pattern", ...] = ()

    def __str__(self) -> str:
        if not self.args:
            return self.head
        return f"{self.head}<{', '.join(str(a) for a in self.args)}>"


@dataclass(frozen=True)
class Parameter:
    name: str
    pattern: Pattern


@dataclass(frozen=True)
class Overload:
    """One signature of a builtin; `variables` maps each declared variable to its allowed values."""

    text: str
    variables: dict
    templates: tuple[Parameter, ...] = ()
    parameters: tuple[Parameter, ...] = ()
    result: Pattern | None = None
    # Extra conditions over the bound variables; each returns a reason or None.
    checks: tuple = field(default=())
    deprecated: bool = False

    def describe(self, name: str) -> str:
        template = f"<{', '.join(f'{p.name}: {p.pattern}' for p in self.templates)}>" if self.templates else ""
        params = ", ".join(f"{p.name}: {p.pattern}" for p in self.parameters)
        result = f" -> {self.result}" if self.result else ""
        return f"{name}{template}({params}){result}"


def overload(text: str, checks: tuple = (), deprecated: bool = False, **variables) -> Overload:
    """Parses `<templates>(params) -> result`; keyword arguments declare the variables."""
    match = re.fullmatch(r"\s*(?:<(?P<templates>.*?)>)?\s*\((?P<params>.*)\)\s*(?:->\s*(?P<result>.+?))?\s*",
                         text)
    if match is None:
        raise ValueError(f"malformed signature {text!r}")
    templates = tuple(_parameters(match.group("templates") or ""))
    parameters = tuple(_parameters(match.group("params")))
    result = _pattern(match.group("result")) if match.group("result") else None
    return Overload(text, variables, templates, parameters, result, tuple(checks), deprecated)


def _parameters(text: str) -> list[Parameter]:
    out = []
    for part in _split_top_level(text):
        name, _, pattern = part.partition(":")
        out.append(Parameter(name.strip(), _pattern(pattern)))
    return out


def _split_top_level(text: str) -> list[str]:
    parts, depth, current = [], 0, []
    for char in text:
        if char == "<":
            depth += 1
        elif char == ">":
            depth -= 1
        if char == "," and depth == 0:
            parts.append("".join(current))
            current = []
        else:
            current.append(char)
    if "".join(current).strip():
        parts.append("".join(current))
    return [p.strip() for p in parts if p.strip()]


def _pattern(text: str) -> Pattern:
    text = text.strip()
    if "<" not in text:
        return Pattern(text)
    head, _, rest = text.partition("<")
    return Pattern(head.strip(), tuple(_pattern(p) for p in _split_top_level(rest[: rest.rindex(">")])))


# ------------------------------------------------------------------- matching
@dataclass
class Match:
    overload: Overload
    bindings: dict
    result: t.Type | None
    rank: int
    # Set by a failed check: (code, message, name of the parameter at fault or None).
    problem: tuple | None = None


class _Mismatch(Exception):
    pass


# Calls repeat the same few argument types (`f32(i)`, `arrayLength(&data)`, `fma(a, b, c)`), and matching
# tries every overload of a builtin: the answers are kept, per overload set and argument types. Callers
# only read a Match, so one may be shared. Bounded: a process lints many files one after another.
_MATCHES: dict[tuple, tuple[tuple, list[Match]]] = {}
_MAX_KEPT_MATCHES = 4096


def match_call(overloads: tuple[Overload, ...], template_args: list[t.Type | int | str],
               arg_types: list[t.Type]) -> list[Match]:
    """All overloads the call matches, best (lowest conversion rank) first."""
    key = (id(overloads), tuple(template_args), tuple(arg_types))
    try:
        kept = _MATCHES.get(key)
    except TypeError:  # an unhashable argument: match without keeping
        return _match_all(overloads, template_args, arg_types)
    if kept is not None and kept[0] is overloads:
        return kept[1]
    matches = _match_all(overloads, template_args, arg_types)
    if len(_MATCHES) >= _MAX_KEPT_MATCHES:
        _MATCHES.clear()
    _MATCHES[key] = (overloads, matches)
    return matches


def _match_all(overloads: tuple[Overload, ...], template_args, arg_types) -> list[Match]:
    matches = []
    for candidate in overloads:
        found = _match_one(candidate, template_args, arg_types)
        if found is not None:
            matches.append(found)
    matches.sort(key=lambda m: (m.problem is not None, m.rank))
    return matches


def _match_one(candidate: Overload, template_args, arg_types) -> Match | None:
    if len(template_args) != len(candidate.templates) or len(arg_types) != len(candidate.parameters):
        return None
    bindings: dict = {}
    try:
        for parameter, value in zip(candidate.templates, template_args):
            _bind_template(parameter.pattern, value, candidate, bindings)
        for parameter, value in zip(candidate.parameters, arg_types):
            _unify(parameter.pattern, t.store_type(value), candidate, bindings, allow_abstract=True)
    except _Mismatch:
        return None
    best: Match | None = None
    for complete in _completions(candidate, bindings, arg_types):
        rank = 0
        try:
            for parameter, value in zip(candidate.parameters, arg_types):
                if parameter.pattern.head in _EXACT_HEADS:
                    continue  # matched exactly by _unify; array sizes are not part of the pattern
                expected = _instantiate(parameter.pattern, candidate, complete)
                step = t.conversion_rank(t.store_type(value), expected)
                if step is None:
                    raise _Mismatch
                rank += step
        except _Mismatch:
            continue
        if best is None or rank < best.rank:
            result = _instantiate(candidate.result, candidate, complete) if candidate.result else None
            best = Match(candidate, complete, result, rank)
    if best is not None:
        for check in candidate.checks:
            problem = check(best.bindings)
            if problem:
                best.problem = problem
                break
    return best


def _is_variable(name: str, candidate: Overload) -> bool:
    return name in candidate.variables or name in _BUILTIN_SIZE_VARS


def _domain(name: str, candidate: Overload):
    return candidate.variables.get(name, _BUILTIN_SIZE_VARS.get(name))


def _bind(name: str, value, candidate: Overload, bindings: dict) -> None:
    domain = _domain(name, candidate)
    if domain != ANY and value not in domain:
        raise _Mismatch
    if name in bindings and bindings[name] != value:
        raise _Mismatch
    bindings[name] = value


def _bind_template(pattern: Pattern, value, candidate: Overload, bindings: dict) -> None:
    if isinstance(value, t.TypeOf):
        _unify(pattern, value.type, candidate, bindings, allow_abstract=False)
    elif isinstance(value, t.Enumerant):
        if _is_variable(pattern.head, candidate):
            _bind(pattern.head, value.value, candidate, bindings)
        elif pattern.head != value.value:
            raise _Mismatch
    else:
        raise _Mismatch


def _unify(pattern: Pattern, value: t.Type, candidate: Overload, bindings: dict, allow_abstract: bool) -> None:
    """Binds the variables of `pattern` from a concrete `value`; abstract scalars stay unbound."""
    if value is t.ERROR:
        return
    head = pattern.head
    if _is_variable(head, candidate) and not pattern.args:
        domain = _domain(head, candidate)
        if isinstance(value, t.Scalar):
            if value.is_abstract and allow_abstract:
                return  # decided by the completions, by conversion rank
            _bind(head, value, candidate, bindings)
            return
        if domain == ANY or (isinstance(domain, tuple) and value in domain):
            _bind(head, value, candidate, bindings)
            return
        raise _Mismatch
    if head in ("u8", "i8"):
        if value != t.Scalar(head):
            raise _Mismatch
        return
    if head in t.CONCRETE_SCALARS:
        if not isinstance(value, t.Scalar):
            raise _Mismatch
        return  # rank check happens on instantiation
    if head.startswith("vec"):
        if not isinstance(value, t.Vector):
            raise _Mismatch
        _size(head[3:], value.size, candidate, bindings)
        _unify(pattern.args[0], value.element, candidate, bindings, allow_abstract)
        return
    if head.startswith("mat") and "x" in head:
        if not isinstance(value, t.Matrix):
            raise _Mismatch
        columns, rows = head[3:].split("x")
        _size(columns, value.columns, candidate, bindings)
        _size(rows, value.rows, candidate, bindings)
        _unify(pattern.args[0], value.element, candidate, bindings, allow_abstract)
        return
    if head == "array":
        if not isinstance(value, t.Array):
            raise _Mismatch
        _unify(pattern.args[0], value.element, candidate, bindings, allow_abstract)
        if len(pattern.args) == 2:
            _size(pattern.args[1].head, value.count, candidate, bindings)
        return
    if head == "atomic":
        if not isinstance(value, t.Atomic):
            raise _Mismatch
        _unify(pattern.args[0], value.element, candidate, bindings, allow_abstract)
        return
    if head == "ptr":
        if not isinstance(value, t.Pointer):
            raise _Mismatch
        space, store, access = pattern.args
        _enumerant(space.head, value.space, candidate, bindings)
        _unify(store, value.store, candidate, bindings, allow_abstract=False)
        _access(access.head, value.access, candidate, bindings)
        return
    if head in ("left", "right", "result", "coop"):
        if not isinstance(value, t.CoopMatrix):
            raise _Mismatch
        if head == "coop":
            element, size, role = pattern.args
            if value.kind.dialect != "wgpu" or value.columns != value.rows:
                raise _Mismatch
            _unify(element, value.element, candidate, bindings, allow_abstract=False)
            _size(size.head, value.columns, candidate, bindings)
            _enumerant(role.head, value.kind.role, candidate, bindings)
            return
        if value.kind.dialect == "wgpu" or value.kind.role != head:
            raise _Mismatch
        bindings.setdefault("__dialect__", value.kind.dialect)
        element, columns, rows = pattern.args
        _unify(element, value.element, candidate, bindings, allow_abstract=False)
        _size(columns.head, value.columns, candidate, bindings)
        _size(rows.head, value.rows, candidate, bindings)
        return
    if head == "bool" or head in t.CONCRETE_SCALARS:
        return
    if head in ("sampler", "sampler_comparison"):
        if not isinstance(value, t.Sampler) or value.comparison != (head == "sampler_comparison"):
            raise _Mismatch
        return
    if head in t.TEXTURE_NAMES:
        if not isinstance(value, t.Texture) or value.name != head:
            raise _Mismatch
        if value.sampled is not None and pattern.args:
            sampled = pattern.args[0].head
            if sampled in t.CONCRETE_SCALARS and t.CONCRETE_SCALARS[sampled] != value.sampled:
                raise _Mismatch
            _unify(pattern.args[0], value.sampled, candidate, bindings, allow_abstract=False)
        elif value.format is not None and len(pattern.args) == 2:
            _enumerant(pattern.args[0].head, value.format, candidate, bindings)
            _enumerant(pattern.args[1].head, value.access, candidate, bindings)
        return
    # An opaque type named literally (ray_query, ...).
    if not isinstance(value, t.Opaque) or value.name.split("<")[0] != head:
        raise _Mismatch


def _size(name: str, value, candidate: Overload, bindings: dict) -> None:
    if name.isdigit():
        if int(name) != value:
            raise _Mismatch
        return
    _bind(name, value, candidate, bindings)


def _enumerant(name: str, value: str, candidate: Overload, bindings: dict) -> None:
    # Only declared variables: `C` here is naga's role, not a matrix size.
    if name in candidate.variables:
        _bind(name, value, candidate, bindings)
    elif name != value:
        raise _Mismatch


def _access(name: str, value: str, candidate: Overload, bindings: dict) -> None:
    # A pointer with read_write access may be passed where read or write is asked.
    if _is_variable(name, candidate):
        _bind(name, value, candidate, bindings)
    elif name != value and value != "read_write":
        raise _Mismatch


def _completions(candidate: Overload, bindings: dict, arg_types):
    """Every full assignment of the variables left unbound, in the order of their domains."""
    free = [name for name in _mentioned_variables(candidate) if name not in bindings]
    domains = []
    for name in free:
        domain = _domain(name, candidate)
        if domain == ANY:
            return  # an unbound free integer: the arguments did not determine it
        domains.append(domain)
    for values in itertools.product(*domains):
        yield {**bindings, **dict(zip(free, values))}


def _mentioned_variables(candidate: Overload) -> list[str]:
    seen: list[str] = []
    for parameter in candidate.templates + candidate.parameters:
        _mention(parameter.pattern, candidate, seen)
    if candidate.result is not None:
        _mention(candidate.result, candidate, seen)
    return seen


def _mention(pattern: Pattern, candidate: Overload, seen: list[str]) -> None:
    """Adds to `seen` the template variables `pattern` names, depth first (a function of the module, not a
    recursive closure: that would be a reference cycle left to the cyclic garbage collector on every call)."""
    head = pattern.head
    names = [head]
    if head.startswith("vec") and not head[3:].isdigit():
        names.append(head[3:])
    if head.startswith("mat") and "x" in head:
        names.extend(head[3:].split("x"))
    for name in names:
        if _is_variable(name, candidate) and name not in seen:
            seen.append(name)
    for arg in pattern.args:
        _mention(arg, candidate, seen)


def parameter_types(match: Match) -> list[t.Type | None]:
    """The type each argument of a matched call is converted to; None where the pattern is matched exactly."""
    return [None if parameter.pattern.head in _EXACT_HEADS else
            _instantiate(parameter.pattern, match.overload, match.bindings)
            for parameter in match.overload.parameters]


def _instantiate(pattern: Pattern, candidate: Overload, bindings: dict) -> t.Type:
    head = pattern.head
    if _is_variable(head, candidate) and not pattern.args:
        value = bindings[head]
        return value if isinstance(value, t.Type) else t.Enumerant(str(value))
    if head in t.CONCRETE_SCALARS:
        return t.CONCRETE_SCALARS[head]
    if head in ("u8", "i8"):
        return t.Scalar(head)
    if head.startswith("vec"):
        size = head[3:]
        return t.Vector(int(size) if size.isdigit() else bindings[size],
                        _instantiate(pattern.args[0], candidate, bindings))
    if head.startswith("mat") and "x" in head:
        columns, rows = head[3:].split("x")
        return t.Matrix(int(columns) if columns.isdigit() else bindings[columns],
                        int(rows) if rows.isdigit() else bindings[rows],
                        _instantiate(pattern.args[0], candidate, bindings))
    if head == "array":
        count = None
        if len(pattern.args) == 2:
            name = pattern.args[1].head
            count = int(name) if name.isdigit() else bindings[name]
        return t.Array(_instantiate(pattern.args[0], candidate, bindings), count)
    if head == "atomic":
        return t.Atomic(_instantiate(pattern.args[0], candidate, bindings))
    if head == "ptr":
        space, store, access = pattern.args
        return t.Pointer(_value(space.head, candidate, bindings), _instantiate(store, candidate, bindings),
                         _value(access.head, candidate, bindings))
    if head in ("left", "right", "result"):
        element, columns, rows = pattern.args
        dialect = bindings.get("__dialect__", "chromium")
        return t.CoopMatrix(t.MatrixKind(dialect, head), _instantiate(element, candidate, bindings),
                            _int(columns.head, bindings), _int(rows.head, bindings))
    if head == "coop":
        element, size, role = pattern.args
        side = _int(size.head, bindings)
        return t.CoopMatrix(t.MatrixKind("wgpu", _value(role.head, candidate, bindings)),
                            _instantiate(element, candidate, bindings), side, side)
    if head in ("__frexp_result", "__modf_result"):
        value = t.concretize(_instantiate(pattern.args[0], candidate, bindings))
        second = ("exp", t.Vector(value.size, t.I32) if isinstance(value, t.Vector) else t.I32) \
            if head == "__frexp_result" else ("whole", value)
        return _result_struct(f"{head}_{value.describe()}", (t.StructMember("fract", value), t.StructMember(*second)))
    if head == "__atomic_compare_exchange_result":
        value = _instantiate(pattern.args[0], candidate, bindings)
        return _result_struct(f"__atomic_compare_exchange_result_{value.describe()}",
                              (t.StructMember("old_value", value), t.StructMember("exchanged", t.BOOL)))
    return t.Opaque(str(pattern))


# Structs are nominal; each builtin result struct is one type however many calls return it.
_RESULT_STRUCTS: dict[str, t.Struct] = {}


def _result_struct(name: str, members: tuple) -> t.Struct:
    found = _RESULT_STRUCTS.get(name)
    if found is None:
        found = _RESULT_STRUCTS[name] = t.Struct(name, members)
    return found


def _int(name: str, bindings: dict) -> int:
    return int(name) if name.isdigit() else bindings[name]


def _value(name: str, candidate: Overload, bindings: dict) -> str:
    return bindings[name] if name in candidate.variables else name
