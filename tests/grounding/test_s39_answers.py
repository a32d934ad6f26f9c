"""Rules of the s39 round from development questions (fresh39's f39-m/v/t/l/y/a/u items, the split "fresh39" of
evaluation/golden/18f_fresh39.jsonl; each test names the item it came from; none is from the 18F test half or
fresh39's held part). Texts are made up unless they quote the question or the handbook page it was written from."""

from __future__ import annotations

from grounding.answer_types import question_type
from grounding.asked_attribute import missed_specifics
from grounding.asked_times import asks_clock, states_clock
from grounding.compose import missing
from grounding.part_cues import cued, states_place
from grounding.quoting import repeats
from grounding.sentence_rank import ScoredSentence
from grounding.source_types import Source
from grounding.table_lookup import looked_up_row, looks_up_row
from tests.grounding.helpers import make_page, offline_answer

TALENT = ("Talent sends out a weekly TTS-wide email with all open roles. This goes out on Tuesday’s. And, roles can "
          "open up at any time of the week: if you want to know as soon as a position goes live, please join "
          "#tts-jobs.")


def test_f39_u12_a_sentence_read_with_the_one_before_is_not_quoted_again():
    """fresh39's f39-u12 quoted "This goes out on Tuesday’s" twice: once read after the sentence it points back to
    (grounding.quoting.with_value), once on its own."""
    joined = ScoredSentence("Talent sends out a weekly TTS-wide email with all open roles. This goes out on Tuesday’s.",
                            "S1", 0.92)
    assert repeats("This goes out on Tuesday’s.", [joined])
    assert not repeats("This goes out on Mondays.", [joined])
    # a whole sentence inside the joined text, not a word run inside one of its words
    assert not repeats("goes out on Tue", [joined])


def test_f39_u12_what_time_of_day_is_not_answered_by_a_weekday(embedder):
    """fresh39's f39-u12: "What time of day does Talent's weekly TTS jobs email go out on Tuesdays?" was answered
    with "This goes out on Tuesday’s", which says the day, not the time."""
    page = make_page(1, "TTSJobs", "Weekly newsletter", TALENT)
    question = "What time of day does Talent's weekly TTS jobs email go out on Tuesdays?"
    text = offline_answer(embedder, question, page)
    assert "do not state the time of day" in text and "goes out on Tuesday" not in text, text
    # the day is still the answer to "what day"
    text = offline_answer(embedder, "What day of the week does Talent's weekly TTS jobs email go out?", page)
    assert text.count("This goes out on Tuesday’s") == 1, text


def test_f39_u12_asks_clock_reads_a_time_of_day_not_a_time_frame():
    assert asks_clock("What time does the travel team stop working for the day?")
    assert asks_clock("By what time of day do I need to email the travel team?")
    assert not asks_clock("What time frame do I have to submit my voucher?")
    assert not asks_clock("What timeline should I expect?")
    assert states_clock("Close of business for the travel team is at 4:30 PM ET.")
    assert states_clock("The meeting starts at 11:30am PT / 2:30pm ET.")
    assert states_clock("Requests are reviewed at noon.")
    assert not states_clock("This goes out on Tuesday’s.")
    assert missing("date", "What time does the office open?") == "the time of day"
    assert missing("date", "When is the deadline?") == "the date or deadline"


SECURITY = ("Language | Dependency analysis | Code security analysis\n"
            "Go | Snyk | Go Meta Linter / CodeQL\n"
            "JavaScript | GitHub * | eslint-config-scanjs / eslint-plugin-security / CodeQL\n"
            "Python | GitHub * | Bandit with the provided config file / CodeQL\n"
            "Ruby | GitHub * | Code Climate or Hakiri - Rails only")


def test_f39_t02_and_t07_a_column_is_named_by_a_word_only_it_has():
    """fresh39's f39-t02 ("check our npm dependencies") and f39-t07 ("security static analysis ... for Python code")
    name their columns by a word only that column of the header has, not as written: the page's prose on the two
    kinds of analysis was quoted instead of the row."""
    npm = "For our JavaScript app, what should we use to check our npm dependencies for known vulnerabilities?"
    assert looked_up_row(npm, SECURITY).startswith("JavaScript | GitHub")
    python = "Our Django service needs security static analysis. Which tool is recommended for Python code?"
    assert looked_up_row(python, SECURITY).startswith("Python | GitHub")
    # "analysis", a word both columns have, names neither
    assert looked_up_row("What analysis do we run on Python?", SECURITY) == ""
    row = ("Language: JavaScript; Dependency analysis: GitHub *; Code security analysis: eslint-config-scanjs / "
           "eslint-plugin-security / CodeQL")
    assert looks_up_row(npm, row)
    assert not looks_up_row("What analysis do we run on JavaScript?", row)


def test_f39_m02_a_room_or_a_floor_is_where_to_go_in_a_building():
    """fresh39's f39-m02: "where in the building do I go to get fingerprinted and have my badge made?" took another
    page's "visit the security office in that new building" over "on the second floor (Room 212 ...)": only a web
    place or "visit" was read as a place."""
    assert states_place("Fingerprints and badge can be done at the security office on the second floor (Room 212 in "
                        "the NE corner of the building).")
    assert states_place("Badge pickup is in room 1217.")
    assert states_place("TTS uses space on the 35th floor.")
    assert not states_place("I have 2 rooms to book for the floor plan review.")
    part = "where in the building do I go to get fingerprinted and have my badge made?"
    ranked = [ScoredSentence("Fingerprints and badge can be done at the security office on the second floor (Room 212 "
                             "in the NE corner of the building).", "S1", 0.77),
              ScoredSentence("After you receive an email confirmation, visit the security office in that new "
                             "building to activate your card.", "S5", 0.60)]
    assert "Room 212" in cued(ranked, part).text


def test_f39_v06_a_training_class_is_the_training_sessions_a_page_hosts():
    """fresh39's f39-v06: "How often does TTS run its accessibility training class?" was refused "for class": the
    quoted "TTS hosts monthly training sessions ..." does not say "class", a close sentence does ("The class is
    required for all developers ...")."""
    def src(label: str) -> Source:
        return Source(label=label, chunk_ids=(1,), document_id=1, title="Accessibility", section="Training",
                      version="v1", date="", text="x", score=0.03, tokens=1)

    quoted = [("TTS hosts monthly training sessions to help you learn how to build accessible products.", src("S1"))]
    close = [("The class is required for all developers, who must attend the class at least once.", src("S1"))]
    assert missed_specifics("How often does TTS run its accessibility training class?", quoted, close) == []
    # a thing that is not the training's form is still told apart
    close = [("The lab is required for all developers.", src("S1"))]
    assert missed_specifics("How often does TTS run its accessibility lab?", quoted, close) != []


def test_f39_l02_and_l04_list_questions_with_two_words_before_the_plural_or_put_again_after_a_dash():
    """fresh39's f39-l02 ("What are the basic accessibility rules of thumb ...?") and f39-l04 ("How do we know an
    18F project has been successful — what are the main markers?") were read as questions of no type, and their
    list not given."""
    assert question_type("What are the basic accessibility rules of thumb I should follow on a new project to avoid "
                         "most issues?") == "list"
    assert question_type("How do we know an 18F project has been successful — what are the main markers?") == "list"
    assert question_type("How do I book travel — what is the daily rate?") == "amount"
    assert question_type("How do I book travel?") == "other"
    assert question_type("What are the per diem rates for Boston?") == "amount"


def test_f39_l02_the_rules_to_follow_are_listed(embedder):
    """fresh39's f39-l02 on the page's own text: the list under "here are some good rules to follow:"."""
    page = make_page(1, "Accessibility", "Making a project accessible",
                     "The easiest way to make a project accessible is to think about accessibility from the start. "
                     "Retrofitting accessibility is very costly.\n\n"
                     "As you think about accessibility, here are some good rules to follow:\n\n"
                     "- Everything on your project should be usable with a keyboard.\n"
                     "- All form elements should have explicit labeling.\n"
                     "- Text should have a contrast ratio of 4.5:1 in most cases.\n\n"
                     "If you remember these three things, you'll avoid 90% of accessibility issues right off the bat.")
    text = offline_answer(embedder, "What are the basic accessibility rules of thumb I should follow on a new "
                                    "project to avoid most issues?", page)
    for item in ("usable with a keyboard", "explicit labeling", "4.5:1"):
        assert item in text, text


def test_f39_m02_the_sentence_under_the_askers_airport_is_not_replaced_by_one_naming_more_words(embedder):
    """fresh39's f39-m02: "I'm flying into Midway ... Which train should I take downtown, ...?" The best sentence, under
    "From Midway", names "downtown"; "Blue Line trains run from the airport to downtown ... take about 50 minutes",
    under "From O'Hare", names two more of the part's words (train, take) and was put first. The asker's case (the
    place the preamble names, in a sentence or its heading) decides first. (The rankings are the round's, given
    here.)"""
    from grounding.context import plan_context
    from grounding.extractive import ExtractiveAnswerer
    from grounding.extractive_parts import parts_answer
    from grounding.sentence_rank import with_sentences
    from grounding.tokens import counter_for

    orange = ("The smaller of the two Chicago airports, this one is a little closer to downtown-- it's only a 25 "
              "minute ride down the CTA Orange Line.")
    blue = "Blue Line trains run from the airport to downtown 24/7 and take about 50 minutes."
    room = ("Fingerprints and badge can be done at the security office on the second floor (Room 212 in the NE corner "
            "of the building).")
    ohare = make_page(1, "Chicago", "Getting here from the airport > From O'Hare", blue)
    midway = make_page(2, "Chicago", "Getting here from the airport > From Midway", orange)
    badge = make_page(3, "Chicago", "How do I...? > Enter the building for the first time", room)
    plan = with_sentences(plan_context(question="q", candidates=[ohare, midway, badge], system_prompt="Answer.",
                                       counter=counter_for("extractive")), embedder)
    by_text = {s.sentences.texts[0]: s for s in plan.sources}

    def sentence(text: str, score: float) -> ScoredSentence:
        return ScoredSentence(text, by_text[text].label, score, position=0)

    class Ranked(ExtractiveAnswerer):
        def rank(self, query, plan):
            if "building" in query:
                return [sentence(room, 0.77)]
            return [sentence(orange, 0.735), sentence(blue, 0.679)]

    preamble = "I'm flying into Midway to work from the Chicago office for the first time."
    parts = ["Which train should I take downtown",
             "where in the building do I go to get fingerprinted and have my badge made?"]
    text, _ = parts_answer(Ranked(embedder), plan, parts, preamble, situation=preamble)
    assert text.startswith("The smaller of the two Chicago airports"), text
    # flying into O'Hare, the sentence naming more of the part's words comes first as before
    preamble = "I'm flying into O'Hare to work from the Chicago office for the first time."
    text, _ = parts_answer(Ranked(embedder), plan, parts, preamble, situation=preamble)
    assert text.startswith("Blue Line trains"), text


def test_f39_m03_how_much_service_asks_a_length_of_service():
    """fresh39's f39-m03: "after how much service can someone hired under Schedule A(u) convert to competitive
    status?" was read as an amount and refused; "after two years of satisfactory service" answers it."""
    assert question_type("after how much service can someone hired under Schedule A(u) convert to competitive "
                         "status?") == "duration"
    assert question_type("How much federal service do I need?") == "duration"
    assert question_type("How much is the service fee?") == "amount"
    assert question_type("How much service fee do we pay?") == "amount"


def test_f39_v12_a_column_word_shared_with_the_question_in_passing_does_not_look_up_a_row():
    """fresh39's f39-v12 ("who do I contact with questions about the Chicago office building?"): "office" is one of
    the two words only the "Office guide" column has; the offices table's Chicago row is no lookup."""
    offices = ("Location | Address | GSA region | Office guide\n"
               "Chicago, IL | 230 S. Dearborn St. 60604 | 5 | Office Guide")
    assert looked_up_row("Who do I contact with questions about the Chicago office building?", offices) == ""
    assert looked_up_row("Where is the office guide for Chicago?", offices).startswith("Chicago, IL")


def test_f39_m06_a_second_question_opening_with_a_condition_is_a_part_of_its_own():
    """fresh39's f39-m06: "Which severity levels ... have to be fixed before authorization, and assuming nothing is
    found, roughly how long does the greybox testing and signature part take?" was asked as one question."""
    from grounding.question_parts import question_parts

    assert question_parts("We're heading toward an ATO. Which severity levels of scan alerts have to be fixed before "
                          "authorization, and assuming nothing is found, roughly how long does the greybox testing and "
                          "signature part take?")[1] == [
        "Which severity levels of scan alerts have to be fixed before authorization",
        "assuming nothing is found, roughly how long does the greybox testing and signature part take?"]
    assert question_parts("Can I work from home, provided my manager agrees?")[1] == [
        "Can I work from home, provided my manager agrees?"]


def test_f39_v02_a_hyphenated_plural_asks_for_a_list():
    """fresh39's f39-v02: "Which Power-Ups are we allowed to turn on for our team's Trello board?" was read as a
    question of no type and answered with the list's first item and a rule naming Power-Ups."""
    assert question_type("Which Power-Ups are we allowed to turn on for our team's Trello board?") == "list"
    assert question_type("What add-ons can I install?") == "list"
    # rates ask for a value, not a list (an amount since the s41 round reads a hyphenated word before "rate")
    assert question_type("What long-term rates apply?") == "amount"


def test_f39_m12_the_sentence_naming_the_parts_program_itself_comes_before_one_its_page_names(embedder):
    """fresh39's f39-m12: "How do I get our Slack Connect channel with the agency archived" quoted "When a Slack
    channel is no longer needed ..., the channel should be archived" (its page names Slack Connect) over "For Slack
    Connect channels ..., make a request in #admins-slack to archive the channel", 0.006 under it; "Channels that
    aren't Slack Connect ..." names it as the case excluded. (The rankings are the round's, given here.)"""
    from grounding.context import plan_context
    from grounding.extractive import ExtractiveAnswerer
    from grounding.extractive_parts import parts_answer
    from grounding.sentence_rank import with_sentences
    from grounding.tokens import counter_for

    general = ("When a Slack channel is no longer needed (e.g., a partner project has ended), the channel should be "
               "archived.")
    connect = ("For Slack Connect channels (indicated by a double diamond icon next to the channel name), make a "
               "request in #admins-slack to archive the channel.")
    others = "Channels that aren't Slack Connect can be archived by any member of the channel."
    export = "There is not an easy way to export the contents of a single channel, for partners or otherwise."
    archive = make_page(1, "External collaboration", "Archive a Slack channel", f"{general} {connect} {others}")
    records = make_page(2, "Slack records", "Exporting channel contents", export)
    plan = with_sentences(plan_context(question="q", candidates=[archive, records], system_prompt="Answer.",
                                       counter=counter_for("extractive")), embedder)

    def sentence(text: str, score: float) -> ScoredSentence:
        source = next(s for s in plan.sources if text in s.sentences.texts)
        return ScoredSentence(text, source.label, score, position=source.sentences.texts.index(text))

    class Ranked(ExtractiveAnswerer):
        def rank(self, query, plan):
            if "export" in query:
                return [sentence(export, 1.08)]
            return [sentence(general, 0.900), sentence(others, 0.897), sentence(connect, 0.894)]

    parts = ["How do I get our Slack Connect channel with the agency archived",
             "is there any way to export the channel's contents to give to the partner?"]
    text, _ = parts_answer(Ranked(embedder), plan, parts, "Our partner project just wrapped up.",
                           situation="Our partner project just wrapped up.")
    assert text.startswith("For Slack Connect channels"), text

    class OthersFirst(Ranked):
        def rank(self, query, plan):
            ranked = super().rank(query, plan)
            return ranked if "export" in query else [sentence(others, 0.900), sentence(connect, 0.894)]

    text, _ = parts_answer(OthersFirst(embedder), plan, parts, "Our partner project just wrapped up.",
                           situation="Our partner project just wrapped up.")
    assert text.startswith("For Slack Connect channels"), text


def test_f39_u04_a_thing_named_with_a_word_before_it_is_not_answered_by_where_it_is_found(embedder):
    """fresh39's f39-u04: "What's the door keycode for the TTS space on the 35th floor of the Chicago office?" was
    answered "The keycode is pinned in #chitown.": the quoted sentence had to name "door" as well to be read as only
    saying where the thing is."""
    page = make_page(1, "Chicago", "Getting in", "TTS uses space on the 35th floor. The keycode is pinned in "
                     "#chitown. Visitors sign in at the front desk.")
    answer = offline_answer(embedder, "What's the door keycode for the TTS space on the 35th floor of the Chicago "
                                      "office?", page)
    assert answer.startswith("INSUFFICIENT_EVIDENCE: The documents describe Chicago") \
        and "the door keycode itself, only where it is found" in answer, answer


def test_f39_v04_a_why_question_is_answered_with_the_reasons_listed_after_the_sentence(embedder):
    """fresh39's f39-v04: "Why is that better than just making them guests in our workspace?" quoted "Slack Connect
    is preferred over adding partners as guests." without the list of reasons right after it."""
    page = make_page(1, "External collaboration", "Partners",
                     "Slack Connect is preferred over adding partners as guests.\n\n"
                     "- It offloads user management to the partner\n"
                     "- The partners can use their existing Slack accounts\n"
                     "- It saves TTS money\n\n"
                     "The contents of shared channels are treated the same as other channels.")
    text = offline_answer(embedder, "Why is Slack Connect better than making partners guests in our workspace?", page)
    assert text.startswith("Slack Connect is preferred over adding partners as guests: It offloads user management "
                           "to the partner; The partners can use their existing Slack accounts; It saves TTS "
                           "money"), text
    # not a why-question: the sentence alone
    text = offline_answer(embedder, "Is Slack Connect preferred over adding partners as guests?", page)
    assert "It offloads user management" not in text, text


def test_f39_t07_the_index_returns_a_table_row_the_query_looks_up_among_its_best_by_bm25(tmp_path):
    """fresh39's f39-t07: "Which tool is recommended for Python code?" ranked the recommendations table third by BM25
    but below where the relevance drop-off cut the fused ranking, so the plan never read the Python row. The index
    returns it again, looked up, after the ranked hits (knowledge.selectors moves it behind the first)."""
    import numpy as np

    from grounding.index_store import StoredIndex

    texts = ["Set up static security analysis for every repository.", SECURITY,
             "Static analysis is an important part of the development process and is required for ATO.",
             "Python is a language many teams use."]
    rng = np.random.default_rng(39)
    matrix = rng.normal(size=(4, 16)).astype(np.float32)
    matrix /= np.linalg.norm(matrix, axis=1, keepdims=True)
    records = [{"chunk_id": 20 + i, "section": "Static Analysis", "text": t} for i, t in enumerate(texts)]
    index = StoredIndex.build(tmp_path / "idx", [20, 21, 22, 23], matrix, texts, records=records)
    question = "Our Django service needs security static analysis. Which tool is recommended for Python code?"
    hits = index.search(question, matrix[0], k=2, tables=True)
    assert [(h.key, h.looked_up) for h in hits if h.looked_up] == [(21, True)]
    assert all(not h.looked_up for h in index.search(question, matrix[0], k=2))  # without tables: ranked only
    assert all(not h.looked_up for h in index.search("What is static analysis?", matrix[0], k=2, tables=True))


def test_f39_t07_a_cell_holding_a_semicolon_is_no_blank_column():
    """fresh39's f39-t07: "... config file ; engine for Code Climate / CodeQL" (one cell) was read as a column
    "engine for Code Climate / CodeQL" left blank, named by the question's "code", and the row refused."""
    from grounding.question_parts import blank_cell

    row = ("Language: Python; Dependency analysis: GitHub *; Code security analysis: Bandit with the provided config "
           "file ; engine for Code Climate / CodeQL")
    assert not blank_cell("Which tool is recommended for Python code?", row)
    assert blank_cell("What is the CoE code for professional development?",
                      "Work type: Professional development; CoE feds: ?; 18F: 1810")
