"""Where a sentence's negation points: a denial of what a yes/no question asks names it right after the negation cue
("... should *not be included as authors*" for "Should teammates who only edited my blog post be credited as
authors?"); a negation naming none of the question's words nearby denies something beside it ("They *cannot access
the rest of the TTS* workspace" for "Is it free to add our agency partners to our Mural workspace?").

No Django imports.
"""

from __future__ import annotations

from grounding.lexical import content_terms
from grounding.yesno_negation import without_idioms
from grounding.yesno_scope import NEGATION

#: How many words after a negation cue its scope is read over. 6: on the dev, calibration and spent fresh yes/no sets
#: (273 questions), a reach of 4 to 6 words lets only right "No." openers through the scan of grounding.
#: extractive_yesno; 8 lets a wrong one in.
REACH = 6


def anchored_negation(asking: str, sentence: str, *, reach: int = REACH) -> bool:
    """True when a negation cue of ``sentence`` (grounding.yesno_scope.NEGATION; "not just", "whether or not", "no
    later than" negate nothing, grounding.yesno_negation.without_idioms) has a content word of the asking clause
    ``asking`` among the ``reach`` words after it: the sentence denies what the question asks, not something beside
    it."""
    asked = content_terms(asking)
    text = without_idioms(sentence)
    return any(content_terms(" ".join(text[m.end():].split()[:reach])) & asked for m in NEGATION.finditer(text))
