"""`manage.py evaluate`: outputs (results.json, report.html with a chart per metric, the summary table), --check and
--target, the temporary domain, and the pieces the suites are built from (matching rules, loaders, charts)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import CommandError

from evaluation import data
from evaluation.metrics import Metric, Tally, contains, contains_all, exact, normalise
from evaluation.report import bar_chart, summary_table
from tests.evaluation.helpers import evaluate

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def support_run(embedder, tmp_path_factory):
    """The cheapest suite (no ingestion): the support check on the first 8 ExpertQA records."""
    return evaluate(tmp_path_factory.mktemp("out"), "--suite", "support", "--limit", "8")


def test_results_json(support_run):
    d = support_run.data
    assert d["run"]["suites"] == ["support"] and d["run"]["provider"] == "extractive" and d["run"]["limit"] == 8
    assert d["run"]["targets"] == {"support": {"balanced_accuracy": ">= 0.75"}}
    assert d["failed"] == ["support.balanced_accuracy 0.542 (target >= 0.75)"]
    from evaluation.suites import METRICS

    assert [row["metric"] for row in d["summary"]] == list(METRICS["support"])
    suite = d["suites"][0]
    assert suite["info"]["claims"] == 23 and len(suite["records"]) == 23
    assert suite["records"][0]["support"] in {"Complete", "Partial", "Incomplete"}


def test_report_html_has_a_chart_per_metric_and_the_summary(support_run):
    html = support_run.html
    assert html.count("<svg ") == 5 == len(support_run.suite("support")["metrics"])
    assert "<script" not in html
    assert "support.balanced_accuracy 0.542 (target &gt;= 0.75)" in html
    assert re.search(r"<td>balanced_accuracy</td><td class=\"num\">0.542</td>", html)
    # the target line of the balanced accuracy chart, and bars of the flagged-by-label chart
    assert html.count('class="target"') == 1
    assert ">Incomplete</text>" in html and ">Complete</text>" in html


def test_summary_table_on_stdout(support_run):
    lines = support_run.stdout.splitlines()
    assert lines[0].split() == ["suite", "metric", "value", "n", "target", "status"]
    assert lines[2].split() == ["support", "balanced_accuracy", "0.542", "23", ">=", "0.75", "NOT", "MET"]
    assert f"wrote {support_run.out / 'results.json'} and {support_run.out / 'report.html'}" in support_run.stdout


def test_check_fails_under_target_and_passes_with_a_lowered_target(embedder, tmp_path):
    with pytest.raises(CommandError) as err:
        evaluate(tmp_path / "a", "--suite", "support", "--limit", "8", "--check")
    assert err.value.returncode == 1
    assert str(err.value) == "check failed: support.balanced_accuracy 0.542 (target >= 0.75)"
    run = evaluate(tmp_path / "b", "--suite", "support", "--limit", "8", "--check",
                   "--target", "support.balanced_accuracy=0.5", "--target", "support.recall>=0.3")
    assert "check passed" in run.stdout
    assert run.metric("support", "recall")["target"] == 0.3 and run.metric("support", "recall")["met"] is True
    with pytest.raises(CommandError) as err:
        evaluate(tmp_path / "c", "--suite", "support", "--limit", "8", "--check",
                 "--target", "support.balanced_accuracy=0.5", "--target", "support.precision>=0.7")
    assert str(err.value) == "check failed: support.precision 0.625 (target >= 0.7)"


def test_check_exit_status_of_the_real_command(tmp_path):
    """What CI sees: the process exits 1 and says which metric failed."""
    # its own var folder and the embedded defaults: the process never touches a developer's database or services
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL", "DJANGO_CACHE_URL")}
    env.update(DJANGO_SETTINGS_MODULE="config.settings.test", HF_HUB_OFFLINE="1", TRANSFORMERS_OFFLINE="1",
               GROUNDED_VAR_DIR=str(tmp_path / "var"))
    proc = subprocess.run([sys.executable, "manage.py", "evaluate", "--suite", "support", "--limit", "1", "--check",
                           "--out", str(tmp_path / "out")], cwd=ROOT, env=env, capture_output=True, text=True, timeout=600, check=False)
    assert proc.returncode == 1, proc.stderr
    assert "check failed: support.balanced_accuracy" in proc.stderr
    assert re.search(r"^support +balanced_accuracy +0.500 +7 +>= 0.75 +NOT MET$", proc.stdout, re.M)
    assert (tmp_path / "out" / "results.json").is_file() and (tmp_path / "out" / "report.html").is_file()


@pytest.mark.parametrize("args,message", [
    (["--suite", "support", "--limit", "0"], "--limit must be at least 1"),
    (["--suite", "support", "--target", "support.balanced_accuracy>0.5"], "expected SUITE.METRIC>=VALUE"),
    (["--suite", "support", "--target", "nope.x>=1"], "unknown suite 'nope'"),
    (["--suite", "support", "--target", "support.recall=0.5"], "has no target to change"),
    (["--suite", "support", "--target", "support.recal>=0.5"], "support has no metric 'recal' (it has"),
    (["--suite", "support", "--provider", "anthropic"], None),
    (["--suite", "support", "--split", "dev"], "--split dev applies to --suite golden only"),
    (["--suite", "support", "--split", "fresh2"], "--split fresh2 applies to --suite golden only"),
])
def test_bad_arguments(tmp_path, settings, args, message):
    if message is None:  # anthropic without a key
        settings.ANTHROPIC_API_KEY = ""
        message = "needs ANTHROPIC_API_KEY"
    with pytest.raises(CommandError, match=re.escape(message)):
        evaluate(tmp_path, *args)


def test_the_temporary_domain_is_hidden_and_always_deleted(db, embedder):
    from django.contrib.auth import get_user_model
    from django.contrib.auth.models import Group

    from evaluation.pipeline import EvalDocument, TemporaryDomain
    from knowledge.models import Chunk, Domain

    user = get_user_model().objects.create_user("reader", password="x")
    with pytest.raises(RuntimeError):
        with TemporaryDomain() as temporary:
            temporary.load([EvalDocument("Document 1", "The meal allowance is 65 dollars a day."),
                            EvalDocument("Document 2", "Hotels are booked through the travel desk.")])
            slug = temporary.domain.slug
            assert slug.startswith("eval-tmp-")
            assert sorted(title for title, _ in temporary.chunks.values()) == ["Document 1", "Document 2"]
            assert not Domain.objects.readable_by(user).filter(slug=slug).exists()
            temporary.load([EvalDocument("Document 1", "Another record's passage.")])
            assert [t for t, _ in temporary.chunks.values()] == ["Document 1"]
            assert Chunk.objects.filter(version__document__domain__slug=slug).count() == 1
            raise RuntimeError("a failing suite")
    assert not Domain.objects.filter(slug=slug).exists() and not Group.objects.filter(name=slug).exists()


# --- building blocks ----------------------------------------------------------------------------------------------

def test_answer_matching():
    assert normalise("The population is 3,559 people [S1].") == "population is 3559 people"
    assert contains("As of 2010 there were 3,559 people [S2].", "3,559 people")
    assert not contains("There were 13,559 people.", "3,559 people")      # whole words only
    assert contains("Raymond James Stadium in Tampa, Florida [S1].", "Tampa, Florida")
    assert not contains("The U.S. team", "Norway") and contains("The U.S. team", "U.S.")
    assert contains_all("released on Jul. 21, 2017", [("July 21 2017", "Jul. 21, 2017")])
    assert not contains_all("Norway and Germany", [("Norway",), ("Canada",)])
    assert not contains_all("anything", [])
    assert exact("Tampa, Florida [S1].", [("Tampa, Florida",)]) and not exact("In Tampa, Florida.", [("Tampa",)])


def test_tally_and_targets():
    t = Tally()
    t.add("ramdocs", True)
    t.add("ramdocs", False)
    t.add("rgb", 1.0)
    t.ensure("empty")
    m = t.metric("x", "d", target=0.9, op=">=")
    assert (m.value, m.n, m.met) == (pytest.approx(2 / 3), 3, False)
    assert m.by == {"ramdocs": (0.5, 2), "rgb": (1.0, 1), "empty": (None, 0)}
    assert Metric("y", "d", 0.1, 10, 0.1, "<=").met is True and Metric("z", "d", None, 0, 0.1, "<=").met is None


def test_bar_chart_escapes_and_draws_one_bar_per_part():
    m = Metric("rate", "a <b> & c", 0.5, 4, 0.9, ">=", by={"<x>": (0.25, 2), "y": (0.75, 2), "z": (None, 0)})
    svg = bar_chart(m)
    assert svg.startswith("<svg ") and svg.endswith("</svg>")
    assert svg.count("<rect ") == 3  # x, y, overall; z has no value
    assert "&lt;x&gt;" in svg and "<x>" not in svg and "a &lt;b&gt; &amp; c" in svg
    assert svg.count('class="bar bad"') == 3 and 'class="target"' in svg and "n/a (n=0)" in svg


def test_summary_table_aligns_columns():
    from evaluation.metrics import SuiteResult

    table = summary_table([SuiteResult("abstention", [Metric("correct_abstention_rate", "", 0.5, 4, 0.9, ">="),
                                                      Metric("other", "", None, 0)])])
    assert table.splitlines() == [
        "suite       metric                   value  n  target  status",
        "----------  -----------------------  -----  -  ------  -------",
        "abstention  correct_abstention_rate  0.500  4  >= 0.9  NOT MET",
        "abstention  other                      n/a  0  -       -",
    ]


def test_loaders_on_the_first_records():
    cases = data.ramdocs_abstention(2)
    assert [(c.record, c.variant, c.abstain, len(c.documents)) for c in cases] == [
        (0, "noise_only", True, 1), (0, "with_correct", False, 3), (1, "noise_only", True, 1),
        (1, "with_correct", False, 4)]
    assert [d.title for d in cases[3].documents] == ["Document 1", "Document 2", "Document 3", "Document 4"]
    cqa = data.conditionalqa_cases(2)
    assert [(c.record, c.abstain) for c in cqa] == [(0, False), (1, False), (7, True), (29, True)]
    assert cqa[0].question.endswith("How long will it be before I hear back from the court?")
    pages = data.conditionalqa_pages()
    assert len(pages) == 59 and all(p.html for p in pages)
    assert "Apply special guardian" in [p.title for p in pages]
    assert data.rgb_answers("Norway") == (("Norway",),)
    assert data.rgb_answers([["Jun 2020", "June 2020"]]) == (("Jun 2020", "June 2020"),)
    rgb = data.rgb_answer_cases(1)[0]
    assert rgb.wrong == ("Glendale, Arizona",) and len(rgb.documents) == 3 + 7
    conflict = {(c.dataset, c.record): c for c in data.conflict_cases(2)}
    assert conflict[("rgb", 0)].pairs == (("Document 1", "Document 2"), ("Document 3", "Document 4"),
                                         ("Document 5", "Document 6"))
    assert conflict[("ramdocs", 1)].pairs == () and len(conflict[("ramdocs", 1)].documents) == 3


def test_every_suite_names_its_metrics_and_targets():
    from evaluation.suites import DEFAULT_LIMITS, EXTRA_METRICS, METRICS, TARGETS
    from evaluation.management.commands.evaluate import SUITES

    assert set(TARGETS) <= set(SUITES) and set(DEFAULT_LIMITS) == set(SUITES) == set(METRICS)
    # a labelled golden set reports (and is held to) more metrics than a plain golden file
    assert all(set(metrics) <= set(METRICS[suite]) | set(EXTRA_METRICS.get(suite, ()))
               for suite, metrics in TARGETS.items())
    json.dumps(TARGETS)


def test_progress_bar_goes_to_stderr(capsys):
    from evaluation.management.commands.evaluate import progress_bar

    assert list(progress_bar(True)([1, 2, 3], desc="abstention", total=3)) == [1, 2, 3]
    captured = capsys.readouterr()
    assert "abstention" in captured.err and "3/3" in captured.err and captured.out == ""
    items = [1, 2]
    assert progress_bar(False)(items, desc="x", total=2) is items
    assert capsys.readouterr().err == ""
