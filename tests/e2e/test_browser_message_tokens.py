"""The composer against the server's token limit, in Chromium against a live Daphne (s6 tester): a message of emoji
under the character limit can be over the token limit. The page warns before it is sent (a high estimate of its
tokens), and when the server refuses it, the reason says what a token is and the message stays in the composer."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from chat.models import Message
from tests.e2e.test_browser import BrowserCase

pytestmark = pytest.mark.browser

ANSWER = ["Laptops are replaced ", "on a 36-month refresh cycle [S1]", "."]
TOKENS = 200  # the server's token limit in these tests (the character limit stays 4,000)


class MessageTokensInBrowserTests(BrowserCase):
    """The server allows questions of TOKENS tokens and answers with a scripted provider (both set before the live
    server forks)."""

    __test__ = True

    overrides = {"MAX_MESSAGE_TOKENS": TOKENS}

    @staticmethod
    def answerer():
        from grounding.providers import ScriptedProvider

        return ScriptedProvider(ANSWER, delay=0.05)

    def test_emoji_over_the_token_limit_are_warned_about_refused_with_the_reason_and_kept_in_the_composer(self):
        page = self.page
        sent: list[str] = []
        page.on("websocket", lambda socket: socket.on(
            "framesent", lambda payload: sent.append(payload) if '"type":"ask"' in str(payload) else None))
        self.login()
        hint = page.locator("#composer-hint")
        # 150 laptops: 158 characters (the limit is 4,000), 306 tokens as the server counts them
        text = "How often are laptops replaced? " + "\U0001F4BB" * 150
        page.locator("#question").press_sequentially("How often are laptops replaced? ")
        expect(hint).to_have_text("")  # plain text: no warning
        page.fill("#question", text)
        expect(hint).to_have_text(f"This message may be over the limit of {TOKENS} tokens: emoji and characters "
                                  "outside the Latin alphabet count as several tokens each. If it is refused, it "
                                  "stays here to shorten.")
        assert sent == []  # a warning, before anything is sent
        page.click("#send")
        expect(hint).to_have_text(f"The message is 306 tokens long; the limit is {TOKENS} tokens (a token is a word "
                                  "or a piece of one; an emoji or a character outside the Latin alphabet can count "
                                  "as several). Shorten it or split it into several questions.")
        assert len(sent) == 1
        assert page.input_value("#question") == text  # nothing lost: the message is back in the composer
        expect(page.locator("li.msg.user")).to_have_count(0)  # and nothing of it was stored
        assert not Message.objects.exists()

        # shortened under the limit, it is sent and answered, and the hint is gone
        page.fill("#question", "How often are laptops replaced? " + "\U0001F4BB" * 20)
        expect(hint).to_have_text("")
        page.click("#send")
        expect(page.locator("li.msg.assistant .body:not(.streaming)")).to_contain_text("36-month refresh cycle")
        expect(hint).to_have_text("")
        assert len(sent) == 2
