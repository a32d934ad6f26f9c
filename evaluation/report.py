"""Outputs of an evaluation run: results.json, report.html (a summary table and one inline SVG bar chart per metric,
no JavaScript), the summary table for the terminal, and the --check verdict."""

from __future__ import annotations

import json
from html import escape
from pathlib import Path
from typing import Any, Sequence

from django.template.loader import render_to_string
from django.utils.safestring import mark_safe

from evaluation.metrics import Metric, SuiteResult

#: Records of each suite shown in the HTML report (the JSON has them all).
REPORT_RECORDS = 50


def fmt(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.3f}"


def target_text(m: Metric) -> str:
    return f"{m.op} {m.target:g}" if m.target is not None else "-"


def status_text(m: Metric) -> str:
    return {True: "met", False: "NOT MET", None: "-" if m.target is None else "n/a"}[m.met]


def summary_rows(results: Sequence[SuiteResult]) -> list[list[str]]:
    """One row per metric: suite, metric, value, n, target, status."""
    return [[r.suite, m.name, fmt(m.value), str(m.n), target_text(m), status_text(m)]
            for r in results for m in r.metrics]


def summary_table(results: Sequence[SuiteResult]) -> str:
    """The summary as a fixed-width text table (for stdout)."""
    header = ["suite", "metric", "value", "n", "target", "status"]
    rows = summary_rows(results)
    widths = [max(len(row[i]) for row in [header] + rows) for i in range(len(header))]
    right = {2, 3}

    def line(row: list[str]) -> str:
        return "  ".join(cell.rjust(w) if i in right else cell.ljust(w)
                         for i, (cell, w) in enumerate(zip(row, widths))).rstrip()

    return "\n".join([line(header), line(["-" * w for w in widths])] + [line(r) for r in rows])


def failures(results: Sequence[SuiteResult]) -> list[str]:
    """The metrics under (or over) their targets, as "suite.metric value op target" (unmeasured ones not included)."""
    return [f"{r.suite}.{m.name} {fmt(m.value)} (target {target_text(m)})"
            for r in results for m in r.metrics if m.met is False]


def unmeasured(results: Sequence[SuiteResult]) -> list[str]:
    """Metrics with a target that measured nothing (n = 0)."""
    return [f"{r.suite}.{m.name}" for r in results for m in r.metrics if m.target is not None and m.value is None]


def bar_chart(metric: Metric) -> str:
    """An inline SVG bar chart of one metric: a bar per part in ``metric.by`` and one for the overall value, on a
    0..1 scale with the target as a dashed line. Bars are green when they meet the target, red when not, blue when
    the metric has none. Every text is escaped."""
    rows: list[tuple[str, float | None, int]] = [(k, v, n) for k, (v, n) in metric.by.items()]
    if len(rows) != 1 or rows[0][1] != metric.value:
        rows.append(("overall", metric.value, metric.n))
    label_w, bar_w, value_w, row_h, top = 150, 300, 120, 26, 22
    width, height = label_w + bar_w + value_w, top + row_h * len(rows) + 8
    top_value = max([1.0] + [v for _, v, _ in rows if v is not None] + ([metric.target] if metric.target else []))

    def x(value: float) -> float:
        return label_w + bar_w * max(0.0, value) / top_value

    parts = [(f'<svg xmlns="http://www.w3.org/2000/svg" class="chart" width="{width}" height="{height}" '
              f'viewBox="0 0 {width} {height}" role="img" aria-label="{escape(metric.name)}">'),
             f'<title>{escape(metric.name)}: {escape(metric.description)}</title>',
             f'<line x1="{label_w}" y1="{top - 4}" x2="{label_w}" y2="{height - 6}" class="axis"/>',
             f'<text x="{label_w}" y="{top - 8}" class="tick">0</text>',
             f'<text x="{x(top_value):.1f}" y="{top - 8}" class="tick" text-anchor="end">{top_value:g}</text>']
    for i, (name, value, n) in enumerate(rows):
        y = top + i * row_h
        parts.append(f'<text x="{label_w - 8}" y="{y + 16}" text-anchor="end" class="label">{escape(name)}</text>')
        if value is None:
            parts.append(f'<text x="{label_w + bar_w + 10}" y="{y + 16}" class="value">n/a (n={n})</text>')
            continue
        if metric.target is None:
            kind = "plain"
        else:
            ok = value >= metric.target - 1e-9 if metric.op == ">=" else value <= metric.target + 1e-9
            kind = "ok" if ok else "bad"
        parts.append(f'<rect x="{label_w}" y="{y + 4}" width="{max(1.0, x(value) - label_w):.1f}" height="{row_h - 8}" '
                     f'class="bar {kind}"><title>{escape(name)}: {value:.3f} (n={n})</title></rect>')
        parts.append(f'<text x="{label_w + bar_w + 10}" y="{y + 16}" class="value">{value:.3f} (n={n})</text>')
    if metric.target is not None:
        tx = x(metric.target)
        parts.append(f'<line x1="{tx:.1f}" y1="{top - 2}" x2="{tx:.1f}" y2="{height - 6}" class="target">'
                     f'<title>target {escape(target_text(metric))}</title></line>')
    parts.append("</svg>")
    return "".join(parts)


def run_json(results: Sequence[SuiteResult], run: dict[str, Any]) -> dict[str, Any]:
    return {"run": run, "summary": [dict(zip(["suite", "metric", "value", "n", "target", "status"], row))
                                    for row in summary_rows(results)],
            "failed": failures(results), "suites": [r.as_dict() for r in results]}


def write(out: Path, results: Sequence[SuiteResult], run: dict[str, Any]) -> tuple[Path, Path]:
    """Write ``out``/results.json and ``out``/report.html (the folder is created); returns both paths."""
    out.mkdir(parents=True, exist_ok=True)
    json_path, html_path = out / "results.json", out / "report.html"
    json_path.write_text(json.dumps(run_json(results, run), indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    suites = []
    for r in results:
        suites.append({
            "name": r.suite,
            "info": json.dumps(r.info, ensure_ascii=False),
            "metrics": [{"metric": m, "value": fmt(m.value), "target": target_text(m), "status": status_text(m),
                         "chart": mark_safe(bar_chart(m))} for m in r.metrics],
            "columns": (columns := _columns(r.records[:REPORT_RECORDS])),
            "records": [[_cell(rec.get(c)) for c in columns] for rec in r.records[:REPORT_RECORDS]],
            "records_total": len(r.records),
        })
    html_text = render_to_string("evaluation/report.html", {
        "run": run, "rows": summary_rows(results), "failed": failures(results), "suites": suites})
    html_path.write_text(html_text, encoding="utf-8")
    return json_path, html_path


def _columns(records: Sequence[dict[str, Any]]) -> list[str]:
    seen: dict[str, None] = {}
    for r in records:
        for k in r:
            seen.setdefault(k, None)
    return list(seen)


def _cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    if isinstance(value, float):
        return f"{value:.3f}"
    return json.dumps(value, ensure_ascii=False)
