"""Running ``manage.py evaluate`` in tests and reading what it wrote."""

from __future__ import annotations

import json
from dataclasses import dataclass
from io import StringIO
from pathlib import Path

from django.core.management import call_command


@dataclass
class Run:
    stdout: str
    data: dict
    html: str
    out: Path
    left: tuple = ()

    def suite(self, name: str) -> dict:
        return next(s for s in self.data["suites"] if s["suite"] == name)

    def metric(self, suite: str, name: str) -> dict:
        return next(m for m in self.suite(suite)["metrics"] if m["name"] == name)

    def records(self, suite: str) -> dict[tuple, dict]:
        """Records keyed by (dataset, record, variant)."""
        return {(r["dataset"], r["record"], r["variant"]): r for r in self.suite(suite)["records"]}


def evaluate(out: Path, *args: str) -> Run:
    """``manage.py evaluate ARGS --out OUT --no-progress``; the outputs it wrote."""
    stdout = StringIO()
    call_command("evaluate", *args, "--out", str(out), "--no-progress", stdout=stdout)
    return Run(stdout.getvalue(), json.loads((out / "results.json").read_text(encoding="utf-8")),
               (out / "report.html").read_text(encoding="utf-8"), out)


def by(metric: dict) -> dict[str, tuple]:
    """A metric's parts as {name: (value, n)}."""
    return {k: (v["value"], v["n"]) for k, v in metric["by"].items()}
