"""Reading the blame record (coop_lsp.runner.blame) against the check's wrong elements: who wrote them,
at which line, which were never written, and a heat map of where they lie in the output matrix."""

from __future__ import annotations

import html

from ..core.text import index_ranges

FIRST = 8  # wrong elements listed one by one
WRITERS = 10  # groups of wrong elements by writer
HEAT = 48  # the heat map's cells per side, at most


def blame_rerun(report, rerun) -> None:
    """Runs the instrumented kernel and hands its blame to `report`; the second run's own time is kept, as
    the cost of the instrumentation."""
    try:
        second = rerun()
    except Exception as error:  # noqa: BLE001 - the plain run's verdict stands; the blame says why it has none
        report.blame = {"error": f"the instrumented re-run stopped: {type(error).__name__}: {error}"}
        return
    if second.status not in ("correct", "incorrect", "unchecked"):
        report.blame = {"error": f"the instrumented re-run {second.status}: {second.error}".strip()}
        return
    report.blame = dict(second.blame)
    report.blame["timing"] = second.timing
    report.blame["status"] = second.status
    if second.status != report.status:
        report.blame["differs"] = (f"the instrumented re-run was {second.status}, the plain run {report.status}: "
                                   "the kernel's result depends on timing or on the extra stores")
    report.notes += [n for n in second.notes if n.startswith("blame:")]


def read_blame(plan, record, masks: dict, desc, bindings, report) -> dict:
    import numpy as np

    from .execute import ELEMENT_BYTES

    lanes = report.subgroups.get("used") if isinstance(report.subgroups.get("used"), int) else plan.lanes
    record = np.asarray(record if record is not None else [], np.uint32)
    sites = {s.id: s for s in plan.sites}
    by_name = {name: (decl, array) for _, decl, name, array in bindings}
    outputs = []
    for name, (wrong, got, ref) in masks.items():
        decl, array = by_name[name]
        width = ELEMENT_BYTES.get(decl.element, array.itemsize)
        base = plan.bases.get(decl.name)
        if base is None:
            continue
        shape = wrong.shape
        check = desc.check
        if len(shape) == 2:
            rows, cols = np.indices(shape)
            flat = rows * shape[1] + cols if check.layout_c == "row" else cols * shape[0] + rows
        else:
            flat = np.arange(shape[0])
        slot = flat * array.itemsize // width
        words = record[2 * (base + slot).reshape(-1)], record[2 * (base + slot).reshape(-1) + 1]
        site = (words[0] & 0xFFFF).astype(np.int64).reshape(shape) - 1
        lid = (words[0] >> 16).astype(np.int64).reshape(shape)
        group = words[1].astype(np.int64).reshape(shape)
        outputs.append(_output(name, shape, wrong, got, ref, site, lid, group, sites, lanes, plan.dispatch))
    return {"outputs": outputs, "subgroup_size": lanes,
            "sites": [{"id": s.id, "line": s.line, "column": s.column, "kind": s.kind, "binding": s.binding,
                       "text": s.text} for s in plan.sites]}


def _workgroup(flat: int, dispatch) -> list[int]:
    dx, dy = (list(dispatch) + [1, 1, 1])[:2]
    return [flat % dx, flat // dx % dy, flat // (dx * dy)]


def _writer(site: int, lid: int, group: int, sites, lanes, dispatch) -> dict | None:
    if site < 0:
        return None
    s = sites.get(site)
    who = {"site": site, "line": s.line if s else 0, "column": s.column if s else 0,
           "workgroup": _workgroup(group, dispatch), "invocation": lid}
    if lanes:
        who["subgroup"] = lid // lanes
        # A matrix store is the whole subgroup's: any of its lanes may be the one recorded.
        who["lane"] = None if s is not None and s.kind != "store" else lid % lanes
    return who


def _position(shape, index) -> dict:
    if len(shape) == 2:
        return {"row": int(index[0]), "column": int(index[1])}
    return {"index": int(index[0])}


def _output(name, shape, wrong, got, ref, site, lid, group, sites, lanes, dispatch) -> dict:
    import numpy as np

    where = np.argwhere(wrong)
    unwritten = wrong & (site < 0)
    first = []
    for index in where[:FIRST]:
        index = tuple(index)
        first.append({**_position(shape, index), "got": float(got[index]), "expected": float(ref[index]),
                      "writer": _writer(int(site[index]), int(lid[index]), int(group[index]), sites, lanes,
                                        dispatch)})
    groups: dict = {}
    for index in where:
        index = tuple(index)
        s = int(site[index])
        if s < 0:
            continue
        subgroup = int(lid[index]) // lanes if lanes else int(lid[index])
        key = (s, int(group[index]), subgroup)
        entry = groups.setdefault(key, {"count": 0, "lanes": set(), "first": _position(shape, index)})
        entry["count"] += 1
        if lanes:
            entry["lanes"].add(int(lid[index]) % lanes)
    writers = []
    for (s, g, subgroup), entry in sorted(groups.items(), key=lambda item: -item[1]["count"])[:WRITERS]:
        store = sites.get(s)
        matrix = store is not None and store.kind != "store"
        writers.append({"site": s, "line": store.line if store else 0, "column": store.column if store else 0,
                        "kind": store.kind if store else "", "workgroup": _workgroup(g, dispatch),
                        **({"subgroup": subgroup} if lanes else {"invocation": subgroup}),
                        "lanes": [] if matrix else sorted(entry["lanes"]), "elements": entry["count"],
                        "first": entry["first"]})
    out = {"output": name, "shape": list(shape), "elements": int(wrong.size), "wrong": int(wrong.sum()),
           "written": int((site >= 0).sum()), "wrong_unwritten": int(unwritten.sum()), "first": first,
           "writers": writers, "groups": len(groups)}
    if unwritten.any():
        spots = np.argwhere(unwritten)
        out["unwritten"] = {"first": _position(shape, tuple(spots[0])),
                            "low": [int(v) for v in spots.min(axis=0)], "high": [int(v) for v in spots.max(axis=0)]}
        if len(shape) == 1:
            out["unwritten"]["ranges"] = index_ranges([int(v) for v in spots[:, 0]])
    out["heat"] = _heat(wrong, unwritten)
    return out


def _heat(wrong, unwritten) -> dict:
    """The fraction of wrong (and of never written) elements in each cell of a grid of at most HEAT x HEAT."""
    import numpy as np

    grid = wrong if wrong.ndim == 2 else wrong.reshape(1, -1)
    never = unwritten if unwritten.ndim == 2 else unwritten.reshape(1, -1)
    rows = min(HEAT, grid.shape[0])
    cols = min(HEAT, grid.shape[1])
    row_edges = np.linspace(0, grid.shape[0], rows + 1).astype(int)
    col_edges = np.linspace(0, grid.shape[1], cols + 1).astype(int)

    def cells(mask):
        return [[round(float(mask[row_edges[i]:row_edges[i + 1], col_edges[j]:col_edges[j + 1]].mean()), 3)
                 for j in range(cols)] for i in range(rows)]

    return {"rows": rows, "cols": cols, "shape": list(grid.shape), "wrong": cells(grid), "unwritten": cells(never)}


def _who(w: dict | None) -> str:
    if w is None:
        return "nobody wrote it"
    text = f"line {w['line']} by workgroup ({', '.join(str(v) for v in w['workgroup'])})"
    if "subgroup" in w:
        text += f", subgroup {w['subgroup']}" + (f", lane {w['lane']}" if w.get("lane") is not None else
                                                 " (its matrix store)")
    else:
        text += f", invocation {w['invocation']}"
    return text


def _at(p: dict) -> str:
    return f"[{p['row']}, {p['column']}]" if "row" in p else f"[{p['index']}]"


def blame_lines(blame: dict, bullet: str, kernel: str) -> list[str]:
    if "error" in blame:
        return [f"{bullet}blame: {blame['error']}"]
    sites = {s["id"]: s for s in blame.get("sites", [])}
    lines = [f"{bullet}blame (an instrumented re-run; {len(sites)} store site(s) recorded):"]
    if blame.get("differs"):
        lines.append(f"{bullet}  note: {blame['differs']}")
    for out in blame.get("outputs", []):
        if not out["wrong"]:
            lines.append(f"{bullet}  {out['output']}: no wrong element; {out['written']} of {out['elements']} "
                         "written")
            continue
        lines.append(f"{bullet}  {out['output']}: {out['wrong']} of {out['elements']} elements wrong"
                     + (f", {out['wrong_unwritten']} of them never written" if out["wrong_unwritten"] else ""))
        for e in out["first"][:4]:
            lines.append(f"{bullet}    {_at(e)} = {e['got']:.6g} (expected {e['expected']:.6g}): {_who(e['writer'])}")
        for w in out["writers"]:
            site = sites.get(w["site"], {})
            who = (f"subgroup {w['subgroup']}" if "subgroup" in w else f"invocation {w['invocation']}")
            lanes = f", lanes {index_ranges(w['lanes'])}" if w["lanes"] else ""
            lines.append(f"{bullet}    {kernel}:{w['line']}:{w['column']}: {site.get('text', '')}  <- workgroup "
                         f"({', '.join(str(v) for v in w['workgroup'])}), {who}{lanes}: {w['elements']} wrong "
                         f"element(s), first at {_at(w['first'])}")
        if out["groups"] > len(out["writers"]):
            lines.append(f"{bullet}    ... and {out['groups'] - len(out['writers'])} more writer(s)")
        if "unwritten" in out:
            u = out["unwritten"]
            span = (f"rows {u['low'][0]}..{u['high'][0]}, columns {u['low'][1]}..{u['high'][1]}"
                    if len(u["low"]) == 2 else f"elements {_short(u['ranges'])}")
            lines.append(f"{bullet}    never written: {out['wrong_unwritten']} wrong element(s) in {span} "
                         f"(first at {_at(u['first'])}): no store reached them")
    timing = blame.get("timing") or {}
    if timing.get("median_ms") is not None:
        lines.append(f"{bullet}  instrumented run: median {timing['median_ms']:.4f} ms")
    return lines


def _short(ranges: str, parts: int = 6) -> str:
    pieces = ranges.split(",")
    return ", ".join(pieces[:parts]) + (f", ... ({len(pieces)} runs)" if len(pieces) > parts else "")




def blame_html(blame: dict) -> str:
    """The wrong elements as a picture over each output matrix: an inline SVG, one cell per block of elements,
    red as the block's fraction of wrong elements, grey hatching where nobody wrote."""
    if not blame or "error" in blame:
        return ""
    parts = ["<h2>Blame: wrong elements</h2>"]
    for out in blame.get("outputs", []):
        heat = out["heat"]
        size = 8 if max(heat["rows"], heat["cols"]) > 24 else 16
        width, height = heat["cols"] * size, heat["rows"] * size
        cells = []
        for i in range(heat["rows"]):
            for j in range(heat["cols"]):
                wrong, never = heat["wrong"][i][j], heat["unwritten"][i][j]
                if wrong <= 0:
                    fill = "#eef6ee"
                elif never >= wrong / 2:
                    fill = f"rgba(60,60,60,{0.25 + 0.75 * wrong:.3f})"
                else:
                    fill = f"rgba(214,39,40,{0.25 + 0.75 * wrong:.3f})"
                cells.append(f'<rect x="{j * size}" y="{i * size}" width="{size}" height="{size}" fill="{fill}">'
                             f"<title>rows {i}/{heat['rows']}, columns {j}/{heat['cols']}: {wrong:.0%} wrong, "
                             f"{never:.0%} never written</title></rect>")
        shape = " x ".join(str(v) for v in heat["shape"])
        parts.append(f"<h3>{html.escape(out['output'])} ({shape}): {out['wrong']} wrong, "
                     f"{out['wrong_unwritten']} never written</h3>")
        parts.append(f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
                     f'viewBox="0 0 {width} {height}" style="border:1px solid #999">' + "".join(cells) + "</svg>")
        parts.append("<p>red: wrong elements written by a store (darker: more of the block); grey: wrong "
                     "elements nobody wrote; green: right.</p>")
        if out["writers"]:
            items = "".join(f"<li>line {w['line']}: workgroup ({', '.join(map(str, w['workgroup']))}), "
                            + (f"subgroup {w['subgroup']}" if "subgroup" in w else f"invocation {w['invocation']}")
                            + f": {w['elements']} wrong</li>" for w in out["writers"])
            parts.append(f"<ul>{items}</ul>")
    return "\n".join(parts) + "\n"
