"""The performance rules (P001...): patterns that made matrix kernels measurably slow on a real GPU.

Each rule reports only for targets whose profile holds its measured cost
(devices/profiles/*.json, `performance.rule_costs`), and quotes that cost.
A rule whose pair of kernels measured less than MEANINGFUL_SLOWDOWN on a
target reports as information there, not as a warning.
"""

from ...core.diagnostic import Severity
from ...core.rules import Rule, register

# Below this, a measured difference is within what repeated runs of one
# kernel vary by on the H100 (271-276 TFLOP/s for the same variant): not a
# reason to change code.
MEANINGFUL_SLOWDOWN = 1.2

_EVIDENCE = " The figure in the message comes from the target's profile: a pair of kernels that differ only in this " \
            "pattern, both run and checked by `coop-lint run` (benchmarks/perf_pairs, benchmarks/perf_rules.py, " \
            "benchmarks/results/perf_rules.json)."

ONE_TILE_PER_SUBGROUP = register(Rule(
    code="P001", name="one_tile_per_subgroup", severity=Severity.WARNING, layer="analysis",
    summary="Each matrix tile a subgroup loads serves a single multiply: one result tile per subgroup.",
    explanation="A 16x16x16 multiply does 8192 multiply-adds on 1 KiB of operands. When a subgroup owns one result "
                "tile, every step loads a fresh A and B tile for one multiply, so the matrix units wait on memory. "
                "Owning a 2x2 (or 4x4) block of result tiles lets each loaded tile serve 2 (or 4) multiplies." + _EVIDENCE,
    example="for (var k = 0u; k < K; k += 16u) {\n"
            "    let ta = subgroupMatrixLoad<TileA, row_major>(&a, row * K + k, K);\n"
            "    let tb = subgroupMatrixLoad<TileB, row_major>(&b, k * N + col, N);\n"
            "    acc = subgroupMatrixMultiplyAccumulate(ta, tb, acc);   // P001\n}",
    fix="Give each subgroup several result tiles (accumulators in separate variables or an array indexed by "
        "constants) and reuse each loaded A tile across a row of them and each B tile across a column; "
        "benchmarks/perf_pairs/naive_2x2.wgsl is the example with 2x2 tiles.",
))

STORAGE_LOADS_IN_LOOP = register(Rule(
    code="P002", name="unstaged_matrix_loads", severity=Severity.WARNING, layer="analysis",
    summary="Matrix tiles loaded straight from a storage buffer inside the K loop of a workgroup of several "
            "subgroups.",
    explanation="Subgroups of one workgroup that share block rows or columns read the same A and B tiles. Loaded "
                "from storage, each subgroup fetches them again through the caches; staged once per step in "
                "workgroup memory (all invocations copy a slice with wide loads, one barrier, then every subgroup "
                "loads its tiles from there), each element comes from storage once per workgroup." + _EVIDENCE,
    example="for (var k0 = 0u; k0 < K; k0 += BK) {\n"
            "    let l0 = subgroupMatrixLoad<TileA, row_major>(&a, row * K + k0, K);   // P002: a is storage\n    ...\n}",
    fix="Copy the BM x BK slice of A and the BK x BN slice of B into `var<workgroup>` arrays each step "
        "(padded rows, see P005), `workgroupBarrier()`, and load the tiles from there "
        "(examples/chromium/gemm_pipelined.wgsl).",
))

RUNTIME_INDEXED_MATRICES = register(Rule(
    code="P003", name="runtime_indexed_matrix_array", severity=Severity.WARNING, layer="analysis",
    summary="An array of matrices indexed by a value that is not a constant, in a loop that multiplies.",
    explanation="Matrices live in registers only while the compiler can tell which element every access names. "
                "An index computed from loop variables can make the driver keep the whole array in memory "
                "(on the H100, a 4x4 array of accumulators indexed in loops ran several times slower than the same "
                "tiles named by constants)." + _EVIDENCE,
    example="for (var i = 0u; i < 4u; i++) {\n    for (var j = 0u; j < 4u; j++) {\n"
            "        acc[i * 4u + j] = subgroupMatrixMultiplyAccumulate(left[i], right[j], acc[i * 4u + j]);\n    }\n}",
    fix="Write the loop out so that every index is a constant (`acc[0]`, `acc[1]`, ...), or keep the tiles in "
        "separate variables; examples/chromium/gemm_tiled_4x4.wgsl is gemm_tiled.wgsl written that way.",
))

WORKGROUP_MEMORY_OCCUPANCY = register(Rule(
    code="P004", name="workgroup_memory_occupancy", severity=Severity.WARNING, layer="analysis",
    summary="The module's workgroup memory leaves room for fewer workgroups per multiprocessor than the target's "
            "best number.",
    explanation="A multiprocessor runs as many workgroups at once as its workgroup memory holds; while one waits at "
                "a barrier or on memory, another multiplies. The target's profile says how much workgroup memory a "
                "multiprocessor offers and how many workgroups the fastest kernels needed at once; above "
                "memory / workgroups per workgroup, one of them cannot start." + _EVIDENCE,
    example="var<workgroup> a_stages: array<vec4<u32>, 2 * A_STAGE>;   // 2 buffers: 37 KiB in all, > 24 KiB",
    fix="Use less workgroup memory per workgroup: one staging buffer instead of two (with a second barrier), a "
        "smaller BK, or smaller blocks (examples/chromium/gemm_pipelined.wgsl: BUFFERS = 1).",
))

BANK_CONFLICTS = register(Rule(
    code="P005", name="workgroup_bank_conflicts", severity=Severity.WARNING, layer="analysis",
    summary="A matrix load from workgroup memory whose row stride puts the rows of a tile in the same banks.",
    explanation="Workgroup memory is split into banks (32 of 4 bytes on NVIDIA): accesses to different addresses "
                "in one bank are served one after another. A tile load reads 8 rows at once; when the row stride is "
                "a multiple of the bank line (128 bytes) or a large power of two, several rows start in the same "
                "bank and the load takes several passes. Padding each staged row by 16 bytes spreads them. The measured pair "
                "had 4 and 8 rows to a bank; a load with 2 or 3 is reported as information." + _EVIDENCE,
    example="const A_LD: u32 = BK / 8u;   // 64-byte rows: 4 rows share each bank\n"
            "let l = subgroupMatrixLoad<TileA, row_major>(&a_stage, at, A_LD);",
    fix="Pad every staged row by 16 bytes (8 halves, one vec4<u32>): add it to the stride constant, which the "
        "array's size must use too. The quick fix does that when the stride is a module-scope constant that "
        "the array's size depends on.",
))

SCALAR_HALF_LOADS = register(Rule(
    code="P006", name="scalar_f16_global_loads", severity=Severity.WARNING, layer="analysis",
    summary="f16 values read one at a time from a storage buffer inside a loop.",
    explanation="Each invocation reading one 2-byte value issues a memory instruction per half; reading the same "
                "data as vec4<u32> (8 halves, 16 bytes) per invocation moves it with an eighth of the instructions "
                "and full-width transactions. The runner and WebGPU let a kernel bind f16 data as array<vec4<u32>> "
                "and unpack each word with unpack2x16float (exact for f16)." + _EVIDENCE,
    example="for (var e = lid; e < BM * BK; e += 128u) {\n    a_slice[...] = a[(block_row + r) * K + k0 + col];   // a: array<f16>\n}",
    fix="Bind the buffer as array<vec4<u32>> and copy 8 halves per invocation (unpack2x16float unpacks a word); "
        "benchmarks/perf_pairs/blocked_vec.wgsl is gemm_blocked.wgsl rewritten that way.",
))

BOUNDS_CHECKED_MATRIX_ACCESS = register(Rule(
    code="P007", name="bounds_checked_matrix_access", severity=Severity.INFO, layer="analysis",
    summary="Accesses Dawn bounds-checks in a matrix kernel's hot code (matrix loads and stores on a runtime-sized "
            "array or at a computed offset, indexing by a computed value in loops), on a target where the checks "
            "are on by default.",
    explanation="Dawn (and so Chrome) checks every access whose index it cannot prove in bounds, unless the device "
                "was created with the toggle disable_robustness: subgroupMatrixLoad and subgroupMatrixStore on a "
                "runtime-sized array or at an offset computed at run time (workgroup memory included), and every "
                "array element indexed by a computed value. The kernel cannot turn the checks off; the application "
                "can where it owns the device (native Dawn), and `coop-lint run --explain` measures the kernel both "
                "ways and puts the measured cost on this finding. Information only, and reported only beside a run "
                "(`coop-lint run --explain`, the editor's run result): nearly every matrix kernel has it and its "
                "fix is outside the kernel, so plain linting leaves it out." + _EVIDENCE,
    example="@group(0) @binding(0) var<storage, read> a: array<vec4<u32>>;\n"
            "let l = subgroupMatrixLoad<TileA, row_major>(&a, at, K / 8u);",
    fix="Where the application creates the device: the Dawn toggle disable_robustness (`coop-lint run "
        "--no-robustness` shows the difference). On the web: nothing in the kernel; expect the measured cost.",
))

IDLE_MATRIX_UNITS = register(Rule(
    code="P008", name="idle_matrix_units", severity=Severity.WARNING, layer="analysis",
    summary="A workgroup of too few subgroups, with workgroup memory that keeps others off its multiprocessor, "
            "leaves matrix units idle.",
    explanation="A multiprocessor has several matrix units (four on NVIDIA's H100, one per quarter), and each "
                "subgroup issues its multiplies to one of them. When the workgroup has fewer subgroups than the "
                "multiprocessor has matrix units, only other workgroups on the same multiprocessor can keep the "
                "rest busy; if the workgroup memory leaves room for too few of them, some units have no subgroup "
                "at all for the whole kernel. Resident subgroups = subgroups per workgroup x workgroups the "
                "multiprocessor's workgroup memory holds." + _EVIDENCE,
    example="var<workgroup> a_stage: array<vec4<u32>, 1024>;   // 16 KiB\n"
            "var<workgroup> b_stage: array<vec4<u32>, 640>;    // 10 KiB: one workgroup per multiprocessor\n"
            "@compute @workgroup_size(64)   // P008: 2 subgroups for 4 matrix units\nfn main(...) { ... }",
    fix="Give the workgroup at least as many subgroups as the multiprocessor has matrix units (more rows or "
        "columns of result tiles per workgroup, with the block growing to match), or use less workgroup memory "
        "so that more workgroups share each multiprocessor; benchmarks/perf_pairs/pipelined_knobs.wgsl with "
        "BM=128 (4 subgroups) is the fixed kernel of the measured pair.",
))

UNPIPELINED_STAGING = register(Rule(
    code="P009", name="unpipelined_staging", severity=Severity.WARNING, layer="analysis",
    summary="A K loop copies each slice into workgroup memory, waits at a barrier, multiplies and waits again: "
            "nothing is in flight while the matrix units work.",
    explanation="Each step's global reads start only after the previous step's multiplies and must arrive "
                "before the copy into workgroup memory, so the matrix units idle for the whole memory latency "
                "every step, and the memory system idles during the multiplies. Reading the next slice into "
                "registers before the multiplies and writing it to workgroup memory after them (one buffer, "
                "two barriers a step), or writing a second buffer while the first is multiplied from, keeps "
                "reads in flight under the multiplies. The rule follows the loop's calls into user functions "
                "(ggml stages through two of them)." + _EVIDENCE,
    example="for (var k0 = 0u; k0 < K; k0 += BK) {   // P009\n"
            "    stage[lid] = a[row * K + k0 + lid];        // read, then write: nothing overlaps it\n"
            "    workgroupBarrier();\n"
            "    let l = subgroupMatrixLoad<TileA, row_major>(&stage, at, LD);\n"
            "    acc = subgroupMatrixMultiplyAccumulate(l, r, acc);\n"
            "    workgroupBarrier();\n}",
    fix="Prefetch into registers: before the loop, read slice 0 and write it to workgroup memory, barrier; in "
        "the loop, read slice k + 1 into registers (a small array per invocation), multiply from workgroup "
        "memory, barrier, write the registers to workgroup memory, barrier (examples/chromium/"
        "gemm_pipelined.wgsl: fetch(), multiply(), stage(), BUFFERS = 1). Or use two workgroup buffers and "
        "write the next slice into the one not being multiplied from, if workgroup memory allows (P004).",
))

PERFORMANCE_RULES = (ONE_TILE_PER_SUBGROUP, STORAGE_LOADS_IN_LOOP, RUNTIME_INDEXED_MATRICES,
                     WORKGROUP_MEMORY_OCCUPANCY, BANK_CONFLICTS, SCALAR_HALF_LOADS, BOUNDS_CHECKED_MATRIX_ACCESS,
                     IDLE_MATRIX_UNITS, UNPIPELINED_STAGING)
