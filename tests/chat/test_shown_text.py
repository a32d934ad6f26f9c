"""What the chat page shows of a stored answer, beside what is stored (the s19 new-user run): the offline answerer's
sentence on a version note is shown once, in the note box (the stored text and the API keep it), and a search
result's excerpt of an answer has no raw "[S1]" markers."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from chat.models import Conversation, Message
from chat.serializers import answer_payload, message_json
from grounding.note_sentences import without_note_sentences
from grounding.rendering import render_html

CURRENT = "In high-cost cities the limit is $325 per night [S1]."
NOTE_SENTENCE = ("Note that this changed: S1 (the current version) says in high-cost cities the limit is $325 per "
                 "night but S2 (a superseded version) says $300 [S1][S2].")
VERSION_NOTE = {"kind": "version_superseded", "labels": ["S1", "S2"],
                "text": "S1 (2025-03-01) says in high-cost cities the limit is $325 per night but S2 (2024-01-15, "
                        "superseded) says $300."}


@pytest.fixture
def alice(db):
    return get_user_model().objects.create_user("alice", password="pw-alice-123")


def _answer(conversation: Conversation, text: str, notes: list[dict]) -> Message:
    question = Message.objects.create(conversation=conversation, role="user", text="What is the NYC hotel limit?")
    return Message.objects.create(
        conversation=conversation, role="assistant", reply_to=question, text=text,
        html=render_html(text, {"S1", "S2"}), sources=[{"label": "S1", "title": "Travel"},
                                                       {"label": "S2", "title": "Travel"}],
        citations=[{"label": "S1"}, {"label": "S2"}], trace={"notes": notes})


def test_a_version_note_sentence_is_left_to_the_note_box_on_the_page(alice, demo_domain):
    conversation = Conversation.objects.create(user=alice, domain=demo_domain)
    answer = _answer(conversation, f"{CURRENT} {NOTE_SENTENCE}", [VERSION_NOTE])
    shown = message_json(answer)
    assert [n["kind"] for n in shown["notes"]] == ["version_superseded"]  # the note box shows it ...
    assert "Note that this changed" not in shown["html"] and "$325 per night" in shown["html"]  # ... once
    assert 'data-label="S1"' in shown["html"]
    # the stored answer, the API's payload and ask --json keep the sentence
    assert NOTE_SENTENCE in shown["text"] and NOTE_SENTENCE in answer_payload(answer)["answer"]
    assert "Note that this changed" in answer_payload(answer)["html"]


def test_a_note_sentence_stays_when_the_note_box_does_not_show_its_note(alice, demo_domain):
    conversation = Conversation.objects.create(user=alice, domain=demo_domain)
    answer = _answer(conversation, f"{CURRENT} {NOTE_SENTENCE}", [])
    assert "Note that this changed" in message_json(answer)["html"]
    assert without_note_sentences(f"{CURRENT} {NOTE_SENTENCE}", [{"kind": "injection"}]).endswith("[S1][S2].")
    disagree = f"{CURRENT}\n\nNote that the sources disagree: S1 says $325 but S3 says $350 [S1][S3]."
    assert without_note_sentences(disagree, [{"kind": "value_mismatch"}]) == CURRENT


def test_a_search_excerpt_of_an_answer_has_no_citation_markers(alice, client, demo_domain):
    conversation = Conversation.objects.create(user=alice, domain=demo_domain, title="Hotels")
    _answer(conversation, "The nightly hotel limit is $225 [S1]. In high-cost cities it is $325 [S1][S2].", [])
    client.force_login(alice)
    [found] = client.get("/conversations/search", {"q": "high-cost"}).json()["conversations"]
    assert found["match"] == "The nightly hotel limit is $225. In high-cost cities it is $325.", found["match"]
