"""grounding.abroad_cases: the countries a question names that no planned source names, when one states a rule for
other countries."""

from __future__ import annotations

from grounding.abroad_cases import asked_countries
from grounding.types import Source


def _source(text: str) -> Source:
    return Source(label="S1", chunk_ids=(1,), document_id=1, title="Remote work", section="Working from another "
                  "location", version="v1", date="", text=text, score=0.5, tokens=30)


ABROAD = _source("Working from another country, even for one day, requires approval from People Operations.")


def test_a_country_no_source_names_is_asked_about_when_a_source_has_a_rule_for_other_countries():
    assert asked_countries("Can I work from Spain for a week?", [ABROAD]) == ["Spain"]
    assert asked_countries("Can I work remotely from the UK?", [ABROAD]) == ["the UK"]
    assert asked_countries("Can I work from Bosnia and Herzegovina?", [ABROAD]) == ["Bosnia and Herzegovina"]


def test_a_city_a_named_country_or_no_rule_for_other_countries_is_not():
    assert asked_countries("Can I work from Omaha for a week?", [ABROAD]) == []
    named = _source("Working from Spain or any other country requires approval from People Operations.")
    assert asked_countries("Can I work from Spain for a week?", [named]) == []
    home = _source("You may work from anywhere in the country where you are employed for up to 30 days.")
    assert asked_countries("Can I work from Spain for a week?", [home]) == []
    # the question's first word is not a name ("Spain" as its first word would be: "Spain: can I work there?")
    assert asked_countries("Chad said I can work from home. Is that right?", [ABROAD]) == []
