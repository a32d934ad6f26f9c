"""grounding.respelling: a question's word the documents never use, read as the one document word it misspells by a
letter, before retrieval (the s47 new-user trial's "how many vacaton days do i get" was refused with "they do not say
anything about vacaton")."""

from __future__ import annotations

from grounding.lexical import stem
from grounding.respelling import DomainWords, respelled, respellings

DOCUMENT = ("Employees accrue vacation days monthly. Vacations must be approved. Every password must be at least 14 "
            "characters long; passwords expire yearly. Mileage is reimbursed. The policy and the police report.")
TERMS = {stem(w) for w in DOCUMENT.replace(".", " ").replace(";", " ").split()}
WORDS = DomainWords.of_text(DOCUMENT)


def _pieces(known: set[str]):
    """A tokenizer's piece count: one for a word it holds whole, three otherwise."""
    return lambda words: [1 if w in known else 3 for w in words]


def test_a_word_misspelled_by_a_letter_is_read_as_the_documents_word():
    found = respellings("how many vacaton days do i get? minimum pasword length? milage", terms=TERMS,
                        words=lambda: WORDS, pieces=_pieces(set()))
    assert found == {"vacaton": "vacation", "pasword": "password", "milage": "mileage"}
    assert respelled("How many Vacaton days, PASWORD?", found) == "How many Vacation days, PASSWORD?"


def test_a_word_the_documents_use_or_the_model_knows_whole_is_never_respelled():
    # "through" is one WordPiece: a known word ("thorough" was read into it once: fresh38's f38-v04)
    known = respellings("Is the password policy thorough?", terms=TERMS, words=lambda: DomainWords(["through"]),
                        pieces=_pieces({"thorough"}))
    assert known == {}
    # no way to tell a known word: nothing is respelled
    assert respellings("vacaton", terms=TERMS, words=lambda: WORDS, pieces=None) == {}


def test_two_document_words_a_word_could_misspell_leave_it_as_typed():
    # "polica" is one letter from "policy" and from "police": two stems, no respelling
    assert respellings("the polica rules", terms=TERMS, words=lambda: WORDS, pieces=_pieces(set())) == {}
    # "vacation" and "vacations" are one stem: the closer length is taken
    assert WORDS.nearest("vacaton") == "vacation"


def test_the_documents_words_are_read_only_when_a_word_is_unknown():
    calls = []

    def words():
        calls.append(1)
        return WORDS

    assert respellings("how many vacation days", terms=TERMS, words=words, pieces=_pieces(set())) == {}
    assert calls == []


def test_words_are_gathered_from_raw_record_bytes():
    words = DomainWords.of_text(b'{"text": "Reimbursed mileage", "section": "Travel"}')
    assert words.nearest("milage") == "mileage"
    assert words.nearest("reimbursd") == "reimbursed"
    assert words.nearest("zzzzz") is None
