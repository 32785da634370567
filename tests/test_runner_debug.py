"""Prints and watches (issue 34): `// coop: print`, `// coop: watch`, naga's debugPrintf and
`--watch EXPR@LINE`, recorded by `coop-lint run` per workgroup, subgroup and lane.

The lint rules (R002, R003) need nothing; the runs need wgpu-native with an adapter (lavapipe in CI) and
skip without one, as tests/test_runner_run.py does.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

from coop_lsp.cli.main import main as cli_main
from coop_lsp.lint import lint_source
from coop_lsp.lint.fixes import apply_edits
from coop_lsp.runner.description import parse_run_description
from coop_lsp.runner.execute import run_kernel

DOUBLE = """\
@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage, read_write> out: array<f32>;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
    let i = gid.x;
    let v = a[i] * 2.0;
    out[i] = v; // coop: watch v, i
    // coop: print "i=%u v=%f", i, v
}
"""

DOUBLE_RUN = """\
dispatch = [2]
[[binding]]
binding = 0
type = "f32"
size = 128
fill = "random"
seed = 3
[[binding]]
binding = 1
type = "f32"
size = 128
[check]
kind = "expression"
output = "out"
expected = "2 * a"
[timing]
warmup = 0
repetitions = 1
"""


def codes(text: str) -> list[str]:
    return [d.code for d in lint_source(text).diagnostics]


# ------------------------------------------------------------------ lint
def test_a_print_left_in_a_kernel_is_a_warning_whose_fix_removes_it():
    result = lint_source(DOUBLE)
    left = [d for d in result.diagnostics if d.code == "R002"]
    assert len(left) == 2 and "R003" not in codes(DOUBLE)
    fixed = apply_edits(DOUBLE.encode(), [e for d in left for e in d.fixes[0].edits]).decode()
    assert "coop:" not in fixed
    assert "    out[i] = v;\n}" in fixed  # the watch's code stays, the print's own line goes
    assert "R002" not in codes(fixed)


@pytest.mark.parametrize("comment, message", [
    ('// coop: print "i=%u v=%f", i', "has 2 conversion(s) but the print passes 1 value(s)"),
    ('// coop: print "i=%u", i, v', "has 1 conversion(s) but the print passes 2 value(s)"),
    ('// coop: print "v=%d", v', "'%d' (conversion 1) does not take a f32"),
    ('// coop: print "i=%f", i', "'%f' (conversion 1) does not take a u32"),
    ('// coop: print "x=%q", 1u', "'%q' (conversion 1) is not a conversion"),
    ("// coop: print i", "format string in double quotes"),
])
def test_a_format_that_does_not_match_its_values_is_an_error(comment, message):
    text = DOUBLE.replace('// coop: print "i=%u v=%f", i, v', comment)
    found = [d for d in lint_source(text).diagnostics if d.code == "R003"]
    assert len(found) == 1 and message in found[0].message


def test_formats_that_match_are_quiet():
    for comment in ('// coop: print "%u %x %d %f %%", i, i, 3i, v', '// coop: print "%v", gid',
                    '// coop: print "no values"'):
        assert "R003" not in codes(DOUBLE.replace('// coop: print "i=%u v=%f", i, v', comment)), comment


def test_a_name_in_another_function_does_not_type_a_print():
    text = ("fn other() { let v = 1u; }\n" + DOUBLE).replace('"i=%u v=%f", i, v', '"v=%f", v')
    assert "R003" not in codes(text)


# naga's spelling: the format is a string literal, which WGSL otherwise lacks.
NAGA_PRINT = "enable wgpu_debug_printf;\n" + DOUBLE.replace(
    '    // coop: print "i=%u v=%f", i, v\n', '    debugPrintf("v=%f at %u", out[i], i);\n').replace(
    " // coop: watch v, i", "")


def test_naga_debug_printf_parses_and_is_typed():
    found = codes(NAGA_PRINT)
    assert "S001" not in found and "R003" not in found
    # Released naga (29.0.4, 30.0.1) refuses the enable: that stays its one error (tests/spec/semantic).
    errors = [d for d in lint_source(NAGA_PRINT).diagnostics if d.severity.name == "ERROR"]
    assert [d.message for d in errors] == ["unknown extension 'wgpu_debug_printf'"]


def test_a_debug_printf_left_in_a_kernel_is_a_warning_whose_fix_removes_its_line():
    left = [d for d in lint_source(NAGA_PRINT).diagnostics if d.code == "R002"]
    assert len(left) == 1 and "'debugPrintf' is still in the kernel" in left[0].message
    fixed = apply_edits(NAGA_PRINT.encode(), [e for e in left[0].fixes[0].edits]).decode()
    assert "debugPrintf" not in fixed and "    out[i] = v;\n}" in fixed
    on_a_line = NAGA_PRINT.replace('out[i] = v;\n    debugPrintf', 'out[i] = v;  debugPrintf')
    left = [d for d in lint_source(on_a_line).diagnostics if d.code == "R002"]
    fixed = apply_edits(on_a_line.encode(), [e for e in left[0].fixes[0].edits]).decode()
    assert "    out[i] = v;\n}" in fixed  # the statement and the blanks before it go, the line stays


@pytest.mark.parametrize("call, message", [
    ('debugPrintf("v=%f", out[i], i)', "has 1 conversion(s) but the print passes 2 value(s)"),
    ('debugPrintf("v=%u at %u", out[i], i)', "'%u' (conversion 1) does not take a f32"),
    ('debugPrintf("%v %d", gid, 2.5)', "'%d' (conversion 2) does not take a f32"),
])
def test_a_debug_printf_format_that_does_not_match_its_values_is_an_error(call, message):
    text = NAGA_PRINT.replace('debugPrintf("v=%f at %u", out[i], i)', call)
    found = [d for d in lint_source(text).diagnostics if d.code == "R003"]
    assert len(found) == 1 and message in found[0].message
    assert text[found[0].span.start:found[0].span.end].startswith('"')  # on the format string


def test_a_string_anywhere_else_and_a_print_without_its_format_are_errors():
    text = NAGA_PRINT.replace("let v = a[i] * 2.0;", 'let v = a[i] * max("2", 1.0);')
    assert any(d.code == "T004" and "WGSL has no strings" in d.message for d in lint_source(text).diagnostics)
    text = NAGA_PRINT.replace('debugPrintf("v=%f at %u", out[i], i)', "debugPrintf(out[i])")
    assert any(d.code == "T004" and "format string first" in d.message for d in lint_source(text).diagnostics)
    missing = NAGA_PRINT.replace("enable wgpu_debug_printf;\n", "")
    assert any(d.code == "T007" and "wgpu_debug_printf" in d.message for d in lint_source(missing).diagnostics)


def test_a_debug_printf_format_mismatch_is_refused_before_running(tmp_path):
    kernel = tmp_path / "k.wgsl"
    kernel.write_text(NAGA_PRINT.replace('"v=%f at %u"', '"v=%d at %u"'))
    report = run_kernel(kernel, parse_run_description(DOUBLE_RUN, tmp_path / "k.run.toml"))
    assert report.status == "error" and "'%d'" in report.error
    assert not report.adapter and not report.checks and not report.debug  # nothing ran


# ------------------------------------------------------------------ refused before running
def test_a_format_mismatch_is_refused_before_running(tmp_path):
    kernel = tmp_path / "k.wgsl"
    kernel.write_text(DOUBLE.replace('"i=%u v=%f", i, v', '"i=%u v=%d", i, v'))
    report = run_kernel(kernel, parse_run_description(DOUBLE_RUN, tmp_path / "k.run.toml"))
    assert report.status == "error" and "R003" in report.error and "'%d'" in report.error
    assert not report.adapter and not report.checks and not report.debug  # nothing ran


def test_a_watch_that_does_not_type_check_is_refused_naming_it(tmp_path):
    kernel = tmp_path / "k.wgsl"
    kernel.write_text(DOUBLE)
    report = run_kernel(kernel, parse_run_description(DOUBLE_RUN, tmp_path / "k.run.toml"),
                        debug={"watches": ["v + 1.0@8", "v + nope@8"]})
    assert report.status == "error" and not report.checks and not report.adapter
    assert "the watch expression 'v + nope' does not type-check" in report.error
    assert "'nope'" in report.error


def test_a_watch_of_a_value_with_no_type_to_record_is_refused(tmp_path):
    kernel = tmp_path / "k.wgsl"
    kernel.write_text(DOUBLE)
    report = run_kernel(kernel, parse_run_description(DOUBLE_RUN, tmp_path / "k.run.toml"),
                        debug={"watches": ["a@8"]})
    assert report.status == "error" and "'a'" in report.error


# ------------------------------------------------------------------ runs
def test_prints_and_watches_on_a_plain_kernel_on_wgpu_native(adapter, tmp_path):
    kernel = tmp_path / "k.wgsl"
    kernel.write_text(DOUBLE)
    description = parse_run_description(DOUBLE_RUN, tmp_path / "k.run.toml")
    report = run_kernel(kernel, description)
    assert report.status == "correct" and not report.emulated and report.backend == "wgpu", report.render()
    a = np.random.default_rng(3).uniform(-1, 1, 128).astype(np.float32)
    debug = report.debug
    sites = debug["sites"]
    assert [(s["kind"], s["line"]) for s in sites] == [("watch", 8), ("print", 9)]
    assert sites[0]["column"] == DOUBLE.splitlines()[7].index("//") + 1
    prints = [r for r in debug["records"] if r["site"] == 1]
    watches = [r for r in debug["records"] if r["site"] == 0]
    # Every invocation prints; the watch keeps the first workgroup (this kernel has no subgroups).
    assert len(prints) == 128 and len(watches) == 64 and debug["count"] == 192 and debug["overflow"] == 0
    for r in prints:
        i = r["values"][0]
        assert i == r["workgroup"][0] * 64 + r["lane"] and r["subgroup"] is None
        assert r["values"][1] == pytest.approx(2 * float(a[i]), rel=1e-6)
    assert sorted(r["lane"] for r in watches) == list(range(64))
    for r in watches:
        v, i = r["values"]
        assert r["workgroup"] == [0, 0, 0] and i == r["lane"] and v == pytest.approx(2 * float(a[i]), rel=1e-6)
    text = report.render("text")
    assert "debug: 192 record(s) written, cap 4096" in text
    assert f"line 9 wg(0,0,0) lane 5: i=5 v={2 * float(a[5]):g}" in text
    assert "line 8 wg(0,0,0) lane 5: v = " in text


def test_naga_debug_printf_runs_on_wgpu_native(adapter, tmp_path):
    kernel = tmp_path / "k.wgsl"
    kernel.write_text("enable wgpu_debug_printf;\n" + DOUBLE.replace(
        '    // coop: print "i=%u v=%f", i, v\n', '    debugPrintf("v=%f at %u", out[i], i);\n').replace(
        " // coop: watch v, i", ""))
    report = run_kernel(kernel, parse_run_description(DOUBLE_RUN, tmp_path / "k.run.toml"))
    assert report.status == "correct", report.render()
    records = report.debug["records"]
    assert len(records) == 128 and report.debug["sites"][0]["line"] == 10
    assert {r["values"][1] for r in records} == set(range(128))


def test_the_cap_holds_for_a_print_in_a_long_loop(adapter, tmp_path):
    # 50,000 iterations in each of 64 invocations: 3.2 million prints into a cap of 1,000 records. Not
    # 100,000 in one: lavapipe stops every loop of an invocation after 65,535 iterations in all.
    kernel = tmp_path / "k.wgsl"
    kernel.write_text(
        "@group(0) @binding(0) var<storage, read_write> out: array<u32>;\n"
        "@compute @workgroup_size(64)\n"
        "fn main(@builtin(local_invocation_index) li: u32) {\n"
        "    var s = 0u;\n"
        "    for (var j = 0u; j < 50000u; j++) {\n"
        "        s += j & 1u;\n"
        "        // coop: print \"j=%u\", j\n"
        "    }\n"
        "    out[li] = s;\n"
        "}\n")
    description = parse_run_description(
        'dispatch = [1]\n[[binding]]\nbinding = 0\ntype = "u32"\nsize = 64\n'
        '[check]\nkind = "expression"\noutput = "out"\nexpected = "np.full(64, 25000)"\n'
        "[timing]\nwarmup = 0\nrepetitions = 1\n", tmp_path / "k.run.toml")
    report = run_kernel(kernel, description, debug={"limit": 1000})
    assert report.status == "correct", report.render()
    debug = report.debug
    assert len(debug["records"]) == 1000 and debug["limit"] == 1000
    assert debug["count"] == 3_200_000 and debug["overflow"] == 3_199_000
    assert "3199000 past the cap were dropped" in report.render("text")


CHROMIUM = """\
enable f16;
enable chromium_experimental_subgroup_matrix;
@group(0) @binding(0) var<storage, read_write> c: array<f32>;

@compute @workgroup_size(64)
fn main(@builtin(subgroup_invocation_id) lane: u32, @builtin(subgroup_id) sg: u32,
        @builtin(local_invocation_index) li: u32) {
    var m = subgroup_matrix_result<f32, 8, 8>(f32(sg) + 3.0);
    subgroupMatrixStore<row_major>(&c, sg * 64u, m, 8u);
    // coop: print "lane=%u sg=%u li=%u", lane, sg, li
}
"""


def test_prints_through_the_emulation_carry_its_lanes(adapter, tmp_path):
    kernel = tmp_path / "k.wgsl"
    kernel.write_text(CHROMIUM)
    description = parse_run_description(
        'dispatch = [2]\n[[binding]]\nbinding = 0\ntype = "f32"\nsize = 256\n'
        "[timing]\nwarmup = 0\nrepetitions = 1\n", tmp_path / "k.run.toml")
    report = run_kernel(kernel, description, backend="emulate", debug={"watches": ["li * 2u@10", "m@9"]})
    assert report.emulated and report.status == "unchecked", report.render()
    lanes = report.subgroups["used"]
    prints = [r for r in report.debug["records"] if r["site"] == 2]
    watches = [r for r in report.debug["records"] if r["site"] == 1]
    shares = [r for r in report.debug["records"] if r["site"] == 0]
    assert len(prints) == 128
    for r in prints:
        lane, sg, li = r["values"]
        # The record's ids are the emulation's: the kernel's own builtins, rewritten by it, agree.
        assert (r["lane"], r["subgroup"]) == (lane, sg) == (li % lanes, li // lanes)
    # The default watch: the first subgroup of the first workgroup.
    assert sorted(r["lane"] for r in watches) == list(range(lanes))
    assert all(r["workgroup"] == [0, 0, 0] and r["subgroup"] == 0 and r["values"] == [2 * r["lane"]]
               for r in watches)
    # The matrix, filled with 3 + the subgroup's number, as each lane's share: together the 64 elements.
    share = report.debug["sites"][0]["shares"]["0"]
    assert share * lanes >= 64 and len(shares) == lanes
    assert all(r["values"][0] == [3.0] * share for r in shares)


def test_cli_json_carries_the_records(adapter, tmp_path, capsys):
    kernel = tmp_path / "k.wgsl"
    kernel.write_text(DOUBLE.replace(" // coop: watch v, i", ""))
    (tmp_path / "k.run.toml").write_text(DOUBLE_RUN)
    code = cli_main(["run", str(kernel), "--format", "json", "--watch", "i@7", "--watch-lanes", "all",
                     "--print-limit", "100"])
    assert code == 0
    out = json.loads(capsys.readouterr().out)
    debug = out["debug"]
    assert debug["sites"][0] == {"index": 0, "kind": "watch", "line": 7, "column": 15, "format": "",
                                 "expressions": ["i"], "types": ["u32"], "shares": {}}
    assert debug["limit"] == 100 and debug["count"] == 256 and debug["overflow"] == 156
    assert all(set(r) == {"site", "workgroup", "subgroup", "lane", "values"} for r in debug["records"])


def test_tint_accepts_the_instrumented_kernel_that_dawn_runs(tint):
    # Dawn runs matrix kernels natively: the ids come from the adapter's subgroup builtins, added to the
    # entry point; Tint must take them beside the kernel's own subgroup_id (examples/chromium/gemm_tiled).
    from pathlib import Path

    from coop_lsp.runner.debug_print import instrument_module, sites_of
    from coop_lsp.runner.kernel import load_kernel
    from coop_lsp.runner.lowering import to_tint

    lines = (Path(__file__).parent.parent / "examples" / "chromium" / "gemm_tiled.wgsl").read_text().splitlines()
    store = next(i for i, line in enumerate(lines) if "subgroupMatrixStore<" in line)
    lines.insert(store + 1, '            // coop: print "row=%u col=%u", row, col')
    k_loop = next(i for i, line in enumerate(lines) if "for (var kk = " in line) + 1
    sites, text = sites_of("\n".join(lines) + "\n", {"watches": [f"step, kk@{k_loop}"]})
    done, instrumented, module = instrument_module(text, load_kernel(text), sites, "main", False, 32, {})
    assert "@builtin(subgroup_invocation_id) coop_dbg_subgroup_invocation_id: u32" in instrumented
    result = tint.compile(to_tint(instrumented, module).text)
    assert result.accepted, [e.message for e in result.errors]


def test_vectors_matrices_and_signed_values_come_back_whole(adapter, tmp_path):
    kernel = tmp_path / "k.wgsl"
    kernel.write_text(DOUBLE.replace(" // coop: watch v, i", "").replace('    // coop: print "i=%u v=%f", i, v\n', ""))
    report = run_kernel(kernel, parse_run_description(DOUBLE_RUN, tmp_path / "k.run.toml"), debug={"watches": [
        "vec3<f32>(f32(i), 0.5, -2.0), mat2x2<f32>(1.0, 2.0, 3.0, f32(i)), -i32(i), i == 3u@8"]})
    assert report.status == "correct", report.render()
    records = report.debug["records"]
    assert report.debug["sites"][0]["types"] == ["vec3<f32>", "mat2x2<f32>", "i32", "bool"]
    assert len(records) == 64
    for r in records:
        i = r["lane"]
        assert r["values"] == [[float(i), 0.5, -2.0], [[1.0, 2.0], [3.0, float(i)]], -i, i == 3]


@pytest.mark.parametrize("example", ["wgpu/gemm_naive", "standard/gemm_naive", "chromium/gemm_naive"])
def test_tint_accepts_watches_in_every_dialect_translated_for_dawn(tint, example):
    from pathlib import Path

    from coop_lsp.runner.debug_print import instrument_module, sites_of
    from coop_lsp.runner.kernel import load_kernel
    from coop_lsp.runner.lowering import to_tint

    text = (Path(__file__).parent.parent / "examples" / f"{example}.wgsl").read_text()
    k_loop = next(i for i, line in enumerate(text.splitlines(), 1) if "for (var k" in line)
    sites, text = sites_of(text, {"watches": [f"k@{k_loop}"]})
    done, instrumented, module = instrument_module(text, load_kernel(text), sites, None, False, 32, {})
    result = tint.compile(to_tint(instrumented, module).text)
    assert result.accepted, [e.message for e in result.errors]


# ------------------------------------------------------------------ --show-lowered
@pytest.mark.parametrize("backend", ["wgpu", "dawn"])
def test_show_lowered_shows_the_instrumented_kernel(tmp_path, capsys, backend):
    kernel = tmp_path / "k.wgsl"
    kernel.write_text(NAGA_PRINT)
    assert cli_main(["run", str(kernel), "--show-lowered", "--backend", backend, "--watch", "v@8",
                     "--print-limit", "16"]) == 0
    shown = capsys.readouterr().out
    # The print and the watch are appends into the hidden buffer; naga's spelling and its enable are gone.
    assert "var<storage, read_write> coop_dbg_buf: array<atomic<u32>>" in shown
    assert shown.count("coop_dbg_slot(") == 3  # the helper, the watch's site and the print's site
    assert "if (n >= 16u)" in shown  # --print-limit is the cap
    assert "debugPrintf" not in shown and "wgpu_debug_printf" not in shown
    lines = shown.splitlines()
    assert "coop_dbg_slot(0u)" in lines[7] and "coop_dbg_slot(1u)" in lines[9]  # at the sites' own lines


def test_show_lowered_without_prints_or_watches_is_the_kernel_as_before(tmp_path, capsys):
    kernel = tmp_path / "k.wgsl"
    plain = DOUBLE.replace(" // coop: watch v, i", "").replace('    // coop: print "i=%u v=%f", i, v\n', "")
    kernel.write_text(plain)
    assert cli_main(["run", str(kernel), "--show-lowered"]) == 0
    shown = capsys.readouterr().out
    assert "coop_dbg" not in shown and "a[i] * 2.0" in shown


def test_hover_on_debug_printf_names_its_conversions_and_its_enable():
    from coop_lsp.ide.analysis import Analysis
    from coop_lsp.ide.hover import hover

    found = hover(Analysis.of(NAGA_PRINT), NAGA_PRINT.index("debugPrintf") + 3)
    assert found is not None and 'debugPrintf("format", values...)' in found.markdown
    assert "`%u`" not in found.markdown and "%d %i %u %x" in found.markdown
    assert "enable wgpu_debug_printf;" in found.markdown
