"""Rules of the s41 round from development questions (fresh41's f41-m/v/t/l/y/a/u items, the split "fresh41" of
evaluation/golden/18f_fresh41.jsonl, and two answers of older development sets the round's first changes lost; each
test names the item it came from; none is from the 18F test half or fresh41's held part). Texts are made up unless
they quote the question or the handbook page it was written from."""

from __future__ import annotations

from dataclasses import replace

from grounding.acronyms import definitions, with_spelled_out
from grounding.answer_types import question_type
from grounding.asked_agent import agent_first, names_agent
from grounding.counted import counted_noun, counts
from grounding.lexical import content_terms
from grounding.narrower_case import general_case_first
from grounding.question_parts import question_parts
from grounding.scored_sentences import ScoredSentence
from grounding.subject_check import pins
from grounding.source_types import Source
from grounding.yesno_answering import answering_clause
from tests.grounding.helpers import make_page, offline_answer


def _scored(text: str, score: float, *, label: str = "S1", kind: str = "sentence", position: int = 0):
    return ScoredSentence(text=text, label=label, score=score, kind=kind, cosine=score, overlap=0.0, values=(),
                          position=position, precision=0.0)


PULL_REQUESTS = ("Each pull request should be reviewed by at least one other TTS staff member before merging. Once a "
                 "PR is approved, anyone can merge it (including the original submitter).\n"
                 "If you make a pull request that's best reviewed by a specific person, tag or assign it to that "
                 "person. It can also help to ping them in Slack to ask for review.")


def test_f41_m09_a_verb_of_need_ends_the_counted_noun():
    """fresh41's f41-m09: "how many people need to review my pull request before it can be merged?" counted "need",
    so "at least one other TTS staff member" counted nothing asked and the part was refused."""
    assert counted_noun("How many people need to review my pull request before it can be merged?") == "people"
    assert counted_noun("How many approvals are required to merge?") == "approvals"
    assert counts("people", "Each pull request should be reviewed by at least one other TTS staff member")


def test_f41_m09_how_many_people_review_a_pull_request_is_answered(embedder):
    page = make_page(1, "Updating the Handbook", "Making your updates > Pull requests (PRs)", PULL_REQUESTS)
    text = offline_answer(embedder, "How many people need to review my pull request before it can be merged?", page)
    assert text.startswith("Each pull request should be reviewed by at least one other TTS staff member"), text


PSLF = ("Public Service Loan Forgiveness (PSLF) is a government program that offers forgiveness of federal student "
        "loans under certain conditions. The Department of Education recommends that you submit the PSLF form "
        "annually or when you change employers.\n"
        "As a GSA employee, you are eligible for PSLF (assuming you satisfy the other conditions).")
TRANSIT = "All GSA employees who take mass/public transit to work are eligible for transit subsidies."


def test_f41_y05_a_sentence_saying_an_acronym_holds_the_words_the_question_spells_out():
    """fresh41's f41-y05: "Are GSA employees eligible for Public Service Loan Forgiveness?" ranked "As a GSA employee,
    you are eligible for PSLF" under a transit-subsidy sentence: the question's words were not read in "PSLF"."""
    aliases = definitions([PSLF])
    terms = content_terms("As a GSA employee, you are eligible for PSLF")
    assert content_terms("Public Service Loan Forgiveness") <= with_spelled_out(terms, aliases)
    # not added to a sentence saying some of the words already (fresh36's f36-c08 lost its answer to that)
    some = content_terms("apply for forgiveness with the PSLF form")
    assert with_spelled_out(some, aliases) == some


def test_f41_y05_whether_one_is_eligible_for_a_program_named_in_full_is_settled_by_its_acronym(embedder):
    benefits = make_page(1, "Benefits", "Public Service Loan Forgiveness (PSLF)", PSLF)
    transit = make_page(2, "Transit Benefit", "Eligibility", TRANSIT)
    text = offline_answer(embedder, "Are GSA employees eligible for Public Service Loan Forgiveness?", benefits,
                          transit)
    assert text.startswith("Yes. As a GSA employee, you are eligible for PSLF"), text


CLEARANCES = ("Below are approximate timelines for the clearance process:\n"
              "- 1-2 months for a new Secret (interim) clearance\n"
              "- 6-8 months for a new Top Secret (TS) clearance\n"
              "- 8-15 months for a new Top Secret clearance with access to Sensitive Compartmented Information "
              "(TS/SCI)\n\n"
              "If you transferred to GSA with an active clearance, timelines may be quicker.")


def test_f41_m11_a_list_item_of_a_narrower_case_gives_way_to_its_sibling_stating_the_case_asked():
    """fresh41's f41-m11: "Roughly how long does a new TS take?" quoted the TS/SCI item, ranked a hair above the TS
    one; asked of TS/SCI, the TS/SCI item stays first."""
    sci = _scored("8-15 months for a new Top Secret clearance with access to Sensitive Compartmented Information "
                  "(TS/SCI)", 1.00, kind="item", position=3)
    ts = _scored("6-8 months for a new Top Secret (TS) clearance", 0.99, kind="item", position=2)
    asked = "My new project needs me to hold a Top Secret clearance. Roughly how long does a new TS take"
    assert general_case_first([sci, ts], asked)[0].text == ts.text
    assert general_case_first([sci, ts], "How long does a new TS/SCI clearance take?")[0].text == sci.text
    # one word apart is no narrower case ("Fewer than 3 years" / "15+ years": fresh40's f40-m01 lost its answer)
    fewer = _scored("Fewer than 3 years: 4 hours per pay period", 1.0, kind="item", position=1)
    more = _scored("15+ years: 8 hours per pay period", 0.99, kind="item", position=3)
    assert general_case_first([fewer, more], "How much annual leave do I earn per pay period?")[0] is fewer


EQIP = "You will have 7 days to complete the eQIP once notified."


def test_f41_m11_the_time_a_new_top_secret_clearance_takes_is_its_own_item(embedder):
    page = make_page(1, "Top Secret / Sensitive Compartmented Information (TS/SCI) Clearance", "Your clearance status",
                     CLEARANCES)
    text = offline_answer(embedder, "My new project needs me to hold a Top Secret clearance. Roughly how long does "
                          "a new TS take, and once the Security office contacts me, how long do I have to fill out "
                          "the eQIP?", page, make_page(2, "eQIP", "", EQIP))
    assert text.startswith("6-8 months for a new Top Secret (TS) clearance"), text


IGCA_LETTER = ("The account manager will then route the letter (which will be known as Attachment B for agreement "
               "purposes) to the partner for review and signatures.\n"
               "Normally, the letter needs to be signed by the executive of the entity (the governor of a state or the "
               "mayor of a city). The letter may be signed by another designated governmental official if there is "
               "a delegation from the chief executive.\n"
               "As we wait for the signed letter, the Account Manager can begin drafting the IGCA agreement by making "
               "a copy of the IGCA Agreement Template.")
DECISIONS = ("The TTS Digital Council meets weekly for an hour. Council members working on projects and tasks expend "
             "additional time.\n"
             "The TTS Digital Council is an advisory body only. The Council can make decisions about its own "
             "activities, while all other decisions still remain the purview of TTS leadership.\n"
             "Decisions are made by majority rule. Each digital team is allocated one vote.")


def test_f41_m02_who_signs_is_answered_by_the_sentence_naming_by_whom_it_is_signed():
    """fresh41's f41-m02 (and fresh36's f36-m07, fresh39's f39-m11 on the same page): "Who normally has to sign the
    request letter?" quoted "As we wait for the signed letter, the Account Manager can begin drafting ...", which
    the preamble ("We're drafting an IGCA with a city government.") ranked first."""
    asked = "Who normally has to sign the request letter"
    drafting = _scored("As we wait for the signed letter, the Account Manager can begin drafting the IGCA agreement "
                       "by making a copy of the IGCA Agreement Template.", 0.89)
    signed = _scored("Normally, the letter needs to be signed by the executive of the entity (the governor of a state "
                     "or the mayor of a city).", 0.78, position=1)
    assert names_agent(asked, signed.text) and not names_agent(asked, drafting.text)
    assert agent_first([drafting, signed], asked)[0].text == signed.text
    # out of reach, or not asked who: unchanged
    assert agent_first([drafting, _scored(signed.text, 0.70)], asked)[0] is drafting
    assert agent_first([drafting, signed], "When is the request letter signed?")[0] is drafting


def test_f41_m12_how_a_third_party_does_a_thing_is_answered_by_the_means_named_with_by():
    """fresh41's f41-m12: "how does it make decisions?" quoted "The Council can make decisions about its own
    activities"; "Decisions are made by majority rule" names the means (an irregular participle, "made")."""
    assert names_agent("how does it make decisions?", "Decisions are made by majority rule.")
    assert not names_agent("how does it make decisions?", "The Council can make decisions about its own activities.")
    assert not names_agent("How do I make a decision?", "Decisions are made by majority rule.")  # the asker's steps


def test_f41_m02_and_m12_two_part_questions_get_the_agent_and_the_means(embedder):
    letter = make_page(1, "How we work with state and local agencies", "IGCA Process > Request Letter", IGCA_LETTER)
    text = offline_answer(embedder, "We're drafting an IGCA with a city government. Who normally has to sign the "
                          "request letter, and when does the account manager route it to the partner?", letter)
    assert text.startswith("Normally, the letter needs to be signed by the executive of the entity"), text
    council = make_page(1, "Digital Council", "General Procedures", DECISIONS)
    text = offline_answer(embedder, "I might represent my product team on the TTS Digital Council. How often does "
                          "the Council meet, and how does it make decisions?", council)
    assert "Decisions are made by majority rule" in text and "about its own activities" not in text, text


def test_f41_u02_a_rate_after_a_hyphenated_word_asks_an_amount(embedder):
    """fresh41's f41-u02: "What's the per-mile rate I get reimbursed for driving my own car?" read as asking no
    type, was answered "... at the POV mileage rates can be approved": no rate is stated."""
    assert question_type("What's the per-mile rate I get reimbursed for driving my own car on official travel?") \
        == "amount"
    page = make_page(1, "What to consider while traveling", "Mileage, Parking, and Tolls",
                     "Reimbursement for privately-owned (not rented) vehicle mileage at the POV mileage rates can be "
                     "approved if considered advantageous to the Government.")
    text = offline_answer(embedder, "What's the per-mile rate I get reimbursed for driving my own car on official "
                          "travel?", page)
    assert "do not state the amount" in text, text


INCLUSIVENESS = ("We believe there are four sources of inclusiveness at every organization, and we work to align our "
                 "organization to these principles.\n\n"
                 "1. Organizational level: Practices and activities that contribute to, or detract from, an "
                 "inclusive organization.\n\n"
                 "- There is accountability and action when issues arise.\n\n"
                 "2. Management: The support you receive from your managers.\n\n"
                 "- Managers are held accountable for inclusive behavior.\n\n"
                 "3. Work-group level: How your immediate team works together.\n\n"
                 "- Team members share credit.\n\n"
                 "4. Individual level: Your own behavior.\n\n"
                 "- You reflect on your own biases.")


def test_f41_l06_a_count_of_things_asked_after_what_are_the_is_a_list_question(embedder):
    """fresh41's f41-l06: "What are the four levels of inclusiveness ...?" was read as asking no type ("levels"
    alone may ask a value), so only the first numbered paragraph was quoted."""
    assert question_type("What are the four levels of inclusiveness that TTS tries to align the organization to?") \
        == "list"
    page = make_page(1, "Inclusive Behaviors", "", INCLUSIVENESS)
    text = offline_answer(embedder, "What are the four levels of inclusiveness that TTS tries to align the "
                          "organization to?", page)
    assert all(level in text for level in ("Organizational level", "Management", "Work-group level",
                                           "Individual level")), text


GROUPS = ("Similarly, you can't access public Google Groups via the Google Groups website with your GSA email, but "
          "you can still receive email if added to the group directly. If you're using the group with non-GSA folks, "
          "you're probably better off using a listserv instead.")


def test_f41_y06_the_clause_saying_what_still_holds_answers_a_question_asking_what_still_holds(embedder):
    """fresh41's f41-y06: "..., will they still get the group's emails?" opened "No." from "you can't access public
    Google Groups ...", though "but you can still receive email if added to the group directly" answers it."""
    sentence = GROUPS.split(". ")[0]
    assert answering_clause("will they still get the group's emails?", sentence).startswith("you can still receive")
    # a question without "still" keeps the whole sentence when no clause holds more of its words
    assert answering_clause("will they get the group's emails?", sentence) == sentence
    page = make_page(1, "Google Groups", "How are GSA Google Groups different", GROUPS)
    text = offline_answer(embedder, "If I add a contractor with a non-GSA email address to my GSA Google Group, will "
                          "they still get the group's emails?", page)
    assert text.startswith("Yes."), text


def test_f41_m01_a_hedge_before_the_second_question_word_still_splits_the_parts():
    """fresh41's f41-m01: "How long am I allowed to take for lunch, and roughly when should my first paycheck show
    up?" was asked as one question and answered only about the paycheck."""
    lead, parts = question_parts("Just started at TTS. How long am I allowed to take for lunch, and roughly when "
                                 "should my first paycheck show up?")
    assert parts == ["How long am I allowed to take for lunch", "when should my first paycheck show up?"], parts
    assert len(question_parts("How long does it take, and approximately how much does it cost?")[1]) == 2


PROMOTION = ("For all Merit Promotion roles: employees must be at their current GS level for one year in order to "
             "apply for a position at the next highest GS level. This is called the “time-in-grade” requirement, and "
             "an applicant must meet time-in-grade within 30 days of an application’s closing date.")


def test_f41_v05_a_rule_of_any_gs_level_holds_for_the_grade_the_asker_names():
    """fresh41's f41-v05: "I'm a GS-12 looking at a GS-13 merit promotion posting. How long do I need to have been at
    my current grade to apply?" was refused "anything about GS-12 or GS-13"."""
    page = Source(label="S1", chunk_ids=(1,), document_id=1, title="Promotions", section="", version="v1", date="",
                  text=PROMOTION, score=0.03, tokens=60)
    sentence = PROMOTION.split(". ")[0]
    assert pins(page, sentence, "GS-12")
    assert not pins(page, "Interns are hired at the GS-5 level.", "GS-12")


def test_f41_v05_the_time_in_grade_rule_answers_after_the_askers_situation(embedder):
    page = make_page(1, "Promotions", "Introduction to the Merit Promotion process", PROMOTION)
    text = offline_answer(embedder, "I'm a GS-12 looking at a GS-13 merit promotion posting. How long do I need to "
                          "have been at my current grade to apply?", page)
    assert text.startswith("For all Merit Promotion roles: employees must be at their current GS level for one year"), \
        text


HISTORY = ("In 2012, the White House established the Presidential Innovation Fellows (PIF) program to bring the "
           "principles, values, and practices of the innovation economy into government.\n"
           "In December 2013, eight PIFs left the fellowship to become GSA employees and created a lean startup "
           "inside government. That project became 18F when the office officially launched in March 2014.")
TIMELINE = "- 2013: 18F funding approved and hiring begins.\n- 2014: 18F launches."


def test_f39_a04_the_sentence_going_on_to_name_what_is_asked_joins_the_count(embedder):
    """fresh39's f39-a04, lost to the s41 round's reading of "PIFs" as the fellows it stands for: "eight PIFs left the
    fellowship" then ranked further above "That project became 18F ...", which named the "18F" the question asks
    about, so a timeline item naming 18F refused the answer ("the number for F"). The sentence going on in the
    quoted one's paragraph joins it whenever it ranks above the threshold."""
    history = make_page(1, "TTS mission, history, and values", "Our history", HISTORY)
    timeline = make_page(2, "History and values of 18F", "", TIMELINE)
    text = offline_answer(embedder, "How many Presidential Innovation Fellows left the fellowship in late 2013 to "
                          "start what became 18F?", history, timeline)
    assert text.startswith("In December 2013, eight PIFs left the fellowship") and "became 18F" in text, text


FIGMA = ("Figma plugins are okay to use and don’t require approval as long as they don't integrate with other SaaS "
         "products (e.g. Google Drive) and are self-contained within the Figma environment. Otherwise, each Figma "
         "plugin is treated like a new software request, and must undergo review by GSA IT review. If you’re unsure "
         "whether a plugin will require approval, reach out in #figma on Slack with any questions.")


def test_f41_v07_what_if_the_case_a_condition_rules_out_is_answered_by_the_otherwise_sentence(embedder):
    """fresh41's f41-v07: "What if the plugin connects to Google Drive?" after "Do I need to get approval before I
    use a Figma plugin?" repeated "Figma plugins are okay to use ... as long as they don't integrate with other SaaS
    products (e.g. Google Drive)"; what holds otherwise is the next sentence."""
    from grounding.context import plan_context
    from grounding.extractive import ExtractiveAnswerer
    from grounding.followup import retrieval_query
    from grounding.memory import MemoryTurn
    from grounding.tokens import counter_for

    page = make_page(1, "Figma", "Plugins", FIGMA)
    first = "Do I need to get approval before I use a Figma plugin?"
    followup = "What if the plugin connects to Google Drive?"
    answer = ("No. Figma plugins are okay to use and don’t require approval as long as they don't integrate with "
              "other SaaS products (e.g. Google Drive) and are self-contained within the Figma environment [S1].")
    counter = counter_for("extractive")
    plan = plan_context(question=followup, candidates=[page], system_prompt="Answer.", counter=counter,
                        history=[MemoryTurn("user", first, counter.count(first)),
                                 MemoryTurn("assistant", answer, counter.count(answer))])
    text = ExtractiveAnswerer(embedder).compose(retrieval_query(followup, [first]), plan)
    assert text.startswith("Otherwise, each Figma plugin is treated like a new software request"), text


TOCK = ("The weekly time reporting period lasts one week, beginning on Sunday and ending on Saturday. You must review "
        "and submit your timecard each week by the end of the day (close of business) on Friday. When submitting "
        "your timecard, choose the correct week for your entries from the list on the homepage, adjust your Tock "
        "entry to reflect what you worked that week, and then submit your timesheet.\n"
        "Timecards for the current week should be available no later than Monday at 9AM PST.")


def test_f41_v02_when_a_thing_is_due_is_the_deadline_of_handing_it_in_not_when_it_is_ready(embedder):
    """fresh41's f41-v02 and the development set's d036: "When is my Tock timecard due each week?" quoted
    "Timecards for the current week should be available no later than Monday at 9AM PST"."""
    from grounding.asked_deadline import deadline_first, states_deadline

    assert states_deadline("You must review and submit your timecard each week by the end of the day on Friday.")
    assert not states_deadline("Timecards for the current week should be available no later than Monday at 9AM PST.")
    ready = _scored("Timecards for the current week should be available no later than Monday at 9AM PST.", 0.88)
    owed = _scored("You must review and submit your timecard each week by the end of the day on Friday.", 0.75)
    ready, owed = replace(ready, values=("date:Monday",)), replace(owed, values=("date:Friday",))
    assert deadline_first([ready, owed], "When is my Tock timecard due each week?")[0].text == owed.text
    assert deadline_first([ready, owed], "When are timecards ready each week?")[0] is ready  # not asked when due
    page = make_page(1, "Tock", "Tocking your time", TOCK)
    text = offline_answer(embedder, "When is my Tock timecard due each week?", page)
    assert text.startswith("You must review and submit your timecard each week by the end of the day"), text


def test_f41_m05_the_time_another_party_takes_to_do_a_thing_is_no_deadline_of_the_askers():
    """fresh41's f41-m05: "How fast do I have to let GSA IT know?" (a secret token committed to a public repo) quoted
    "If you're new to GSA, it'll take a few weeks for IT to set up your account", the time IT takes, over "It is
    critical that you notify GSA IT within 1 hour of suspected incident"."""
    from grounding.asked_attribute import states_only_processing

    assert states_only_processing("If you're new to GSA, it'll take a few weeks for IT to set up your account.")
    assert states_only_processing("It takes 3 weeks for the Talent team to review it.")
    assert not states_only_processing("It takes two days for you to get access.")
    assert not states_only_processing("It is critical that you notify GSA IT within 1 hour of suspected incident.")


def test_f41_m05_how_fast_one_must_report_is_answered_by_the_askers_deadline(embedder):
    incidents = make_page(1, "Security incidents", "You must report IT security incidents",
                          "Incidents include exposing a secret token in a GitHub repository. It is critical that you "
                          "notify GSA IT within 1 hour of suspected incident and provide all available information to "
                          "assist the response team with triage.")
    tools = make_page(2, "GSA internal tools", "Employee Express",
                      "If you're new to GSA, it'll take a few weeks for IT to set up your account.")
    text = offline_answer(embedder, "I think I just committed a secret token to a public repo. How fast do I have "
                          "to let GSA IT know?", tools, incidents)
    assert text.startswith("It is critical that you notify GSA IT within 1 hour"), text


RECEIPTS = ("Simple expenses\n\n"
            "The following expenses can be entered as-is without further receipts, written justifications, or other "
            "considerations, provided that each expense is under $75:\n\n"
            "- Airfare or Amtrak tickets booked through Concur or AdTrav\n"
            "- Airplane wifi\n"
            "- Fees for one checked bag per leg of itinerary\n"
            "- Public transit expenses of $25 or less.\n\n"
            "The following expenses require receipts:\n\n"
            "- Hotels\n"
            "- Rental cars and gas for rental cars\n"
            "- Any other expense exceeding $75, including local transportation")


def test_f41_l03_a_lead_in_ranked_with_its_items_gives_its_own_list(embedder):
    """fresh41's f41-l03: "... which expenses can I just enter as-is with no receipt or justification, as long as each
    is under $75?" ranked the right lead-in first (quoted with its items after it), but got the next list, the
    expenses that require receipts: the lead-in, read with its items, was not found in its source as written."""
    page = make_page(1, "Frequently Asked Questions", "Questions about reimbursement > When are receipts required?",
                     RECEIPTS)
    text = offline_answer(embedder, "When I file my travel voucher, which expenses can I just enter as-is with no "
                          "receipt or justification, as long as each is under $75?", page)
    assert text.startswith("The following expenses can be entered as-is"), text
    assert "- Airplane wifi [S1]" in text and "Hotels" not in text, text


RETROS = ("Most teams default to two-week sprints, but might try shorter or longer sprints if the team thinks they'd "
          "be more effective.\n"
          "Send to partner and post in #the-shipping-news: Every two weeks: Conduct an internal team retrospective.")


def test_f41_u12_the_length_of_a_sprint_or_how_often_retros_recur_is_no_length_of_a_retro(embedder):
    """fresh41's f41-u12: "How long should our sprint retrospectives be?" was answered with "two-week sprints" and
    "Every two weeks: Conduct an internal team retrospective": how long a sprint is, and how often retros are."""
    from grounding.asked_forms import lasts_other, repeats_only

    asked = "How long should our sprint retrospectives be?"
    assert lasts_other(asked, RETROS.split("\n")[0])
    assert not lasts_other("How long should our sprints be?", RETROS.split("\n")[0])
    assert repeats_only(asked, RETROS.split("\n")[1])
    assert not repeats_only(asked, "Retros last an hour every two weeks.")
    page = make_page(1, "Leading projects at 18F", "Ongoing", RETROS)
    text = offline_answer(embedder, asked, page)
    assert "do not state" in text and "two-week sprints" not in text and "Every two weeks" not in text, text


DETAILS = ("Details typically last for 120 days. For those employees detailing into TTS from outside of GSA, their "
           "security status must be verified with the GSA Security Office. It is the responsibility of the TTS "
           "supervisor to ensure this is complete.")


def test_f40_m05_whose_job_a_thing_is_is_answered_by_the_sentence_saying_whose_responsibility_it_is(embedder):
    """fresh40's f40-m05 (seen in the s40 round, mended in this one): "... whose job is it to make sure their security
    status gets verified with GSA?" quoted what must be verified, not whose responsibility it is."""
    asked = "whose job is it to make sure their security status gets verified with GSA?"
    assert names_agent(asked, "It is the responsibility of the TTS supervisor to ensure this is complete.")
    assert not names_agent(asked, "Their security status must be verified with the GSA Security Office.")
    page = make_page(1, "Details with Other Agencies", "Requesting detailees from outside of GSA", DETAILS)
    text = offline_answer(embedder, "I'm a TTS supervisor bringing someone over from another agency on a detail. "
                          "Whose job is it to make sure their security status gets verified with GSA?", page)
    assert text.startswith("It is the responsibility of the TTS supervisor"), text


def test_f41_u03_how_long_an_upgrade_takes_is_not_how_long_a_new_one_takes(embedder):
    """fresh41's f41-u03: "I transferred to GSA already holding an active Secret clearance. How many months will my
    Top Secret upgrade take?" was answered with the times for new clearances; the page states none for an upgrade."""
    from grounding.asked_forms import contrasted_phrase

    assert contrasted_phrase("How many months will my Top Secret upgrade take?",
                             "6-8 months for a new Top Secret (TS) clearance") == "upgrade"
    page = make_page(1, "Top Secret / Sensitive Compartmented Information (TS/SCI) Clearance", "Your clearance status",
                     CLEARANCES)
    text = offline_answer(embedder, "I transferred to GSA already holding an active Secret clearance. How many months "
                          "will my Top Secret upgrade take?", page)
    assert "6-8 months" not in text and "for upgrade" in text, text
    text = offline_answer(embedder, "How many months does a new Top Secret clearance take?", page)
    assert text.startswith("6-8 months for a new Top Secret (TS) clearance"), text
