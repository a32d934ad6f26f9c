"""The refusal's sentence about scheduled versions (s7 bug 3): only versions the question would match are named."""

from __future__ import annotations

import numpy as np

from grounding.answer import ABSTAIN_MESSAGE, finalize_answer
from grounding.scheduled import ScheduledVersion, scheduled_matches, scheduled_note
from grounding.types import ContextPlan


def unit(*xs):
    v = np.asarray(xs, dtype=np.float32)
    return v / np.linalg.norm(v)


def test_only_scheduled_versions_above_the_relevance_threshold_are_named():
    mileage = ScheduledVersion("Mileage", "2027-01-05", np.stack([unit(1, 0, 0), unit(0.6, 0.8, 0)]))
    parking = ScheduledVersion("Parking", "2027-03-01", np.stack([unit(0, 0, 1)]))
    assert scheduled_matches(unit(1, 0.1, 0), [mileage, parking], 0.35) == (("Mileage", "2027-01-05"),)
    assert scheduled_matches(unit(0, 1, 0), [parking], 0.35) == ()
    assert scheduled_note(()) == ""
    assert scheduled_note((("Mileage", "2027-01-05"), ("Parking", "2027-03-01"))) == (
        'Versions of "Mileage" dated 2027-01-05 and "Parking" dated 2027-03-01 are scheduled and not yet in effect.')


def test_the_refusal_the_user_sees_names_the_scheduled_version():
    plan = ContextPlan(question="What is the mileage rate?", sources=(), sufficient=False,
                       abstain_reason="nothing was retrieved", scheduled=(("Mileage", "2027-01-05"),))
    shown = finalize_answer("", plan)
    assert shown.abstained and shown.text == (
        f'{ABSTAIN_MESSAGE} A version of "Mileage" dated 2027-01-05 is scheduled and not yet in effect.')
