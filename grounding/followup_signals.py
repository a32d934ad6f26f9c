"""The words by which a question refers to what was said before, read by grounding.followup: an elliptical opener
("and for contractors?"), a referring word ("they", "the same"), a word that may refer or not ("it", "that", "there")
and the forms in which "it" does (the subject or the object of the question's own verb) or does not ("Is it OK to
...?"). No Django imports.
"""

from __future__ import annotations

import re

__all__ = ["DETERMINED", "EXPLETIVE", "OBJECT_IT", "OPENER", "REFERRING", "SUBJECT", "SWITCH", "WEAK", "preamble_it"]

#: An opening that says the question changes the topic ("Different topic — we're hosting an outside speaker ...",
#: fresh36's f36-v07; "Unrelated question: ...", "Switching gears, ..."): it stands on its own, whatever words follow
#: ("different" is also a referring word: "Is it different for contractors?").
SWITCH = re.compile(r"^\s*(?:(?:on\s+)?(?:a\s+)?(?:totally\s+|completely\s+|entirely\s+)?(?:different|unrelated|"
                    r"separate|new)\s+(?:topic|subject|question|note|thing)|unrelated|switching\s+(?:gears|topics)|"
                    r"chang(?:e|ing)\s+(?:the\s+)?(?:topic|subject)|change\s+of\s+(?:topic|subject)|on\s+another\s+"
                    r"(?:note|topic))\b\s*(?:[:,.!?;]|[—–-]+)?\s*", re.I)

#: An elliptical opener: the question continues the previous one ("and for contractors?", "what about Denver?").
OPENER = re.compile(r"^\s*(?:and|but|also|or|so|then|what about|how about|what if|same for|and what about)\b|"
                     # a fragment opening with a preposition: "For contractors?", "In Denver?", "For how long?"
                     r"^\s*(?:for|in|at|on|with|without|during|from|to|outside|abroad)\b(?:\s+\S+){0,3}\s*[?.!]?\s*$",
                     re.I)
#: Words that refer to something said before ("do they expire?", "is it different ...", "a similar limit", "if mine
#: can't run our tools": a possessive pronoun stands for a thing named before, the s30 new user's demo run).
REFERRING = re.compile(r"\b(?:they|them|their|theirs|those|these|he|she|him|her|its|mine|yours|ours|similar|same|"
                       r"different|instead|either|too|as well|the other|that one|this one|such|ones)\b|"
                       # "one" standing for a thing named before: "Do I still need one to request a training?",
                       # "What about the public one?" (not "no one", "one of", "one day", "a one-time fee")
                       r"(?<!\bno )\bone\b(?=\s*(?:[?.!,]|$)|\s+(?:to|for|in|at|on|with|from|if|when|too|again|"
                       r"there|here|now|yet|is|was|are|does|do|can|will|would|should|has|have|cost|costs|take|"
                       r"takes|last|lasts)\b)|"
                       # a quantifier standing for what was named before: "Can I carry any over?", "Do I get some
                       # back?" (not "any employee", "some of the forms")
                       r"\b(?:any|some)\b(?=\s*[?.!]|\s+(?:over|out|back|up|off|left|more|again)\b)", re.I)
#: Words that may refer or may not ("it" in "is it OK to ...", "that" as a conjunction, existential "there").
WEAK = re.compile(r"\b(?:it|that|this|there)\b", re.I)
EXPLETIVE = re.compile(r"\b(?:is|was|will|would|does|do) it (?:ok|okay|possible|allowed|true|necessary|required|"
                       r"fine|safe|legal|mandatory|a problem|worth)\b|\bit (?:is|'s) (?:ok|okay|possible|allowed)\b|"
                       # "Is there parking?", "Are there any limits?": existential ("Is there one there?" keeps its
                       # second, referring "there")
                       r"\b(?:is|are|was|were) there\b(?! similar| same)(?=\s+\w)|"
                       # "How many company holidays are there?", "What parking options are there?": existential
                       r"\b(?:is|are|was|were) there\s*(?:[?.!]|$)", re.I)
#: "it", "that" or "this" as the subject of the question's own verb ("Is that paid out if I leave GSA?", "Could it
#: go faster if ...?", "How long does that take?"): the thing asked about is one named before (not "How much does
#: it cost to park?", "Does it matter which ...", where "it" stands for what follows).
SUBJECT = re.compile(r"^\s*(?:(?:how|what|when|where|why|who|which)(?:\s+\w+){0,2}?\s+)?(?:is|are|was|were|does|do|"
                     r"did|can|could|will|would|should|has|have|must|may)\s+(?:that|this|it\b(?!\s+(?:take|takes|"
                     r"cost|costs|make|makes|help|hurt|pay|mean|matter|better|best|easier|easy|hard|harder|likely|"
                     r"wise|common|normal|usual|appropriate|acceptable|recommended|advisable|against)\b))\b", re.I)
#: "it" as the object of the question's verb or preposition ("Do I have to change it every 90 days?", "Who reviews
#: it?", "Do I get it back?"): on 12 of the 13 second turns with one in the development conversation sets it refers to
#: what was asked before (f11-c10's "rated against it" names its plan in the question itself); an expletive "it" is
#: a subject ("Is it OK to ...", "Does it cost ..."), and one a clause after it explains ("Who do I tell about it when I
#: telework abroad?") stands for what that clause says. Lower case: "GSA IT" is a name.
OBJECT_IT = re.compile(r"\b(?!(?:is|was|does|do|did|will|would|can|could|should|has|have|had|that|if|because|when|"
                       r"are|were|make|makes)\b)[a-z]+\s+it\b(?!\s+(?:to|that|when|if|while|before|after|whether|"
                       r"because|once)\b)")

#: A noun phrase opened by a determiner ("a message", "my laptop"): what a later "it" may stand for.
DETERMINED = re.compile(r"\b(?:a|an|the|my|your|our|their|his|her)\s+[A-Za-z]", re.I)


def preamble_it(question: str) -> re.Match[str] | None:
    """The "it" a sentence before the asking one does something with (:data:`OBJECT_IT`) with no
    noun of its own before it ("I might not touch it for a few months."); None when there is none."""
    sentences = [p for p in re.split(r"(?<=[.!?])\s+", question.strip()) if p]
    for sentence in sentences[:-1]:
        if sentence.endswith("?"):
            break
        if (it := OBJECT_IT.search(sentence)) and not DETERMINED.search(sentence[:it.start()]):
            return it
    return None
