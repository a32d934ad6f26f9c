"""grounding.yesno_anchor: a negation denies what a yes/no question asks when its scope names the question's words."""

from grounding.yesno_anchor import anchored_negation


def test_a_negation_naming_the_asked_words_right_after_it_is_anchored():
    assert anchored_negation("Should teammates who only edited my blog post be credited as authors?",
                             "Team members who contributed editing should not be included as authors.")
    assert anchored_negation("Can I share a Google Doc publicly on the web?",
                             "You can't publish files to the web or share them with the public.")


def test_a_negation_of_something_beside_the_question_is_not_anchored():
    # "workspace" is named, but seven words after the negation: what is denied is access to the rest of it
    assert not anchored_negation("Is it free to add our agency partners to our Mural workspace?",
                                 "They cannot access the rest of the TTS workspace, but you can invite them.")
    assert not anchored_negation("Can our group bring in a speaker from outside government?",
                                 "We have to make sure the outside speaker is not here for a sales pitch.")


def test_a_sentence_without_negation_or_with_only_an_idiom_is_not_anchored():
    assert not anchored_negation("Can I use Slack huddles?", "You can use Slack huddles for standups.")
    assert not anchored_negation("Are referrals welcome?", "Referrals are welcome any time, not just referrals for "
                                                           "open positions.")
