"""Whether a sentence of a source may be quoted as (part of) an offline answer, and how: a fragment, a heading, a
question, a lead-in or a sentence about the document itself is not an answer; a lead-in stating a value is quoted with
its items, a list item opening in lower case after its lead-in. Read by the sentence ranking (grounding.sentence_rank)
and the list answers (grounding.extractive_lists). No Django imports.
"""

from __future__ import annotations

import re

from grounding.conditions import only_bounds
from grounding.injection import looks_injected
from grounding.quarantine import is_placeholder
from grounding.sentence_cues import ASKS_EXAMPLE
from grounding.sentence_data import QUOTABLE, SentenceData
from grounding.sentence_leads import states_value, with_items


#: A sentence about the document it stands in rather than its subject ("This page outlines ...", "This guide
#: explains ...", "The following section describes ...").
_ABOUT_THE_DOCUMENT = re.compile(r"^(?:this|the following|the rest of this) (?:page|guide|section|document|article|"
                                 r"handbook page|handbook|chapter|policy page) (?:outlines|describes|explains|covers|"
                                 r"lists|provides|contains|summari[sz]es|gives|is about|is for|will (?:walk|help|"
                                 r"explain|describe|cover|outline|show))\b", re.I)


def quotable(text: str, kind: str, *, screened: bool = False) -> bool:
    """True when a sentence may be quoted on its own as (part of) an answer: a sentence of running text or a list
    item of four words or more (or a sentence of two or three ending in a full stop and giving a number or an e-mail
    address: "Call extension 2222."), or a table row; never a heading, a question (a list item asking one too), a lead-in
    ending with a colon, a fragment (a piece that opens in lower case, cut from its sentence by a chunk boundary, or
    that stops on a comma), a withheld passage's placeholder or a sentence addressed to an AI assistant (not scanned
    again when ``screened``: its chunk was found free of such text at ingestion, SentenceData.screened). (Short list
    items are quoted as part of their list, grounding.compose.) Nor a sentence about the document itself ("This page
    outlines how to sign up for and how to cancel the transit benefit."): it says where the answer is, not what it
    is."""
    if kind not in QUOTABLE or is_placeholder(text) or (not screened and looks_injected(text)) \
            or _ABOUT_THE_DOCUMENT.match(text):
        return False
    first = text.split()[0] if text.split() else ""
    if kind != "row" and first[:1].islower() and first.islower():
        return False  # a fragment: the end of a sentence cut by a chunk boundary ("unaccrued leave, such as ...")
    if kind != "row" and text.rstrip().endswith(","):
        return False  # a fragment cut before its end ("Submitting and approving timecards ...: OLU refresh courses,")
    if kind != "row" and text.rstrip(" \"'”’)*_").endswith(("?", "？")):
        return False  # a question in a list ("- Is there a fee to attend? Is the fee waived for ...?", a checklist)
    if kind == "item" and DANGLING.search(text):
        return False  # a list item stopping before its object, which the items under it give ("For X, select")
    # (a short sentence ending in a full stop that gives a number or an address is quoted too: "Call extension
    # 2222." after the helpdesk's hours, the s48 breaker's "What is the helpdesk extension?")
    return kind == "row" or len(text.split()) >= 4 or (
        kind == "sentence" and len(text.split()) >= 2 and text.rstrip().endswith(".") and bool(_VALUE.search(text)))


#: A number or an e-mail address: what a short sentence gives.
_VALUE = re.compile(r"\d|@")


#: A list item stopping before its object ("For Software Name, select", "Bring the following"): the items nested
#: under it give the object (parsing flattens the nesting), so it is their lead-in, not a statement of its own
#: (fresh35's f35-a05, a development set, was answered "Requesting a license: For Software Name, select"). Words
#: that also end a whole item as nouns ("your leave type", "press Enter") are not among them.
DANGLING = re.compile(r"\b(?:select|choose|pick|following|as follows|such as|including|the|a|an|of|to|with|and|or|"
                      r"is|are)\s*$", re.I)


#: A lead-in offering a choice among the items after it ("You can report a concern through any of these channels",
#: "Use one of the following"): the items are what it says, and a question asking whom or how is answered by them.
_OFFERS_CHOICE = re.compile(r"\b(?:any|one|either) of (?:these|those|the following)\b", re.I)


def quoted_text(data: SentenceData, i: int) -> str:
    """How sentence ``i`` of a source's sentence data is quoted, "" when it may not be (:func:`quotable`). A lead-in
    stating an amount, a duration or a percentage is quoted with its items (grounding.sentence_leads.with_items). A
    list item opening in lower case continues its list's lead-in ("PIV + PIN authentication will be required:" / "when running
    the sudo command in the terminal"): it is quoted after that lead-in ("PIV + PIN authentication will be required:
    when running the sudo command in the terminal"), not dropped as a fragment; without a lead-in it is one."""
    text, kind = data.texts[i], data.kinds[i]
    if quotable(text, kind, screened=data.screened):
        return text
    if kind == "lead" and i + 1 < len(data.texts) and data.kinds[i + 1] == "item" \
            and (states_value(data.values[i]) and not only_bounds(text) or _OFFERS_CHOICE.search(text)) \
            and not ASKS_EXAMPLE.search(text) and quotable(text.rstrip(": "), "sentence", screened=data.screened) \
            and (whole := with_items(data, i, lambda t: quotable(t, "row", screened=data.screened))):
        # a lead-in stating a value ("FMLA entitles you to take up to 12 weeks of unpaid leave per 12 month period
        # for the following:") is quoted with its items, not left out for its colon; so is one offering a choice
        # among them ("You can report a concern through any of these channels; ...:" / "Your manager, ...")
        return whole
    if kind != "item" or not text[:1].islower() or is_placeholder(text) \
            or (not data.screened and looks_injected(text)):
        return ""
    j = i - 1
    while j >= 0 and data.kinds[j] == "item" and data.texts[j][:1].islower():
        j -= 1  # the items before it under the same lead-in
    if j >= 0 and data.kinds[j] == "item" and DANGLING.search(data.texts[j]) and data.texts[j][:1].isupper():
        # under a list item stopping before its object ("For Software Name, select" / "for Macs: Microsoft Office
        # Suite ..."): quoted after it
        return f"{data.texts[j]}: {text}"
    while j >= 0 and data.kinds[j] == "item":
        j -= 1
    if j >= 0 and data.kinds[j] in ("sentence", "heading") and len(text.split()) >= 4 \
            and not text.rstrip().endswith((",", ":", ";")) and _CLAUSE.search(text) and not _PREDICATE.match(text):
        # a list under a sentence or a heading, not a lead-in ("When changing your password, keep these in mind ...
        # ." / "- passwords expire after 90 days"): its items are the page's own statements, written in lower case
        # (fresh31's f31-29 asked how often the passwords expire; the item was never ranked)
        return text
    if j < 0 or data.kinds[j] != "lead" or not quotable(data.texts[j].rstrip(": "), "sentence"):
        return ""
    return f"{data.texts[j].rstrip(' :;')}: {text}"


#: A list item opening with its verb ("must be different than previous 24 passwords", "to be filed by Friday"): a
#: predicate of a subject said elsewhere, no statement of its own.
_PREDICATE = re.compile(r"(?:is|are|was|were|be|been|must|may|might|can|cannot|could|should|shall|will|would|need|"
                        r"needs|has|have|had|do|does|did|to|and|or|but|which|that|who)\b", re.I)
#: A finite verb making a list item a statement of its own ("passwords expire after 90 days"), not a noun phrase.
_CLAUSE = re.compile(r"\b(?:is|are|was|were|be|must|may|can|cannot|should|will|would|need|needs|has|have|"
                     r"expires?|requires?|applies|apply|gets?|takes?|lasts?|runs?|includes?|covers?)\b", re.I)
