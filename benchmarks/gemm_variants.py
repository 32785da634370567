"""Kernels derived from examples/chromium/gemm_pipelined.wgsl by named edits, for benchmarks.gemm_structure_sweep.

Each edit changes one thing and fails loudly when the text it edits is not
there (the example changed): a silently unedited kernel would be timed as if
it were the variant. Two kinds:

- Designs, which compute the right result and must pass the reference check:
  `b_transposed` (B staged as its transpose, packed two halves to a word, and
  loaded column-major) and `ring` (BUFFERS = 2 or 3 workgroup buffers in a
  ring: each step stages the slice BUFFERS - 1 steps ahead before its
  multiplies, so one barrier a step).
- Diagnostics, which answer "what would it cost without X" and are wrong by
  construction (the sweep records their status as it is, "incorrect"):
  `no_barriers`, `a_col_major` and `b_col_major` (tiles loaded with the other
  layout from the same addresses: the same memory traffic, a wrong product),
  and `spare:KIB` (an extra workgroup array that the kernel keeps but never
  needs, to find how much workgroup memory a multiprocessor gives).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "chromium" / "gemm_pipelined.wgsl"


def _replace(text: str, old: str, new: str, count: int = 1) -> str:
    found = text.count(old)
    if found != count:
        raise ValueError(f"gemm variant: expected {count} of {old[:60]!r} in the example, found {found}")
    return text.replace(old, new)


def no_barriers(text: str) -> str:
    return _replace(text, "workgroupBarrier();", "// barrier removed (diagnostic)",
                    max(1, text.count("workgroupBarrier();")))


def a_col_major(text: str) -> str:
    return _replace(text, "subgroupMatrixLoad<TileA, row_major>", "subgroupMatrixLoad<TileA, col_major>", 4)


def b_col_major(text: str) -> str:
    return _replace(text, "subgroupMatrixLoad<TileB, row_major>", "subgroupMatrixLoad<TileB, col_major>", 4)


def spare(kib: int) -> Callable[[str], str]:
    def edit(text: str) -> str:
        text = _replace(text, "var<workgroup> b_stages",
                        f"var<workgroup> spare: array<vec4<u32>, {kib * 1024 // 16}>;\nvar<workgroup> b_stages")
        # Touched only under a condition no run meets but the compiler cannot see through, so it is kept.
        return _replace(text, "    store(&acc, (block.x + sub_row) * N + block.y + sub_col);",
                        "    if (subgroups > 64u) { spare[lid] = a_stages[lid]; c[lid] = f32(spare[lid + 1u].x); }\n"
                        "    store(&acc, (block.x + sub_row) * N + block.y + sub_col);")
    return edit


def b_transposed(text: str) -> str:
    text = _replace(text, "const B_LD: u32 = BN / HALVES + 1u;",
                    "const B_LD: u32 = BK / HALVES + 1u; // B staged transposed: a row per column of B")
    text = _replace(text, "const B_STAGE: u32 = BK * B_LD;", "const B_STAGE: u32 = BN * B_LD;")
    text = _replace(text, "let tiles = vec2<u32>(sub_row * A_LD, sub_col / HALVES);",
                    "let tiles = vec2<u32>(sub_row * A_LD, sub_col * B_LD);")
    text = _replace(text, "let b_k = b_at + kk * B_LD;", "let b_k = b_at + kk / HALVES;")
    text = _replace(text, "var r = subgroupMatrixLoad<TileB, row_major>(&b_stages, b_k, B_LD);",
                    "var r = subgroupMatrixLoad<TileB, col_major>(&b_stages, b_k, B_LD);")
    for tile, offset in ((1, "TILE / HALVES"), (2, "2u * TILE / HALVES"), (3, "3u * TILE / HALVES")):
        text = _replace(text, f"r = subgroupMatrixLoad<TileB, row_major>(&b_stages, b_k + {offset}, B_LD);",
                        f"r = subgroupMatrixLoad<TileB, col_major>(&b_stages, b_k + {tile}u * TILE * B_LD, B_LD);")
    text = _replace(text, "const_assert M % BM == 0",
                    "const_assert B_COPIES % 2u == 0u && B_SLICE % (2u * WG_SIZE) == 0u;\nconst_assert M % BM == 0")
    text = _replace(text, """    for (var i = 0u; i < B_COPIES; i++) {
        let e = lid + i * WG_SIZE;
        if (e < B_SLICE) {
            (*copies)[slot].b[i] = b[((k0 + e / (BN / HALVES)) * N + block.y) / HALVES + e % (BN / HALVES)];
        }
    }""", """    // Rows k and k + 1 over the same 8 columns, so that stage() packs each
    // column's two halves into one word of the transposed stage.
    for (var i = 0u; i < B_COPIES / 2u; i++) {
        let pair = lid + i * WG_SIZE;
        let at = ((k0 + 2u * (pair % (BK / 2u))) * N + block.y) / HALVES + pair / (BK / 2u);
        (*copies)[slot].b[2u * i] = b[at];
        (*copies)[slot].b[2u * i + 1u] = b[at + N / HALVES];
    }""")
    return _replace(text, """    for (var i = 0u; i < B_COPIES; i++) {
        let e = lid + i * WG_SIZE;
        if (e < B_SLICE) {
            b_stages[buffer * B_STAGE + (e / (BN / HALVES)) * B_LD + e % (BN / HALVES)] = (*copies)[slot].b[i];
        }
    }""", """    for (var i = 0u; i < B_COPIES / 2u; i++) {
        let pair = lid + i * WG_SIZE;
        let kp = pair % (BK / 2u);
        let x = (*copies)[slot].b[2u * i];
        let y = (*copies)[slot].b[2u * i + 1u];
        let row = buffer * B_STAGE + 8u * (pair / (BK / 2u)) * B_LD + kp / 4u;
        for (var w = 0u; w < 4u; w++) {
            b_stages[row + 2u * w * B_LD][kp % 4u] = (x[w] & 0xFFFFu) | (y[w] << 16u);
            b_stages[row + (2u * w + 1u) * B_LD][kp % 4u] = (x[w] >> 16u) | (y[w] & 0xFFFF0000u);
        }
    }""")


def ring(text: str) -> str:
    text = _replace(text, "const DEPTH: u32 = 1u;", "const DEPTH: u32 = 2u;")
    text = _replace(text, "const BUFFERS: u32 = 1u;", "const BUFFERS: u32 = 2u;")
    # No leading parenthesis: naga reads `const_assert (a) && b` as `const_assert (a)` and wants a ';'.
    text = _replace(text, "const_assert DEPTH <= SETS && (BUFFERS == 1u || BUFFERS == 2u);",
                    "const LEAD: u32 = BUFFERS - 1u; // steps between staging a slice and multiplying it\n"
                    "const_assert DEPTH > LEAD && (BUFFERS == 2u || BUFFERS == 3u) && DEPTH <= LEAD + 3u "
                    "&& DEPTH <= SETS;")
    prologue_start = text.index("    fetch(&copies, 0u, block, 0u, lid);")
    prologue_end = text.index("    // The loop is written out SETS steps")
    text = text[:prologue_start] + """    fetch(&copies, 0u, block, 0u, lid);
    fetch(&copies, 1u, block, 1u, lid);
    if (DEPTH > 2u) { fetch(&copies, 2u, block, 2u, lid); }
    if (DEPTH > 3u) { fetch(&copies, 3u, block, 3u, lid); }
    stage(&copies, 0u, 0u, lid);
    if (LEAD > 1u) { stage(&copies, 1u, 1u, lid); }
    workgroupBarrier();

""" + text[prologue_end:]
    step_start = text.index("fn step(")
    step_end = text.index("// Reads slice `slice`")
    return text[:step_start] + """fn step(acc: ptr<function, Accumulators>, copies: ptr<function, InFlight>, s: u32, p: u32,
        block: vec2<u32>, tiles: vec2<u32>, lid: u32) {
    // The buffer staged here was read at step s + p - 1, finished before the
    // last barrier: one barrier a step.
    fetch(copies, (p + DEPTH) % SETS, block, s + p + DEPTH, lid);
    stage(copies, (p + LEAD) % SETS, (s + p + LEAD) % BUFFERS, lid);
    let buffer = (s + p) % BUFFERS;
    multiply(acc, buffer * A_STAGE + tiles.x, buffer * B_STAGE + tiles.y);
    workgroupBarrier();
}

""" + text[step_end:]


EDITS: dict[str, Callable[[str], str]] = {
    "no_barriers": no_barriers,
    "a_col_major": a_col_major,
    "b_col_major": b_col_major,
    "b_transposed": b_transposed,
    "ring": ring,
}
DIAGNOSTIC = {"no_barriers", "a_col_major", "b_col_major", "spare"}


def derive(edits: list[str], text: str | None = None) -> str:
    """The example with `edits` applied in order ("spare:8" for 8 KiB of spare workgroup memory)."""
    text = EXAMPLE.read_text() if text is None else text
    for name in edits:
        kind, _, argument = name.partition(":")
        text = spare(int(argument))(text) if kind == "spare" else EDITS[kind](text)
    return text


def is_diagnostic(edits: list[str]) -> bool:
    return any(name.partition(":")[0] in DIAGNOSTIC for name in edits)
