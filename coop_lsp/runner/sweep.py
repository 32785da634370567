"""Runs one kernel over several values of its run description's sizes and compares the variants.

    variants = sweep_axes(["BN=64,128", "WN=32,64"])        # the product: 4 variants
    results = run_sweep(kernel, run_path, variants, backend="dawn")
    print(sweep_table(results))                             # fastest correct variant marked
    Path("report.html").write_text(sweep_page(results, "html"))

Each variant is a separate run (its own child process and time limit), so a
variant that fails to compile, hangs or computes wrong results is one row of
the table, not the end of the sweep.
"""

from __future__ import annotations

import html
import itertools
from dataclasses import dataclass
from pathlib import Path

from .description import RunDescriptionError, load_run_description
from .execute import RunReport, run_kernel
from .roofline import sweep_roofline


class SweepError(ValueError):
    """A malformed --set / --sweep argument."""


@dataclass
class SweepResult:
    values: dict[str, int]
    report: RunReport

    @property
    def label(self) -> str:
        return " ".join(f"{k}={v}" for k, v in self.values.items()) or "(as described)"


def parse_assignment(text: str, many: bool) -> tuple[str, list[int]]:
    """`NAME=V` (or `NAME=V1,V2,...` when `many`) -> (NAME, [values])."""
    name, sep, values = text.partition("=")
    name = name.strip()
    if not sep or not name.isidentifier():
        raise SweepError(f"'{text}': expected NAME={'V1,V2,...' if many else 'VALUE'}")
    parts = [v.strip() for v in values.split(",")]
    try:
        numbers = [int(v, 0) for v in parts]
    except ValueError:
        raise SweepError(f"'{text}': the values must be integers") from None
    if not numbers or (not many and len(numbers) != 1):
        raise SweepError(f"'{text}': expected {'at least one value' if many else 'one value'}")
    return name, numbers


def sweep_axes(arguments: list[str]) -> list[dict[str, int]]:
    """The product of every `NAME=V1,V2,...` argument, in the order given (the last varies fastest)."""
    axes: dict[str, list[int]] = {}
    for argument in arguments:
        name, values = parse_assignment(argument, many=True)
        if name in axes:
            raise SweepError(f"'{argument}': {name} is swept twice")
        axes[name] = values
    return [dict(zip(axes, combination)) for combination in itertools.product(*axes.values())]


def run_sweep(kernel: Path, run_path: Path, variants: list[dict[str, int]], fixed: dict[str, int] | None = None,
              workspace: Path | None = None, progress=None, **run_options) -> list[SweepResult]:
    """Runs every variant; `progress(i, n, label)` is called before each, and may raise to stop."""
    results = []
    for index, values in enumerate(variants):
        result = SweepResult(values, RunReport(kernel=kernel.name))
        if progress is not None:
            progress(index, len(variants), result.label)
        try:
            description = load_run_description(run_path, workspace, {**(fixed or {}), **values})
        except RunDescriptionError as error:
            result.report.error = str(error)
        else:
            result.report = run_kernel(kernel, description, **run_options)
        results.append(result)
    return results


def fastest(results: list[SweepResult]) -> SweepResult | None:
    correct = [r for r in results if r.report.status == "correct" and r.report.timing]
    return min(correct, key=lambda r: r.report.timing["median_ms"]) if correct else None


def _row(result: SweepResult, best: SweepResult | None) -> list[str]:
    r = result.report
    time = f"{r.timing['median_ms']:.4f}" if r.timing else "-"
    tflops = f"{r.tflops:.1f}" if r.tflops is not None else "-"
    peak = f"{r.peak_fraction:.1%}" if r.peak_fraction is not None else "-"
    status = r.status + (f" ({r.stage})" if r.stage and r.status != "correct" else "")
    mark = "fastest" if result is best else ""
    return [result.label, status, time, tflops, peak, mark]


HEADER = ["variant", "status", "median ms", "TFLOP/s", "of peak", ""]


def sweep_table(results: list[SweepResult], markdown: bool = False) -> str:
    best = fastest(results)
    rows = [HEADER] + [_row(r, best) for r in results]
    if markdown:
        lines = ["| " + " | ".join(row) + " |" for row in rows]
        lines.insert(1, "|" + "---|" * len(HEADER))
    else:
        widths = [max(len(row[i]) for row in rows) for i in range(len(HEADER))]
        lines = ["  ".join(cell.ljust(width) for cell, width in zip(row, widths)).rstrip() for row in rows]
    errors = [f"{r.label}: {r.report.error}" for r in results if r.report.error]
    if errors:
        lines += ["", "Errors:"] + [("- " if markdown else "  ") + e for e in errors]
    return "\n".join(lines) + "\n"


def throughput_chart(results: list[SweepResult], references: dict[str, float] | None = None,
                     peak: float | None = None) -> str:
    """An SVG bar chart of TFLOP/s per variant, with horizontal lines for the references
    (e.g. {"cuBLAS": 760.0}) and the device's peak; failed variants get an empty bar and their status."""
    references = dict(references or {})
    if peak:
        references.setdefault("device peak", peak)
    values = [r.report.tflops or 0.0 for r in results]
    top = max(values + list(references.values()) + [1.0]) * 1.08
    bar, gap, left, height, label_room = 28, 10, 70, 260, 150
    width = left + len(results) * (bar + gap) + 160
    y = lambda v: 20 + height * (1 - v / top)  # noqa: E731
    best = fastest(results)
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height + label_room + 30}" '
             f'font-family="sans-serif" font-size="11">',
             f'<line x1="{left}" y1="{y(0)}" x2="{width - 150}" y2="{y(0)}" stroke="#333"/>',
             f'<text x="{left - 8}" y="{y(0)}" text-anchor="end">0</text>',
             f'<text x="{left - 8}" y="{y(top / 1.08):.1f}" text-anchor="end">{top / 1.08:.0f}</text>',
             f'<text x="12" y="{20 + height / 2}" transform="rotate(-90 12 {20 + height / 2})" '
             f'text-anchor="middle">TFLOP/s</text>']
    for name, value in references.items():
        parts.append(f'<line x1="{left}" y1="{y(value):.1f}" x2="{width - 150}" y2="{y(value):.1f}" '
                     f'stroke="#c33" stroke-dasharray="4 3"/>')
        parts.append(f'<text x="{width - 146}" y="{y(value) + 4:.1f}" fill="#c33">'
                     f'{html.escape(name)} {value:.0f}</text>')
    for i, (result, value) in enumerate(zip(results, values)):
        x = left + gap + i * (bar + gap)
        ok = result.report.status == "correct"
        colour = "#2a7" if result is best else ("#4a90d9" if ok else "#bbb")
        parts.append(f'<rect x="{x}" y="{y(value):.1f}" width="{bar}" height="{y(0) - y(value):.1f}" '
                     f'fill="{colour}"><title>{html.escape(result.label)}: {value:.1f} TFLOP/s, '
                     f'{html.escape(result.report.status)}</title></rect>')
        text = f"{value:.0f}" if value else html.escape(result.report.status)
        parts.append(f'<text x="{x + bar / 2}" y="{y(value) - 4:.1f}" text-anchor="middle">{text}</text>')
        parts.append(f'<text x="{x + bar / 2}" y="{y(0) + 12}" text-anchor="end" '
                     f'transform="rotate(-60 {x + bar / 2} {y(0) + 12})">{html.escape(result.label)}</text>')
    parts.append("</svg>")
    return "\n".join(parts)


def sweep_page(results: list[SweepResult], fmt: str = "markdown", title: str = "Kernel sweep",
               references: dict[str, float] | None = None, notes: list[str] | None = None) -> str:
    """A report page: the table, the chart, and the details of the fastest variant."""
    best = fastest(results)
    peak = None
    if best is not None and best.report.peak_fraction:
        peak = best.report.tflops / best.report.peak_fraction
    chart = throughput_chart(results, references, peak)
    details = best.report.render("markdown") if best is not None else "No variant was correct.\n"
    first = results[0].report if results else None
    context = []
    if first is not None and first.backend:
        context.append(f"Adapter: {first.adapter or '?'}; backend: {first.backend}"
                       + ("" if first.backend != "dawn" else
                          f"; robustness {'on (Dawn default)' if first.robustness else 'off (disable_robustness)'}"))
    context += notes or []
    if fmt == "html":
        rows = [HEADER] + [_row(r, best) for r in results]
        table = "<table>\n" + "\n".join(
            "<tr>" + "".join(f"<{'th' if i == 0 else 'td'}>{html.escape(c)}</{'th' if i == 0 else 'td'}>"
                             for c in row) + "</tr>" for i, row in enumerate(rows)) + "\n</table>"
        errors = [f"<li>{html.escape(r.label)}: {html.escape(r.report.error)}</li>" for r in results if r.report.error]
        if errors:
            table += "\n<h2>Errors</h2>\n<ul>\n" + "\n".join(errors) + "\n</ul>"
        return ("<!doctype html>\n<meta charset=\"utf-8\">\n"
                f"<title>{html.escape(title)}</title>\n"
                "<style>body{font-family:sans-serif;max-width:60em;margin:2em auto}"
                "table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.2em .6em;text-align:right}"
                "td:first-child{text-align:left}</style>\n"
                f"<h1>{html.escape(title)}</h1>\n"
                + "".join(f"<p>{html.escape(c)}</p>\n" for c in context)
                + table + "\n" + chart + "\n<h2>Roofline</h2>\n" + _roofline_html(results)
                + "\n<h2>Fastest correct variant</h2>\n<pre>"
                + html.escape(details) + "</pre>\n")
    return (f"# {title}\n\n" + "".join(f"{c}\n\n" for c in context) + sweep_table(results, markdown=True)
            + "\n" + chart + "\n\n## Roofline\n\n" + sweep_roofline(results) + "\n\n## Fastest correct variant\n\n"
            + details)


def _roofline_html(results: list[SweepResult]) -> str:
    chart = sweep_roofline(results)
    return chart if chart.startswith("<svg") else f"<p>{html.escape(chart)}</p>"
