"""Rules of the source layer: templates, directives, includes, imports, placeholders and variants."""

from ..core.diagnostic import Severity
from ..core.rules import Rule, register

_DOCS = "docs/templates.md"

MISSING_INCLUDE = register(Rule(
    code="M001", name="missing_include", severity=Severity.ERROR, layer="source", suppressible=False,
    summary="An `#include` names a file that is found neither beside the including file nor in an include directory.",
    explanation="`#include \"file\"` is searched relative to the file that includes it, then in each include "
                "directory (`-I DIR`, or `include` in a variants table). Nothing after the directive can be "
                "checked the way the program will compile it.",
    example='#include "common_decls.tmpl"   // not beside this file, and no -I names its folder',
    fix="Pass the folder with `-I DIR` or list it in `include` of the file's `[[tool.coop-lint.variants]]`.",
))
INCLUDE_CYCLE = register(Rule(
    code="M002", name="include_cycle", severity=Severity.ERROR, layer="source", suppressible=False,
    summary="A file includes itself, directly or through other files.",
    explanation="The preprocessor would include the files forever. coop-lint includes each file once per "
                "chain and reports the directive that closes the cycle.",
    example='// a.tmpl\n#include "b.tmpl"\n// b.tmpl\n#include "a.tmpl"',
    fix="Guard the shared file with `#ifndef NAME` / `#define NAME` / `#endif`, or remove one include.",
))
UNBALANCED_CONDITIONAL = register(Rule(
    code="M003", name="unbalanced_conditional", severity=Severity.ERROR, layer="source", suppressible=False,
    summary="An `#if`/`#ifdef` without its `#endif`, or an `#elif`/`#else`/`#endif` without an `#if`.",
    explanation="Every conditional block opens with `#if`, `#ifdef` or `#ifndef` and closes with `#endif` in "
                "the same file. An unclosed block is closed at the end of its file.",
))
RECURSIVE_MACRO = register(Rule(
    code="M004", name="recursive_macro", severity=Severity.WARNING, layer="source",
    summary="A macro whose value names itself, directly or through other macros; the name is left as it is.",
    explanation="As in C, a macro is not expanded again inside its own expansion, so the name stays in the "
                "WGSL and is most likely an unresolved name there. Expansion is also capped in depth and "
                "size, so that no template makes the linter hang.",
    example="#define TILE (TILE * 2)",
))
PLACEHOLDER_WITHOUT_VALUE = register(Rule(
    code="M005", name="placeholder_without_value", severity=Severity.ERROR, layer="source", suppressible=False,
    summary="A `{{name}}` or `${name}` placeholder that no define gives a value.",
    explanation="Placeholders take their values from the defines of the variant (`-D NAME=VALUE`, or `defines` "
                "of a set in `[[tool.coop-lint.variants]]`). Without one the WGSL is not known, and what "
                "the checks say about that spot is not reported.",
    example="@compute @workgroup_size({{workgroupSize}})",
    fix="Give the name a value: `-D workgroupSize=256`, or add it to the variant sets.",
))
BAD_DIRECTIVE = register(Rule(
    code="M006", name="bad_directive", severity=Severity.ERROR, layer="source", suppressible=False,
    summary="A preprocessor directive that cannot be read: an unknown directive, a `#define` without a name, "
            "an `#if` expression that is not an integer expression.",
    explanation="Supported: `#define NAME [value]`, `#undef`, `#ifdef`, `#ifndef`, `#if` with `defined()` and "
                "integer operators, `#elif`, `#else`, `#endif`, `#include \"file\"`, and naga_oil's "
                "`#import`, `#define_import_path`, `#else ifdef`, and ONNX Runtime's `#param NAME` (a value the "
                "program passes).",
))
UNDEFINED_IN_VARIANT = register(Rule(
    code="M007", name="undefined_in_variant", severity=Severity.ERROR, layer="source",
    summary="A name that a macro would provide, but no macro of this name is defined in this variant.",
    explanation="The template tests or defines this name in a directive, so it is a macro the program is "
                "expected to pass. Lint the file with the define sets the program really uses (`-D`, or "
                f"variants in the configuration: {_DOCS}). A file linted with no variant configured gets "
                "one such finding naming every missing macro, and the rest of it is linted with those "
                "names opaque.",
    example="#ifdef VEC\n...\n#endif\nlet m = SG_MAT_M;   // linted without -D SG_MAT_M=...",
))
CODE_IN_NO_VARIANT = register(Rule(
    code="M008", name="code_in_no_variant", severity=Severity.INFO, layer="source",
    summary="Lines that no configured variant compiles.",
    explanation="Every configured set leaves this conditional block out, so nothing checks it. It may be dead "
                "code, or a variant is missing from the configuration.",
))
TOO_MANY_VARIANTS = register(Rule(
    code="M009", name="too_many_variants", severity=Severity.WARNING, layer="source",
    summary="More variant sets than coop-lint checks for one file; the rest are skipped.",
    explanation="Each set is a separate compilation. Past the cap coop-lint checks the first sets and says "
                "how many it left out.",
))
UNRESOLVED_IMPORT = register(Rule(
    code="M010", name="unresolved_import", severity=Severity.ERROR, layer="source", suppressible=False,
    summary="A WESL `import` or naga_oil `#import` whose module is not found.",
    explanation="WESL resolves `package::a::b` from the package root (`wesl.toml`'s `root`, or the folder of "
                "the wesl.toml), `super::` from the parent module, and other names as dependency packages "
                "listed in wesl.toml. naga_oil resolves `#import a::b` from files that declare "
                "`#define_import_path a::b` in the include directories.",
))
PATH_OUTSIDE_WORKSPACE = register(Rule(
    code="M011", name="path_outside_workspace", severity=Severity.ERROR, layer="source", suppressible=False,
    summary="An `#include`, naga_oil `#import` or WESL `import` that reaches outside the workspace; it is not read.",
    explanation="A repository someone else wrote must not make coop-lint read files elsewhere on the machine "
                "(and echo them in findings). Includes and imports are read only inside the workspace (the "
                "current folder in the CLI, the workspace folders in the editor) and the include folders given "
                "with `-I`; a path that leaves them through `..`, an absolute path or a symbolic link is refused "
                "before anything is read. `coop-lint` exits 2 when it refuses one, as for a configuration error. "
                "See SECURITY.md.",
    example='#include "../../../home/me/.ssh/config"',
    fix="Keep the shared files inside the repository, or name their folder explicitly with `-I DIR`.",
))
