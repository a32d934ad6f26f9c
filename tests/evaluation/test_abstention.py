"""`evaluate --suite abstention`: abstention through the real pipeline, on records checked by hand.

``--limit 2`` asks eight questions (../shared/eval):

RAMDocs records 0 and 1 (both have noise and correct documents), each twice: noise documents only (must abstain) and
the same noise with the correct documents (must answer).

* 0 "What is the population of Broken Bow?": the noise document is a bare census table ("1890 1,647 - 1900 1,375
  ..."); nothing in it clears the relevance threshold, so the plan abstains before any answerer runs (correct).
  With the two correct documents the answer quotes "The geographic center of Nebraska lies approximately 10 miles
  northwest of Broken Bow [S1]." (answered: no false refusal, though not the population).
* 1 "What sport is Bobby Carpenter associated with?": the noise document is Pro-Football-Reference's page header
  ("Bobby Carpenter Stats, Height, Weight, Position, Draft, College | ... Football ..."); it names the player and a
  sport, but it is read as a table header line, not a sentence (grounding.sentence_data), and a header is never
  quoted as an answer: the offline answerer abstains (correct). With the correct documents it answers "... is a
  former American football linebacker [S2]".

ConditionalQA (all 59 rebuilt pages in one domain), the first two not-answerable and the first two answerable
questions:

* dev-7 (not answerable) "What is the maximum amount of Disability Living Allowance I can claim?": the page on
  financial help for disabled people states no amount; no sentence close enough to the question states an amount
  (grounding.answer_types), so the answerer abstains (correct; before the answer-type check it quoted "You may be
  entitled to get Industrial Injuries Benefit ...").
* dev-29 (not answerable) keeping a work visa after having a baby: the maternity pages say nothing about visas;
  abstains (correct).
* dev-0 (special guardian, "How long before I hear back from the court?") and dev-1 (adoption age requirements) are
  answered (no false refusal).

So correct abstention = 4/4 (RAMDocs 2/2, ConditionalQA 2/2) and false refusals = 0/4. Records are grouped by how
many gold answers they have ("ramdocs single"; ConditionalQA's not-answerable records have none: "conditionalqa").
"""

from __future__ import annotations

import pytest

from evaluation.suites import METRICS
from tests.evaluation.helpers import by, evaluate


@pytest.fixture(scope="module")
def run(django_db_setup, django_db_blocker, embedder, tmp_path_factory):
    from django.contrib.auth.models import Group

    from knowledge.models import Domain

    with django_db_blocker.unblock():
        domains = set(Domain.objects.values_list("slug", flat=True))
        result = evaluate(tmp_path_factory.mktemp("abstention"), "--suite", "abstention", "--limit", "2")
        # what the run left behind (read here: a test using the db fixture would be reordered away from this module)
        result.left = (set(Domain.objects.values_list("slug", flat=True)) - domains,
                       set(Group.objects.filter(name__startswith="eval-tmp-").values_list("name", flat=True)))
    return result


def test_rates_on_the_hand_checked_questions(run):
    assert [m["name"] for m in run.suite("abstention")["metrics"]] == list(METRICS["abstention"])
    correct = run.metric("abstention", "correct_abstention_rate")
    assert (correct["value"], correct["n"], correct["target"], correct["op"], correct["met"]) == (1.0, 4, 0.9, ">=",
                                                                                                   True)
    assert by(correct) == {"ramdocs single": (1.0, 2), "conditionalqa": (1.0, 2)}
    refused = run.metric("abstention", "false_refusal_rate")
    assert (refused["value"], refused["n"], refused["target"], refused["op"], refused["met"]) == (0.0, 4, 0.1, "<=",
                                                                                                  True)
    assert by(refused) == {"ramdocs single": (0.0, 2), "conditionalqa single": (0.0, 2)}


def test_each_question_as_read_by_hand(run):
    records = run.records("abstention")
    assert {k: (r["should_abstain"], r["abstained"]) for k, r in records.items()} == {
        ("ramdocs", 0, "noise_only"): (True, True),
        ("ramdocs", 0, "with_correct"): (False, False),
        ("ramdocs", 1, "noise_only"): (True, True),
        ("ramdocs", 1, "with_correct"): (False, False),
        ("conditionalqa", 0, "pages"): (False, False),
        ("conditionalqa", 1, "pages"): (False, False),
        ("conditionalqa", 7, "pages"): (True, True),
        ("conditionalqa", 29, "pages"): (True, True),
    }
    broken_bow = records[("ramdocs", 0, "noise_only")]
    assert broken_bow["sufficient"] is False  # abstained by the plan, no answerer call
    assert "Pro-Football-Reference" not in records[("ramdocs", 1, "noise_only")]["answer"]
    assert "Industrial Injuries Benefit" not in records[("conditionalqa", 7, "pages")]["answer"]
    assert {r["group"] for r in records.values()} == {"ramdocs single", "conditionalqa single", "conditionalqa"}
    assert run.suite("abstention")["info"]["errors"] == 0


def test_the_temporary_domain_is_gone_after_the_run(run):
    assert run.left == (set(), set())
