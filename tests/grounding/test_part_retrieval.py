"""A message asking two things is retrieved part by part too (grounding.part_retrieval)."""

from types import SimpleNamespace

from grounding.part_retrieval import PART_SLOT, part_queries, with_part_candidates


def cand(name, dense):
    return SimpleNamespace(name=name, dense=dense, sentence=0.0, sentence_pos=-1)


def names(cands):
    return [c.name for c in cands]


def test_each_part_of_a_two_part_message_is_its_own_query():
    assert part_queries("Who should I check with before enabling a plugin, and what does TTS Ops focus on?") == [
        "Who should I check with before enabling a plugin", "what does TTS Ops focus on?"]


def test_a_part_query_keeps_the_preamble_its_pronoun_refers_to():
    queries = part_queries("I pushed an API key to GitHub. How fast do I have to report it, and how much time can "
                           "people spend fixing it?")
    assert queries[0] == "I pushed an API key to GitHub. How fast do I have to report it"


def test_a_one_part_question_gets_no_part_queries():
    assert part_queries("How many days of annual leave can I carry over?") == []


def test_a_part_s_best_passage_missing_from_the_message_s_first_candidates_is_moved_up():
    whole = [cand(n, 0.6) for n in "abcdefg"]
    part = [cand("x", 0.5), cand("g", 0.8)]  # the part's most relevant passage is "g", last for the whole message
    merged = with_part_candidates(whole, [part], key=lambda c: c.name)
    assert names(merged)[PART_SLOT] == "g" and len(merged) == len(whole)


def test_a_part_s_best_passage_not_retrieved_for_the_message_is_added():
    whole = [cand(n, 0.6) for n in "abcdef"]
    merged = with_part_candidates(whole, [[cand("z", 0.9)]], key=lambda c: c.name)
    assert names(merged) == ["a", "b", "z", "c", "d", "e", "f"]


def test_a_part_s_best_passage_already_near_the_top_stays_where_it_is():
    whole = [cand(n, 0.6) for n in "abcdef"]
    merged = with_part_candidates(whole, [[cand("b", 0.9)], [cand("d", 0.9)]], key=lambda c: c.name)
    assert names(merged) == names(whole)
