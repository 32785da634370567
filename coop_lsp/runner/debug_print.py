"""Prints and watches inside a kernel: `debugPrintf("fmt", args...)` (naga's spelling, under
`enable wgpu_debug_printf;`), `// coop: print "fmt", args...` and `// coop: watch EXPR, ...` comments, and
`coop-lint run --watch EXPR@LINE`.

Each site becomes WGSL in the kernel's own text, before any lowering, so the same instrumented kernel runs
on Dawn, on wgpu-native and through the emulation: an atomic counter hands out a record slot in a hidden
storage buffer, and the record holds the site, the workgroup id, the subgroup id and lane, then the values
as 32-bit words. Slots past the cap are not written; the counter keeps counting, which is the overflow.

The values are typed by the linter itself: each expression is first written into the kernel as a `let`,
the kernel is linted, and the let's type decides how its words are read back. An expression that does not
type-check there is refused with the linter's message, before anything runs.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..analysis.debug_prints import COMMENT
from ..analysis.debug_prints import CONVERSION, format_problem, print_parts, split_arguments
from ..semantic import types as t
from .kernel import KernelError, load_kernel

PREFIX = "coop_dbg_"
BUFFER = PREFIX + "buf"
HEADER = 6  # site, workgroup x, y, z, subgroup, lane
NO_SUBGROUP = 0xFFFFFFFF
PRINT_ENABLE = "wgpu_debug_printf"
PRINT_CALL = "debugPrintf"
DEFAULT_LIMIT = 4096

_ENABLE = re.compile(r"\benable\s+([\w\s,]*?)\s*;")


class DebugError(KernelError):
    """A print or watch the runner cannot instrument: the kernel does not run."""


@dataclass
class Site:
    index: int
    kind: str  # "print" or "watch"
    line: int  # 1-based, in the user's kernel
    column: int  # 1-based: where the call or comment starts
    expressions: list[str]
    fmt: str = ""  # the print's format; empty for a watch
    types: list[t.Type] = field(default_factory=list)
    # Byte range of a debugPrintf statement to remove from the kernel; None for comments and --watch.
    span: tuple[int, int] | None = None
    # Subgroup matrices in the emulation: expression index -> elements of a lane's share, known once the
    # emulation has chosen how to spread them (emulated_shares).
    shares: dict[int, int] = field(default_factory=dict)

    def words(self) -> int:
        return sum(_width(ty) for ty in self.types)


# ------------------------------------------------------------------ finding sites
def _closing(text: str, open_at: int) -> int:
    depth = 0
    for i in range(open_at, len(text)):
        if text[i] == "(":
            depth += 1
        elif text[i] == ")":
            depth -= 1
            if depth == 0:
                return i
    return -1


def _print_parts(arguments: list[str], where: str) -> tuple[str, list[str]]:
    parts = print_parts(arguments)
    if parts is None:
        raise DebugError(f"{where}: a print starts with its format string in double quotes")
    return parts


def find_sites(text: str, watches: list[str] = ()) -> list[Site]:
    """Every print and watch in `text`, and the `--watch EXPR@LINE` values, in line order."""
    sites: list[Site] = []
    lines = text.splitlines()
    offset = 0
    for number, line in enumerate(lines, 1):
        comment = COMMENT.search(line)
        if comment is not None:
            kind, rest = comment.group(1), comment.group(2).strip()
            where = f"line {number}"
            if kind == "print":
                fmt, expressions = _print_parts(split_arguments(rest), where)
            else:
                expressions = split_arguments(rest)
                if not expressions:
                    raise DebugError(f"{where}: 'coop: watch' names no expression")
                fmt = ""
            sites.append(Site(0, kind, number, comment.start() + 1, expressions, fmt))
        code = line.split("//", 1)[0]
        for call in re.finditer(rf"\b{PRINT_CALL}\s*\(", code):
            start = offset + call.start()
            close = _closing(text, offset + call.end() - 1)
            semicolon = text.find(";", close) if close >= 0 else -1
            if close < 0 or semicolon < 0 or text[close + 1:semicolon].strip():
                raise DebugError(f"line {number}: {PRINT_CALL}(...) must be a statement of its own")
            fmt, expressions = _print_parts(split_arguments(text[offset + call.end():close]), f"line {number}")
            sites.append(Site(0, "print", number, call.start() + 1, expressions, fmt, span=(start, semicolon + 1)))
        offset += len(line) + 1
    for watch in watches:
        expression, at, line_text = watch.rpartition("@")
        if not at or not line_text.strip().isdigit() or not expression.strip():
            raise DebugError(f"--watch {watch}: write EXPR@LINE (x + 1@42)")
        number = int(line_text)
        if not 1 <= number <= len(lines):
            raise DebugError(f"--watch {watch}: the kernel has {len(lines)} lines")
        found = re.search(rf"(?<!\w){re.escape(expression.strip())}(?!\w)", lines[number - 1])
        column = found.start() + 1 if found else 1
        sites.append(Site(0, "watch", number, column, split_arguments(expression)))
    sites.sort(key=lambda s: (s.line, s.column))
    for i, site in enumerate(sites):
        site.index = i
    return sites


def without_prints(text: str, sites: list[Site]) -> str:
    """`text` with the debugPrintf statements blanked (lines and columns kept) and its enable dropped."""
    data = list(text)
    for site in sites:
        if site.span is not None:
            for i in range(*site.span):
                if data[i] != "\n":
                    data[i] = " "
    out = "".join(data)

    def drop(match: re.Match) -> str:
        names = [n.strip() for n in match.group(1).split(",") if n.strip() and n.strip() != PRINT_ENABLE]
        return f"enable {', '.join(names)};" if names else " " * len(match.group(0))

    return _ENABLE.sub(drop, out)


# ------------------------------------------------------------------ types
def _scalar(ty: t.Type) -> str | None:
    return ty.name if isinstance(ty, t.Scalar) else None


def _width(ty: t.Type) -> int:
    if isinstance(ty, t.Vector):
        return ty.size
    if isinstance(ty, (t.Matrix, t.CoopMatrix)):
        return ty.columns * ty.rows  # for a subgroup matrix, the most a lane's share can hold
    return 1


def _components(ty: t.Type, value: str) -> list[tuple[str, str]]:
    """(WGSL expression of one component, its scalar type) for a value of type `ty`."""
    if isinstance(ty, t.Vector):
        return [(f"{value}[{i}]", ty.element.name) for i in range(ty.size)]
    if isinstance(ty, t.Matrix):
        return [(f"{value}[{c}][{r}]", ty.element.name) for c in range(ty.columns) for r in range(ty.rows)]
    return [(value, ty.name)]


def _word(expression: str, scalar: str) -> str:
    if scalar == "bool":
        return f"select(0u, 1u, {expression})"
    if scalar == "f16":
        return f"bitcast<u32>(f32({expression}))"  # read back as f32: every f16 is exact there
    if scalar in ("f32", "i32", "u32"):
        return f"bitcast<u32>({expression})"
    if scalar in ("abstract-int", "AbstractInt"):
        return f"bitcast<u32>(i32({expression}))"
    return f"bitcast<u32>(f32({expression}))"


def _recordable(ty: t.Type | None, emulated: bool = False) -> bool:
    if ty is None:
        return False
    if isinstance(ty, t.CoopMatrix):
        return emulated
    inner = ty.element if isinstance(ty, (t.Vector, t.Matrix)) else ty
    return isinstance(inner, t.Scalar)


def _decoded_scalar(ty: t.Type) -> str:
    inner = ty.element if isinstance(ty, (t.Vector, t.Matrix, t.CoopMatrix)) else ty
    name = getattr(inner, "name", "f32")
    return {"f16": "f32", "bool": "bool", "i8": "i32", "u8": "u32"}.get(name, name if name in ("f32", "i32", "u32") else
                                               ("i32" if "int" in name.lower() else "f32"))


# ------------------------------------------------------------------ instrumenting
@dataclass
class Instrumented:
    text: str
    sites: list[Site]
    binding: tuple[int, int]
    stride: int
    limit: int
    ids: str  # how the subgroup and lane were derived, said in the report


def _insert_lines(text: str, sites: list[Site], code_of) -> str:
    """`text` with code_of(site) added at the end of each site's line, one line per site."""
    lines = text.split("\n")
    by_line: dict[int, list[Site]] = {}
    for site in sites:
        by_line.setdefault(site.line, []).append(site)
    for number, here in by_line.items():
        line = lines[number - 1]
        code, comment = (line.split("//", 1) + [""])[:2]
        tail = f" //{comment}" if "//" in line else ""
        lines[number - 1] = code.rstrip() + " " + " ".join(code_of(s) for s in here) + tail
    return "\n".join(lines)


def _lets(site: Site) -> str:
    return " ".join(f"let {PREFIX}v{site.index}_{i} = ({e});" for i, e in enumerate(site.expressions))


def _entry_builtins(module, entry) -> tuple[str, dict[str, str]]:
    """(parameter text to add, builtin -> the name the entry point reads it by)."""
    from ..syntax import nodes as sn

    found: dict[str, str] = {}
    parameters = sn.parameters(entry.node)
    params_text = module.node_text(parameters) if parameters is not None else ""
    for match in re.finditer(r"@builtin\s*\(\s*(\w+)\s*\)\s*(\w+)\s*:", params_text):
        found[match.group(1)] = match.group(2)
    return params_text, found


def instrument(text: str, sites: list[Site], binding: tuple[int, int], entry_name: str | None,
               subgroups: str, emulated_size: int | None = None, limit: int = DEFAULT_LIMIT,
               watch_lanes: str = "subgroup") -> Instrumented:
    """The kernel `text` (prints already blanked: without_prints) with every site recording into the hidden
    buffer at `binding`. `subgroups`: "emulated" (lanes are slices of `emulated_size` invocations, as the
    emulation cuts them), "native" (the adapter's subgroup builtins) or "none" (a kernel without subgroups:
    the lane is the local invocation index). Raises DebugError for a site that does not type-check."""
    probe = _insert_lines(text, sites, _lets)
    try:
        module = load_kernel(probe)
    except KernelError as error:
        # Which site: each one alone, so that two on one line are told apart.
        for site in sites:
            try:
                load_kernel(_insert_lines(text, [site], _lets))
            except KernelError as alone:
                raise DebugError(_blame_site(str(alone), [site])) from None
        raise DebugError(_blame_site(str(error), sites)) from None
    by_name = {s.name: s for s in module.model.symbols if s.name.startswith(PREFIX)}
    for site in sites:
        site.types = []
        for i, expression in enumerate(site.expressions):
            symbol = by_name.get(f"{PREFIX}v{site.index}_{i}")
            ty = t.store_type(symbol.type) if symbol is not None and symbol.type is not None else None
            if not _recordable(ty, subgroups == "emulated"):
                what = ty.describe() if ty is not None else "no value"
                raise DebugError(f"line {site.line}: the {site.kind} expression '{expression}' is {what}; only "
                                 "scalars, vectors and matrices of them can be recorded"
                                 + ("; a subgroup matrix is recorded as each lane's share in the emulation only "
                                    "(--backend emulate): natively no lane can read its share; store the matrix "
                                    "and watch an element" if isinstance(ty, t.CoopMatrix) else ""))
            site.types.append(ty)
        problem = format_problem(site.fmt, site.types) if site.kind == "print" else ""
        if problem:
            raise DebugError(f"line {site.line}: {problem}")
    entry = module.entry_point(entry_name)
    params_text, found = _entry_builtins(module, entry)
    added = []
    for builtin, ty in (("workgroup_id", "vec3<u32>"), ("local_invocation_index", "u32")) + (
            (("subgroup_invocation_id", "u32"), ("subgroup_size", "u32")) if subgroups == "native" else ()):
        if builtin not in found:
            if re.search(rf"\b{builtin}\b", params_text):
                raise DebugError(f"'{entry.name}' reads {builtin} through a struct; prints and watches need it as "
                                 "a parameter of its own")
            found[builtin] = f"{PREFIX}{builtin}"
            added.append(f"@builtin({builtin}) {found[builtin]}: {ty}")
    wid, lidx = found["workgroup_id"], found["local_invocation_index"]
    if subgroups == "emulated":
        subgroup, lane, ids = f"{lidx} / {emulated_size}u", f"{lidx} % {emulated_size}u", \
            f"subgroups of {emulated_size} lanes as the emulation cuts them"
    elif subgroups == "native":
        subgroup = f"{lidx} / {found['subgroup_size']}"
        lane, ids = found["subgroup_invocation_id"], "the adapter's subgroup_invocation_id; subgroup = local index / subgroup_size"
    else:
        subgroup, lane, ids = f"{NO_SUBGROUP}u", lidx, "the kernel uses no subgroups: lane = local invocation index"
    stride = HEADER + max((s.words() for s in sites), default=0)
    if subgroups == "none" and watch_lanes == "subgroup":
        watch_lanes = "workgroup"  # no subgroups to pick the first of
    wanted = {"subgroup": f"all({PREFIX}id.xyz == vec3<u32>(0u)) && {PREFIX}id.w == 0u",
              "workgroup": f"all({PREFIX}id.xyz == vec3<u32>(0u))", "all": "true"}[watch_lanes]

    shares = []

    def record(site: Site) -> str:
        stores = []
        at = 0
        for i, ty in enumerate(site.types):
            if isinstance(ty, t.CoopMatrix):
                # A call the emulation passes through with the share's array type, whose body
                # emulated_shares writes once that type is known.
                name = f"{PREFIX}share_{site.index}_{i}"
                shares.append(f"fn {name}(m: {ty.describe()}, at: u32) {{\n}}\n")
                stores.append(f"{name}({PREFIX}v{site.index}_{i}, {PREFIX}at + {at}u);")
                at += _width(ty)
                continue
            for component, scalar in _components(ty, f"{PREFIX}v{site.index}_{i}"):
                stores.append(f"atomicStore(&{BUFFER}[{PREFIX}at + {at}u], {_word(component, scalar)});")
                at += 1
        guard = f"{wanted} && " if site.kind == "watch" else ""
        return (f"{_lets(site)} if ({guard}true) {{ let {PREFIX}at = {PREFIX}slot({site.index}u); "
                f"if ({PREFIX}at != 0u) {{ {' '.join(stores)} }} }}")

    body = _insert_lines(text, sites, record)
    body = _add_to_entry(body, entry.name, added, f"{PREFIX}id = vec4<u32>({wid}, {subgroup}); {PREFIX}lane = {lane};")
    group, number = binding
    helpers = (f"\n// ---- coop-lint prints and watches (generated) ----\n"
               f"@group({group}) @binding({number}) var<storage, read_write> {BUFFER}: array<atomic<u32>>;\n"
               f"var<private> {PREFIX}id: vec4<u32>;\nvar<private> {PREFIX}lane: u32;\n"
               f"// A record's first word after the header, or 0 once the cap is reached (the count goes on).\n"
               f"fn {PREFIX}slot(site: u32) -> u32 {{\n"
               f"  let n = atomicAdd(&{BUFFER}[0], 1u);\n"
               f"  if (n >= {limit}u) {{ return 0u; }}\n"
               f"  let at = 1u + n * {stride}u;\n"
               f"  atomicStore(&{BUFFER}[at], site);\n"
               f"  atomicStore(&{BUFFER}[at + 1u], {PREFIX}id.x);\n"
               f"  atomicStore(&{BUFFER}[at + 2u], {PREFIX}id.y);\n"
               f"  atomicStore(&{BUFFER}[at + 3u], {PREFIX}id.z);\n"
               f"  atomicStore(&{BUFFER}[at + 4u], {PREFIX}id.w);\n"
               f"  atomicStore(&{BUFFER}[at + 5u], {PREFIX}lane);\n"
               f"  return at + {HEADER}u;\n}}\n")
    return Instrumented(body.rstrip("\n") + "\n" + helpers + "".join(shares), sites, binding, stride, limit, ids)


_SHARE = re.compile(rf"fn {PREFIX}share_(\d+)_(\d+)\(m: array<(\w+), (\d+)>, at: u32\) \{{\s*\}}")


def emulated_shares(code: str, instrumented: Instrumented) -> str:
    """The emulated kernel with each share function writing its lane's elements; notes each share's size."""
    def body(match: re.Match) -> str:
        site, index, element, count = int(match.group(1)), int(match.group(2)), match.group(3), int(match.group(4))
        instrumented.sites[site].shares[index] = count
        stores = " ".join(f"atomicStore(&{BUFFER}[at + {j}u], {_word(f'm[{j}]', element)});" for j in range(count))
        return match.group(0).rstrip("}").rstrip() + f"\n  {stores}\n}}"

    return _SHARE.sub(body, code)


def _add_to_entry(text: str, entry_name: str, added: list[str], prologue: str) -> str:
    """The entry point with `added` parameters first and `prologue` as its first statement. Found by its
    name in the final text: the sites' lines above it have moved every offset the linter gave."""
    match = re.search(rf"\bfn\s+{re.escape(entry_name)}\s*\(", text)
    if match is None:
        raise DebugError(f"cannot find the entry point '{entry_name}' to add the ids prints need")
    open_at = match.end() - 1
    close = _closing(text, open_at)
    brace = text.index("{", close)
    # On a line of its own: the emulation rewrites the parameters' lines, comments included.
    text = text[:brace + 1] + "\n    " + prologue + text[brace + 1:]
    if added:
        text = text[:open_at + 1] + ", ".join(added) + ", " + text[open_at + 1:]
    return text


def _blame_site(message: str, sites: list[Site]) -> str:
    match = re.search(r"line (\d+)", message)
    if match is not None:
        number = int(match.group(1))
        for site in sites:
            if site.line == number:
                names = ", ".join(f"'{e}'" for e in site.expressions)
                return (f"line {number}: the {site.kind} expression {names} does not type-check there: "
                        f"{message.split(': ', 2)[-1]}")
    return f"the kernel with its prints and watches does not type-check: {message}"


# ------------------------------------------------------------------ reading back
def decode(words, instrumented: Instrumented) -> dict:
    """The records the run wrote, as the report's `debug` part."""
    import numpy as np

    data = np.asarray(words, dtype=np.uint32)
    count = int(data[0]) if data.size else 0
    kept = min(count, instrumented.limit)
    records = []
    for n in range(kept):
        at = 1 + n * instrumented.stride
        head = [int(v) for v in data[at:at + HEADER]]
        site = instrumented.sites[head[0]]
        values, word = [], at + HEADER
        for i, ty in enumerate(site.types):
            raw = data[word:word + site.shares.get(i, _width(ty))]
            word += _width(ty)
            values.append(_values(raw, ty))
        records.append({"site": head[0], "workgroup": head[1:4],
                        "subgroup": None if head[4] == NO_SUBGROUP else head[4], "lane": head[5],
                        "values": values})
    # Slot order is the order the atomics happened to run in; per invocation it is program order, which
    # a stable sort by who wrote the record keeps.
    records.sort(key=lambda r: (r["workgroup"][::-1], r["subgroup"] or 0, r["lane"]))
    sites = [{"index": s.index, "kind": s.kind, "line": s.line, "column": s.column, "format": s.fmt,
              "expressions": s.expressions, "types": [ty.describe() for ty in s.types],
              "shares": {str(i): n for i, n in s.shares.items()}}
             for s in instrumented.sites]
    return {"sites": sites, "records": records, "count": count, "limit": instrumented.limit,
            "overflow": max(0, count - instrumented.limit), "binding": list(instrumented.binding),
            "lanes": instrumented.ids}


def _values(raw, ty: t.Type):
    import numpy as np

    scalar = _decoded_scalar(ty)
    if scalar == "bool":
        out = [bool(v) for v in raw]
    else:
        out = np.asarray(raw, dtype=np.uint32).view({"f32": np.float32, "i32": np.int32, "u32": np.uint32}[scalar])
        out = [float(v) if scalar == "f32" else int(v) for v in out]
    if isinstance(ty, t.Matrix):
        return [out[c * ty.rows:(c + 1) * ty.rows] for c in range(ty.columns)]
    return out if isinstance(ty, (t.Vector, t.CoopMatrix)) else out[0]


def format_print(fmt: str, values: list) -> str:
    """A print's text: the format with each conversion replaced by its value."""
    flat = iter(values)

    def one(match: re.Match) -> str:
        if match.group(0) == "%%":
            return "%"
        value = next(flat, None)
        letter = match.group(1)
        if isinstance(value, list):
            return "(" + ", ".join(_one(letter, v) for v in value) + ")"
        return _one(letter, value)

    return CONVERSION.sub(one, fmt).replace("\\n", "").replace("\\t", "\t")


def _one(letter: str, value) -> str:
    if isinstance(value, list):
        return "(" + ", ".join(_one(letter, v) for v in value) + ")"
    if letter in "xX" and isinstance(value, int):
        return format(value & 0xFFFFFFFF, letter)
    if letter in "feg" and isinstance(value, float):
        return format(value, letter if letter != "f" else "g")
    return str(value)


def render_lines(debug: dict, bullet: str, most: int = 64) -> list[str]:
    """The report's text for the records: prints as text, watches as values, each with who wrote it."""
    sites = debug["sites"]
    lines = [f"{bullet}debug: {debug['count']} record(s) written, cap {debug['limit']}"
             + (f"; {debug['overflow']} past the cap were dropped (--print-limit)" if debug["overflow"] else "")
             + f" ({debug['lanes']})"]
    for record in debug["records"][:most]:
        site = sites[record["site"]]
        who = f"wg({','.join(str(v) for v in record['workgroup'])})" \
            + (f" sg {record['subgroup']}" if record["subgroup"] is not None else "") + f" lane {record['lane']}"
        if site["kind"] == "print":
            text = format_print(site["format"], record["values"])
        else:
            text = ", ".join(f"{e} = {_short(v)}" for e, v in zip(site["expressions"], record["values"]))
        lines.append(f"{bullet}  line {site['line']} {who}: {text}")
    if len(debug["records"]) > most:
        lines.append(f"{bullet}  ... {len(debug['records']) - most} more (all of them in --format json)")
    return lines


# ------------------------------------------------------------------ the runner's two calls
OUTPUT = "__debug_records"


def sites_of(text: str, options: dict | None) -> tuple[list[Site], str]:
    """(the kernel's prints and watches with the asked-for ones, the kernel without debugPrintf statements)."""
    watches = list((options or {}).get("watches") or ())
    if not watches and PRINT_CALL not in text and "coop:" not in text:
        return [], text
    sites = find_sites(text, watches)
    return sites, without_prints(text, sites) if sites else text


def instrument_module(text: str, module, sites: list[Site], entry_name: str, emulated: bool, lanes: int,
                      options: dict | None):
    """(Instrumented with its binding `slot` for the runner, the instrumented text, its module)."""
    import numpy as np
    from types import SimpleNamespace

    from ..semantic.builtins.language import EXTENSION

    options = options or {}
    limit = int(options.get("limit") or DEFAULT_LIMIT)
    if limit < 1:
        raise DebugError("--print-limit: give at least 1 record")
    used = [b.binding for b in module.bindings if b.group == 0]
    binding = (0, max(used) + 1 if used else 0)
    if emulated and module.dialect != "plain" or emulated and _uses_subgroups(module):
        subgroups = "emulated"
    elif module.dialect != "plain" or any(e in module.enables for e in EXTENSION["subgroups"].enable.split()):
        subgroups = "native"
    else:
        subgroups = "none"
    done = instrument(text, sites, binding, entry_name, subgroups, lanes, limit,
                      options.get("watch_lanes") or "subgroup")
    module = load_kernel(done.text)
    words = 1 + limit * done.stride
    done.slot = (SimpleNamespace(group=binding[0], binding=binding[1], type="u32"),
                 SimpleNamespace(space="storage", access="read_write"), OUTPUT, np.zeros(words, np.uint32))
    return done, done.text, module


def _uses_subgroups(module) -> bool:
    from .lowering import uses_subgroup_operations

    return uses_subgroup_operations(module)


def _short(value, most: int = 8) -> str:
    """A value for the report's text: floats as %g, long lists (a matrix share) cut (JSON has them all)."""
    if isinstance(value, list):
        shown = ", ".join(_short(v, most) for v in value[:most])
        return f"[{shown}" + (f", ... {len(value) - most} more]" if len(value) > most else "]")
    return f"{value:g}" if isinstance(value, float) else str(value)

