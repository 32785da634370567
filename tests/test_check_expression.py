"""`[check] expected`: NumPy's array methods work, and nothing outside the allowlist is reachable.

The fuzzer builds expressions from the allowed grammar mixed with the names an attacker would reach for;
whatever the evaluator accepts is evaluated under an audit hook that records every event the
interpreter raises (file opens, imports, ctypes, subprocesses, exec of anything but the check itself),
and must raise none but NumPy importing its own modules.
"""

from __future__ import annotations

import ast
import sys
import threading
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from coop_lsp.runner.check_expression import compile_check, evaluate, evaluate_check, validate
from coop_lsp.runner.description import RunDescriptionError, parse_run_description
from coop_lsp.runner.execute import check_results


def namespace():
    return {"np": np, "G": 2, "K": 32, "x": np.arange(64, dtype=np.float32), "a": np.ones(16, np.float32)}


@pytest.mark.parametrize("text, expected", [
    ("x.reshape(G, 32).sum(axis=1)", [496, 1520]),
    ("x.mean()", 31.5),
    ("x.reshape(G, 32).mean(axis=1)", [15.5, 47.5]),
    ("x.max() - x.min()", 63),
    ("x.reshape(8, 8).T.ravel()[:2]", [0, 8]),
    ("x.astype(np.float64).std() > 18", True),
    ("x.clip(0, 3)[:5]", [0, 1, 2, 3, 3]),
    ("np.where(x > 60, 1, 0).sum()", 3),
    ("(a.reshape(4, 4) @ a.reshape(4, 4))[0]", [4, 4, 4, 4]),
    ("x.reshape(G, K).shape[1] + x.ndim", 33),
    ("x[::16].prod()", 0),
])
def test_array_methods_evaluate(text, expected):
    assert np.allclose(evaluate_check(text, namespace()), expected)


def test_expression_check_with_array_methods_is_judged():
    description = parse_run_description(
        'dispatch = [1]\n[sizes]\nG = 2\n[[binding]]\nbinding = 0\ntype = "f32"\nsize = 64\nfill = "random"\n'
        '[[binding]]\nbinding = 1\ntype = "f32"\nsize = 2\n'
        '[check]\nkind = "expression"\noutput = "s"\nexpected = "x.reshape(G, 32).sum(axis=1)"\n')
    x = np.random.default_rng(0).uniform(-1, 1, 64).astype(np.float32)
    sums = x.reshape(2, 32).sum(axis=1)
    [check] = check_results(description, {"x": x, "s": np.zeros(2, np.float32)}, {"s": sums}, {"s": "f32"})
    assert check.verdict == "correct"
    [wrong] = check_results(description, {"x": x, "s": np.zeros(2, np.float32)}, {"s": sums + 1}, {"s": "f32"})
    assert wrong.verdict == "incorrect"


@pytest.mark.parametrize("text, refused", [
    ("np.save('/tmp/coop-owned', x)", "'np.save'"),
    ("np.load('secrets.npy')", "'np.load'"),
    ("np.fromfile('/etc/passwd')", "'np.fromfile'"),
    ("np.ctypeslib.load_library('libc.so.6', '/lib').system(b'id')", "'np.ctypeslib'"),
    ("np.lib.format.open_memmap('x.npy', mode='w+')", "'np.lib'"),
    ("np.core.multiarray", "'np.core'"),
    ("np.genfromtxt('x')", "'np.genfromtxt'"),
    ("x.tofile('/tmp/x')", "'.tofile'"),
    ("x.ctypes.data", "'.ctypes'"),
    ("x.dump('/tmp/x')", "'.dump'"),
    ("x.__class__", "'__class__'"),
    ("x.T.__array_interface__", "'__array_interface__'"),
    ("__import__('os')", "'__import__'"),
    ("open('/etc/passwd')", "'open'"),
    ("(lambda: 0)()", "a lambda"),
    ("[v for v in x]", "a comprehension"),
    ("{'a': x}", "a dict"),
    ("f'{x}'", "an f-string"),
    ("np", "'np' may only be used"),
    ("x.sum(out=x)", "'out='"),
    ("np.array(x, like=x)", "'like='"),
    ("np.sum(*[x])", "'*' unpacking"),
    ("(y := x)", "':='"),
    ("x.sum()()", "only np.<function>"),
])
def test_refused_before_anything_runs(text, refused):
    with pytest.raises(RunDescriptionError) as caught:
        validate(text)
    assert refused in str(caught.value) and str(caught.value).startswith("check.expected: ")
    assert "\n" not in str(caught.value)


def test_unknown_name_is_named_with_the_known_ones():
    with pytest.raises(RunDescriptionError, match=r"unknown name 'y' \(known: np, G, K, a, x\)"):
        compile_check("y + 1", namespace())


def test_run_description_refuses_at_parse_time():
    with pytest.raises(RunDescriptionError, match=r"^k.run.toml: check.expected: 'np.save' is not allowed"):
        parse_run_description('dispatch = [1]\n[check]\nkind = "expression"\noutput = "c"\n'
                              'expected = "np.save(\'x\', c)"\n', Path("k.run.toml"))


def test_imports_other_than_numpy_fail_inside_the_evaluation():
    # The builtins the evaluation gets hold only an importer for NumPy's lazy imports.
    code = compile("__import__('os')", "<check.expected>", "eval")  # what validate() would have refused
    with pytest.raises(RunDescriptionError, match="cannot import os"):
        evaluate(code, {})


# ------------------------------------------------------------------ fuzzing
_EVENTS: list[tuple[str, tuple]] = []
_WATCHING = threading.local()


def _hook(event: str, args: tuple) -> None:
    if getattr(_WATCHING, "on", False):
        _EVENTS.append((event, args))


sys.addaudithook(_hook)  # audit hooks cannot be removed; this one records only while a check evaluates


def _allowed_event(event: str, args: tuple, code) -> bool:
    if event == "exec":
        return args[0] is code
    return event == "import" and (args[0] == "numpy" or str(args[0]).startswith("numpy."))


DANGEROUS_ATTRIBUTES = ["save", "load", "fromfile", "ctypeslib", "lib", "tofile", "ctypes", "__class__", "base",
                        "data", "__globals__", "system", "view", "mro", "__subclasses__", "os", "memmap", "core",
                        "dump", "setfield", "fill", "_core", "testing", "f2py", "distutils"]
ALLOWED_ATTRIBUTES = ["reshape", "sum", "mean", "T", "shape", "dtype", "astype", "max", "ravel", "clip"]
NUMPY_ATTRIBUTES = ["sum", "where", "matmul", "sqrt", "abs", "float32", "pi", "arange", "zeros", "clip"]
NAMES = ["x", "a", "G", "K", "np", "y", "open", "__import__", "__builtins__", "eval", "getattr", "print"]


def _expressions():
    leaves = st.one_of(
        st.sampled_from(NAMES),
        # Small numbers: `**` is left out and sizes stay small, so that no accepted expression asks for
        # gigabytes (a check's cost is its author's business; the fuzzer is about what it can reach).
        st.sampled_from(["0", "1", "2", "3", "-1", "8", "32"]),
        st.floats(-2, 2, allow_nan=False).map(lambda v: repr(round(v, 3))),
        st.sampled_from(["np." + n for n in NUMPY_ATTRIBUTES + DANGEROUS_ATTRIBUTES]),
        st.sampled_from(["'/tmp/coop-fuzz'", "'libc.so.6'", "b'id'", "None", "..."]),
    )

    def grow(inner):
        return st.one_of(
            st.tuples(inner, st.sampled_from(["+", "-", "*", "/", "//", "%", "@", "<", "==", "&", "and"]),
                      inner).map(lambda t: f"({t[0]} {t[1]} {t[2]})"),
            st.tuples(inner, st.sampled_from(ALLOWED_ATTRIBUTES + DANGEROUS_ATTRIBUTES)).map(
                lambda t: f"{t[0]}.{t[1]}"),
            st.tuples(inner, st.lists(inner, max_size=3)).map(lambda t: f"{t[0]}({', '.join(t[1])})"),
            st.tuples(inner, st.sampled_from(["axis", "out", "dtype", "like", "keepdims"]), inner).map(
                lambda t: f"{t[0]}({t[1]}={t[2]})"),
            st.tuples(inner, inner).map(lambda t: f"{t[0]}[{t[1]}]"),
            inner.map(lambda e: f"{e}[::2]"),
            st.lists(inner, min_size=1, max_size=3).map(lambda items: f"[{', '.join(items)}]"),
            inner.map(lambda e: f"(lambda q: {e})(1)"),
            inner.map(lambda e: f"[q for q in {e}]"),
            inner.map(lambda e: f"-{e}"),
        )

    return st.recursive(leaves, grow, max_leaves=8)


def test_the_audit_hook_sees_what_a_refused_expression_would_do(tmp_path):
    # The fuzzer's proof is only as good as its hook: bypassing the allowlist, np.save is seen opening a file.
    target = tmp_path / "owned.npy"
    code = compile(f"np.save({str(target)!r}, x)", "<check.expected>", "eval")
    _EVENTS.clear()
    _WATCHING.on = True
    try:
        evaluate(code, namespace())
    finally:
        _WATCHING.on = False
    assert any(event == "open" for event, _ in _EVENTS) and target.exists()


ACCEPTED = []


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_expressions())
def test_fuzzed_expressions_touch_only_the_bindings(text):
    names = namespace()
    try:
        code = compile_check(text, names)
    except RunDescriptionError as error:
        assert str(error).startswith("check.expected: ") and "\n" not in str(error)
        return
    ACCEPTED.append(text)
    # Accepted: it names only bindings and listed attributes, and evaluating it raises no event but its
    # own exec and NumPy's imports of itself.
    tree = ast.parse(text, mode="eval")
    assert {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)} <= set(names), text
    attributes = {n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute)}
    assert not attributes & set(DANGEROUS_ATTRIBUTES), text
    before = {k: (v.copy() if isinstance(v, np.ndarray) else v) for k, v in names.items()}
    _EVENTS.clear()
    _WATCHING.on = True
    try:
        with np.errstate(all="ignore"):
            evaluate(code, names)
    except RunDescriptionError as error:
        assert "\n" not in str(error)
    finally:
        _WATCHING.on = False
    unexpected = [(e, a) for e, a in _EVENTS if not _allowed_event(e, a, code)]
    assert not unexpected, (text, unexpected[:3])
    for key, value in before.items():  # the bindings themselves are left as they were
        assert value is names[key] or np.array_equal(value, names[key]), key


def test_the_fuzzer_reached_accepted_expressions():
    # Run after the fuzz test (file order): a generator that only ever produced refusals would prove nothing.
    assert len(ACCEPTED) >= 40, len(ACCEPTED)


def test_every_listed_numpy_name_exists_is_no_module_and_is_documented():
    import types

    from coop_lsp.runner import check_expression as listed

    docs = (Path(__file__).resolve().parent.parent / "docs" / "runner.md").read_text()
    for name in listed.NUMPY_NAMES:
        assert hasattr(np, name), name
        assert not isinstance(getattr(np, name), types.ModuleType), name
        assert f"`{name}`" in docs, name
    for name in listed.ARRAY_NAMES | listed.KEYWORDS:
        assert f"`{name}`" in docs, name
