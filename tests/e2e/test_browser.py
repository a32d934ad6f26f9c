"""Real browser: Playwright drives Debian's Chromium against a live Daphne server (ChannelsLiveServerTestCase)."""

from __future__ import annotations

import os
import re
import unittest

import pytest
from channels.testing import ChannelsLiveServerTestCase
from daphne.testing import DaphneProcess
from django.contrib.auth import get_user_model
from django.test import override_settings
from playwright.sync_api import expect, sync_playwright

from knowledge.services import domain_get_or_create, ingest_path
from tests.conftest import DEMO_CORPUS

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run", "--disable-dev-shm-usage"]

pytestmark = pytest.mark.browser

ASYNC_UNSAFE = "DJANGO_ALLOW_ASYNC_UNSAFE"
#: The variable as the session had it before any browser test ran (read when pytest imports this module).
_ASYNC_UNSAFE_BEFORE = os.environ.get(ASYNC_UNSAFE)


def allow_async_unsafe(cls: type) -> None:
    """Set DJANGO_ALLOW_ASYNC_UNSAFE for the life of the test class ``cls`` only (Playwright's sync API runs an event
    loop in the test thread, where Django's ORM would otherwise refuse to run). A class cleanup puts the previous
    value back, or removes the variable when it was unset; unittest runs class cleanups after tearDownClass and also
    when setUpClass fails, so no later test of the session runs with Django's async-safety check turned off (B08)."""
    previous = os.environ.get(ASYNC_UNSAFE)

    def restore() -> None:
        if previous is None:
            os.environ.pop(ASYNC_UNSAFE, None)
        else:
            os.environ[ASYNC_UNSAFE] = previous

    os.environ[ASYNC_UNSAFE] = "true"
    cls.addClassCleanup(restore)


class _Server(DaphneProcess):
    """The live server, forked from the test process after other tests ran there.

    A fork copies objects whose threads it does not copy: asgiref's thread-sensitive executor would queue database
    calls for a worker thread that does not exist in the child (the server then hangs), and torch's OpenMP pool can
    hang likewise. The child gets a fresh executor, a fresh embedder and one torch thread.
    """

    def run(self):
        from concurrent.futures import ThreadPoolExecutor

        import torch
        from asgiref.sync import SyncToAsync

        import grounding.embeddings

        SyncToAsync.single_thread_executor = ThreadPoolExecutor(max_workers=1)
        grounding.embeddings._default = None
        torch.set_num_threads(1)
        super().run()


class BrowserCase(ChannelsLiveServerTestCase):
    """Live server + Chromium + the demo corpus and user; subclasses hold the tests.

    A subclass may set ``overrides`` (settings for the whole class) and ``answerer`` (a function making the provider
    the server answers with): both are in place before the live server forks, and undone after the class."""

    __test__ = False
    ProtocolServerProcess = _Server
    serialized_rollback = False
    overrides: dict = {}
    answerer = None

    @classmethod
    def setUpClass(cls):
        from chat.providers import registry

        cls._overrides = override_settings(**cls.overrides) if cls.overrides else None
        if cls._overrides is not None:
            cls._overrides.enable()
        cls._saved_providers = registry.state()
        if cls.answerer is not None:
            registry.configure(answerer=cls.answerer())
        allow_async_unsafe(cls)  # for this class only; restored by a class cleanup
        super().setUpClass()
        expect.set_options(timeout=60_000)  # the first answer loads the embedding model in the server process
        cls.playwright = sync_playwright().start()
        cls.browser = cls.playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)

    @classmethod
    def tearDownClass(cls):
        from chat.providers import registry

        cls.browser.close()
        cls.playwright.stop()
        super().tearDownClass()
        registry.restore(cls._saved_providers)
        if cls._overrides is not None:
            cls._overrides.disable()

    def setUp(self):
        domain = domain_get_or_create(slug="handbook", name="Tallgrass handbook")
        ingest_path(path=DEMO_CORPUS, domain=domain)
        get_user_model().objects.create_user("demo", password="demo-handbook")
        self.page = self.browser.new_page()
        self.page.set_default_timeout(60_000)

    def tearDown(self):
        self.page.close()

    def login(self):
        page = self.page
        page.goto(self.live_server_url + "/")
        expect(page).to_have_url(self.live_server_url + "/login/?next=/")
        page.fill("#id_username", "demo")
        page.fill("#id_password", "demo-handbook")
        page.click("button[type=submit]")
        expect(page.locator("#question")).to_be_visible()
        # the page script has attached its handlers (a key pressed before that would be lost, as for a user)
        expect(page.locator("body[data-chat-ready=true]")).to_have_count(1)


class ChatInBrowserTests(BrowserCase):
    """The offline extractive answerer end to end."""

    __test__ = True

    def test_ask_see_streamed_answer_click_citation_see_source_then_reload(self):
        page = self.page
        self.login()
        # record every text the answer body shows while it streams
        page.evaluate("""() => {
            window.bodyStates = [];
            new MutationObserver(() => {
                const b = document.querySelector('li.msg.assistant .body');
                if (b && b.classList.contains('streaming')) window.bodyStates.push(b.textContent);
            }).observe(document.getElementById('messages'), {subtree: true, childList: true, characterData: true});
        }""")
        page.fill("#question", "How often are laptops replaced?")
        page.click("#send")
        answer = page.locator("li.msg.assistant").last
        chip = answer.locator(".body button.cite").first
        expect(chip).to_be_visible()
        expect(answer.locator(".body")).to_contain_text("36-month refresh cycle")
        # who answers is said once, in the header, not on every message (issue 22)
        expect(page.locator(".answerer")).to_contain_text("Extractive")
        expect(answer.locator(".badge")).to_have_count(0)
        states = page.evaluate("window.bodyStates")
        assert len(set(states)) >= 2, states  # the text appeared progressively, not all at once
        expect(answer.locator(".sources-used")).to_contain_text("Equipment and Laptop Policy")

        chip.click()
        panel = page.locator("#source-panel")
        expect(panel).to_be_visible()
        expect(panel.locator("#source-title")).to_have_text("Equipment and Laptop Policy")
        expect(panel.locator("#source-version")).to_have_text("2024-11")
        expect(panel.locator("#source-date")).to_have_text("2024-11-01")
        expect(panel.locator("mark")).to_contain_text("36-month refresh cycle")

        # the conversation is stored: after a reload the chips still open the source
        assert "/c/" in page.url
        page.reload()
        panel = page.locator("#source-panel")
        expect(panel).to_be_hidden()
        page.locator("li.msg.assistant .body button.cite").first.click()
        expect(panel.locator("mark")).to_contain_text("36-month refresh cycle")
        expect(page.locator("nav.sidebar")).to_contain_text("How often are laptops replaced?")

    def test_each_chip_of_two_sentences_from_one_source_highlights_its_own_sentence(self):
        """The hotel limit's answer quotes two sentences of one source (most cities, high-cost cities): each chip
        opens the source with its own sentence marked (s11: a two-sentence answer's first chip once showed none)."""
        page = self.page
        self.login()
        page.fill("#question", "What is the hotel limit?")
        page.click("#send")
        answer = page.locator("li.msg.assistant").last
        expect(answer.locator(".body")).to_contain_text("$325 per night")
        chips = answer.locator(".body button.cite")
        panel = page.locator("#source-panel")
        chips.nth(0).click()
        expect(panel.locator("mark").first).to_contain_text("$225 per night")
        chips.nth(1).click()
        expect(panel.locator("mark").first).to_contain_text("$325 per night")

    def test_question_the_documents_cannot_answer_says_so(self):
        page = self.page
        self.login()
        page.fill("#question", "Does Tallgrass offer stock options and what is the vesting schedule?")
        page.keyboard.press("Enter")
        answer = page.locator("li.msg.assistant").last
        expect(answer).to_have_class("msg assistant abstained")
        expect(answer.locator(".body")).to_have_text("I could not find the answer to this question in the documents.")
        assert answer.locator("button.cite").count() == 0


    def test_disagreeing_versions_show_a_note_with_chips_for_both_sources(self):
        page = self.page
        self.login()
        page.fill("#question", "What is the daily meal allowance?")
        page.click("#send")
        answer = page.locator("li.msg.assistant").last
        note = answer.locator(".notes .note-conflict").first
        # an update between two versions of one document, not a disagreement between documents
        expect(answer.locator(".notes h3")).to_have_text("Changed since an earlier version")
        expect(answer.locator("a.note-ref").first).to_have_attribute("aria-label", "See note 1: this changed")
        expect(note).to_contain_text("$65")
        expect(note).to_contain_text("$50")
        chips = note.locator("button.cite")
        expect(chips).to_have_count(2)
        chips.nth(1).click()  # the older side of the disagreement
        expect(page.locator("#source-version")).to_have_text("2024-01")
        expect(page.locator("#source-status")).to_have_text("superseded")
        expect(page.locator("#source-text")).to_contain_text("$50 per day of travel")
        chips.nth(0).click()
        expect(page.locator("#source-version")).to_have_text("2025-03")
        # the earlier version is told apart in the answer's source list (both are "Travel and Expenses Policy ›
        # Meals"; a new user could not tell which was current)
        used = answer.locator(".sources-used li", has_text="earlier version")
        expect(used).to_have_count(1)
        expect(used.locator(".version-tag")).to_have_text(re.compile(r"^\(earlier version, 2024-01-\d\d\)$"))


class ScriptedAnswerInBrowserTests(BrowserCase):
    """The server answers with a scripted provider (set before the live server forks): slow pieces, one invalid
    label."""

    __test__ = True
    PIECES = ["Laptops are replaced ", "on a 36-month refresh cycle [S1]", ". Spare ", "laptops ", "are ",
              "kept in ", "every office [S9]", "."]

    @classmethod
    def answerer(cls):
        from grounding.providers import ScriptedProvider

        return ScriptedProvider(cls.PIECES, delay=0.6)

    def test_chips_work_while_streaming_invalid_label_is_text_and_frozen_source_survives_reingest(self):
        """Chips work while the answer streams; an invalid label is plain text; reload and re-ingest keep the
        frozen source the answer was given."""
        page = self.page
        self.login()
        page.fill("#question", "How often are laptops replaced?")
        page.click("#send")
        answer = page.locator("li.msg.assistant").last
        streaming_chip = answer.locator(".body.streaming button.cite[data-label=S1]")
        expect(streaming_chip).to_be_visible()  # clickable before the answer is done
        streaming_chip.click()
        expect(page.locator("#source-title")).to_have_text("Equipment and Laptop Policy")
        expect(answer.locator(".body.streaming")).to_have_count(1)  # still streaming when the panel opened
        expect(answer.locator(".body:not(.streaming)")).to_have_count(1)
        # the panel opened mid-stream marks the cited sentence once the answer is done, without a second click
        expect(page.locator("#source-panel mark")).to_contain_text("36-month refresh cycle")
        expect(answer.locator(".body span.cite-invalid")).to_have_text("[S9]")
        assert answer.locator("button.cite[data-label=S9]").count() == 0  # an invalid label is never a link
        expect(answer.locator(".warning").first).to_contain_text("S9")
        flagged = answer.locator(".body [class^='support-']").first  # the sentence citing nothing valid
        expect(flagged).to_contain_text("Spare laptops are kept in every office")
        expect(flagged).to_have_attribute("title", re.compile(r"^(No citation|Not supported by its source): "))
        answer.locator(".body button.cite[data-label=S1]").click()
        expect(page.locator("#source-panel mark")).to_contain_text("36-month refresh cycle")

        # the cited document changes: the old answer keeps showing the text it was given
        import tempfile
        from pathlib import Path

        original = (DEMO_CORPUS / "equipment-laptop.md").read_text()
        with tempfile.TemporaryDirectory() as tmp:
            changed = Path(tmp) / "equipment-laptop.md"
            changed.write_text(original.replace("36-month refresh cycle", "48-month refresh cycle"))
            report = ingest_path(path=changed, domain=domain_get_or_create(slug="handbook"))
            assert report.files[0].status == "new_version"
        page.reload()
        page.locator("li.msg.assistant .body button.cite[data-label=S1]").click()
        expect(page.locator("#source-panel mark")).to_contain_text("36-month refresh cycle")
        expect(page.locator("#source-text")).not_to_contain_text("48-month")

    def test_citation_chips_work_from_the_keyboard(self):
        """Keyboard: a chip takes focus, Enter opens the panel, Escape closes it."""
        page = self.page
        self.login()
        page.fill("#question", "How often are laptops replaced?")
        page.keyboard.press("Enter")
        chip = page.locator("li.msg.assistant .body:not(.streaming) button.cite").first
        expect(chip).to_be_visible()
        chip.focus()
        page.keyboard.press("Enter")
        expect(page.locator("#source-panel")).to_be_visible()
        page.keyboard.press("Escape")
        expect(page.locator("#source-panel")).to_be_hidden()


# --- B08: the browser tests' environment does not leak into the rest of the session -------------------------------

class RateLimitInBrowserTests(BrowserCase):
    """The server allows one question a minute (set before the live server forks)."""

    __test__ = True
    overrides = {"ASK_RATE_LIMIT": 1}

    def test_a_refused_question_is_put_back_with_the_reason_next_to_it(self):
        # a new user missed this reason when it showed only in the status line above the composer
        page = self.page
        self.login()
        page.fill("#question", "What is the daily meal allowance?")
        page.click("#send")
        expect(page.locator("li.msg.assistant").last.locator(".body")).to_contain_text("$65")
        page.fill("#question", "How often are laptops replaced?")
        page.click("#send")
        hint = page.locator("#composer-hint")
        expect(hint).to_contain_text("Too many questions")
        expect(hint).to_contain_text("was not saved")
        expect(page.locator("#question")).to_have_value("How often are laptops replaced?")
        expect(page.locator("li.msg.user")).to_have_count(1)  # the refused question is not in the thread


class _Probe(unittest.TestCase):
    """A test class that scopes the variable like BrowserCase, without a browser or a server (run by the test below,
    not collected on its own)."""

    __test__ = False
    seen: str | None = None

    @classmethod
    def setUpClass(cls):
        allow_async_unsafe(cls)

    def test_inside(self):
        type(self).seen = os.environ.get(ASYNC_UNSAFE)


@pytest.mark.parametrize("before", [None, "", "previous-value"])
def test_b08_async_unsafe_is_set_for_the_browser_class_and_restored_after(monkeypatch, before):
    if before is None:
        monkeypatch.delenv(ASYNC_UNSAFE, raising=False)
    else:
        monkeypatch.setenv(ASYNC_UNSAFE, before)
    _Probe.seen = None
    result = unittest.TextTestRunner(stream=open(os.devnull, "w"), verbosity=0).run(
        unittest.defaultTestLoader.loadTestsFromTestCase(_Probe))
    assert result.wasSuccessful()
    assert _Probe.seen == "true"  # set while the class ran
    assert os.environ.get(ASYNC_UNSAFE) == before  # and back to what it was (absent stays absent)


def test_b08_async_unsafe_after_the_browser_tests_is_what_the_session_had():
    """Runs after the browser classes above (pytest keeps file order): none of them left the variable behind."""
    assert os.environ.get(ASYNC_UNSAFE) == _ASYNC_UNSAFE_BEFORE
