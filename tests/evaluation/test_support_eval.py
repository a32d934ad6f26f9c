"""`manage.py support_eval`: the support check against ExpertQA's expert labels, on a hand-checked slice.

The first 8 records of ../shared/eval/expertqa/rand_test.jsonl, read by hand:

* records 1-4 (bing_chat) cite URLs only (26 claims), record 0 has one and record 7 two "Missing" claims without
  evidence: 29 claims skipped, no N/A label;
* 23 claims are used: record 0 (rr_sphere_gpt4) 4 Incomplete + 3 Complete, record 5 (post_hoc_gs_gpt4) 7 Incomplete
  + 2 Partial + 1 Complete, record 6 (post_hoc_gs_gpt4) 5 Complete, record 7 (rr_gs_gpt4) 1 Complete.

Closest-sentence similarities (all values of these claims are in their evidence), claim by claim, label in brackets:
record 0: .733 .713 .779 (Incomplete), .773 .905 .704 (Complete), .814 (Incomplete); record 5: "To operationalize
... the following approaches:\\n\\n1[1]." is a lead-in whose marker sits on the list number, so it has no factual
sentence (Incomplete, not flagged), then .785 .639 (Partial), .575 .738 .502 .778 .646 (Incomplete), .651
(Complete), .294 (Incomplete: the evidence is about smartphone use, not dance); record 6: .577 .589 .675 .836 .359
(Complete; the last cites a UN press release on indigenous lands for a claim about UN negotiations); record 7: .809
(Complete).

With the shipped thresholds (supported 0.65, weak 0.42), mapping A flags (weak/unsupported/uncited) the claims at
.639 .575 .502 .646 .294 (gold positive: tp=5) and .577 .589 .359 (Complete: fp=3); 8 not-Complete claims pass
(fn=8: .733 .713 .779 .814, the lead-in, .785 .738 .778) and 7 Complete pass (tn=7). Mapping B (unsupported or
uncited) flags .294 (Incomplete, tp=1) and .359 (Complete, fp=1) only; fn=10, tn=11.

--calibrate halves the 4 records with seed 13: calibration = records 7 and 0 (8 claims), held-out = 5 and 6 (15).
On the calibration half, balanced accuracy under A peaks at 0.625 first at supported=0.74 (flags .704 .713 .733);
the highest weak with no Complete claim below it is 0.70 (the lowest Complete similarity there is .704).
"""

from __future__ import annotations

import json
import re
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from evaluation.management.commands.support_eval import load_claims


def figures(out: str, section: str, mapping: str) -> dict[str, float]:
    block = out.split(f"[{section}]", 1)[1]
    line = next(ln for ln in block.splitlines() if ln.strip().startswith(f"{mapping} ("))
    return {k: float(v) for k, v in re.findall(r"(\w+)=([\d.]+)", line)}


@pytest.fixture(scope="module")
def output(embedder) -> str:
    out = StringIO()
    call_command("support_eval", "--limit", "8", "--calibrate", stdout=out)
    return out.getvalue()


def test_the_slice_is_read_as_by_hand(output):
    assert output.splitlines()[0] == ("rand_test.jsonl: 23 claims from 4 records (Complete 10, Partial 2, "
                                      "Incomplete 11, Missing 0); skipped: 0 without label or N/A, 29 without "
                                      "evidence text")
    assert "1 claim has no factual sentence" in output


def test_shipped_thresholds_on_the_slice(output):
    assert "[all] thresholds supported=0.65 weak=0.42" in output
    a = figures(output, "all", "A")
    assert (a["n"], a["tp"], a["fp"], a["fn"], a["tn"]) == (23, 5, 3, 8, 7)
    assert a["precision"] == pytest.approx(5 / 8, abs=5e-4) and a["recall"] == pytest.approx(5 / 13, abs=5e-4)
    assert a["balanced_accuracy"] == pytest.approx((5 / 13 + 7 / 10) / 2, abs=5e-4)
    b = figures(output, "all", "B")
    assert (b["n"], b["tp"], b["fp"], b["fn"], b["tn"]) == (23, 1, 1, 10, 11)
    assert b["balanced_accuracy"] == pytest.approx((1 / 11 + 11 / 12) / 2, abs=5e-4)


def test_calibration_on_one_half_and_report_on_the_other(output):
    assert "calibrated thresholds (seed 13, calibration half 2 of 4 records): supported=0.74 weak=0.70" in output
    cal, held = figures(output, "calibration", "A"), figures(output, "held-out", "A")
    assert (cal["n"], cal["tp"], cal["fp"], cal["fn"], cal["tn"]) == (8, 2, 1, 2, 3)
    assert cal["balanced_accuracy"] == pytest.approx(0.625, abs=5e-4)
    # held-out: flagged .639 .575 .738 .502 .646 .294 (not Complete) and .651 .577 .589 .675 .359 (Complete)
    assert (held["n"], held["tp"], held["fp"], held["fn"], held["tn"]) == (15, 6, 5, 3, 1)
    assert held["balanced_accuracy"] == pytest.approx((6 / 9 + 1 / 6) / 2, abs=5e-4)
    held_b = figures(output, "held-out", "B")  # below 0.70: .639(P) .575 .502 .646 .294 | .651 .577 .589 .675 .359
    assert (held_b["tp"], held_b["fp"], held_b["fn"], held_b["tn"]) == (4, 6, 3, 2)
    assert "[stability] held-out balanced accuracy A over 20 halvings" in output


def test_load_claims_maps_markers_and_skips_what_cannot_be_checked(tmp_path):
    record = {"question": "q", "answers": {"sys": {"claims": [
        {"claim_string": "A is 5 [2] [3].", "support": "Complete",
         "evidence": ["[2] https://a.example\n\nA is 5.", "[3] https://b.example"]},
        {"claim_string": "B is 6 [1, 4].", "support": "Partial",
         "evidence": ["[1] https://c.example\n\nB is 6.", "[4] https://d.example\n\nB is six."]},
        {"claim_string": "No marker here.", "support": "Incomplete", "evidence": ["[7] https://e.example\n\nText."]},
        {"claim_string": "C [1].", "support": "N/A", "evidence": ["[1] https://f.example\n\nC."]},
        {"claim_string": "D [1].", "support": "Missing", "evidence": []},
    ]}}}
    path = tmp_path / "slice.jsonl"
    path.write_text(json.dumps(record) + "\n", encoding="utf-8")
    claims, skipped = load_claims(path)
    assert [(c.text, c.sources, c.support) for c in claims] == [
        ("A is 5 [S2] [S3].", {"S2": "A is 5."}, "Complete"),
        ("B is 6 [S1, S4].", {"S1": "B is 6.", "S4": "B is six."}, "Partial"),
        ("No marker here. [S7]", {"S7": "Text."}, "Incomplete"),
    ]
    assert skipped == {"no_label": 1, "no_evidence_text": 1}


def test_bad_arguments_are_reported(tmp_path):
    with pytest.raises(CommandError, match="cannot read"):
        call_command("support_eval", "--file", str(tmp_path / "absent.jsonl"), stdout=StringIO())
    with pytest.raises(CommandError, match="--limit"):
        call_command("support_eval", "--limit", "0", stdout=StringIO())
    empty = tmp_path / "empty.jsonl"
    empty.write_text("", encoding="utf-8")
    with pytest.raises(CommandError, match="no claim"):
        call_command("support_eval", "--file", str(empty), stdout=StringIO())
