"""Templates: directives, placeholders, WESL and naga_oil turned into WGSL, checked variant by variant,
with every finding on the line of the file the author edits (docs/templates.md)."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest

from coop_lsp.core.text import SourceText
from coop_lsp.lint.config import ConfigError, load
from coop_lsp.lint.templates import MAX_VARIANTS, TemplateOptions, Variant, lint_template, options_for
from coop_lsp.source import FileCache, expand, is_template
from coop_lsp.source.interpolate import interpolate

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples" / "templates"


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def lines_of(data: bytes) -> list[str]:
    return [line.strip() for line in data.decode().splitlines() if line.strip()]


def where(path: Path, offset: int) -> tuple[int, int]:
    """1-based line and column of a byte offset in a file."""
    position = SourceText.from_bytes(path.read_bytes()).position(offset)
    return position.line + 1, position.column + 1


def codes(problems) -> list[str]:
    return [p.code for p in problems]


# -- directives ---------------------------------------------------------------

def test_conditionals_pick_the_branch_the_defines_select(tmp_path):
    path = write(tmp_path, "k.wgsl", "\n".join([
        "#define TILE 16u",
        "#ifdef VEC", "alias T = vec4<f32>;", "#else", "alias T = f32;", "#endif",
        "#ifndef VEC", "const scalar = 1;", "#endif",
        "#if TILE > 8 && defined(VEC)", "const big = TILE;", "#elif TILE == 16", "const sixteen = TILE;",
        "#else", "const other = 0;", "#endif",
        "#undef TILE", "#ifdef TILE", "const still = 1;", "#endif", ""]))
    vec = expand(path, path.read_bytes(), {"VEC": ""})
    assert lines_of(vec.data) == ["alias T = vec4<f32>;", "const big = 16u;"]
    scalar = expand(path, path.read_bytes(), {})
    assert lines_of(scalar.data) == ["alias T = f32;", "const scalar = 1;", "const sixteen = 16u;"]
    assert vec.problems == [] and scalar.problems == []


def test_lines_stay_lines_so_positions_need_no_search(tmp_path):
    path = write(tmp_path, "k.wgsl", "#ifdef A\nconst a = 1;\n#endif\nconst b = 2;\n")
    expansion = expand(path, path.read_bytes(), {})
    assert expansion.data == b"\n\n\nconst b = 2;\n"


def test_if_expressions_use_integer_values_of_macros_and_parentheses(tmp_path):
    path = write(tmp_path, "k.wgsl", "#define W 0x10\n#if (W * 2 - 1) % 7 == 3 && !defined(X) && (1 ? 2 : 0) "
                                     "&& (4 >> 1) == 2\nconst yes = 1;\n#endif\n")
    assert lines_of(expand(path, path.read_bytes(), {}).data) == ["const yes = 1;"]


def test_a_given_define_wins_over_the_files_define_only_when_asked(tmp_path):
    path = write(tmp_path, "k.wgsl", "#define TILE 8u\nconst t = TILE;\n")
    as_in_c = expand(path, path.read_bytes(), {"TILE": "16u"})
    as_in_ggml = expand(path, path.read_bytes(), {"TILE": "16u"}, override_file_defines=True)
    assert lines_of(as_in_c.data) == ["const t = 8u;"]
    assert lines_of(as_in_ggml.data) == ["const t = 16u;"]


def test_macros_expand_inside_macros_but_not_in_comments(tmp_path):
    path = write(tmp_path, "k.wgsl", "#define A (B + 1u)\n#define B 2u\nconst x = A; // A stays\n")
    assert lines_of(expand(path, path.read_bytes(), {}).data) == ["const x = (2u + 1u); // A stays"]


def test_continued_directive_lines_are_one_directive(tmp_path):
    path = write(tmp_path, "k.wgsl", "#if defined(A) || \\\n    defined(B)\nconst x = 1;\n#endif\n")
    expansion = expand(path, path.read_bytes(), {"B": ""})
    assert lines_of(expansion.data) == ["const x = 1;"] and expansion.problems == []


def test_include_is_searched_beside_the_file_then_in_include_dirs(tmp_path):
    write(tmp_path, "lib/shared.tmpl", "const from_dir = 1;\n")
    write(tmp_path, "src/near.tmpl", "const near = 2;\n")
    path = write(tmp_path, "src/k.wgsl", '#include "near.tmpl"\n#include "shared.tmpl"\nconst after = 3;\n')
    expansion = expand(path, path.read_bytes(), {}, include_dirs=[tmp_path / "lib"])
    assert lines_of(expansion.data) == ["const near = 2;", "const from_dir = 1;", "const after = 3;"]
    assert expansion.problems == []


def test_plain_wgsl_passes_through_untouched():
    data = (ROOT / "examples" / "chromium" / "gemm_tiled.wgsl").read_bytes()
    assert not is_template(data)
    expansion = expand(None, data, {})
    assert expansion.data is data and expansion.plain


# -- errors in directives -------------------------------------------------------

def test_a_missing_include_is_reported_on_the_file_name(tmp_path):
    path = write(tmp_path, "k.wgsl", 'const a = 1;\n#include "nowhere.tmpl"\n')
    (problem,) = expand(path, path.read_bytes(), {}).problems
    assert problem.code == "M001" and "nowhere.tmpl" in problem.message
    assert where(path, problem.span.start) == (2, 11)


def test_an_include_cycle_is_reported_and_stops(tmp_path):
    write(tmp_path, "a.tmpl", '#include "b.tmpl"\nconst a = 1;\n')
    write(tmp_path, "b.tmpl", '#include "a.tmpl"\nconst b = 1;\n')
    path = write(tmp_path, "k.wgsl", '#include "a.tmpl"\n')
    expansion = expand(path, path.read_bytes(), {})
    assert codes(expansion.problems) == ["M002"]
    assert expansion.origins.files[expansion.problems[0].file].name == "b.tmpl"
    assert lines_of(expansion.data) == ["const b = 1;", "const a = 1;"]


def test_unbalanced_conditionals_are_reported_where_they_are(tmp_path):
    path = write(tmp_path, "k.wgsl", "#endif\n#ifdef A\nconst a = 1;\n")
    problems = expand(path, path.read_bytes(), {}).problems
    assert sorted((p.code, where(path, p.span.start)[0]) for p in problems) == [("M003", 1), ("M003", 2)]
    path = write(tmp_path, "k2.wgsl", "#else\n#if 1\n#else\n#else\n#endif\n")
    assert [where(path, p.span.start)[0] for p in expand(path, path.read_bytes(), {}).problems] == [1, 4]


def test_a_macro_that_expands_to_itself_is_left_and_reported_without_hanging(tmp_path):
    path = write(tmp_path, "k.wgsl", "#define A (A + B)\n#define B A\nconst x = A;\n")
    started = time.perf_counter()
    expansion = expand(path, path.read_bytes(), {})
    assert time.perf_counter() - started < 1
    assert lines_of(expansion.data) == ["const x = (A + A);"]
    assert "M004" in codes(expansion.problems)
    assert where(path, expansion.problems[0].span.start) == (3, 11)


def test_a_chain_of_macros_is_capped(tmp_path):
    chain = "".join(f"#define M{i} (M{i + 1} + M{i + 1})\n" for i in range(40))
    path = write(tmp_path, "k.wgsl", chain + "#define M40 1\nconst x = M0;\n")
    started = time.perf_counter()
    expansion = expand(path, path.read_bytes(), {})
    assert time.perf_counter() - started < 5
    assert "M004" in codes(expansion.problems)


def test_a_placeholder_without_value_is_reported_and_its_consequences_are_not(tmp_path):
    path = write(tmp_path, "k.wgsl", "@compute @workgroup_size({{WG}})\nfn main() { let s = ${SCALE}; }\n")
    lint = lint_template(path, path.read_bytes(), TemplateOptions())
    assert [(d.code, where(path, d.span.start)) for d in lint.main] == [("M005", (1, 26)), ("M005", (2, 21))]
    lint = lint_template(path, path.read_bytes(), TemplateOptions((Variant(None, (("WG", "64"), ("SCALE", "2.0"))),)))
    assert lint.main == []


def test_unknown_directives_and_unreadable_conditions_are_reported(tmp_path):
    path = write(tmp_path, "k.wgsl", "#pragmatic x\n#if 1 +\n#endif\n#define\n")
    problems = expand(path, path.read_bytes(), {}).problems
    assert [(p.code, where(path, p.span.start)[0]) for p in problems] == [("M006", 1), ("M006", 2), ("M006", 4)]


# -- positions ----------------------------------------------------------------------

def test_findings_in_an_included_file_are_on_its_own_lines(tmp_path):
    write(tmp_path, "inc.tmpl", "// shared\nfn helper() -> u32 {\n    return undefined_thing;\n}\n")
    path = write(tmp_path, "k.wgsl", '#define X 1u\n#include "inc.tmpl"\nfn main() { let a: f32 = X; }\n')
    lint = lint_template(path, path.read_bytes(), TemplateOptions())
    included = [i for i, f in enumerate(lint.files) if f is not None and f.name == "inc.tmpl"]
    (finding,) = lint.diagnostics[included[0]]
    assert finding.code == "T001" and where(tmp_path / "inc.tmpl", finding.span.start) == (3, 12)
    # A type error inside a macro's value is on the macro's name where it is used.
    (main,) = lint.main
    assert main.code == "T003" and where(path, main.span.start) == (3, 26)
    assert path.read_bytes()[main.span.start:main.span.end] == b"X"


def test_a_fix_goes_through_the_map_only_to_text_the_author_wrote(tmp_path):
    path = write(tmp_path, "k.wgsl", "#ifdef A\n#endif\nenable chromium_experimental_subgroup_matrix;\n"
                                     "enable f16;\n@group(0) @binding(0) var<storage, read_write> m: array<f16>;\n"
                                     "fn f() {\n    let t = subgroupMatrixLoad<subgroup_matrix_left<f16, 8, 8>>"
                                     "(&m, 0, false, 8u);\n}\n")
    lint = lint_template(path, path.read_bytes(), TemplateOptions())
    (deprecated,) = [d for d in lint.main if d.code == "T012"]
    edit = deprecated.fixes[0].edits[0]
    assert path.read_bytes()[edit.span.start:edit.span.end].startswith(b"subgroupMatrixLoad<")
    assert where(path, deprecated.span.start)[0] == 7
    # Text a macro wrote is not in the file: its finding stays, without a fix.
    text = path.read_text().replace("let t = subgroupMatrixLoad", "let t = LOAD").replace(
        "fn f()", "#define LOAD subgroupMatrixLoad\nfn f()")
    path.write_text(text)
    (deprecated,) = [d for d in lint_template(path, path.read_bytes(), TemplateOptions()).main if d.code == "T012"]
    assert deprecated.fixes == () and where(path, deprecated.span.start)[0] == 8


# -- variants -----------------------------------------------------------------------

GEMM = EXAMPLES / "cpp" / "gemm.wgsl"


def example_options(**chosen) -> TemplateOptions:
    config = load(EXAMPLES / "coop-lint.toml")
    settings = config.settings_for(GEMM)
    return options_for(settings.variants, {}, (), chosen.get("names"))


def test_every_set_is_linted_and_a_shared_finding_is_reported_once_naming_its_variants():
    lint = lint_template(GEMM, GEMM.read_bytes(), example_options(), targets=("nvidia-h100",))
    d001 = [d for d in lint.main if d.code == "D001"]
    assert len(d001) == 2  # f16 and f32 accumulators are different configurations
    assert all(where(GEMM, d.span.start)[0] == 45 for d in d001)
    assert any(d.message.endswith("(in 1 of 4 variants: 8x8-f32)") for d in d001)
    assert all("nvidia-h100" in d.message for d in d001)
    lint = lint_template(GEMM, GEMM.read_bytes(), example_options(), targets=("apple-m",))
    messages = [d.message for d in lint.main if d.code == "D001"]
    assert messages and all("16x16" in m and "8x8" not in m for m in messages)


def test_a_finding_in_several_variants_names_them(tmp_path):
    path = write(tmp_path, "k.wgsl", "#ifdef BAD\nconst x: u32 = 1.5;\n#endif\nconst y = 1;\n")
    sets = tuple(Variant(name, (("BAD", ""),) if bad else ()) for name, bad in
                 (("a", True), ("b", False), ("c", True), ("d", False)))
    (finding,) = lint_template(path, path.read_bytes(), TemplateOptions(sets)).main
    assert finding.message.endswith("(in 2 of 4 variants: a, c)")
    assert where(path, finding.span.start)[0] == 2


def test_a_name_an_undefined_macro_would_give_is_reported_as_such(tmp_path):
    # In a configured set, each use of a macro the set does not define is reported where it is.
    path = write(tmp_path, "k.wgsl", "#ifdef VEC\n#define WIDTH 4u\n#endif\nconst a = WIDTH;\nconst m = SG_MAT_M;\n"
                                     "var<workgroup> s: array<f32, SG_MAT_M>;\nconst c = lowercase_name;\n")
    lint = lint_template(path, path.read_bytes(), TemplateOptions((Variant("scalar"),)))
    assert [(d.code, where(path, d.span.start)[0]) for d in lint.main] == [
        ("M007", 4), ("M007", 5), ("M007", 6), ("T001", 7)]
    assert lint.main[1].message.startswith("'SG_MAT_M' is not defined in this variant; configure variants: "
                                           "docs/templates.md")


def test_a_raw_template_gets_one_finding_for_the_macros_its_host_defines(tmp_path):
    """Opened without a variant, a template lacks every macro its host passes: one M007 names them all
    (ggml's mul_mat_subgroup_matrix.wgsl got 80 findings, one per use, before)."""
    path = write(tmp_path, "k.wgsl", "#ifdef VEC\n#define WIDTH 4u\n#endif\nconst a = WIDTH;\nconst m = SG_MAT_M;\n"
                                     "var<workgroup> s: array<f32, SG_MAT_M>;\nconst c = lowercase_name;\n")
    lint = lint_template(path, path.read_bytes(), TemplateOptions())
    assert [(d.code, where(path, d.span.start)[0]) for d in lint.main] == [("M007", 4), ("T001", 7)]
    grouped = lint.main[0]
    assert grouped.message.startswith("this file uses 2 macros its host defines (WIDTH, SG_MAT_M); "
                                      "configure a variant")
    assert "docs/templates.md" in grouped.message and "(3 uses)" in grouped.message
    assert [(where(path, r.span.start)[0], r.message) for r in grouped.related] == [
        (4, "'WIDTH' is first used here"), (5, "'SG_MAT_M' is first used here")]


def test_a_raw_template_is_linted_with_its_host_macros_opaque(tmp_path):
    """What follows from a missing macro (a const made from it, an array sized by it, a function whose
    type it is) is not reported; a mistake that does not involve one still is."""
    path = write(tmp_path, "k.wgsl", "\n".join([
        "#ifdef F16",                                            # 1
        "enable f16;",                                           # 2
        "#endif",                                                # 3
        "const TILE = TILE_K * 2u;",                             # 4 M007 (the one finding for TILE_K, T)
        "var<workgroup> shared_tile: array<f32, TILE>;",         # 5 sized by an opaque const: not checked
        "fn load(i: u32) -> ELEM_T { return ELEM_T(0); }",       # 6 a type the host passes
        "@compute @workgroup_size(64)",                          # 7
        "fn main(@builtin(local_invocation_index) li: u32) {",   # 8
        "  let v = load(li) * 2.0;",                             # 9 made from an opaque function: not checked
        "  let bad: u32 = 1.5;",                                 # 10 a real mistake: still reported
        "  shared_tile[li] = f32(li);",                          # 11
        "}", ""]))
    lint = lint_template(path, path.read_bytes(), TemplateOptions())
    found = [(d.code, where(path, d.span.start)[0]) for d in lint.main]
    assert found[0] == ("M007", 4) and "(TILE_K, ELEM_T)" in lint.main[0].message
    assert found[1:] == [("T003", 10)], found


def test_code_that_no_variant_compiles_is_reported_once_as_information(tmp_path):
    path = write(tmp_path, "k.wgsl", "#if defined(A)\nconst a = 1;\n#elif defined(B)\nconst b = 1;\n#else\n"
                                     "const neither = 1;\n#endif\n")
    sets = (Variant("a", (("A", ""),)), Variant("b", (("B", ""),)))
    (info,) = lint_template(path, path.read_bytes(), TemplateOptions(sets)).main
    assert info.code == "M008" and where(path, info.span.start) == (6, 1)


def test_ten_thousand_variants_are_capped_with_a_note(tmp_path):
    sets = ",\n".join(f'{{ name = "v{i}", defines = {{ N = "{i}u" }} }}' for i in range(10_000))
    config = write(tmp_path, "coop-lint.toml", f'[[variants]]\nfiles = ["*.wgsl"]\nsets = [\n{sets}\n]\n')
    path = write(tmp_path, "k.wgsl", "const n = N;\n")
    options = options_for(load(config).settings_for(path).variants, {})
    assert len(options.variants) == MAX_VARIANTS and options.skipped_variants == 10_000 - MAX_VARIANTS
    lint = lint_template(path, path.read_bytes(), options)
    (note,) = lint.main
    assert note.code == "M009" and f"{10_000 - MAX_VARIANTS} skipped" in note.message


def test_variant_tables_are_read_exactly_in_the_documented_form(tmp_path):
    config = write(tmp_path, "pyproject.toml", """
[[tool.coop-lint.variants]]
files = ["shaders/mul_mat_*.wgsl"]
include = ["shaders"]
override-file-defines = true
sets = [
  { name = "vec-16", defines = { VEC = "", SG_MAT_M = "16u" } },
  { name = "scalar-8", defines = { SCALAR = "", SG_MAT_M = "8u" } },
]
""")
    loaded = load(config)
    (table,) = loaded.settings_for(tmp_path / "shaders" / "mul_mat_f16.wgsl").variants
    assert table.include == (tmp_path / "shaders",) and table.override_file_defines
    assert table.sets[1] == ("scalar-8", (("SCALAR", ""), ("SG_MAT_M", "8u")))
    assert loaded.settings_for(tmp_path / "shaders" / "add.wgsl").variants == ()


@pytest.mark.parametrize("sets, message", [
    ('{ name = "a", define = { X = "" } }', "did you mean 'defines'"),
    ('{ name = "a", defines = { X = [1] } }', "must be a string, number or boolean"),
    ('{ defines = { X = "" } }', "each set needs a name"),
    ('{ name = "a" }, { name = "a" }', "two sets are named 'a'"),
])
def test_a_set_coop_lint_cannot_read_names_the_key(tmp_path, sets, message):
    config = write(tmp_path, "coop-lint.toml", f'[[variants]]\nfiles = ["*.wgsl"]\nsets = [{sets}]\n')
    with pytest.raises(ConfigError, match=message):
        load(config)


def test_variants_share_included_files_and_unchanged_declarations(tmp_path):
    cache = FileCache()
    options = example_options()
    lint_template(GEMM, GEMM.read_bytes(), options, cache=cache)
    included = cache.get(EXAMPLES / "cpp" / "gemm_common.tmpl")
    lint_template(GEMM, GEMM.read_bytes(), options, cache=cache)
    assert cache.get(EXAMPLES / "cpp" / "gemm_common.tmpl") is included


# -- WESL, naga_oil, host strings --------------------------------------------------

def test_wesl_import_and_if_follow_the_variant():
    main = EXAMPLES / "wesl" / "shaders" / "main.wesl"
    half = expand(main, main.read_bytes(), {"HALF": "true"})
    full = expand(main, main.read_bytes(), {"HALF": "false"})
    assert b"enable f16;" in half.data and b"alias Elem = f16;" in half.data and b"f32;" not in half.data
    assert b"enable f16;" not in full.data and b"alias Elem = f32;" in full.data
    assert b"fn scaled" in half.data and half.problems == []
    assert [link.target.name for link in half.links] == ["util.wesl"]
    for variant in ({"HALF": "true"}, {"HALF": "false"}):
        lint = lint_template(main, main.read_bytes(), TemplateOptions((Variant(None, tuple(variant.items())),)))
        assert lint.main == []


def test_wesl_if_elif_else_on_statements_and_a_missing_module(tmp_path):
    path = write(tmp_path, "m.wesl", "import package::nothing::here;\nfn f() -> u32 {\n"
                                     "    @if(A) { return 1u; }\n    @elif(B && !A) { return 2u; }\n"
                                     "    @else { return 3u; }\n}\n")
    b = expand(path, path.read_bytes(), {"B": "true"})
    assert [l for l in lines_of(b.data) if "return" in l] == ["{ return 2u; }"]
    assert codes(b.problems) == ["M010"] and where(path, b.problems[0].span.start)[0] == 1


def test_naga_oil_import_brings_the_module_and_its_qualified_names(tmp_path):
    write(tmp_path, "lib.wgsl", "#define_import_path my::lib\nfn twice(x: f32) -> f32 { return x * 2.0; }\n")
    path = write(tmp_path, "main.wgsl", "#import my::lib\n@compute @workgroup_size(1)\n"
                                        "fn main() { let y = lib::twice(1.0); let z = my::lib::twice(y); }\n")
    lint = lint_template(path, path.read_bytes(), TemplateOptions())
    assert lint.main == []
    path = write(tmp_path, "bad.wgsl", "#import not::there\n")
    assert [d.code for d in lint_template(path, path.read_bytes(), TemplateOptions()).main] == ["M010"]


def test_python_f_string_names_take_the_variants_values():
    expansion = interpolate(b"array<{ELEM}, {TILE}> {{ }} {n + 1}", "python", {"ELEM": "f32", "TILE": "16"})
    assert expansion.data == b"array<f32, 16> { } 0"
    assert codes(expansion.problems) == ["M005"]
    assert expansion.origins.locate(7) == (0, 6)  # the value maps to its {ELEM}
    assert expansion.origins.locate(8, end=True) == (0, 12)


# -- the command line ---------------------------------------------------------------

def run(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "coop_lsp.cli.main", *args], capture_output=True, cwd=cwd, text=True)


def test_command_line_defines_variants_and_targets():
    # The configuration rules only: the example is one tile per subgroup, which P001 also reports on the H100.
    done = run("--no-source", "--select", "D", "--target", "nvidia-h100", "--variant", "8x8-f16,16x16-f16", str(GEMM))
    assert done.returncode == 1
    (line,) = done.stdout.splitlines()[:-1]
    assert ":45:15: D001" in line and line.endswith("(in 1 of 2 variants: 8x8-f16)")
    done = run("--no-source", "--isolated", "-D", "TILE_16", "-D", "WORKGROUP_SIZE=32u", "-I", "examples/templates/cpp",
               str(GEMM))
    assert done.returncode == 0, done.stdout
    done = run("--variant", "nope", str(GEMM))
    assert done.returncode == 2 and "--variant nope" in done.stderr


def test_findings_in_included_files_are_reported_in_those_files(tmp_path):
    write(tmp_path, "inc.tmpl", "fn helper() -> u32 { return missing_name; }\n")
    write(tmp_path, "k.wgsl", '#include "inc.tmpl"\n')
    done = run("--no-source", "--isolated", "k.wgsl", cwd=tmp_path)
    assert done.stdout.splitlines()[0] == "inc.tmpl:1:29: T001 [error] unresolved identifier 'missing_name'"


def test_the_template_examples_lint_clean_with_their_variants():
    done = run("examples/templates")
    assert done.returncode == 0, done.stdout


def test_naga_oil_conditionals_and_substitutions():
    text = b"#if MODE == 2\nconst a = #{WIDTH}u;\n#else ifdef OTHER\nconst b = 1;\n#else\nconst c = 1;\n#endif\n"
    assert lines_of(expand(None, text, {"MODE": "2", "WIDTH": "4"}).data) == ["const a = 4u;"]
    assert lines_of(expand(None, text, {"OTHER": ""}).data) == ["const b = 1;"]
    assert lines_of(expand(None, text, {}).data) == ["const c = 1;"]


def test_wesl_if_on_struct_members_keeps_positions():
    text = b"struct S {\n  x: f32,\n  @if(HALF) y: f16,\n  @if(!HALF) y: f32,\n}\n"
    half = expand(None, text, {"HALF": "true"})
    assert len(half.data) == len(text) and lines_of(half.data)[2:4] == ["y: f16,", "}"]
    assert lines_of(expand(None, text, {}).data)[2:4] == ["y: f32,", "}"]


_PIECES = ["#define A 1\n", "#define B (A + B)\n", "#ifdef A\n", "#if A > 0 &&\n", "#elif B\n", "#else\n",
           "#endif\n", "#include \"x.tmpl\"\n", "#undef A\n", "{{A}}", "${B}", "#{A}", "@if(A) ", "@else ",
           "import package::x;\n", "#import a::b\n", "const c = A;\n", "fn f() { }\n", "/*", "*/", "\\\n",
           "\x00", "é", "#", "@", "{", "}", "::", "\n"]


@pytest.mark.parametrize("seed", range(30))
def test_bad_input_never_crashes_or_hangs(tmp_path, seed):
    import random
    rng = random.Random(seed)
    text = "".join(rng.choice(_PIECES) for _ in range(rng.randint(1, 80))).encode()
    path = write(tmp_path, "k.wgsl", "")
    path.write_bytes(text)
    started = time.perf_counter()
    lint = lint_template(path, text, TemplateOptions((Variant("a", (("A", "1"),)), Variant("b"))))
    assert time.perf_counter() - started < 10
    assert not any(d.code == "X001" for found in lint.diagnostics.values() for d in found)


def test_a_name_two_imported_modules_declare_is_renamed_as_the_composers_mangle(tmp_path):
    write(tmp_path, "a.wgsl", "#define_import_path a\nfn f() -> f32 { return 1.0; }\nfn only_a() -> f32 { return f(); }\n")
    write(tmp_path, "b.wgsl", "#define_import_path b\nfn f() -> u32 { return 2u; }\n")
    path = write(tmp_path, "main.wgsl", "#import a\n#import b::{f}\n"
                                        "fn f2() -> f32 { return a::f() + a::only_a() + f32(f()) + f32(b::f()); }\n")
    expansion = expand(path, path.read_bytes(), {})
    text = expansion.data.decode()
    assert "fn f() -> f32" in text and "fn f_b() -> u32" in text
    assert "return f() + only_a() + f32(f_b()) + f32(f_b());" in text
    assert lint_template(path, path.read_bytes(), TemplateOptions()).main == []


def test_an_imported_modules_directives_go_before_every_declaration(tmp_path):
    write(tmp_path, "half.wgsl", "#define_import_path half\nenable f16;\nfn h() -> f16 { return 1h; }\n")
    path = write(tmp_path, "main.wgsl", "#import half\nfn f() -> f32 { return f32(half::h()); }\n")
    expansion = expand(path, path.read_bytes(), {})
    assert expansion.data.startswith(b"enable f16;\n")
    assert lint_template(path, path.read_bytes(), TemplateOptions()).main == []
    # Positions after the moved directive still map to their lines.
    offset = expansion.data.index(b"fn f()")
    assert expansion.origins.locate(offset) == (0, path.read_bytes().index(b"fn f()"))


def test_renaming_leaves_attributes_and_members_alone(tmp_path):
    write(tmp_path, "m.wgsl", "#define_import_path m\nstruct fragment { fragment: f32 }\n"
                              "fn g(v: fragment) -> f32 { return v.fragment; }\n")
    path = write(tmp_path, "main.wgsl", "#import m\n@fragment\nfn fragment() -> @location(0) vec4f "
                                        "{ return vec4f(m::g(m::fragment(1.0))); }\n")
    text = expand(path, path.read_bytes(), {}).data.decode()
    assert "@fragment\nfn fragment()" in text and "struct fragment_m { fragment: f32 }" in text
    assert "fn g(v: fragment_m) -> f32 { return v.fragment; }" in text
    assert "g(fragment_m(1.0))" in text


def test_onnx_runtime_param_declares_a_value_the_program_passes(tmp_path):
    text = b"#param n_bits\n#if n_bits == 4\nconst four = 1;\n#else\nconst eight = 1;\n#endif\n"
    four = expand(None, text, {"n_bits": "4"})
    assert lines_of(four.data) == ["const four = 1;"] and four.problems == [] and "n_bits" in four.macro_names
    assert lines_of(expand(None, text, {"n_bits": "8"}).data) == ["const eight = 1;"]


@pytest.mark.tint
@pytest.mark.parametrize("relative", ["cpp/gemm.wgsl", "placeholders/scale.wgsl", "wesl/shaders/main.wesl"])
def test_every_variant_of_the_examples_compiles_in_tint(relative, tint):
    path = EXAMPLES / relative
    options = options_for(load(EXAMPLES / "coop-lint.toml").settings_for(path).variants, {})
    lint = lint_template(path, path.read_bytes(), options)
    assert len(lint.variants) == len(options.variants) >= 2
    for run in lint.variants:
        verdict = tint.compile(run.expansion.data.decode())
        assert verdict.accepted, (run.variant.name, verdict.errors)
    assert lint.main == []


def test_a_suppression_is_unused_only_when_no_variant_needs_it(tmp_path):
    write(tmp_path, "coop-lint.toml", '[[variants]]\nfiles = ["k.wgsl"]\n'
                                       'sets = [{ name = "old", defines = { OLD = "" } }, { name = "new", defines = {} }]\n')
    kernel = ("enable chromium_experimental_subgroup_matrix;\n"
              "@group(0) @binding(0) var<storage, read_write> A: array<f32>;\n"
              "@diagnostic(off, coop.deprecated_builtin) @diagnostic(off, coop.matrix_stride)\n"
              "@compute @workgroup_size(32) fn main() {\n"
              "#ifdef OLD\n"
              "  let m = subgroupMatrixLoad<subgroup_matrix_left<f32, 8, 8>>(&A, 0u, false, 8u);\n"
              "#else\n"
              "  let m = subgroupMatrixLoad<subgroup_matrix_left<f32, 8, 8>, row_major>(&A, 0u, 8u);\n"
              "#endif\n"
              "}\n")
    write(tmp_path, "k.wgsl", kernel)
    done = run("--no-source", "k.wgsl", cwd=tmp_path)
    # deprecated_builtin decides the 'old' variant's finding: used. matrix_stride decides nothing anywhere.
    assert done.stdout.splitlines()[:-1] == [
        "k.wgsl:3:60: A001 [warning] this suppression of 'coop.matrix_stride' applies to no finding; remove it so "
        "that it cannot hide a future one (in all 2 variants)"]


def test_a_run_description_names_the_variant_it_runs(adapter, tmp_path, capsys):
    from coop_lsp.cli.main import main as cli_main

    # examples/templates/cpp/gemm.run.toml: [template] variant = "16x16-f32" with M, N, K defined as 64u.
    assert cli_main(["run", str(GEMM), "--backend", "emulate", "--format", "json"]) == 0
    assert '"status": "correct"' in capsys.readouterr().out
    description = (GEMM.parent / "gemm.run.toml").read_text().replace('variant = "16x16-f32"', 'variant = "32x32"')
    (tmp_path / "other.run.toml").write_text(description)
    assert cli_main(["run", str(GEMM), "--run", str(tmp_path / "other.run.toml"), "--backend", "emulate"]) == 2
    assert "other.run.toml: [template]: --variant 32x32: no variant set of that name" in capsys.readouterr().err


# A file the host preprocesses though it has no directive of its own: ggml's pre_wgsl hands every shader
# its defines, and cumsum.wgsl only uses WG_SIZE. Tint rejects the raw file (the names are unresolved) and
# so does coop-lint, but with one finding for the root cause, as for a template with directives.
HOSTED_PLAIN = """var<workgroup> shared_sum: array<f32, WG_SIZE>;
@group(0) @binding(0) var<storage, read_write> data: array<OUT_TYPE>;
@compute @workgroup_size(WG_SIZE)
fn main(@builtin(local_invocation_id) lid: vec3u) {
  if (lid.x < WG_SIZE) { shared_sum[lid.x] = f32(data[lid.x]); }
}
"""


def test_a_file_without_directives_that_uses_only_macro_names_gets_one_m007(tmp_path):
    from coop_lsp.lint.config import Settings
    from coop_lsp.lint.files import lint_file

    path = write(tmp_path, "cumsum.wgsl", HOSTED_PLAIN)
    _, found = lint_file(path.read_bytes(), Settings(), path=path)
    assert [(d.code, where(path, d.span.start)[0]) for d in found] == [("M007", 1)]
    assert found[0].message.startswith("this file uses 2 macros its host defines (WG_SIZE, OUT_TYPE); configure "
                                       "a variant") and "(4 uses)" in found[0].message


def test_a_typo_or_a_lowercase_name_in_a_plain_file_stays_t001(tmp_path):
    from coop_lsp.lint.config import Settings
    from coop_lsp.lint.files import lint_file

    typo = "const TILE_SIZE = 4u;\n@compute @workgroup_size(TILE_SZE)\nfn main() {}\n"
    path = write(tmp_path, "typo.wgsl", typo)
    assert [d.code for d in lint_file(path.read_bytes(), Settings(), path=path)[1]] == ["T001"]
    # One unresolved name that is no macro's spelling: the file is not just waiting for its host's defines.
    mixed = HOSTED_PLAIN.replace("f32(data[lid.x])", "f32(data[lid.x]) + bias")
    path = write(tmp_path, "mixed.wgsl", mixed)
    codes = [d.code for d in lint_file(path.read_bytes(), Settings(), path=path)[1]]
    assert "M007" not in codes and codes.count("T001") == 5


def test_one_capital_letter_is_a_host_macro_only_beside_a_longer_one(tmp_path):
    from coop_lsp.lint.config import Settings
    from coop_lsp.lint.files import lint_file

    both = "var<workgroup> t: array<f32, N * K_TILE>;\n@compute @workgroup_size(64)\nfn main() { t[0] = 1.0; }\n"
    path = write(tmp_path, "solve.wgsl", both)
    found = lint_file(path.read_bytes(), Settings(), path=path)[1]
    assert [d.code for d in found] == ["M007"] and "(N, K_TILE)" in found[0].message
    alone = both.replace("N * K_TILE", "N")
    path = write(tmp_path, "alone.wgsl", alone)
    assert "M007" not in [d.code for d in lint_file(path.read_bytes(), Settings(), path=path)[1]]
