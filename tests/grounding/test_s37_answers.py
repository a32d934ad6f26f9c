"""Rules of the s37 round from development questions (fresh37's f37-l/y/m/t/v/a/u items; each test names the item it
came from; none is from the 18F test half or fresh37's held part). Texts are made up unless they quote the
question."""

from __future__ import annotations

from dataclasses import replace

from grounding import compose
from grounding.asked_attribute import asks_own_deadline, states_only_processing
from grounding.context import plan_context
from grounding.extractive import ExtractiveAnswerer
from grounding.extractive_lists import list_answer
from grounding.extractive_parts import _headed_by
from grounding.lexical import content_terms
from grounding.list_answers import asked_plural, asks_kinds
from grounding.question_parts import specifics
from grounding.sentence_cues import named_page_labels, on_named_pages
from grounding.sentence_rank import with_sentences
from grounding.source_types import Source
from grounding.subject_check import existent_unsaid
from grounding.tokens import counter_for
from grounding.yesno_fit import below_minimum
from grounding.types import Candidate, Chunk
from tests.grounding.helpers import make_page, offline_answer


def test_f37_l09_a_list_question_asks_for_the_plural_noun_of_its_asking_sentence(embedder):
    """fresh37's f37-l09: "I'm new to agile at 18F. What recurring meetings should I expect on a typical project
    team?" read no asked plural (the message opens with the asker's situation), so the design huddle's list
    ("That said, there are recurring weekly meetings ...") outscored "You can expect most teams to have these
    meetings:". The plural noun is read in the asking sentence."""
    question = "I'm new to agile at 18F. What recurring meetings should I expect on a typical project team?"
    assert asked_plural(question) == content_terms("meetings")
    assert asked_plural("What are the channels for reporting a concern?") == content_terms("channels")
    assert asked_plural("I'm new here. What steps do I take?") == frozenset()  # a collective noun names no topic
    agile = make_page(1, "Agile at 18F", "Ceremonies", "Project teams at 18F tend to use a hybrid of lightweight "
                      "Scrum and Kanban. If you schedule recurring meetings for your project team, revisit them "
                      "regularly. You can expect most teams to have these meetings:\n- Sprint planning\n- Standups\n"
                      "- Retrospectives")
    huddle = make_page(2, "Design chapter", "Huddles", "That said, there are recurring weekly meetings and "
                       "commitments we all have on our calendars:\n- Design team huddle every other Wednesday\n"
                       "- Chapter updates at the huddle")
    answer = offline_answer(embedder, question, agile, huddle)
    assert "Sprint planning" in answer and "Retrospectives" in answer, answer
    assert "huddle" not in answer, answer


def test_f37_l03_a_question_asking_for_kinds_is_answered_by_the_list_of_kinds(embedder):
    """fresh37's f37-l03: "I'm trying to figure out which flexible spending account to sign up for. What types are
    there?" was answered with the sentence defining FSAs: "types" names no topic, so no lead-in was preferred, and
    "There are three kinds of FSA:" with its items fell under the floor. A question asking for kinds prefers a
    lead-in or heading naming kinds, whatever word it uses."""
    question = "I'm trying to figure out which flexible spending account to sign up for. What types are there?"
    assert asks_kinds(question) and asks_kinds("Which kinds of leads do they take?")
    assert not asks_kinds("What does a flexible spending account cover?")
    page = make_page(1, "Benefits", "Flexible spending accounts", "Flexible spending accounts (FSA) allow you to pay "
                     "for eligible out-of-pocket health care and dependent care expenses with pre-tax dollars. You "
                     "must use all the money in your account by the end of the year. There are three kinds of FSA:\n"
                     "- Health Care Flexible Spending Accounts pay for qualified medical costs\n"
                     "- Limited Expense Health Care Flexible Spending Accounts pay for dental and vision care\n"
                     "- Dependent Care Flexible Spending Accounts pay for child care")
    answer = offline_answer(embedder, question, page)
    assert "- Limited Expense Health Care" in answer and "- Dependent Care Flexible Spending" in answer, answer


def test_f37_l07_a_list_written_in_the_best_sentence_is_not_displaced_by_a_weaker_run(embedder):
    """fresh37's f37-l07: "If I put in an IT ticket for a home office setup, what usually comes in the kit?" was
    answered with a procurement package's list items, a run of items matching less than the best sentence, "The kit
    typically includes: a monitor, keyboard, mouse, headset, and hub ...", which writes its list inline. A run must
    score above such a sentence to be quoted instead (then the answerer quotes the sentence); one scoring above it
    still is."""
    question = "If I put in an IT ticket for a home office setup, what usually comes in the kit?"
    kit = make_page(1, "Equipment", "Home office setup", "For a home office setup, please submit an IT ticket for a "
                    "remote workers home kit. The kit typically includes: a monitor, keyboard, mouse, headset, and "
                    "hub to provide additional connectivity.")
    package = make_page(2, "Procurements", "Preparing the package", "Documents that can go in the package are:\n"
                        "- You and the CO will work together to build the acquisition package.\n"
                        "- The package includes a mix of internal documents and external documents.")
    plan = with_sentences(plan_context(question=question, candidates=[kit, package], system_prompt="Answer.",
                                       counter=counter_for("extractive")), embedder)
    ranked = ExtractiveAnswerer(embedder).rank(question, plan)
    inline = next(s for s in ranked if s.text.startswith("The kit typically includes"))
    vector = embedder.embed([question])[0]
    run = [s for s in ranked if s.label == "S2" and s.kind == "item"]
    assert run and max(s.score for s in run) < 2.0
    # the run scores under the sentence writing the list inline: no list answer, the sentence is quoted
    assert list_answer(plan, question, question, vector, replace(inline, score=2.0), ranked, floor=0.0) is None
    # a run scoring above it is the list answer
    listed = list_answer(plan, question, question, vector, replace(inline, score=0.0), ranked, floor=0.0)
    assert listed is not None and "- The package includes a mix" in listed[0], listed


def test_f37_l06_a_run_well_above_the_best_sentence_comes_before_a_sections_sub_headings(embedder):
    """fresh37's f37-l06: "What leave types are set aside specifically for veterans or service members?" was
    answered with the sub-headings of the handbook's "Types of leave" (the section the question names), over the
    veterans page's "There are four types of leave that are offered specifically to veterans ...:" and its items,
    which match the question far better. A run scoring the answerer's spread above the best sentence comes first."""
    question = ("I'm a vet who just joined TTS. What leave types are set aside specifically for veterans or service "
                "members?")
    outline = ("Leave types > Types of leave > Annual leave", "Leave types > Types of leave > Sick leave",
               "Leave types > Types of leave > Military leave", "Leave types > Types of leave > Unpaid leave")
    general = Chunk(chunk_id=1, document_id=1, title="Leave types", section="Leave types > Types of leave",
                    version="v1", date="", text="TTS has leave types for the following scenarios.",
                    tokens=8, version_id=1, outline=outline)
    veterans = make_page(2, "Veterans and service members", "Leave",
                         "There are four types of leave that are offered specifically to veterans and/or service "
                         "members:\n- Military leave for active duty training\n- Military spouse relocation leave\n"
                         "- Disabled Veteran Leave for medical treatment\n- Funeral leave for veterans")
    plan = plan_context(question=question, candidates=[Candidate(general, score=0.03, dense=0.6), veterans],
                        system_prompt="Answer.", counter=counter_for("extractive"))
    answer = ExtractiveAnswerer(embedder).compose(question, plan)
    assert "- Military spouse relocation leave" in answer and "- Funeral leave for veterans" in answer, answer
    assert "Annual leave" not in answer, answer


def test_f37_u01_a_lead_in_stating_no_lead_time_does_not_say_how_far_ahead(embedder):
    """fresh37's f37-u01: "How many days before my FMLA leave starts do I have to notify my supervisor?" was
    answered "FMLA entitles you to take up to 12 weeks of unpaid leave ... for the following: ...": a duration, but
    no time ahead of anything. The lead-time check read prose sentences and list items only; a lead-in (a sentence
    ending with a colon) is read too, and the user is told what the documents cover instead."""
    question = "How many days before my FMLA leave starts do I have to notify my supervisor?"
    page = make_page(1, "Family Medical Leave Act (FMLA)", "About FMLA", "FMLA entitles you to take up to 12 weeks "
                     "of unpaid leave per 12 month period for the following:\n- The birth or care of a child\n"
                     "- Your serious health condition")
    answer = offline_answer(embedder, question, page)
    assert answer.startswith("INSUFFICIENT_EVIDENCE: The documents describe Family Medical Leave Act"), answer
    ahead = make_page(2, "Family Medical Leave Act (FMLA)", "Notice", "Tell your supervisor at least 30 days before "
                      "your FMLA leave starts.")
    assert "at least 30 days before" in offline_answer(embedder, question, page, ahead)


def test_f37_m07_a_part_is_answered_from_the_section_its_heading_names(embedder):
    """fresh37's f37-m07: "..., and where's the nursing room?" was answered "After 4 p.m., you can access the
    nursing/pumping room directly from the hallway" (it names the nursing room) over the best sentence "Look for room
    1232A at the back of the health center", which names it only by its heading "Nursing/Pumping rooms". A sentence
    under a heading naming the part's own words names what the part asks about."""
    question = ("First week at 1800 F: which room do I go to for fingerprints and my badge photo, and where's the "
                "nursing room?")
    badge = make_page(1, "Washington, D.C.", "How do I... > Get my fingerprints and badge", "Fingerprinting and the "
                      "photo for your badge take place in room 1217.")
    nursing = make_page(2, "Washington, D.C.", "Where are the... > Nursing/Pumping rooms", "Look for room 1232A at the "
                        "back of the health center on the first floor. You don't need to reserve it. After 4 p.m., you "
                        "can access the nursing/pumping room directly from the hallway, but the rest of the health "
                        "center will be closed.")
    answer = offline_answer(embedder, question, badge, nursing)
    assert "room 1217" in answer and "Look for room 1232A" in answer, answer
    # only the sentence opening the section: a later one may be a case of it (a worked example under "Advanced
    # annual leave" was quoted for "how much advanced annual leave could I ask for?", the calibration half's q110)
    plan = with_sentences(plan_context(question=question, candidates=[nursing], system_prompt="Answer.",
                                       counter=counter_for("extractive")), embedder)
    ranked = ExtractiveAnswerer(embedder).rank(question, plan)
    own = content_terms("nursing")
    assert [s.text[:13] for s in ranked if _headed_by(plan, s, own)] == ["Look for room"]


def test_f37_m10_how_soon_the_asker_must_act_is_not_the_time_another_party_takes(embedder):
    """fresh37's f37-m10: "..., and how soon do I have to get my voucher in?" was answered "Your voucher will be
    reviewed in 3-5 business days": the travel team's time, not the traveller's deadline ("filling out a voucher--
    within 5 business days of getting back"). A question asking how soon the asker must do a thing is not answered
    by a passive span with no duty of the reader's."""
    assert asks_own_deadline("how soon do I have to get my voucher in?")
    assert asks_own_deadline("By when must I submit it?")
    assert not asks_own_deadline("How long do I have to wait for approval?")
    assert not asks_own_deadline("How long does the review take?")
    assert states_only_processing("Your voucher will be reviewed in 3-5 business days.")
    assert states_only_processing("Vouchers are reviewed within 5 business days.")
    assert not states_only_processing("You must submit your voucher within 5 business days; it will be reviewed in 3.")
    assert not states_only_processing("Submit your voucher within 5 business days of getting back.")
    question = "Back from a work trip: how soon do I have to get my voucher in?"
    page = make_page(1, "Travel guide", "Vouchers", "*For vouchers, your travel will be approved within 3-5 business "
                     "days. Your voucher will be reviewed in 3-5 business days, and "
                     "reimbursement will be credited to your account 3-5 business days after approval. Have a good "
                     "trip, get reimbursement-- filling out a voucher-- within 5 business days of getting back.")
    answer = offline_answer(embedder, question, page)
    assert answer.startswith("Have a good trip, get reimbursement"), answer


def test_f37_t03_an_opening_there_is_no_name_the_question_pins(embedder):
    """fresh37's f37-t03: "There's an FY21 Performance Plan Framework link on the performance page. What does that
    doc actually give me?" read "There" (the opening word of "There's") as a name the answer must be said of, and was
    refused "they do not state the answer for There". An opening "There's", "Here's", "It's" is a contraction, not a
    possessive; "Denver's office" still names Denver."""
    question = ("There's an FY21 Performance Plan Framework link on the performance page. What does that doc "
                "actually give me?")
    assert specifics(question) == ["Performance Plan Framework", "FY21"]
    assert specifics("There's a gym in the building. When is it open?") == []
    assert specifics("It's late. Who do I call?") == []
    assert specifics("Denver's office: when does it open?") == ["Denver"]
    links = make_page(1, "Performance Management Overview", "Performance management quick links",
                      "| Resource | Use |\n| --- | --- |\n| FY21 Performance Plan Framework | TTS Performance Plan "
                      "framework with 3 tiers and recommended percentage weights |\n| HR Links Guide | Guide for "
                      "entering a performance review into HR Links |")
    answer = offline_answer(embedder, question, links)
    assert "3 tiers and recommended percentage weights" in answer, answer


def test_f37_u07_asking_whether_one_gets_a_thing_needs_the_thing_named_for_a_yes(embedder):
    """fresh37's f37-u07: "Do I get a referral bonus if someone I refer to Talent gets hired?" was answered "Yes."
    from "These referrals should come directly to Talent ...", which says nothing of a bonus. Asking whether one gets
    a thing asks whether it exists for the asker, as "Is there a ...?" does: a sentence not naming it opens with no
    "Yes."."""
    assert existent_unsaid("Do I get a referral bonus if someone I refer gets hired?",
                           "Referring a person\\nThese referrals should come directly to Talent.") == ["bonus"]
    assert existent_unsaid("Will we receive a stipend for internet?", "You receive a $50 internet stipend.") == []
    assert existent_unsaid("Do I get paid for the holiday?", "Holidays are paid.") == []  # no thing asked for
    question = "Do I get a referral bonus if someone I refer to Talent gets hired?"
    page = make_page(1, "Talent", "Referring a person", "Know someone great for a TTS role? These referrals should "
                     "come directly to Talent rather than to the team. Talent will reach out to the people you refer "
                     "once they are hired.")
    answer = offline_answer(embedder, question, page)
    assert not answer.startswith(("Yes", "No")), answer
    paid = make_page(2, "Talent", "Referral bonus", "You get a referral bonus of $500 when someone you refer to Talent "
                     "gets hired.")
    assert offline_answer(embedder, question, page, paid).startswith("Yes."), offline_answer(embedder, question, paid)


def test_f37_m03_a_part_no_sentence_answers_is_named_at_the_end(embedder):
    """fresh37's f37-m03: "I'm resigning. How far ahead of my last day should I start offboarding, and how quickly
    after I finish does my access to work systems have to be removed?" was answered with the 24-hour rule only, as if
    that were the whole answer. A part no quoted sentence answers is named at the end, as the user wrote it."""
    assert compose.unanswered("how far ahead of my last day should I start offboarding") == (
        'I found no answer in the documents to: "How far ahead of my last day should I start offboarding?"')
    question = ("I'm resigning. How far ahead of my last day should I start offboarding, and how quickly after I "
                "finish does my access to work systems have to be removed?")
    page = make_page(1, "Leaving TTS", "Offboarding process", "Note that, per GSA policy, the technical offboardings "
                     "(access to any work system) need to happen within 24 hours of the person ending their work at "
                     "GSA.")
    answer = offline_answer(embedder, question, page)
    assert answer.startswith("Note that, per GSA policy") and "within 24 hours" in answer, answer
    assert answer.endswith('I found no answer in the documents to: "How far ahead of my last day should I start '
                           'offboarding?"'), answer
    both = make_page(2, "Leaving TTS", "Before you go", "Begin the offboarding process at least two weeks before "
                     "your last day of work.")
    whole = offline_answer(embedder, question, page, both)
    assert "at least two weeks before" in whole and "I found no answer" not in whole, whole



def test_f37_y07_a_count_joined_to_its_noun_is_below_a_stated_minimum(embedder):
    """fresh37's f37-y07: "I'm on a three-night work trip. Can I expense my laundry?" was answered "Laundry expenses,
    if official travel is at least 4 nights" with no opener: the question's count, "three-night", is joined to its
    noun by a hyphen and was not read. Three nights are fewer than the minimum of four: "No."."""
    assert below_minimum("I'm on a three-night work trip. Can I expense my laundry?",
                         "Laundry expenses, if official travel is at least 4 nights.")
    assert not below_minimum("I'm on a five-night trip. Can I expense my laundry?",
                             "Laundry expenses, if official travel is at least 4 nights.")
    page = make_page(1, "Travel guide", "Reimbursable expenses", "You can claim these expenses on your voucher: "
                     "laundry expenses, if official travel is at least 4 nights.")
    answer = offline_answer(embedder, "I'm on a three-night work trip. Can I expense my laundry?", page)
    assert answer.startswith("No."), answer


def test_f37_t04_a_row_two_tables_repeat_is_quoted_from_the_section_the_question_names(embedder):
    """fresh37's f37-t04: "Which of the performance management quick links deals with that?" quoted the row "Fix HR
    Links Google Chrome Login Issue" from the mid-year page's "Mid year performance review quick links", whose table
    repeats it word for word, not from the overview's "Performance management quick links" the question names: the
    page named was read from titles only, and two copies scoring the same were left in the order found. A section's
    heading names its page too, and a tie goes to the named page."""
    sources = [Source(label="S1", chunk_ids=(1,), document_id=1, title="Mid year review", section="Dates · Mid year "
                      "performance review quick links", version="v1", date="", text="", score=0.6, tokens=1),
               Source(label="S2", chunk_ids=(2,), document_id=2, title="Overview", section="Performance management "
                      "quick links", version="v1", date="", text="", score=0.6, tokens=1)]
    q_terms = content_terms("Which of the performance management quick links deals with that?")
    assert named_page_labels(sources, q_terms) == {"S2"}
    row = "Resource: Fix HR Links Google Chrome Login Issue; Use: Instructions for clearing the cache"
    assert on_named_pages([(row, "S1", 0.7), (row, "S2", 0.7)], frozenset({"S2"})) == [0.7, 0.7 + 1e-6]
    table = ("| Resource | Use |\n| --- | --- |\n| Fix HR Links Google Chrome Login Issue | Instructions for clearing "
             "HR Links site cache |\n| HR Links Guide | Guide for entering a review |")
    mid = make_page(1, "Performance Management Mid Year Review", "Mid year performance review quick links",
                    "Mid year reviews are held in April and May.\n\n" + table)
    overview = make_page(2, "Performance Management Overview", "Performance management quick links",
                         "These links serve the whole performance cycle.\n\n" + table)
    question = ("HR Links won't let me log in when I use Chrome. Which of the performance management quick links "
                "deals with that?")
    answer = offline_answer(embedder, question, mid, overview)
    assert "Google Chrome Login Issue" in answer and "[S2]" in answer and "[S1]" not in answer, answer
