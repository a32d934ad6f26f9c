"""Yes/no openers from the s30 round's new-user runs on the demo handbook: "an extra monitor" is no other kind of
monitor (grounding.yesno_kind), and a requirement from a bound the asked quantity does not reach says no
(grounding.yesno_count.requirement_not_reached)."""

from __future__ import annotations

from grounding.yesno import opener


def test_an_extra_thing_is_no_other_kind_of_it():
    """The s30 new user's demo run: "can I order an extra monitor?" had no "Yes." from "You may order one external
    monitor ..." ("extra" was read as another kind of monitor than "external")."""
    assert opener("can I order an extra monitor?", "You may order one external monitor, one keyboard, one mouse or "
                                                   "trackpad, and one headset through the IT catalog without further "
                                                   "approval.") == "Yes."



def test_a_requirement_from_a_bound_the_asked_quantity_does_not_reach_is_a_no():
    """The s30 new user's demo run: "do I need a receipt for a $15 lunch?" quoted "An itemised receipt is required for
    any expense of $25 or more" without an opener (grounding.yesno_count.requirement_not_reached)."""
    rule = "An itemised receipt is required for any expense of $25 or more."
    assert opener("do I need a receipt for a $15 lunch?", rule) == "No."
    assert opener("do I need a receipt for a $40 dinner?", rule) != "No."
    assert opener("do I need a receipt for lunch?", rule) != "No."
    # a requirement added to others says nothing of the others
    assert opener("Do I need approval for a $2,000 trip?",
                  "Approval is also required from your department head for trips over $3,000.") != "No."
