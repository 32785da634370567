"""What a tune tells: a table per target, the JSON a backend loads, and the HTML page.

The JSON for backends (format "coop-lint-tuned", documented in docs/tune.md):

    {"format": "coop-lint-tuned", "version": 1, "kernel": "gemm.wgsl",
     "targets": {"nvidia-h100": {"variant": "16x16-f32", "defines": {...}, "sizes": {...},
                                 "median_ms": 0.41, "tflops": 335.2, "peak_fraction": 0.34}}}

A target with no correct variant is absent from "targets" and listed in "untuned" with the reason.
"""

from __future__ import annotations

import html

from .targets import Target

TUNED_FORMAT = "coop-lint-tuned"


def ranked(records: list[dict], target: str) -> list[dict]:
    """The target's correct, timed records, fastest first."""
    ok = [r for r in records if r["target"] == target and r.get("status") == "correct" and r.get("median_ms")]
    return sorted(ok, key=lambda r: r["median_ms"])


def _fmt(value, spec: str) -> str:
    return "-" if value is None else format(value, spec)


def summary_table(records: list[dict], targets: list[Target], markdown: bool = False) -> str:
    header = ["target", "best variant", "median ms", "TFLOP/s", "of peak", "correct", "next best", "pruned", "run"]
    rows = [header]
    for target in targets:
        best = ranked(records, target.name)
        mine = [r for r in records if r["target"] == target.name]
        pruned = sum(r.get("status") == "pruned" for r in mine)
        ran = sum(r.get("status") not in ("pruned", "not run") for r in mine)
        correct = sum(r.get("status") == "correct" for r in mine)
        if best:
            b = best[0]
            nxt = f"{best[1]['label']} ({best[1]['median_ms'] / b['median_ms']:.2f}x)" if len(best) > 1 else "-"
            rows.append([target.name, b["label"], _fmt(b["median_ms"], ".4f"), _fmt(b.get("tflops"), ".1f"),
                         _fmt(b.get("peak_fraction"), ".1%"), f"{correct}/{ran}", nxt, str(pruned), str(ran)])
        else:
            rows.append([target.name, "none correct", "-", "-", "-", f"0/{ran}", "-", str(pruned), str(ran)])
    return _table(rows, markdown)


def target_table(records: list[dict], target: Target, markdown: bool = False) -> str:
    """Every variant for one target: its verdict, timing, and the performance findings beside it."""
    best = ranked(records, target.name)
    fastest = best[0]["key"] if best else None
    rows = [["variant", "status", "median ms", "TFLOP/s", "of peak", "", "findings"]]
    for r in (r for r in records if r["target"] == target.name):
        status = r.get("status", "?") + (f" ({r['stage']})" if r.get("stage") and r.get("status") != "correct"
                                          else "")
        findings = ", ".join(sorted({f.split()[0] for f in r.get("findings") or []}))
        rows.append([r["label"], status, _fmt(r.get("median_ms"), ".4f"), _fmt(r.get("tflops"), ".1f"),
                     _fmt(r.get("peak_fraction"), ".1%"), "fastest" if r["key"] == fastest else "", findings])
    text = _table(rows, markdown)
    problems = [f"{r['label']}: {r['status']}: {r.get('error', '')}" for r in records
                if r["target"] == target.name and r.get("status") not in ("correct", "unchecked") and r.get("error")]
    if problems:
        bullet = "- " if markdown else "  "
        text += "\n" + "\n".join(bullet + p for p in problems) + "\n"
    return text


def _table(rows: list[list[str]], markdown: bool) -> str:
    if markdown:
        lines = ["| " + " | ".join(c.replace("|", "\\|") for c in row) + " |" for row in rows]
        lines.insert(1, "|" + "---|" * len(rows[0]))
    else:
        widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
        lines = ["  ".join(c.ljust(w) for c, w in zip(row, widths)).rstrip() for row in rows]
    return "\n".join(lines) + "\n"


def tuned_json(records: list[dict], targets: list[Target], kernel: str) -> dict:
    out: dict = {"format": TUNED_FORMAT, "version": 1, "kernel": kernel, "targets": {}, "untuned": {}}
    for target in targets:
        best = ranked(records, target.name)
        if not best:
            mine = [r for r in records if r["target"] == target.name]
            reasons = sorted({r.get("status", "?") for r in mine})
            out["untuned"][target.name] = f"no correct variant ({', '.join(reasons) or 'no variants'})"
            continue
        b = best[0]
        out["targets"][target.name] = {
            "variant": b["candidate"]["variant"], "defines": b["candidate"]["defines"],
            "sizes": b["candidate"]["sizes"], "label": b["label"], "median_ms": b["median_ms"],
            "tflops": b.get("tflops"), "peak_fraction": b.get("peak_fraction"), "adapter": b.get("adapter", "")}
    return out


def _sweep_results(records: list[dict]):
    """The records as the sweep page's results, so the tune reuses its table, chart and roofline."""
    from dataclasses import fields

    from ..execute import OutputCheck, RunReport
    from ..sweep import SweepResult

    class Labelled(SweepResult):
        label = property(lambda self: self.values["label"])

    known = {f.name for f in fields(RunReport)} - {"lint"}
    out = []
    for r in records:
        data = {k: v for k, v in (r.get("report") or {}).items() if k in known}
        data.setdefault("kernel", r.get("label", ""))
        data["checks"] = [OutputCheck(**c) for c in data.get("checks") or []]
        data["dispatch"] = tuple(data.get("dispatch") or ())
        report = RunReport(**data)
        if not r.get("report"):
            report.status, report.error = r.get("status", "error"), r.get("error", "")
        out.append(Labelled({"label": r["label"]}, report))
    return out


def tune_page(records: list[dict], targets: list[Target], kernel: str, notes: list[str] | None = None) -> str:
    """The HTML report: the summary, then per target the sweep page's table, chart and roofline."""
    from ..sweep import sweep_page

    parts = ["<!doctype html>\n<meta charset=\"utf-8\">\n", f"<title>Tune of {html.escape(kernel)}</title>\n",
             "<style>body{font-family:sans-serif;max-width:70em;margin:2em auto}pre{background:#f6f6f6;"
             "padding:.5em}</style>\n", f"<h1>Tune of {html.escape(kernel)}</h1>\n"]
    parts += [f"<p>{html.escape(n)}</p>\n" for n in notes or []]
    parts.append("<pre>" + html.escape(summary_table(records, targets)) + "</pre>\n")
    for target in targets:
        mine = [r for r in records if r["target"] == target.name and r.get("status") not in ("pruned",)]
        pruned = [r for r in records if r["target"] == target.name and r.get("status") == "pruned"]
        parts.append(f"<h2>{html.escape(target.name)} ({html.escape(target.title)})</h2>\n")
        parts.append("<pre>" + html.escape(target_table(records, target)) + "</pre>\n")
        if pruned:
            parts.append(f"<p>{len(pruned)} variants pruned by the linter before running:</p>\n<ul>\n"
                         + "".join(f"<li>{html.escape(r['label'])}: {html.escape(r.get('error', ''))}</li>\n"
                                   for r in pruned) + "</ul>\n")
        if mine:
            page = sweep_page(_sweep_results(mine), "html", title=target.name)
            body = page.split("</h1>\n", 1)[-1]  # the sweep page's own head and title are this page's
            parts.append(body)
    return "".join(parts)
