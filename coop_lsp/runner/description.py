"""The run description: a sidecar `<kernel>.run.toml` (see docs/runner.md).

Every mistake raises RunDescriptionError naming the TOML key, e.g.
`gemm_naive.run.toml: binding[2].size: unknown name 'Q' (known: M, N, K)`.
"""

from __future__ import annotations

import ast
import difflib
import math
import operator
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

ELEMENT_TYPES = ("f32", "f16", "i32", "u32", "i8", "u8")
FILLS = ("random", "constant", "zeros", "file")
BACKENDS = ("auto", "dawn", "wgpu", "emulate")
# Sizes real adapters run (WebGPU's subgroups feature allows powers of two from 4 to 128).
EMULATED_SUBGROUP_SIZES = (4, 8, 16, 32, 64, 128)


class RunDescriptionError(ValueError):
    pass


@dataclass
class Binding:
    group: int
    binding: int
    type: str
    size: int  # elements
    fill: str = "zeros"
    seed: int = 0
    range: tuple[float, float] = (-1.0, 1.0)
    value: float = 0.0
    file: Path | None = None
    name: str | None = None  # filled from the kernel's variable name when absent
    key: str = ""  # "binding[i]", for messages
    # A struct binding filled by field name: field -> number, list, or nested table (coop_lsp.runner.structs).
    fields: dict | None = None


@dataclass
class Check:
    kind: str  # "gemm", "expression" or "none"
    # gemm
    a: str = "a"
    b: str = "b"
    c: str = "c"
    m: int = 0
    n: int = 0
    k: int = 0
    layout_a: str = "row"
    layout_b: str = "row"
    layout_c: str = "row"
    accumulate: bool = False
    # expression
    output: str = ""
    expected: str = ""
    # both
    atol: float | None = None
    rtol: float | None = None


@dataclass
class RunDescription:
    path: Path | None
    entry_point: str | None
    dispatch: tuple[int, int, int]
    sizes: dict[str, int]
    constants: dict[str, int | float | bool]
    overrides: dict[str, int | float | bool]
    bindings: list[Binding]
    check: Check
    warmup: int = 2
    repetitions: int = 10
    timeout_s: float = 60.0
    subgroup_size: int = 32
    robustness: bool = True
    flops: float | None = None  # per dispatch; gemm: 2 M N K
    bytes: float | None = None  # per dispatch, for GB/s
    workspace: Path | None = None
    extra: dict = field(default_factory=dict)
    toggles: tuple[str, ...] = ()  # extra Dawn device toggles, e.g. disable_workgroup_init
    subgroup_size_given: bool = False  # whether [emulation] named a size (a pinned kernel must agree)
    # [template]: the variant of a templated kernel this description runs (docs/templates.md).
    template_defines: dict[str, str] = field(default_factory=dict)
    template_include: tuple[Path, ...] = ()
    template_variant: str | None = None


# ------------------------------------------------------------------ expressions
_BINOPS = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.FloorDiv: operator.floordiv,
           ast.Mod: operator.mod, ast.Pow: operator.pow}


def size_expression(value, names: dict[str, int | float], key: str, integer: bool = True):
    """An int (or float) from a TOML number or a string such as "M * K" or "cdiv(N, 64)"."""
    if isinstance(value, bool):
        if integer:
            raise RunDescriptionError(f"{key}: expected an integer or an expression, not a boolean")
        return value
    if isinstance(value, (int, float)):
        if integer and not float(value).is_integer():
            raise RunDescriptionError(f"{key}: expected an integer, got {value}")
        return int(value) if integer else value
    if not isinstance(value, str):
        raise RunDescriptionError(f"{key}: expected a number or an expression string, got {type(value).__name__}")
    try:
        tree = ast.parse(value.strip(), mode="eval")
    except SyntaxError as error:
        raise RunDescriptionError(f"{key}: not an expression: {value!r} ({error.msg})") from None

    def ev(node):
        if isinstance(node, ast.Expression):
            return ev(node.body)
        if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)) and not isinstance(node.value, bool):
            return node.value
        if isinstance(node, ast.Name):
            if node.id not in names:
                known = ", ".join(names) or "none; define them in [sizes]"
                raise RunDescriptionError(f"{key}: unknown name '{node.id}' (known: {known})")
            return names[node.id]
        if isinstance(node, ast.BinOp) and type(node.op) in _BINOPS:
            return _BINOPS[type(node.op)](ev(node.left), ev(node.right))
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div):
            left, right = ev(node.left), ev(node.right)
            if right == 0:
                raise RunDescriptionError(f"{key}: division by zero in {value!r}")
            if isinstance(left, int) and isinstance(right, int):
                if left % right:
                    raise RunDescriptionError(f"{key}: {left} / {right} is not whole; write cdiv({left}, {right}) "
                                              "to round up or // to round down")
                return left // right
            return left / right
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            return -ev(node.operand)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("cdiv", "min", "max") \
                and not node.keywords:
            args = [ev(a) for a in node.args]
            if node.func.id == "cdiv":
                if len(args) != 2:
                    raise RunDescriptionError(f"{key}: cdiv takes two arguments")
                return -(-args[0] // args[1])
            return (min if node.func.id == "min" else max)(args)
        raise RunDescriptionError(f"{key}: only numbers, names from [sizes], + - * / // % ** and cdiv/min/max "
                                  f"are allowed in {value!r}")

    try:
        result = ev(tree)
    except ZeroDivisionError:
        raise RunDescriptionError(f"{key}: division by zero in {value!r}") from None
    if integer:
        if isinstance(result, float) and not result.is_integer():
            raise RunDescriptionError(f"{key}: {value!r} is {result}, not an integer")
        return int(result)
    return result


# ------------------------------------------------------------------ parsing
def _table(data: dict, name: str, key: str) -> dict:
    value = data.get(name, {})
    if not isinstance(value, dict):
        raise RunDescriptionError(f"{key}: expected a table ([{name}])")
    return value


def _unknown(data: dict, allowed: set[str], key: str) -> None:
    for name in data:
        if name not in allowed:
            close = difflib.get_close_matches(name, sorted(allowed), n=1, cutoff=0.6)
            hint = f" (did you mean '{close[0]}'?)" if close else f" (known: {', '.join(sorted(allowed))})"
            raise RunDescriptionError(f"{key + '.' if key else ''}{name}: unknown key{hint}")


TOP_KEYS = {"entry_point", "dispatch", "sizes", "constants", "overrides", "binding", "check", "timing",
            "emulation", "device", "flops", "bytes", "template",
            # [tune]: the search space of `coop-lint tune` (coop_lsp/runner/tune/space.py), read there
            "tune"}
TEMPLATE_KEYS = {"defines", "include", "variant"}


def parse_run_description(text: str, path: Path | None = None, workspace: Path | None = None,
                          size_values: dict[str, int] | None = None) -> RunDescription:
    """`size_values` replace entries of [sizes] (as `coop-lint run --set` and `--sweep` do); everything
    computed from them (constants, dispatch, binding sizes, checks) follows."""
    where = path.name if path is not None else "run description"
    try:
        return _parse(text, path, workspace, size_values or {})
    except RunDescriptionError as error:
        raise RunDescriptionError(f"{where}: {error}") from None


def load_run_description(path: Path, workspace: Path | None = None,
                         size_values: dict[str, int] | None = None) -> RunDescription:
    if not path.exists():
        raise RunDescriptionError(f"no run description: write {path.name} beside the kernel (see docs/runner.md)")
    try:
        text = path.read_text()
    except OSError as error:
        raise RunDescriptionError(f"{path}: cannot read: {error.strerror}") from None
    return parse_run_description(text, path, workspace, size_values)


def _parse(text: str, path: Path | None, workspace: Path | None, size_values: dict) -> RunDescription:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise RunDescriptionError(f"not valid TOML: {error}") from None
    _unknown(data, TOP_KEYS, "")
    base = path.parent if path is not None else Path.cwd()
    workspace = (workspace or base).resolve()

    sizes: dict[str, int] = {}
    declared = _table(data, "sizes", "sizes")
    for name in size_values:
        if name not in declared:
            raise RunDescriptionError(f"sizes.{name}: not a size of this description (sizes: "
                                      f"{', '.join(declared) or 'none'})")
    for name, value in declared.items():
        if not name.isidentifier():
            raise RunDescriptionError(f"sizes.{name}: a size name must be an identifier")
        sizes[name] = size_expression(size_values.get(name, value), sizes, f"sizes.{name}")

    def values(table: str) -> dict:
        out = {}
        for name, value in _table(data, table, table).items():
            if isinstance(value, bool):
                out[name] = value
            elif isinstance(value, (int, float, str)):
                out[name] = size_expression(value, sizes, f"{table}.{name}", integer=not isinstance(value, float))
            else:
                raise RunDescriptionError(f"{table}.{name}: expected a number, a boolean or an expression string")
        return out

    constants, overrides = values("constants"), values("overrides")

    entry = data.get("entry_point")
    if entry is not None and not isinstance(entry, str):
        raise RunDescriptionError("entry_point: expected the name of a @compute function")

    if "dispatch" not in data:
        raise RunDescriptionError("dispatch: missing; give the workgroup counts, e.g. dispatch = [\"N / 16\", "
                                  "\"M / 16\", 1]")
    raw = data["dispatch"]
    if not isinstance(raw, list) or not 1 <= len(raw) <= 3:
        raise RunDescriptionError("dispatch: expected a list of 1 to 3 workgroup counts")
    dispatch = [size_expression(v, sizes, f"dispatch[{i}]") for i, v in enumerate(raw)]
    for i, v in enumerate(dispatch):
        if v < 1:
            raise RunDescriptionError(f"dispatch[{i}]: must be at least 1, is {v}")
    dispatch += [1] * (3 - len(dispatch))

    raw_bindings = data.get("binding", [])
    if not isinstance(raw_bindings, list):
        raise RunDescriptionError("binding: expected an array of tables ([[binding]])")
    bindings = []
    seen = {}
    for i, entry_data in enumerate(raw_bindings):
        bindings.append(_binding(entry_data, f"binding[{i}]", sizes, base, workspace))
        slot = (bindings[-1].group, bindings[-1].binding)
        if slot in seen:
            raise RunDescriptionError(f"binding[{i}]: group {slot[0]} binding {slot[1]} is already described by "
                                      f"binding[{seen[slot]}]")
        seen[slot] = i

    check = _check(_table(data, "check", "check"), sizes)

    timing = _table(data, "timing", "timing")
    _unknown(timing, {"warmup", "repetitions", "timeout_s"}, "timing")
    emulation = _table(data, "emulation", "emulation")
    _unknown(emulation, {"subgroup_size"}, "emulation")
    device = _table(data, "device", "device")
    _unknown(device, {"robustness", "toggles"}, "device")
    toggles = device.get("toggles", [])
    if not isinstance(toggles, list) or not all(isinstance(t, str) and t.isidentifier() for t in toggles):
        raise RunDescriptionError("device.toggles: expected a list of Dawn device toggle names, e.g. "
                                  "[\"disable_workgroup_init\"]")

    def count(table: dict, name: str, default, key: str, low: float = 0):
        value = table.get(name, default)
        if isinstance(value, bool) or not isinstance(value, (int, float)) or value < low:
            raise RunDescriptionError(f"{key}: expected a number >= {low}")
        return value

    lanes = count(emulation, "subgroup_size", 32, "emulation.subgroup_size", 1)
    if lanes not in EMULATED_SUBGROUP_SIZES:
        raise RunDescriptionError(f"emulation.subgroup_size: {lanes} lanes cannot be emulated; a subgroup has "
                                  f"{', '.join(map(str, EMULATED_SUBGROUP_SIZES))} lanes")
    robustness = device.get("robustness", True)
    if not isinstance(robustness, bool):
        raise RunDescriptionError("device.robustness: expected true or false")
    flops = data.get("flops")
    if flops is not None:
        flops = float(size_expression(flops, sizes, "flops", integer=False))
    elif check.kind == "gemm":
        flops = 2.0 * check.m * check.n * check.k
    nbytes = data.get("bytes")
    if nbytes is not None:
        nbytes = float(size_expression(nbytes, sizes, "bytes", integer=False))
    template = _table(data, "template", "template")
    _unknown(template, TEMPLATE_KEYS, "template")
    defines = {}
    for name, value in _table(template, "defines", "template.defines").items():
        if isinstance(value, bool):
            defines[name] = "true" if value else "false"
        elif isinstance(value, (str, int, float)):
            defines[name] = str(value)
        else:
            raise RunDescriptionError(f"template.defines.{name}: expected a string, number or boolean")
    include = template.get("include", [])
    if not isinstance(include, list) or not all(isinstance(d, str) for d in include):
        raise RunDescriptionError("template.include: expected a list of folders")
    for index, folder in enumerate(include):
        _inside(base / folder, folder, workspace, f"template.include[{index}]")
    variant = template.get("variant")
    if variant is not None and not isinstance(variant, str):
        raise RunDescriptionError("template.variant: expected the name of a variant set of the configuration")
    return RunDescription(
        template_defines=defines, template_include=tuple(base / d for d in include), template_variant=variant,
        path=path, entry_point=entry, dispatch=tuple(dispatch), sizes=sizes, constants=constants,
        overrides=overrides, bindings=bindings, check=check,
        warmup=int(count(timing, "warmup", 2, "timing.warmup")),
        repetitions=int(count(timing, "repetitions", 10, "timing.repetitions", 1)),
        timeout_s=float(count(timing, "timeout_s", 60.0, "timing.timeout_s", 0.1)),
        subgroup_size=int(lanes),
        robustness=robustness, flops=flops, bytes=nbytes, workspace=workspace, toggles=tuple(toggles),
        subgroup_size_given="subgroup_size" in emulation)


BINDING_KEYS = {"group", "binding", "type", "size", "fill", "seed", "range", "value", "file", "name", "fields"}
# Kernels index buffers with u32: a binding of 2^32 elements or more cannot be reached, and its byte size
# overflows the 32-bit sizes some drivers keep.
MAX_ELEMENTS = 2**32 - 1


def _binding(data, key: str, sizes: dict, base: Path, workspace: Path) -> Binding:
    if not isinstance(data, dict):
        raise RunDescriptionError(f"{key}: expected a table")
    _unknown(data, BINDING_KEYS, key)
    if "fields" in data:
        return _struct_binding(data, key, sizes)
    for required in ("binding", "type", "size"):
        if required not in data:
            raise RunDescriptionError(f"{key}.{required}: missing")
    group = data.get("group", 0)
    number = data["binding"]
    for name, value in (("group", group), ("binding", number)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise RunDescriptionError(f"{key}.{name}: expected a non-negative integer")
    element = data["type"]
    if element not in ELEMENT_TYPES:
        raise RunDescriptionError(f"{key}.type: '{element}' is not one of {', '.join(ELEMENT_TYPES)}")
    size = size_expression(data["size"], sizes, f"{key}.size")
    if size < 1:
        raise RunDescriptionError(f"{key}.size: must be at least 1 element, is {size}")
    if size > MAX_ELEMENTS:
        raise RunDescriptionError(f"{key}.size: {size:,} elements overflows: a kernel's u32 index reaches at most "
                                  f"{MAX_ELEMENTS:,}")
    if element in ("i8", "u8") and size % 4:
        raise RunDescriptionError(f"{key}.size: {element} elements are packed 4 per 32-bit word; "
                                  f"{size} is not a multiple of 4")
    fill = data.get("fill", "zeros")
    if fill not in FILLS:
        raise RunDescriptionError(f"{key}.fill: '{fill}' is not one of {', '.join(FILLS)}")
    binding = Binding(group, number, element, size, fill, key=key)
    name = data.get("name")
    if name is not None and (not isinstance(name, str) or not name.isidentifier()):
        raise RunDescriptionError(f"{key}.name: expected an identifier")
    binding.name = name
    for option, fills in (("seed", ("random",)), ("range", ("random",)), ("value", ("constant",)),
                          ("file", ("file",))):
        if option in data and fill not in fills:
            raise RunDescriptionError(f"{key}.{option}: only used with fill = \"{fills[0]}\" (fill is \"{fill}\")")
    if fill == "random":
        seed = data.get("seed", 0)
        if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
            raise RunDescriptionError(f"{key}.seed: expected a non-negative integer")
        binding.seed = seed
        low_high = data.get("range", [-1, 1] if element in ("f32", "f16", "i32", "i8") else [0, 4])
        if (not isinstance(low_high, list) or len(low_high) != 2
                or not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in low_high)
                or low_high[0] > low_high[1]):
            raise RunDescriptionError(f"{key}.range: expected [low, high] with low <= high")
        binding.range = (low_high[0], low_high[1])
    elif fill == "constant":
        if "value" not in data:
            raise RunDescriptionError(f"{key}.value: missing (fill = \"constant\" needs a value)")
        value = data["value"]
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise RunDescriptionError(f"{key}.value: expected a number")
        binding.value = value
    elif fill == "file":
        if "file" not in data or not isinstance(data["file"], str):
            raise RunDescriptionError(f"{key}.file: missing (fill = \"file\" needs the path of a .npy file)")
        file = _inside(base / data["file"], data["file"], workspace, f"{key}.file")
        if file.suffix != ".npy":
            raise RunDescriptionError(f"{key}.file: only .npy files are read, not '{file.name}'")
        if not file.is_file():
            raise RunDescriptionError(f"{key}.file: '{data['file']}' does not exist")
        binding.file = file
    return binding


def _inside(path: Path, written: str, workspace: Path, key: str) -> Path:
    """`path` with `..` and symbolic links followed, which must lie in the workspace: a run description
    may come from someone else's repository, and nothing outside the checkout is read for it."""
    resolved = path.resolve()
    if not resolved.is_relative_to(workspace):
        raise RunDescriptionError(f"{key}: '{written}' leaves the workspace ({workspace}) through '..', an "
                                  "absolute path or a symbolic link; only files inside it are read")
    return resolved


def _struct_binding(data: dict, key: str, sizes: dict) -> Binding:
    """`fields = { m = "M", ... }`: the layout comes from the kernel's struct, so type, size and fill are not
    given; the fields' values are numbers or expressions over [sizes]."""
    for name in ("type", "size", "fill", "seed", "range", "value", "file"):
        if name in data:
            raise RunDescriptionError(f"{key}.{name}: not used with fields (the struct's layout gives the type "
                                      "and the size; fields not named are zero)")
    if "binding" not in data:
        raise RunDescriptionError(f"{key}.binding: missing")
    group, number = data.get("group", 0), data["binding"]
    for name, value in (("group", group), ("binding", number)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise RunDescriptionError(f"{key}.{name}: expected a non-negative integer")
    fields = data["fields"]
    if not isinstance(fields, dict):
        raise RunDescriptionError(f"{key}.fields: expected a table of field values, e.g. fields = {{ m = \"M\" }}")
    name = data.get("name")
    if name is not None and (not isinstance(name, str) or not name.isidentifier()):
        raise RunDescriptionError(f"{key}.name: expected an identifier")
    return Binding(group, number, "u8", 0, "zeros", name=name, key=key,
                   fields=_field_values(fields, sizes, f"{key}.fields"))


def _field_values(fields: dict, sizes: dict, key: str) -> dict:
    def one(value, where):
        if isinstance(value, dict):
            return {name: one(v, f"{where}.{name}") for name, v in value.items()}
        if isinstance(value, list):
            return [one(v, f"{where}[{i}]") for i, v in enumerate(value)]
        if isinstance(value, bool):
            return value
        if isinstance(value, (int, float, str)):
            return size_expression(value, sizes, where, integer=not isinstance(value, float))
        raise RunDescriptionError(f"{where}: expected a number, an expression, a list or a table")

    return {name: one(value, f"{key}.{name}") for name, value in fields.items()}


CHECK_KEYS = {"kind", "a", "b", "c", "M", "N", "K", "layout_a", "layout_b", "layout_c", "accumulate",
              "output", "expected", "atol", "rtol"}


def _check(data: dict, sizes: dict) -> Check:
    _unknown(data, CHECK_KEYS, "check")
    kind = data.get("kind", "none" if not data else None)
    if kind is None:
        raise RunDescriptionError("check.kind: missing; \"gemm\", \"expression\" or \"none\"")
    if kind not in ("gemm", "expression", "none"):
        raise RunDescriptionError(f"check.kind: '{kind}' is not one of gemm, expression, none")
    check = Check(kind)
    for tol in ("atol", "rtol"):
        if tol in data:
            value = data[tol]
            if isinstance(value, bool) or not isinstance(value, (int, float)) or value < 0:
                raise RunDescriptionError(f"check.{tol}: expected a non-negative number")
            setattr(check, tol, float(value))
    gemm_only = {"a", "b", "c", "M", "N", "K", "layout_a", "layout_b", "layout_c", "accumulate"}
    expression_only = {"output", "expected"}
    wrong = (expression_only if kind == "gemm" else gemm_only if kind == "expression" else
             gemm_only | expression_only) & set(data)
    if wrong:
        raise RunDescriptionError(f"check.{sorted(wrong)[0]}: not used by check kind '{kind}'")
    if kind == "gemm":
        for name in ("a", "b", "c"):
            value = data.get(name, name)
            if not isinstance(value, str) or not value.isidentifier():
                raise RunDescriptionError(f"check.{name}: expected the name of a binding")
            setattr(check, name, value)
        for dim in ("M", "N", "K"):
            if dim not in data and dim not in sizes:
                raise RunDescriptionError(f"check.{dim}: missing (give it here or in [sizes])")
            value = size_expression(data.get(dim, dim), sizes, f"check.{dim}")
            if value < 1:
                raise RunDescriptionError(f"check.{dim}: must be at least 1")
            setattr(check, dim.lower(), value)
        for name in ("layout_a", "layout_b", "layout_c"):
            value = data.get(name, "row")
            if value not in ("row", "col"):
                raise RunDescriptionError(f"check.{name}: '{value}' is not row or col")
            setattr(check, name, value)
        accumulate = data.get("accumulate", False)
        if not isinstance(accumulate, bool):
            raise RunDescriptionError("check.accumulate: expected true or false")
        check.accumulate = accumulate
    elif kind == "expression":
        for name in ("output", "expected"):
            if not isinstance(data.get(name), str):
                raise RunDescriptionError(f"check.{name}: missing (a binding name, and a NumPy expression)")
        check.output, check.expected = data["output"], data["expected"]
        from .check_expression import validate

        validate(check.expected)  # refused here, before anything is compiled or run
    return check


def sidecar_path(kernel: Path) -> Path:
    """gemm.wgsl -> gemm.run.toml beside it."""
    return kernel.with_name(kernel.stem + ".run.toml")


def default_tolerance(element: str, k: int = 1) -> tuple[float, float]:
    """(atol relative to the reference's largest magnitude, rtol) by the output element type."""
    if element in ("i32", "u32", "i8", "u8"):
        return 0.0, 0.0
    if element == "f16":
        return 1e-2 * max(1.0, math.sqrt(k) / 8), 1e-2
    return 1e-4 * max(1.0, math.sqrt(k) / 8), 1e-3
