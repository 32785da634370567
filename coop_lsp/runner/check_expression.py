"""`[check] expected`: a NumPy expression from someone else's repository, checked against an allowlist.

A run description is untrusted input (a pull request from a fork, a repository cloned a minute ago), so
its check expression may use only what a reference result needs: numbers, arithmetic, comparisons,
indexing and slicing, the names the run description binds (`np`, its [sizes], its bindings), the NumPy
functions and constants in NUMPY_NAMES and the array methods and attributes in ARRAY_NAMES. Everything
else (`np.save`, `np.load`, `np.ctypeslib`, `np.lib`, `x.tofile`, `x.ctypes`, `__class__`, lambdas,
comprehensions) is refused while parsing the description, naming what was refused, before a kernel is
compiled or run. A new function is added here deliberately, by reading what it can do; a name is never
allowed by a pattern.
"""

from __future__ import annotations

import ast
import builtins as _builtins
import warnings
from types import CodeType

from .description import RunDescriptionError

KEY = "check.expected"

# NumPy functions that compute on arrays and nothing else: no I/O, no files, no callables, no buffers.
NUMPY_FUNCTIONS = frozenset("""
    abs absolute add all allclose amax amin any arange arccos arccosh arcsin arcsinh arctan arctan2 arctanh
    argmax argmin argsort around array array_equal asarray ascontiguousarray atleast_1d atleast_2d broadcast_to
    cbrt ceil clip column_stack concatenate copysign cos cosh count_nonzero cross cumprod cumsum deg2rad degrees
    diag diagonal diff divide dot einsum equal exp exp2 expand_dims expm1 eye fabs flip fliplr flipud
    float_power floor floor_divide fmax fmin fmod full full_like greater greater_equal hstack hypot identity
    inner isclose isfinite isinf isnan kron ldexp left_shift less less_equal linspace log log10 log1p log2
    logaddexp logical_and logical_not logical_or logical_xor matmul max maximum mean median min minimum mod
    moveaxis multiply nan_to_num negative nonzero not_equal ones ones_like outer pad percentile positive power
    prod rad2deg radians ravel reciprocal remainder repeat reshape right_shift rint roll rot90 round sign
    signbit sin sinh sort split sqrt square squeeze stack std subtract sum swapaxes take tan tanh tensordot
    tile trace transpose tril triu true_divide trunc var vstack where zeros zeros_like
    bitwise_and bitwise_or bitwise_xor invert
""".split())
# Scalar types and dtypes (calling one converts a value) and constants.
NUMPY_CONSTANTS = frozenset("""
    float16 float32 float64 int8 int16 int32 int64 uint8 uint16 uint32 uint64 bool_ half single double
    pi e inf nan newaxis
""".split())
NUMPY_NAMES = NUMPY_FUNCTIONS | NUMPY_CONSTANTS

# Array (and NumPy scalar) methods and attributes that compute on the array's values. Left out on
# purpose: tofile, dump, dumps (write), ctypes, data, base, __array_interface__ (reach memory), view,
# getfield, setfield (reinterpret with a caller's type), fill, put, itemset, resize, sort, partition
# (change the array in place).
ARRAY_METHODS = frozenset("""
    all any argmax argmin argsort astype clip conj copy cumprod cumsum diagonal dot flatten item max mean min
    nonzero prod ravel repeat reshape round squeeze std sum swapaxes take tolist trace transpose var
""".split())
ARRAY_ATTRIBUTES = frozenset("T dtype imag itemsize nbytes ndim real shape size".split())
ARRAY_NAMES = ARRAY_METHODS | ARRAY_ATTRIBUTES

# Keyword arguments the functions above take. Left out: out= (writes into an argument), like= (hands the
# call to another object's __array_function__).
KEYWORDS = frozenset("""
    a_max a_min append atol axes axis axis1 axis2 casting copy ddof decimals dtype endpoint equal_nan indexing
    initial k keepdims kind max min n ndmin num offset order prepend repeats reps rtol shape side where
""".split())

_OPERATORS = (ast.Add, ast.Sub, ast.Mult, ast.Div, ast.FloorDiv, ast.Mod, ast.Pow, ast.MatMult, ast.BitAnd,
              ast.BitOr, ast.BitXor, ast.LShift, ast.RShift, ast.UAdd, ast.USub, ast.Invert, ast.Not, ast.And,
              ast.Or, ast.Eq, ast.NotEq, ast.Lt, ast.LtE, ast.Gt, ast.GtE)
_STRUCTURE = (ast.Expression, ast.BinOp, ast.UnaryOp, ast.BoolOp, ast.Compare, ast.IfExp, ast.Call,
              ast.keyword, ast.Attribute, ast.Subscript, ast.Slice, ast.Tuple, ast.List, ast.Name, ast.Constant,
              ast.Load)
# What a construct is called in a refusal, for the ones people may try.
_REFUSED_NAMES = {ast.Lambda: "a lambda", ast.NamedExpr: "':='", ast.ListComp: "a comprehension",
                  ast.SetComp: "a comprehension", ast.DictComp: "a comprehension",
                  ast.GeneratorExp: "a generator expression", ast.Dict: "a dict", ast.Set: "a set",
                  ast.JoinedStr: "an f-string", ast.Starred: "'*' unpacking", ast.Await: "await",
                  ast.Yield: "yield", ast.YieldFrom: "yield"}


def _refuse(message: str) -> RunDescriptionError:
    return RunDescriptionError(f"{KEY}: {message}")


def validate(text: str) -> ast.Expression:
    """The parsed expression, or RunDescriptionError naming the first thing it may not use. Names are
    checked against the bindings later (`compile_check`), once the kernel's binding names are known."""
    try:
        tree = ast.parse(text.strip(), mode="eval")
    except SyntaxError as error:
        raise _refuse(f"not a Python expression ({error.msg})") from None
    # Constructs (outermost first: the lambda, not its arguments), then what is taken from `np`, then the
    # rest (innermost first: np.ctypeslib, not the .load_library called on it).
    for node in ast.walk(tree):
        if not isinstance(node, _OPERATORS + _STRUCTURE):
            what = _REFUSED_NAMES.get(type(node), f"'{type(node).__name__}'")
            raise _refuse(f"{what} is not allowed (only arithmetic, comparisons, indexing and the NumPy "
                          "functions listed in docs/runner.md)")
    nodes = list(reversed(list(ast.walk(tree))))
    for node in nodes:
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "np":
            _attribute(node)
    for node in nodes:
        if isinstance(node, ast.Name) and node.id.startswith("_"):
            raise _refuse(f"name '{node.id}' is not allowed")
        if isinstance(node, ast.Constant) and not isinstance(node.value, (int, float, complex, bool, str,
                                                                          type(None), type(...))):
            raise _refuse(f"the constant {node.value!r} is not allowed")
        if isinstance(node, ast.Attribute):
            _attribute(node)
        if isinstance(node, ast.Call):
            for keyword in node.keywords:
                if keyword.arg is None:
                    raise _refuse("'**' unpacking is not allowed")
                if keyword.arg not in KEYWORDS:
                    raise _refuse(f"keyword argument '{keyword.arg}=' is not allowed")
            if isinstance(node.func, ast.Name):
                raise _refuse(f"calling '{node.func.id}' is not allowed: only np.<function> and array methods "
                              "are called")
            if not isinstance(node.func, ast.Attribute):
                raise _refuse("only np.<function> and array methods can be called")
    # `np` alone (passed as an argument, indexed) would hand the module itself to a function.
    parents = {id(child): parent for parent in ast.walk(tree) for child in ast.iter_child_nodes(parent)}
    for node in nodes:
        if isinstance(node, ast.Name) and node.id == "np":
            parent = parents.get(id(node))
            if not (isinstance(parent, ast.Attribute) and parent.value is node):
                raise _refuse("'np' may only be used as np.<function>, e.g. np.sum(x)")
    return tree


def _attribute(node: ast.Attribute) -> None:
    name = node.attr
    if name.startswith("_"):
        raise _refuse(f"attribute '{name}' is not allowed")
    if isinstance(node.value, ast.Name) and node.value.id == "np":
        if name not in NUMPY_NAMES:
            raise _refuse(f"'np.{name}' is not allowed (it is not among the NumPy functions a check may "
                          "use; see docs/runner.md)")
        return
    if name not in ARRAY_NAMES:
        raise _refuse(f"'.{name}' is not allowed (it is not among the array methods and attributes a check "
                      "may use; see docs/runner.md)")


def compile_check(text: str, names) -> CodeType:
    """The expression compiled, once every name it uses is one of `names` (what the run binds)."""
    tree = validate(text)
    known = set(names)
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and node.id not in known:
            listed = ", ".join(sorted(known - {"np"})) or "none"
            raise _refuse(f"unknown name '{node.id}' (known: np, {listed})")
    with warnings.catch_warnings():  # "'float' object is not subscriptable" is reported when it fails
        warnings.simplefilter("ignore", SyntaxWarning)
        return compile(tree, "<check.expected>", "eval")


def _numpy_import(name, globals=None, locals=None, fromlist=(), level=0):
    """NumPy's array methods import NumPy's own modules lazily (x.sum() imports numpy._core._methods),
    and such an import looks `__import__` up in the calling frame's builtins, which here are these.
    Nothing but NumPy's modules can be imported through it."""
    if level == 0 and (name == "numpy" or name.startswith("numpy.")):
        return _builtins.__import__(name, globals, locals, fromlist, level)
    raise ImportError(f"a check expression cannot import {name}")


# The expression never sees these: every name it uses was checked against the bindings above.
_BUILTINS = {"__import__": _numpy_import}


def evaluate(code: CodeType, namespace: dict):
    """Runs a compiled check (from compile_check) over `namespace`; RunDescriptionError for its failures."""
    try:
        return eval(code, {"__builtins__": dict(_BUILTINS)}, dict(namespace))  # noqa: S307 - allowlisted above
    except RunDescriptionError:
        raise
    except Exception as error:  # noqa: BLE001 - the reference's own mistakes (shapes, types) are the user's
        raise _refuse(f"{type(error).__name__}: {error}") from None


def evaluate_check(text: str, namespace: dict):
    return evaluate(compile_check(text, namespace), namespace)
