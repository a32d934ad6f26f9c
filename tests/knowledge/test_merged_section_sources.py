"""s7 bug 1 through ingestion and the answer: a document of two sections whose chunks are planned together as one
merged source. Each citation's popover names the section of the sentence it cites, and the passage shown in the
source panel has the heading of the second section between the two parts."""

from __future__ import annotations

import json

import pytest
from django.core.management import call_command

from knowledge.models import Chunk
from knowledge.services import domain_get_or_create, ingest_path

pytestmark = pytest.mark.django_db

MEALS = ("Meals on business trips are reimbursed through a daily allowance. The daily meal allowance is $65 for "
         "every full day of travel. On the first and last day of a trip the allowance is 75 percent of the daily "
         "amount. Meals that a conference or a hotel already provides are not claimed. Keep the receipts of meals "
         "over $25 and attach them to the expense report within thirty days of your return. Alcohol is never "
         "reimbursed, and tips above twenty percent are paid by the traveller. Client dinners follow the "
         "entertainment policy instead. Per diem rates abroad follow the published country table, which finance "
         "updates every January. A traveller who is ill and cannot eat out may claim groceries up to the same "
         "daily amount, with the receipts attached.")
HOTELS = ("Hotel rooms are booked through the travel desk at least two weeks before the trip. The nightly hotel "
          "limit is $180 before taxes in most cities and $260 in high-cost cities. A room above the limit needs "
          "the written approval of your manager before it is booked. Loyalty points earned on business stays are "
          "yours to keep. Cancel a room you no longer need at least one day ahead, since a missed night is not "
          "reimbursed. Stays longer than two weeks are booked as serviced apartments through the same desk. Shared "
          "rooms are never required, and a traveller may always ask for a room of their own. Parking at the "
          "hotel is reimbursed with the room when the receipt shows it.")
PAGE = f"---\ntitle: Travel policy\n---\n\n# Travel\n\n## Meals\n\n{MEALS}\n\n## Hotels\n\n{HOTELS}\n"


def test_a_merged_source_of_two_sections_names_each_cited_sentences_section(tmp_path, embedder, capsys):
    (tmp_path / "travel.md").write_text(PAGE, encoding="utf-8")
    domain = domain_get_or_create(slug="merged-sections")
    ingest_path(path=tmp_path, domain=domain, embedder=embedder)
    sections = list(Chunk.objects.filter(version__document__domain=domain).order_by("ordinal")
                    .values_list("section", flat=True))
    assert sections == ["Travel > Meals", "Travel > Hotels"], "precondition: one chunk per section"

    call_command("ask", "What is the daily meal allowance and the nightly hotel limit?", "--domain", domain.slug,
                 "--json")
    out = json.loads(capsys.readouterr().out)
    [merged] = [s for s in out["sources"] if s["label"] in {c["label"] for c in out["citations"]}]
    spans = {span["cited_text"]: span["section"] for span in out["spans"]}
    meal = next(t for t in spans if "$65" in t)
    hotel = next(t for t in spans if "$180" in t)
    assert (spans[meal], spans[hotel]) == ("Travel > Meals", "Travel > Hotels"), (
        f"each chip's popover must show the section its sentence was written in: {out['spans']} of {merged}")

    from chat.answering import answer_prepare
    from chat.serializers import source_view

    plan = answer_prepare(domain=domain, question="What is the daily meal allowance and the nightly hotel limit?").plan
    [source] = [s for s in plan.sources if len(s.chunk_ids) == 2]
    html = source_view(source.as_dict())["html"]
    assert "<h4>Hotels</h4>" in html and html.index("$65") < html.index("<h4>Hotels</h4>") < html.index("$180"), (
        f"the merged passage must show the Hotels heading between the two sections: {html}")
