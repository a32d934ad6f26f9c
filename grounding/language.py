"""Questions asked in another language than the documents' (s6 new user: a French or German question was refused
without saying why).

The documents are English; a question in another language mostly retrieves nothing good enough and is refused. When
it is, the refusal says why: the question looks written in another language (language identification with
py3langid, the maintained fork of langid.py: Lui and Baldwin 2012, "langid.py: An Off-the-shelf Language
Identification Tool", a naive Bayes model over byte n-grams shipped with the package) and most of its words are not
in the domain's vocabulary (the terms of its BM25 index: :func:`vocabulary_share`). Both must
hold, so an English question with many names, or a foreign word in an English question, is never told to switch
language. This changes what a refusal says, never whether the answer is refused. No Django imports.
"""

from __future__ import annotations

import functools
import threading
from typing import Mapping

from grounding.lexical import bm25_query_tokens

__all__ = ["MAX_VOCABULARY_SHARE", "MIN_PROBABILITY", "asked_in", "language_note", "question_language",
           "vocabulary_share"]

#: The identifier's probability above which a question is taken to be in the language it names. On the calibration
#: half (the 18F golden set's calibration split, the development set and the public abstention sets' calibration
#: halves: 514 English questions) no English question was given another language with more than 0.09.
MIN_PROBABILITY = 0.5
#: At most this share of the question's BM25 terms may be known to the domain's index ("mostly not found").
MAX_VOCABULARY_SHARE = 0.5

#: English names of the languages a note may name (ISO 639-1 codes as py3langid gives them); others are "another
#: language".
_NAMES = {"fr": "French", "de": "German", "es": "Spanish", "it": "Italian", "pt": "Portuguese", "nl": "Dutch",
          "pl": "Polish", "sv": "Swedish", "da": "Danish", "no": "Norwegian", "fi": "Finnish", "cs": "Czech",
          "ru": "Russian", "uk": "Ukrainian", "tr": "Turkish", "el": "Greek", "ro": "Romanian", "hu": "Hungarian",
          "ja": "Japanese", "zh": "Chinese", "ko": "Korean", "ar": "Arabic", "he": "Hebrew", "hi": "Hindi",
          "vi": "Vietnamese", "id": "Indonesian", "ca": "Catalan"}

_lock = threading.Lock()


@functools.lru_cache(maxsize=1)
def _identifier():
    """py3langid's identifier with its bundled model, probabilities normalised (loaded once: about 1 s)."""
    from py3langid.langid import MODEL_FILE, LanguageIdentifier

    return LanguageIdentifier.from_model_file(MODEL_FILE, norm_probs=True)


def question_language(text: str) -> tuple[str, float]:
    """The language a text looks written in, as (ISO 639-1 code, probability 0..1): ("fr", 0.99) for "Combien de
    jours de congé ai-je ?". Loads the model on first use."""
    identifier = _identifier()
    with _lock:  # the identifier keeps no state per call, but is not documented as thread-safe
        code, probability = identifier.classify(text)
    return str(code), float(probability)


def vocabulary_share(question: str, vocabulary: Mapping[str, object] | None) -> float | None:
    """The share (0..1) of the question's BM25 terms (grounding.lexical.bm25_tokens: stemmed, English stop words
    left out) that are terms of ``vocabulary`` (a BM25 index's term -> id map, bm25s ``vocab_dict``); None without a
    vocabulary or without any term in the question."""
    terms = bm25_query_tokens(question)
    if vocabulary is None or not terms:
        return None
    return sum(t in vocabulary for t in terms) / len(terms)


def asked_in(question: str, vocabulary_share: float | None) -> str:
    """The English name of the language ``question`` is asked in ("French"; "another language" for one without a
    name here) when it looks written in a language other than English (probability >= MIN_PROBABILITY) and at most
    MAX_VOCABULARY_SHARE of its terms are known to the domain (``vocabulary_share``, 0..1; None: no lexical index,
    the identifier decides alone); "" otherwise (English, or words the documents use)."""
    if not question.strip():
        return ""
    if vocabulary_share is not None and vocabulary_share > MAX_VOCABULARY_SHARE:
        return ""  # the domain's words: no identification needed (the usual ask pays only this lookup)
    code, probability = question_language(question)
    if code == "en" or probability < MIN_PROBABILITY:
        return ""
    return _NAMES.get(code, "another language")


def language_note(language: str) -> str:
    """The sentence a refusal adds for a question asked in ``language`` (a name from :func:`asked_in`)."""
    looks = "in another language" if language == "another language" else f"in {language}"
    return (f"Your question looks written {looks}, and the documents are in English: "
            "please ask it in English.")
