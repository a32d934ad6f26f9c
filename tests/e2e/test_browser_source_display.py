"""What a new user saw wrong in the offline answers' display (the s19 run), in a real browser on the demo handbook:

1. the chip of a list's lead-in the answerer wrote itself ("Your First Week at Tallgrass, Day 1 (Monday):")
   highlighted an unrelated sentence of the source; it highlights the list under that heading;
2. a source merged from adjacent chunks of several sections was named after one section only;
3. a version note was shown twice: in the answer text ("Note that this changed: ...") and in the note box;
4. a conversation search's excerpt of an answer showed raw "[S1]" markers.
"""

from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.e2e.test_browser import BrowserCase


class SourceDisplayTests(BrowserCase):
    """The offline extractive answerer end to end."""

    __test__ = True

    def ask(self, question: str):
        page = self.page
        page.fill("#question", question)
        page.click("#send")
        answer = page.locator("li.msg.assistant").last
        expect(answer.locator(".body:not(.streaming)")).to_have_count(1)
        expect(page.locator("#send")).to_be_enabled()
        return answer

    def test_a_made_up_lead_in_highlights_its_list_and_a_merged_source_names_its_sections(self):
        page = self.page
        self.login()
        answer = self.ask("What happens on Day 1?")
        expect(answer.locator(".body")).to_contain_text("Your First Week at Tallgrass, Day 1 (Monday)")
        lead = answer.locator(".body button.cite").first
        label = lead.get_attribute("data-label")
        lead.click()
        marked = page.locator("#source-text mark")
        expect(marked.first).to_contain_text("9:00 a.m.")
        assert "check in with you every day" not in " ".join(marked.all_inner_texts())
        expect(page.locator("#source-section")).to_contain_text("Day 1 (Monday)")
        page.keyboard.press("Escape")
        # the merged source spans "Before day one" and "Day 1 (Monday)": both are named
        used = answer.locator(".sources-used li", has=page.locator(f'button.cite[data-label="{label}"]'))
        expect(used).to_contain_text(re.compile(r"Before day one · Day 1 \(Monday\)"))

    def test_a_source_merged_from_merged_sections_names_each_heading_once(self):
        """The s47 new-user trial: a source of "Do I need approval before booking a flight?" merged from a chunk of
        "Before you travel > Approval" and one of "Before you travel · Flights" was named "Travel and Expenses Policy ›
        Before you travel · Before you travel · Flights" (the page's own naming function, as the source list calls
        it)."""
        page = self.page
        self.login()
        name = page.evaluate("""async () => {
            const main = document.querySelector('script[type="module"]').src;
            const dom = await import(new URL("dom.js", main).href);
            return dom.sourceName({title: "Travel and Expenses Policy", section: "Before you travel > Approval",
                                   sections: [[0, "Before you travel > Approval"], [1, "Before you travel · Flights"]]});
        }""")
        assert name == "Travel and Expenses Policy › Before you travel · Flights"

    def test_a_version_note_is_shown_once_and_search_excerpts_have_no_markers(self):
        page = self.page
        self.login()
        answer = self.ask("What is the nightly hotel limit in New York?")
        expect(answer.locator(".notes")).to_contain_text("$300")  # the note box says what changed
        expect(answer.locator(".body")).to_contain_text("$325")
        expect(answer.locator(".body")).not_to_contain_text("Note that this changed")
        page.reload()  # the stored answer, as the page loads it
        answer = page.locator("li.msg.assistant").last
        expect(answer.locator(".notes")).to_contain_text("$300")
        expect(answer.locator(".body")).not_to_contain_text("Note that this changed")
        page.fill("#conversation-search", "high-cost")
        match = page.locator("#conversation-list li small.match").first
        expect(match).to_contain_text("high-cost")
        assert "[S" not in match.inner_text(), match.inner_text()
