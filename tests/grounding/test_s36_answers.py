"""Rules of the s36 round from development questions and the calibration half (each test names the item it came
from; none is from the 18F test half). Texts are made up unless they quote the question."""

from __future__ import annotations

from grounding.answer_types import question_type, states
from grounding.antecedent_names import named_elsewhere
from grounding.asked_attribute import asks_lead_time, missed_specifics
from grounding.context import plan_context
from grounding.extractive import ExtractiveAnswerer
from grounding.tokens import counter_for
from grounding.asked_forms import asked_form, lasts_other
from grounding.compose import whole_or_marked
from grounding.followup import follow_up
from grounding.part_cues import names_instance
from grounding.typed_values import asks_window
from grounding.yesno_caps import asks_fee, speaks_of_fee
from grounding.question_parts import question_parts
from grounding.sentence_rank import with_sentences
from tests.grounding.helpers import make_page, offline_answer


def test_f35_u13_the_length_of_another_thing_does_not_say_how_long_something_takes(embedder):
    """fresh35's f35-u13 (a development set): "How many days until the Privacy Office gets back to us?" was answered
    "please see this 30-minute overview of privacy ...": the length of the overview, not of the wait. A compound
    duration measures the thing after it; one naming a word of the question, a span of time ("a 30-day
    timeframe") or standing before "or" (fresh23c's f23c-26 lunch breaks) still answers."""
    question = "We just submitted a Privacy Threshold Analysis. How many days until the Privacy Office gets back to us?"
    assert lasts_other(question, "Please see this 30-minute overview of privacy narrated by the GSA Privacy Office.")
    assert not lasts_other("How long is the overview?", "Please see this 30-minute overview of privacy.")
    assert not lasts_other("How long are lunch breaks?", "You can take a 30-minute or one-hour lunch break.")
    assert not lasts_other(question, "The Privacy Office answers within a 30-day timeframe.")
    assert not lasts_other(question, "Watch the 30-minute overview; the Privacy Office replies within 10 days.")
    page = make_page(1, "Privacy", "Privacy Threshold Analysis", "For a new system, complete a Privacy Threshold "
                     "Analysis (PTA). For more information, please see this 30-minute overview of privacy narrated "
                     "by the GSA Privacy Office.")
    answer = offline_answer(embedder, question, page)
    assert answer.startswith("INSUFFICIENT_EVIDENCE: The documents describe Privacy"), answer
    timed = make_page(2, "Privacy", "Review", "The Privacy Office reviews a PTA within 10 business days.")
    assert "within 10 business days" in offline_answer(embedder, question, page, timed)


def test_f36_v07_a_question_opening_by_changing_the_topic_stands_on_its_own():
    """fresh36's f36-v07: "Different topic — we're hosting an outside speaker ..." after a question on sandbox
    accounts was retrieved with the sandbox question's words ("different" is a referring word) and answered
    "Program account requests will be issued administrator access". An opening that changes the topic makes the
    question stand alone, and retrieval leaves that opening out."""
    previous = ["If I request a sandbox account, what level of access will I get?"]
    switched = follow_up("Different topic — we're hosting an outside speaker after hours. Who do we coordinate "
                         "security with?", previous)
    assert (switched.refers, switched.signal) == (False, "switch")
    assert switched.query == "we're hosting an outside speaker after hours. Who do we coordinate security with?"
    assert follow_up("Unrelated question: how long do I have to be at my GS level?", previous).signal == "switch"
    assert follow_up("Switching gears, what is the per diem in Denver?", previous).signal == "switch"
    # "different" still refers back where it asks about a case of the previous question
    assert follow_up("Is it different for contractors?", previous).refers


def test_f36_m06_a_part_is_answered_by_the_close_sentence_naming_more_of_its_own_words(embedder):
    """fresh36's f36-m06: "..., and which password manager is approved at GSA for keeping the key?" was answered
    "the key must be listed in an "approved signers" list" (one word of the part's own: approved) over "KeePassXC is
    approved for use at GSA and it fully supports managing keys" (approved, GSA, managing). A close sentence holding
    two or more of the part's own words more answers it first; one word more is no sign (the calibration half's
    q105 keeps "Your Annual Leave will be paid out")."""
    question = ("I'm setting up signed git commits on my laptop. Which key algorithm do you recommend, and which "
                "password manager is approved at GSA for keeping the key?")
    page = make_page(1, "Git signing", "Keys", "We recommend using the ED25519 algorithm for signing keys. Before git "
                     "will accept your key to sign a commit, the key must be listed in an approved signers list. "
                     "KeePassXC is approved for use at GSA and it fully supports managing keys.")
    answer = offline_answer(embedder, question, page)
    assert "ED25519" in answer and "KeePassXC is approved for use at GSA" in answer, answer
    assert "approved signers" not in answer, answer


def test_f36_a10_whom_to_email_is_answered_by_the_sentence_giving_an_address(embedder):
    """fresh36's f36-a10: "Who at GSA OCFO do I email it to?" was answered "If GSA OCFO signs off on the decision
    document ..., the OCFO office will generate a waiver": a person or team, but not whom to write to. A close
    sentence giving an e-mail address answers it first."""
    question = "The Executive Director signed the waiver decision document. Who at GSA OCFO do I email it to?"
    page = make_page(1, "State and local agreements", "Advance payment", "If GSA OCFO signs off on the decision "
                     "document, the OCFO office will generate a waiver to the advance payment rule. With the "
                     "Executive Director's approval, email it to pat.doe@gsa.gov at the GSA OCFO.")
    answer = offline_answer(embedder, question, page)
    assert answer.startswith("With the Executive Director's approval, email it to pat.doe@gsa.gov"), answer


def test_f36_c08_two_questions_set_against_each_other_are_answered_part_by_part(embedder):
    """fresh36's f36-c08: "How many years of federal service do I need to qualify for a FERS retirement payment,
    versus how long before I can apply for Public Service Loan Forgiveness?" has no two sides to compare within one
    question; it was refused for PSLF. "versus" before a question word splits it into two parts, and "how long
    before I can apply" asks a wait, not a lead time ("after 10 years" states no time ahead of anything)."""
    question = ("How many years of federal service do I need to qualify for a FERS retirement payment, versus how "
                "long before I can apply for Public Service Loan Forgiveness?")
    assert question_parts(question)[1] == [
        "How many years of federal service do I need to qualify for a FERS retirement payment",
        "how long before I can apply for Public Service Loan Forgiveness?"]
    assert not asks_lead_time("how long before I can apply for Public Service Loan Forgiveness?")
    assert asks_lead_time("How long before my term ends should I apply?")
    fers = make_page(1, "Benefits", "FERS", "Employees must have at least 5 years of creditable service to be "
                     "eligible for FERS payments upon retirement.")
    pslf = make_page(2, "Benefits", "Public Service Loan Forgiveness", "Public Service Loan Forgiveness (PSLF) "
                     "offers forgiveness of federal student loans. Submit the PSLF form annually; it will make it "
                     "easier once you are ready to apply for forgiveness after 10 years of employment in public "
                     "service.")
    answer = offline_answer(embedder, question, fers, pslf)
    assert "at least 5 years of creditable service" in answer and "after 10 years of employment" in answer, answer


def test_f36_m09_a_deadline_asked_is_a_point_in_time():
    """fresh36's f36-m09: "what's the weekly deadline for submitting my timecard?" asked nothing the answerer checked
    (type "other") and quoted how to submit a timecard; "by the end of the day (close of business) on Friday" is the
    deadline. A deadline is a date question (a day, a time, or a span within which)."""
    assert question_type("what's the weekly deadline for submitting my timecard?") == "date"
    assert question_type("What is the deadline for submitting a Tock change request?") == "date"
    assert question_type("What is the filing period?") == "duration"


def test_f36_u01_one_in_a_word_that_counts_nothing_states_no_quantity(embedder):
    """fresh36's f36-u01: "What's the maximum file size it allows?" of MAX Drive was answered "MAX Drive is good for
    sending a one-off file to a partner": "one-off" counts nothing."""
    assert not states("quantity", "MAX Drive is good for sending a one-off file to a partner.")
    assert not states("count", "Schedule a one-on-one with no one else invited.")
    assert states("count", "Send one file per request.")
    page = make_page(1, "Collaboration tools", "MAX Drive", "MAX Drive is good for sending a one-off file to a "
                     "partner, for example when their email server strips out an attachment.")
    answer = offline_answer(embedder, "I need to send a big dataset through MAX Drive. What's the maximum file size "
                            "it allows?", page)
    assert answer.startswith("INSUFFICIENT_EVIDENCE: The documents describe Collaboration tools"), answer


def test_f36_u15_once_opening_a_clause_is_no_frequency():
    """fresh36's f36-u15: "How often does TTS audit its hiring and promotion processes for bias?" was answered "Once
    a need has been identified and the role has been prioritized, TTS uses many hiring authorities": "once" opens
    a clause there. "Once a week", "once every two weeks", "once per sprint" still recur."""
    assert not states("frequency", "Once a need has been identified and the role has been prioritized, TTS hires.")
    assert not states("frequency", "Once an agreement is signed, staffing starts.")
    for recurring in ("Meet once a week.", "We meet once every two weeks.", "Once per sprint, demo the work."):
        assert states("frequency", recurring), recurring


def test_f36_u03_penalties_asked_need_a_sentence_stating_one(embedder):
    """fresh36's f36-u03: "What are the penalties if someone on my team violates the Antideficiency Act by working
    unapproved overtime?" was answered "Working overtime without prior approval violates the Antideficiency Act":
    the rule, no penalty. A penalty asked is a form the answer must hold (grounding.asked_forms.asked_form)."""
    question = ("What are the penalties if someone on my team violates the Antideficiency Act by working unapproved "
                "overtime?")
    assert asked_form(question) == "penalty"
    assert asked_form("What happens if I work unapproved overtime?") is None
    rule = make_page(1, "Overtime", "Approval", "Working overtime without prior approval violates the Antideficiency "
                     "Act. Don't work overtime without prior approval.")
    answer = offline_answer(embedder, question, rule)
    assert answer.startswith("INSUFFICIENT_EVIDENCE: The documents describe Overtime"), answer
    assert answer.endswith("but they do not state the penalty."), answer
    penalised = make_page(2, "Overtime", "Violations", "Working unapproved overtime violates the Antideficiency Act "
                          "and can lead to disciplinary action, up to and including removal.")
    assert "disciplinary action" in offline_answer(embedder, question, rule, penalised)


def test_f36_v02_a_code_asked_by_name_is_answered_by_the_close_sentence_giving_it(embedder):
    """fresh36's f36-v02: "What agency code should they give the interpreter when they connect?" was answered with
    the sentence on installing the Z5 app (the best match) and never "... or Agency Bureau code (in this case,
    "4700")", a close sentence giving the code asked for by name, as a part of a message is answered
    (grounding.part_cues.cued); that list item ends in a bracket and is quoted whole, not cut to "(in this case …"."""
    assert names_instance("code", "provide the Agency Bureau (AB) code (GSA's AB code is 4700)")
    assert names_instance("code", 'or Agency Bureau code (in this case, "4700")')
    assert not names_instance("code", "The code is required for every call.")
    item = ('Connect to a video interpreter and provide the name of your Federal agency (in this case, "GSA") or '
            'Agency Bureau code (in this case, "4700")')
    assert whole_or_marked(item) == item
    page = make_page(1, "Deaf and hard of hearing", "Video relay", "To use video relay services with Google Meet, "
                     "the Deaf individual will need to install the Z5 app that connects them to an interpreter.\n\n"
                     f"- {item}\n- Provide the phone number you want to call to the interpreter")
    answer = offline_answer(embedder, "What agency code should they give the video relay interpreter when they "
                            "connect?", page)
    assert answer.startswith("Connect to a video interpreter") and '"4700")' in answer, answer


def test_f36_a03_the_alternative_a_question_sets_aside_is_not_what_it_asks(embedder):
    """fresh36's f36-a03: "How long does a trip have to run before it needs a voucher from authorization instead of
    a local voucher?" was refused "for local voucher" (a close sentence names the local voucher, the quoted ones do
    not) and led with the voucher deadline, read as the window the asker has to act in. What follows "instead of"
    is not asked about, and "have to run" asks a length required, not a window."""
    assert asks_window("How long do I have to use it?")
    assert not asks_window("How long does a trip have to run before it needs a voucher from authorization?")
    assert not asks_window("How long do I have to be at my GS level before I can apply?")
    question = ("I drove to a partner site and back in one day. How long does a trip have to run before it needs a "
                "voucher from authorization instead of a local voucher?")
    page = make_page(1, "Get reimbursed", "Vouchers", "For any local travel choose the Local voucher option.\n\n"
                     "- Any travel that involves a flight, Amtrak, or is otherwise over 12 hours in duration is "
                     "considered a Voucher From Authorization.\n- File a voucher within 5 business days of getting "
                     "back.")
    answer = offline_answer(embedder, question, page)
    assert not answer.startswith("INSUFFICIENT_EVIDENCE") and "otherwise over 12 hours in duration" in answer, answer
    source = plan_context(question=question, candidates=[page], system_prompt="Answer.",
                          counter=counter_for("extractive")).sources[0]
    quoted = [("File a voucher within 5 business days of getting back.", source)]
    close = [("For any local travel choose the Local voucher option.", source)]
    assert missed_specifics(question, quoted, close) == []
    # without the alternative, the local voucher is what is asked, and no quoted sentence names it
    assert missed_specifics("How long does a trip have to run before it needs a local voucher?", quoted,
                            close) == ["local voucher"]


def test_f35_u12_a_value_said_of_what_the_sentence_before_names_is_not_the_asked_things(embedder):
    """fresh35's f35-u12 (a development set): "What's the file size limit if we share files through Max.gov?" was
    answered "The service has a file size limit of 100MB" once "a one-off file" stopped counting (f36-u01): "The
    service" is Intelink's IntelDocs, named in the sentence before it. A value sentence referring back to another
    named thing, with the asked name in neither, does not answer it; one naming the asked thing does."""
    question = "A partner can't use Google Drive. What's the file size limit if we share files through Max.gov?"

    def first_value(text: str):
        plan = with_sentences(plan_context(question=question, candidates=[make_page(1, "Collaboration tools",
                                                                                    "Sharing files", text)],
                                           system_prompt="Answer.", counter=counter_for("extractive")), embedder)
        ranked = ExtractiveAnswerer(embedder).rank(question, plan)
        return next(s for s in ranked if s.text.startswith("The service")), plan

    first, plan = first_value("- Intelink's IntelDocs allows users to share unclassified files. The service has a "
                              "file size limit of 100MB and folder limit of 1GB.")
    assert named_elsewhere(question, first, plan) == ["Max.gov"]
    first, plan = first_value("- Max.gov document sharing is for partners. The service has a file size limit of "
                              "100MB.")
    assert named_elsewhere(question, first, plan) == []
    first, plan = first_value("- Intelink's IntelDocs allows users to share files. The service has a file size limit "
                              "of 100MB.")
    assert named_elsewhere("What's the file size limit for shared files?", first, plan) == []


def test_f36_u05_whether_something_costs_money_needs_a_sentence_speaking_of_money(embedder):
    """fresh36's f36-u05: "Does GSA charge a fee when my landlord uses The Work Number to verify my income?" was
    answered "Yes." with "GSA employees who need employment and/or income verification should utilize The Work
    Number": a sentence on using it, none on a fee. Whether a fee is charged is refused unless a quoted sentence
    speaks of money; whether one is paid is no such question."""
    assert asks_fee("Does GSA charge a fee when my landlord uses The Work Number to verify my income?")
    assert asks_fee("Will it cost TTS money if I invite partners into Mural as guests?")
    assert not asks_fee("Do I get paid for overtime?")
    assert speaks_of_fee("There is no cost to program offices for using these services.")
    assert not speaks_of_fee("Employees who need income verification should utilize The Work Number.")
    question = "Does GSA charge a fee when my landlord uses The Work Number to verify my income?"
    page = make_page(1, "Employment verification", "The Work Number", "GSA employees who need employment and/or "
                     "income verification should utilize The Work Number (TWN), available 24 hours a day. GSA's TWN "
                     "Employer Code is 10536.")
    answer = offline_answer(embedder, question, page)
    assert answer.startswith("INSUFFICIENT_EVIDENCE: The documents describe Employment verification"), answer
    assert answer.endswith("whether there is a fee."), answer
    free = make_page(2, "Employment verification", "Cost", "Verifiers using The Work Number may be charged a fee by "
                     "Equifax; there is no cost to GSA employees.")
    assert not offline_answer(embedder, question, page, free).startswith("INSUFFICIENT_EVIDENCE")
