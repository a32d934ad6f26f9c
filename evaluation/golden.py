"""Golden question files: a project's own questions (``manage.py evaluate --suite golden --file F``), in two formats.

- Plain lines (tests/evaluation/golden_demo.jsonl): {"question", "domain", "expect": [substrings] | "abstain",
  "document"}.
- Labelled sets (evaluation/golden/18f.jsonl, described in evaluation/golden/README.md): {"id", "kind", "split",
  "question", "expect", "pages", ...kind-specific fields}; an ``expect`` item is a string or a list of spellings of
  one fact; a ``conversation`` holds two ``turns`` asked in one conversation; a ``superseded`` item names the dated
  revision files that must be ingested as older versions of its page (``versions``).

Library code: raises EvaluationError naming the item, which the command turns into a CommandError.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from evaluation.common import EvaluationError, read_jsonl

#: The kinds of a labelled set (evaluation/golden/README.md), in report order.
KINDS = ("value", "yesno", "comparison", "multi_section", "table", "list", "superseded", "unanswerable",
         "conversation")
#: A labelled item's split: "calibration" (tune here), "test" (report here, never tune), "dev" (a separate
#: development set written after the calibration half proved too small to tune on, evaluation/golden/18f_dev.jsonl)
#: or "fresh" / "fresh2" / "fresh3" / "fresh5" / "fresh6" (questions written to measure once how the answerer does on
#: what no rule was written from, evaluation/golden/18f_fresh.jsonl in the s11 round, evaluation/golden/18f_fresh2.jsonl
#: in the s12 round, evaluation/golden/18f_fresh3.jsonl in the s14 round, evaluation/golden/18f_fresh5.jsonl in the s15
#: round, evaluation/golden/18f_fresh6.jsonl (24 questions) in the s15 round's second yes/no pass, "fresh8"
#: (evaluation/golden/18f_fresh8.jsonl, 30 questions) in the s16 round's yes/no pass, "fresh7"
#: (evaluation/golden/18f_fresh7.jsonl, 30 near misses and 15 answerable controls) in the s16 refusal round;
#: after that measurement they may serve as development questions), "fresh4" (24 comparison questions,
#: evaluation/golden/18f_fresh4.jsonl, written in the s15 round before its comparison changes and asked once before
#: and once after them), "fresh9" (30 value questions, evaluation/golden/18f_fresh9.jsonl, written in the s16 round
#: before its sentence-choice changes and asked once before and once after them), "fresh10" (15 multi_section
#: questions, evaluation/golden/18f_fresh10.jsonl, written in the s17 round before its two-part answer changes and
#: asked once before and once after them), "fresh11" (16 two-turn conversations, evaluation/golden/18f_fresh11.jsonl,
#: written in the s17 round before its follow-up changes and asked once before and once after them), "fresh12" (15 table
#: questions, evaluation/golden/18f_fresh12.jsonl, written in the s17 round before its table-lookup changes and asked
#: once before and once after them), "fresh13" (20 yes/no questions, evaluation/golden/18f_fresh13.jsonl, written in
#: the s18 round before its yes/no changes and asked once before and once after them), "fresh13r" (20 near misses
#: and 10 value controls, evaluation/golden/18f_fresh13r.jsonl, written in the s18 refusal pass before its changes),
#: "fresh15" (10 multi_section and 6 list questions, evaluation/golden/18f_fresh15.jsonl, written in the s18 round before its
#: two-part and list answer changes and asked once before and once after them), "fresh16" (16 two-turn
#: conversations, evaluation/golden/18f_fresh16.jsonl, written in the s18 round before its follow-up changes and asked
#: once before and once after them), "fresh19" (12 new-user questions on the demo handbook, domain ``handbook``,
#: evaluation/golden/fresh19_demo.jsonl, written in the s19 round before its demo-answer changes and asked once before
#: and once after them), "fresh19y" (17 yes/no questions and 3 yes/no questions the pages do not settle,
#: evaluation/golden/fresh19_yesno.jsonl, written in the s19 round before its yes/no opener changes), "fresh19r" (20
#: near misses and 10 value controls, evaluation/golden/18f_fresh19_nearmiss.jsonl, written in the s19 round before its
#: refusal changes), "fresh20m" (8 multi_section and 8 list questions, evaluation/golden/18f_fresh20_multi.jsonl,
#: written in the s20 round before its two-part and list changes and asked once before and once after them),
#: "fresh20r" (16 near misses and 10 value controls, evaluation/golden/18f_fresh20_nearmiss.jsonl, written in the s20
#: near-miss pass before its changes), "fresh20c" (14 two-turn conversations on pages no other conversation uses,
#: evaluation/golden/18f_fresh20_conv.jsonl, written in the s20 round before its follow-up changes), "fresh23c" (32
#: two-turn conversations, evaluation/golden/18f_fresh23_conv.jsonl, written by a helper in the s23 round from the
#: pages alone, after its first follow-up change and before any other), "fresh31" (50 questions of every kind,
#: evaluation/golden/18f_fresh31.jsonl, written by a helper in the s31 round from 31 pages drawn at random, without
#: reading any other golden file, and asked first with the round's starting code), "fresh33" (20 value questions and
#: 20 close-but-unanswerable ones, evaluation/golden/18f_fresh33.jsonl, written by a helper at the end of the s33 round
#: from 24 pages drawn at random, without reading any other golden file, to try that round's rules on questions none
#: of them was written from; a development set after that), "fresh34" (27 yes/no questions and 20
#: close-but-unanswerable ones, evaluation/golden/18f_fresh34.jsonl, written by helpers in the s34 round from pages
#: drawn at random, without reading any other golden file: f34-y01-f34-y19 and the near misses asked with the round's
#: starting code and a development set after that, f34-y21-f34-y34 asked only with its starting and final code),
#: "fresh35" (30 value questions, 30 close-but-unanswerable ones and 15 yes/no questions,
#: evaluation/golden/18f_fresh35.jsonl, written by helpers in the s35 round from pages drawn at random, without
#: reading any other golden file: f35-a, f35-u and f35-y asked first with the round's starting code and a development
#: set after that, f35-h01-f35-h25 asked only with its starting and final code), "fresh36" (66 questions of every kind
#: but yes/no and 30 more, evaluation/golden/18f_fresh36.jsonl, written by helpers in the s36 round from pages drawn
#: at random, without reading any other golden file: f36-a/m/t/c/v/u asked first with the round's starting code and a
#: development set after that, f36-h01-f36-h30 asked only with its starting and final code), "fresh37" (70 questions
#: of every kind, lists and yes/no among them, and 30 more, evaluation/golden/18f_fresh37.jsonl, written by helpers in
#: the s37 round from pages drawn at random, without reading any other golden file: f37-l/y/m/t/v/a/u asked first with
#: the round's starting code and a development set after that, f37-h01-f37-h30 asked only with its starting and final
#: code), "fresh38" (61 questions of every kind, two-section questions and conversations most, and 30 more,
#: evaluation/golden/18f_fresh38.jsonl, written by helpers in the s38 round the same way: f38-m/v/t/l/y/a/u asked first
#: with the round's starting code and a development set after that, f38-h01-f38-h30 asked only with its starting and
#: final code), "fresh39" (61 questions of every kind and 30 more, evaluation/golden/18f_fresh39.jsonl, written by
#: helpers in the s39 round the same way: f39-m/v/t/l/y/a/u asked first with the round's starting code and a development
#: set after that, f39-h01-f39-h30 asked only with its starting and final code), "fresh40" (61 questions of every kind
#: and 30 more, evaluation/golden/18f_fresh40.jsonl, written by helpers in the s40 round the same way: f40-m/v/t/l/y/a/u
#: asked first with the round's starting code and a development set after that, f40-h01-f40-h30 asked only with its
#: starting and final code), "fresh41" (61 questions of every kind and 30 more, evaluation/golden/18f_fresh41.jsonl,
#: written by helpers in the s41 round the same way: f41-m/v/t/l/y/a/u asked first with the round's starting code and a
#: development set after that, f41-h01-f41-h30 asked only with its starting and final code), or "fresh-versions"
#: (questions about values that changed between dated revisions, evaluation/golden/18f_versions.jsonl, written in the
#: s13 round before its version-note changes).
ITEM_SPLITS = ("calibration", "test", "dev", "fresh", "fresh2", "fresh3", "fresh4", "fresh5", "fresh6", "fresh7",
               "fresh8", "fresh9", "fresh10", "fresh11", "fresh12", "fresh13", "fresh13r", "fresh15", "fresh16",
               "fresh19", "fresh19y", "fresh19r", "fresh20m", "fresh20r", "fresh20c", "fresh23c",
               "fresh31", "fresh33", "fresh34", "fresh35", "fresh36", "fresh37", "fresh38", "fresh39",
               "fresh40", "fresh41", "fresh-versions")
SPLITS = (*ITEM_SPLITS, "all")


@dataclass(frozen=True)
class Turn:
    """One question of an item and what its answer must hold.

    Attributes:
        question: the question as asked.
        expect: the items the answer must contain, each as its accepted spellings (one of which must occur,
            case-insensitively, whitespace collapsed); () for an abstention.
        abstain: the documents do not hold the answer: the right answer is an abstention.
        pages: the document keys (paths relative to the ingested folder) of which one must be cited; for an
            abstention, the pages that cover the topic.
        document: (plain format) a title, key or file name one citation must name; "" for none.
    """

    question: str
    expect: tuple[tuple[str, ...], ...] = ()
    abstain: bool = False
    pages: tuple[str, ...] = ()
    document: str = ""


@dataclass(frozen=True)
class GoldenItem:
    """One line of a golden file: one question, or a two-turn conversation (asked in one conversation).

    Attributes:
        line: 1-based line number; id: the item's id ("q001"; "line N" for plain lines).
        kind: one of KINDS ("" for plain lines); split: one of ITEM_SPLITS ("" for plain lines).
        domain: the slug to ask in ("" when the run ingests a folder or names a domain).
        turns: the questions in order (two for a conversation).
        extra: the kind-specific fields as written (polarity, values, versions, asks, old_value, new_value, covers,
            refers, row, column, sections, paraphrased).
    """

    line: int
    id: str
    kind: str
    split: str
    domain: str
    turns: tuple[Turn, ...]
    extra: dict[str, Any] = field(default_factory=dict, compare=False)

    @property
    def question(self) -> str:
        return self.turns[-1].question

    @property
    def abstain(self) -> bool:
        return self.turns[-1].abstain

    @property
    def expect(self) -> tuple[tuple[str, ...], ...]:
        return self.turns[-1].expect

    @property
    def document(self) -> str:
        return self.turns[-1].document


def _expect(value: object, where: str) -> tuple[bool, tuple[tuple[str, ...], ...]]:
    """(abstain, items) of an ``expect`` field. Raises EvaluationError when it is malformed."""
    if value == "abstain":
        return True, ()
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list):
        raise EvaluationError(f"{where}: 'expect' must be a list of substrings or \"abstain\"")
    items = []
    for item in value:
        spellings = item if isinstance(item, list) else [item]
        if not spellings or not all(isinstance(s, str) and s for s in spellings):
            raise EvaluationError(f"{where}: 'expect' must be a list of substrings or \"abstain\"")
        items.append(tuple(spellings))
    return False, tuple(items)


def _pages(value: object, where: str) -> tuple[str, ...]:
    if value is None:
        return ()
    if not isinstance(value, list) or not all(isinstance(p, str) and p for p in value):
        raise EvaluationError(f"{where}: 'pages' must be a list of page paths")
    return tuple(value)


def _turn(r: dict, where: str, document: str = "") -> Turn:
    question = r.get("question")
    if not isinstance(question, str) or not question.strip():
        raise EvaluationError(f"{where}: 'question' must be a non-empty string")
    abstain, items = _expect(r.get("expect", []), where)
    pages = _pages(r.get("pages"), where)
    if not abstain and not items and not document and not pages:
        raise EvaluationError(f"{where}: give 'expect' (substrings or \"abstain\") or 'document'")
    return Turn(question.strip(), items, abstain, pages, document)


def load_golden(path: Path, limit: int | None = None, *, needs_domain: bool = True,
                split: str = "all") -> list[GoldenItem]:
    """The items of a golden file, plain or labelled; a labelled item outside ``split`` is skipped (plain lines have
    no split and are always kept). ``limit`` counts the items kept.

    Raises:
        EvaluationError: a malformed item (the message names its line), an unknown kind or split.
    """
    if split not in SPLITS:
        raise EvaluationError(f"unknown split {split!r}; expected one of {', '.join(SPLITS)}")
    items = []
    for number, r in enumerate(read_jsonl(Path(path)), 1):
        if limit is not None and len(items) >= limit:
            break
        where = f"{path}: item {number}"
        if not isinstance(r, dict):
            raise EvaluationError(f"{where}: not an object")
        domain = r.get("domain", "")
        if not isinstance(domain, str) or (needs_domain and not domain.strip()):
            raise EvaluationError(f"{where}: 'domain' must name a domain (or give --corpus or --domain)")
        kind = r.get("kind", "")
        if kind and kind not in KINDS:
            raise EvaluationError(f"{where}: unknown kind {kind!r}")
        item_split = r.get("split", "") if kind else ""
        if kind and item_split not in ITEM_SPLITS:
            raise EvaluationError(f"{where}: 'split' must be one of {', '.join(ITEM_SPLITS)}")
        if split != "all" and kind and item_split != split:
            continue
        document = r.get("document", "")
        if not isinstance(document, str):
            raise EvaluationError(f"{where}: 'document' must be a string")
        if kind == "conversation":
            turns = r.get("turns")
            if not isinstance(turns, list) or len(turns) < 2 or not all(isinstance(t, dict) for t in turns):
                raise EvaluationError(f"{where}: a conversation needs 'turns', two or more objects")
            parsed = tuple(_turn(t, f"{where} turn {i}") for i, t in enumerate(turns, 1))
        else:
            parsed = (_turn(r, where, document.strip()),)
        extra = {k: v for k, v in r.items() if k not in ("id", "kind", "split", "question", "expect", "pages",
                                                          "domain", "document", "turns")}
        items.append(GoldenItem(number, str(r.get("id") or f"line {number}"), kind, item_split, domain.strip(),
                                parsed, extra))
    return items


@dataclass(frozen=True)
class Revision:
    """A dated revision file to ingest as an older version of a page: ``path`` (absolute), ``key`` (the page's
    document key, its path relative to the corpus folder), ``date`` (effective date)."""

    path: Path
    key: str
    date: dt.date


def revisions(items: list[GoldenItem], corpus: Path, root: Path | None = None) -> list[Revision]:
    """The revision files the items' ``versions`` name, each once, oldest first.

    A file path is relative to ``root`` (default: the nearest folder among ``corpus`` and its parents that holds the
    first named file; for the 18F set, ../shared/corpora/18f-handbook above current/pages). The page it revises is
    the item's first page; the revision joins that page's document (its front matter ``doc_id``, else its path
    under ``corpus``, as ingestion keys it).
    Raises:
        EvaluationError: a named file is found under no candidate folder, or a date is not YYYY-MM-DD.
    """
    named = [(v, item) for item in items for v in item.extra.get("versions", []) or []]
    if not named:
        return []
    if root is None:
        first = named[0][0].get("file", "")
        root = next((p for p in [corpus, *corpus.resolve().parents] if (p / first).is_file()), None)
        if root is None:
            raise EvaluationError(f"revision {first!r} of item {named[0][1].id} is under no parent of {corpus}; "
                                  f"give --versions DIR")
    out: dict[Path, Revision] = {}
    for v, item in named:
        path = root / str(v.get("file", ""))
        if not path.is_file():
            raise EvaluationError(f"item {item.id}: no revision file {path}")
        try:
            date = dt.date.fromisoformat(str(v.get("date", "")))
        except ValueError as exc:
            raise EvaluationError(f"item {item.id}: revision date {v.get('date')!r} is not YYYY-MM-DD") from exc
        if not item.turns[0].pages:
            raise EvaluationError(f"item {item.id}: a revision needs the page it revises in 'pages'")
        out.setdefault(path, Revision(path, _page_key(corpus, item.turns[0].pages[0]), date))
    return sorted(out.values(), key=lambda r: (r.date, str(r.path)))


def _page_key(corpus: Path, page: str) -> str:
    """The document key ingestion gives the page ``page`` of the folder ``corpus``: its front matter doc_id, else the
    page path."""
    from grounding.parsing import ParseError, parse_document

    try:
        doc_id = parse_document((corpus / page).read_bytes(), page).metadata.get("doc_id")
    except (OSError, ParseError):
        return page
    return str(doc_id).strip() if isinstance(doc_id, (str, int)) and str(doc_id).strip() else page
