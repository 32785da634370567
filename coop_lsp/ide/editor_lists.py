"""The editor files' copies of the language table: name lists in queries/highlights.scm, the dialect enum
in vscode-client/package.json.

Editors cannot import the table, so these files hold copies; this module writes them from the table
(semantic/builtins) and tests/test_language_facts.py fails when a copy is stale. Regenerate with:

    .venv/bin/python -m coop_lsp.ide.editor_lists --write

Only the generated parts of each file are rewritten; the rest stays as written by hand.
"""

from __future__ import annotations

import json
import re
import sys
import textwrap
from pathlib import Path

from ..semantic.builtins.language import DIALECT, DIALECTS, MATRIX_TYPE_NAMES
from ..semantic.context import CORE_TABLE, MATRIX_TABLES

REGENERATE = ".venv/bin/python -m coop_lsp.ide.editor_lists --write"
ROOT = Path(__file__).resolve().parents[2]
HIGHLIGHTS = ROOT / "queries" / "highlights.scm"
PACKAGE_JSON = ROOT / "vscode-client" / "package.json"

# WGSL's own type names, as editors highlight them (no dialect adds to these; the matrix types come from
# the table). The 64-bit scalars are naga's and left out on purpose: Tint rejects them.
WGSL_TYPE_NAMES = (
    "bool", "f16", "f32", "i32", "u32", "i8", "u8", "vec2", "vec2i", "vec2h", "vec2f", "vec2u", "vec3", "vec3i",
    "vec3h", "vec3f", "vec3u", "vec4", "vec4i", "vec4h", "vec4f", "vec4u", "mat2x2", "mat2x2f", "mat2x2h",
    "mat2x3", "mat2x3f", "mat2x3h", "mat2x4", "mat2x4f", "mat2x4h", "mat3x2", "mat3x2f", "mat3x2h", "mat3x3",
    "mat3x3f", "mat3x3h", "mat3x4", "mat3x4f", "mat3x4h", "mat4x2", "mat4x2f", "mat4x2h", "mat4x3", "mat4x3f",
    "mat4x3h", "mat4x4", "mat4x4f", "mat4x4h", "array", "atomic", "ptr", "sampler", "sampler_comparison",
    "binding_array", "texture_1d", "texture_2d", "texture_2d_array", "texture_3d", "texture_cube",
    "texture_cube_array", "texture_multisampled_2d", "texture_depth_multisampled_2d", "texture_external",
    "texture_storage_1d", "texture_storage_2d", "texture_storage_2d_array", "texture_storage_3d",
    "texture_depth_2d", "texture_depth_2d_array", "texture_depth_cube", "texture_depth_cube_array",
)
# Called like a function but not in a table: the checker handles it itself.
SPECIAL_FUNCTIONS = ("bitcast",)
_WIDTH = 80  # highlights.scm wraps its lists at 80 columns
_PREDICATE = re.compile(r'(\(#(?:not-)?any-of\? @[\w.]+)((?:\s+"[^"]*")+)\)')


def builtin_function_names() -> tuple[str, ...]:
    names = dict.fromkeys(SPECIAL_FUNCTIONS)
    for table in (CORE_TABLE, *MATRIX_TABLES.values()):
        names.update(dict.fromkeys(builtin.name for builtin in table))
    return tuple(names)


def type_names() -> tuple[str, ...]:
    return WGSL_TYPE_NAMES + MATRIX_TYPE_NAMES


def _generated_lists() -> dict[str, tuple[str, ...]]:
    """Each generated list, known by its first name (which the table keeps first)."""
    lists = {"types": type_names(), "functions": builtin_function_names(),
             "naga types": DIALECT["wgpu"].type_names}
    return {names[0]: names for names in lists.values()}


def highlights(text: str) -> str:
    """highlights.scm with every generated list rewritten from the table."""
    lists = _generated_lists()

    def rewrite(match: re.Match) -> str:
        head, body = match.group(1), match.group(2)
        current = re.findall(r'"([^"]*)"', body)
        names = lists.get(current[0])
        if names is None:
            return match.group(0)  # a hand-written list (address spaces, texel formats, ...)
        quoted = " ".join(f'"{name}"' for name in names)
        if "\n" not in body:
            return f"{head} {quoted})"
        lines = textwrap.wrap(quoted, width=_WIDTH, initial_indent="    ", subsequent_indent="    ",
                              break_long_words=False, break_on_hyphens=False)
        return head + "\n" + "\n".join(lines) + ")"

    return _PREDICATE.sub(rewrite, text)


def package_json(text: str) -> str:
    """package.json with the coopLsp.dialect setting's enum rewritten from the dialect records. Edited as
    text, so that the file's layout (and colleagues' edits elsewhere in it) stay as they are."""
    start = text.index('"coopLsp.dialect"')
    enum_at = text.index('"enum": [', start)
    end = text.index("]", text.index('"enumDescriptions": [', enum_at)) + 1
    indent = " " * (enum_at - text.rindex("\n", 0, enum_at) - 1)
    values = ["auto"] + [d.name for d in DIALECTS]
    descriptions = ["Follow the module's `enable` directives."] + [d.setting for d in DIALECTS]

    def array(items: list[str]) -> str:
        inner = f",\n{indent}  ".join(json.dumps(item, ensure_ascii=False) for item in items)
        return f"[\n{indent}  {inner}\n{indent}]"

    block = f'"enum": {array(values)},\n{indent}"enumDescriptions": {array(descriptions)}'
    return text[:enum_at] + block + text[end:]


GENERATED = {HIGHLIGHTS: highlights, PACKAGE_JSON: package_json}


def stale() -> list[Path]:
    return [path for path, make in GENERATED.items()
            if make(text := path.read_text(encoding="utf-8")) != text]


def main(argv: list[str]) -> int:
    if argv != ["--write"]:
        print(f"usage: {REGENERATE}\nstale: {', '.join(str(p) for p in stale()) or 'none'}")
        return 2
    for path, make in GENERATED.items():
        text = path.read_text(encoding="utf-8")
        path.write_text(make(text), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
