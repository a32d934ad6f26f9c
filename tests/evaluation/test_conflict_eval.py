"""`manage.py conflict_eval`: the contradiction detector measured on the first records of each public set.

Expected counts were checked by reading the records (../shared/eval, first 5 records of each file):

- ConflictQA 0-4: each pair argues opposite answers and each is flagged: 0 "Julius Caesar's lineage ... directly
  related to him" / "more people today are not related to Genghis Khan" (negation); 1 Grey seals "have not been ...
  trained to respond" / "were trained to respond to a bell" (negation); 2 "it is not possible to guarantee that it is
  completely free of plastic" / "do not contain any plastic" (negation); 3 a Boeing 737 "ranges from $50 million to
  $100 million" / "from $51.5 million to $87 million" (value mismatch); 4 "is indeed rooted in English" / "is not
  rooted in English" (negation). Recall 5/5.
- RGB 0-4: 3 + 4 + 7 + 9 + 7 = 30 passage pairs, every rewrite swaps the answer inside an otherwise identical
  sentence (Tampa, Florida / Glendale, Arizona; Norway / U.S.; Facebook / Apple; Simona Halep / Angelique Kerber), all
  flagged; no pair is left unchanged. Recall 30/30.
- RAMDocs 0-4: records 0-3 have 2, 3, 3 and 3 correct documents with one answer each (10 consistent pairs); record 4
  has one correct document and is skipped. One pair is flagged, wrongly: record 3 (Ryan Davis) "After six years out of
  the AFL, he was recruited by Gold" / "He was delisted ... and was not selected in the 2008 AFL Draft" (a negation
  cue on a loosely aligned sentence). False flags 1/10.
"""

from __future__ import annotations

import json

import pytest
from django.core.management import CommandError, call_command


@pytest.fixture(scope="module")
def small_run(embedder):
    """The command's JSON on the first 5 records of each suite (one run shared by the tests of this module)."""
    from io import StringIO

    out = StringIO()
    call_command("conflict_eval", "--limit", "5", "--json", stdout=out)
    return json.loads(out.getvalue())


def test_recall_and_false_flags_on_the_first_records(small_run):
    suites = small_run["suites"]
    cq, rgb, ram = suites["conflictqa"]["all"], suites["rgb"]["all"], suites["ramdocs"]["all"]
    assert (cq["n"], cq["flagged"], cq["recall"]) == (5, 5, 1.0)
    assert cq["kinds"] == {"negation": 4, "value_mismatch": 1}
    assert (rgb["n"], rgb["flagged"], rgb["recall"]) == (30, 30, 1.0)
    assert rgb["kinds"] == {"value_mismatch": 30} and "unchanged" not in rgb
    assert (ram["n"], ram["flagged"], ram["false_flags"]) == (10, 1, 0.1)
    assert ram["kinds"] == {"negation": 1} and "ambiguous" not in ram


def test_halves_partition_the_records_and_the_summary_reads_the_held_out_half(small_run):
    assert small_run["limit"] == 5 and small_run["seed"] == 13
    for suite, parts in small_run["suites"].items():
        assert parts["calibration"]["n"] + parts["held_out"]["n"] == parts["all"]["n"], suite
        assert parts["calibration"]["flagged"] + parts["held_out"]["flagged"] == parts["all"]["flagged"], suite
        row = small_run["summary"][suite]
        assert row["held_out"] == parts["held_out"][row["metric"]]
    assert small_run["summary"]["conflictqa"] == {"metric": "recall", "held_out": 1.0, "target": 0.8, "met": True}


def test_text_report_names_every_suite_and_the_targets(embedder, capsys):
    call_command("conflict_eval", "--limit", "2", "--suite", "conflictqa")
    out = capsys.readouterr().out
    assert "conflictqa held_out" in out and "recall" in out and "(target >= 0.80)" in out
    assert "rgb" not in out and "ramdocs" not in out


@pytest.mark.parametrize("args", [["--limit", "0"], ["--similarity", "1.5"]])
def test_bad_arguments_are_refused(args):
    with pytest.raises(CommandError):
        call_command("conflict_eval", *args)
