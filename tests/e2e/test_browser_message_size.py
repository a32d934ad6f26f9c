"""The composer and the socket against the message limits, in Chromium against a live Daphne: the page counts a
message as the server does and never sends a frame the server would refuse; a message over the server's websocket
limit gets a visible reason, and the chat reconnects with its conversation."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.e2e.test_browser import BrowserCase

pytestmark = pytest.mark.browser

ANSWER = ["Laptops are replaced ", "on a 36-month refresh cycle [S1]", "."]
LIMIT = 300  # characters: the server's message limit in these tests (its websocket limit is then 64 KiB)


class MessageSizeInBrowserTests(BrowserCase):
    """The server allows questions of LIMIT characters and answers with a scripted provider (both set before the live
    server forks)."""

    __test__ = True

    overrides = {"MAX_MESSAGE_CHARS": LIMIT}

    @staticmethod
    def answerer():
        from grounding.providers import ScriptedProvider

        return ScriptedProvider(ANSWER, delay=0.05)

    def asks_sent(self) -> list[str]:
        """Record the ask frames the page sends from now on (attach before the page opens its socket)."""
        sent: list[str] = []
        self.page.on("websocket", lambda socket: socket.on(
            "framesent", lambda payload: sent.append(payload) if '"type":"ask"' in str(payload) else None))
        return sent

    def test_the_composer_counts_a_message_as_the_server_does_and_refuses_one_over_the_limit(self):
        """A message over the limit is refused in the composer with the reason and the limit, and nothing is sent;
        a message of emoji under the limit (two UTF-16 units each, one character to the server) was refused as twice
        its length and is now sent and answered."""
        page = self.page
        sent = self.asks_sent()
        self.login()
        # while typing, the hint gives the character limit (it said the message "may be over the limit of 2,000
        # tokens" because of emoji, for plain text: s9 new user)
        page.locator("#question").press_sequentially("a" * (LIMIT + 1), delay=0)
        hint = page.locator("#composer-hint")
        expect(hint).to_contain_text(f"The message is {LIMIT + 1} characters long; the limit is {LIMIT} characters.")
        page.click("#send")
        expect(hint).to_contain_text(f"The message is {LIMIT + 1} characters long; the limit is {LIMIT} characters.")
        expect(page.locator("li.msg.user")).to_have_count(0)
        assert sent == []
        emoji = "How often are laptops replaced? " + "\U0001F4BB" * (LIMIT - 40)  # under the limit in characters
        page.fill("#question", emoji)
        page.click("#send")
        expect(page.locator("li.msg.assistant .body:not(.streaming)")).to_contain_text("36-month refresh cycle")
        expect(hint).to_have_text("")
        assert len(sent) == 1

    def test_a_long_unbroken_word_wraps_inside_its_message(self):
        """The s43 breaker asked a question ending in 3,968 "x"s (within the limit): the word ran out of its message
        box and the whole thread scrolled sideways (35,456 pixels wide in a 988-pixel column). It now wraps inside
        the box, in the question and in the thread."""
        page = self.page
        self.login()
        page.fill("#question", "How often are laptops replaced? " + "x" * (LIMIT - 40))
        page.click("#send")
        expect(page.locator("li.msg.assistant .body:not(.streaming)")).to_contain_text("36-month refresh cycle")
        widths = page.evaluate("""() => {
            const thread = document.querySelector('#messages'), body = document.querySelector('li.msg.user .body');
            return [thread.scrollWidth, thread.clientWidth, body.scrollWidth, body.clientWidth];
        }""")
        assert widths[0] <= widths[1] and widths[2] <= widths[3], widths

    def test_a_message_over_the_servers_limit_says_too_large_and_the_chat_reconnects_with_its_conversation(self):
        """A page whose limits do not match the server's (opened before the limits changed) sends a 1.1 MB message:
        the chat died silently (the socket was dropped). Now the server closes with 1009 and the page says the
        message is too large and why, puts the question back, reconnects, and the conversation goes on."""
        page = self.page
        self.login()
        page.fill("#question", "How often are laptops replaced?")
        page.click("#send")
        expect(page.locator("li.msg.assistant .body:not(.streaming)")).to_contain_text("36-month refresh cycle")

        # the page's data as a page opened under larger limits had it (read by static/chat/dom.js)
        page.add_init_script("""(() => {
            const parse = JSON.parse;
            JSON.parse = function (text, ...rest) {
                const value = parse.call(this, text, ...rest);
                if (value && typeof value === "object" && "maxFrameBytes" in value) {
                    value.maxChars = 10000000;
                    value.maxFrameBytes = 100000000;
                }
                return value;
            };
        })();""")
        page.reload()
        expect(page.locator("body[data-chat-ready=true]")).to_have_count(1)
        expect(page.locator("li.msg.assistant")).to_have_count(1)
        big = "x" * 1_100_000
        page.fill("#question", big)
        page.click("#send")
        hint = page.locator("#composer-hint")
        expect(hint).to_contain_text("The message is too large to send")
        expect(hint).to_contain_text("65,536 bytes")
        assert page.input_value("#question") == big  # nothing lost: the question is back in the composer
        expect(page.locator("li.msg.user")).to_have_count(1)  # only the earlier question; nothing was stored
        page.fill("#question", "How often are laptops replaced, again?")
        page.click("#send")  # the socket is back: the conversation goes on
        expect(page.locator("li.msg.assistant .body:not(.streaming)")).to_have_count(2)
        expect(page.locator("li.msg.assistant").last).to_contain_text("36-month refresh cycle")

    def test_a_signed_out_page_says_so_keeps_the_question_and_stops_reconnecting(self):
        """The s44 breaker: a socket opened before a logout went on answering. The server now refuses the ask and
        closes the socket (4401); the page says the user is signed out, offers a sign-in link, puts the question back
        in the composer and does not reconnect in a loop ("Connection closed. Reconnecting…" every 1.5 s)."""
        from django.contrib.sessions.models import Session

        page = self.page
        self.login()
        page.fill("#question", "How often are laptops replaced?")
        page.click("#send")  # answered: the socket is open, signed in
        expect(page.locator("li.msg.assistant .body:not(.streaming)")).to_contain_text("36-month refresh cycle")
        Session.objects.all().delete()  # signed out elsewhere (another tab's logout)
        page.fill("#question", "How often are laptops replaced?")
        page.click("#send")
        status = page.locator("#status")
        expect(status).to_contain_text("You are signed out")
        back = re.compile(r"^/login/\?next=%2Fc%2F\d+%2F$")  # back to the conversation
        expect(status.get_by_role("link", name="Sign in")).to_have_attribute("href", back)
        expect(page.locator("#question")).to_have_value("How often are laptops replaced?")
        page.wait_for_timeout(2500)  # longer than the reconnect delay: the message stays, no reconnect replaced it
        expect(status).to_contain_text("You are signed out")
