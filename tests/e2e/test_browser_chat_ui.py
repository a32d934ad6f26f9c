"""Issue 22 in a real browser: streaming you can see and Stop at each stage, per-answer actions (copy, regenerate,
feedback, edit and resend), conversation management, the source panel, phone-sized screens, accessibility (axe-core,
bundled by axe-playwright-python) and screenshots of the main states.

Screenshots are written to var/screenshots/ (git-ignored; the README names the folder): <state>-1280x800.png and
<state>-390x844.png. One live server per class; the scripted provider's delays are short.
"""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

from axe_playwright_python.sync_playwright import Axe
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from chat.models import Conversation, Message
from grounding.llm_checks import SUFFICIENCY_SYSTEM
from grounding.providers import ScriptedProvider
from knowledge.models import Domain
from tests.e2e.test_browser import BrowserCase

SCREENSHOTS = Path(__file__).resolve().parents[2] / "var" / "screenshots"
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}

LAPTOPS = ["Laptops are replaced ", "on a 36-month ", "refresh cycle ", "[S1]. The IT Help Desk ", "emails you ",
           "60 days before ", "your refresh date [S1][S1]."]
TIME_OFF = ["Submit all PTO requests in Meadow ", "under Time Off > New Request [S1]."]


class PacedProvider(ScriptedProvider):
    """The scripted provider with a model's checks: an async completion that takes CHECK_SECONDS, so that an answer
    spends that long "searching" (the follow-up rewrite, once there is history) and "planning" (the sufficiency
    check); its pieces depend on the question (time off, or laptops)."""

    CHECK_SECONDS = 1.0

    async def acomplete(self, system, messages, max_tokens=None):
        await asyncio.sleep(self.CHECK_SECONDS)
        return "yes" if system == SUFFICIENCY_SYSTEM else "laptop refresh cycle"

    async def stream(self, prompt, plan):
        asked = prompt.messages[-1]["content"] if prompt.messages else ""
        self.pieces = TIME_OFF if "time off" in str(asked).lower() else LAPTOPS
        async for event in super().stream(prompt, plan):
            yield event


def shoot(page, state: str) -> None:
    """A screenshot of the page as it is, named after the state and the viewport."""
    size = page.viewport_size
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{state}-{size['width']}x{size['height']}.png"))


def assert_accessible(page, what: str) -> None:
    """axe-core finds no serious or critical violation on the page as it is."""
    results = Axe().run(page)
    bad = [f"{v['id']} ({v['impact']}): {v['help']} at {[n['target'] for n in v['nodes']][:3]}"
           for v in results.response["violations"] if v["impact"] in ("serious", "critical")]
    assert not bad, f"{what}: " + "; ".join(bad)


class ChatPageTests(BrowserCase):
    __test__ = True

    @staticmethod
    def answerer():
        return PacedProvider(LAPTOPS, delay=0.25)

    def setUp(self):
        super().setUp()
        self.page.set_viewport_size(DESKTOP)

    def ask(self, text: str):
        self.page.fill("#question", text)
        self.page.click("#send")
        return self.page.locator("li.msg.assistant:not([hidden])").last

    def expect_idle(self):
        """After any outcome: Send usable, Stop gone, no stale progress text."""
        page = self.page
        expect(page.locator("#send")).to_be_enabled()
        expect(page.locator("#stop")).to_be_hidden()
        expect(page.locator("#status")).not_to_contain_text("Searching")
        expect(page.locator("li.msg.assistant .typing:visible")).to_have_count(0)

    def test_streaming_is_visible_and_stop_works_at_each_stage(self):
        page = self.page
        self.login()
        shoot(page, "empty")
        # stopped at once, before any frame came back
        answer = self.ask("How often are laptops replaced?")
        page.click("#stop")
        expect(answer.locator(".note")).to_have_text("Stopped: this answer is incomplete.")
        self.expect_idle()
        # stopped while planning (the sufficiency check takes a second)
        answer = self.ask("How often are laptops replaced?")
        expect(answer.locator(".typing")).to_contain_text("Choosing the passages")
        page.click("#stop")
        expect(answer.locator(".note")).to_have_text("Stopped: this answer is incomplete.")
        self.expect_idle()

        # a whole answer: the typing state, then the text growing while the planned sources are shown
        page.evaluate("""() => {
            window.seen = {texts: [], typing: [], reading: false};
            new MutationObserver(() => {
                const li = [...document.querySelectorAll('li.msg.assistant')].pop();
                const body = li && li.querySelector('.body.streaming');
                if (!body) return;
                const typing = li.querySelector('.typing');
                if (!typing.hidden) window.seen.typing.push(typing.textContent);
                if (window.seen.texts[window.seen.texts.length - 1] !== body.textContent)
                    window.seen.texts.push(body.textContent);
                if (/^Reading \\d+ source/.test(li.querySelector('.sources-used h3')?.textContent || ''))
                    window.seen.reading = true;
            }).observe(document.getElementById('messages'), {subtree: true, childList: true, characterData: true,
                                                             attributes: true});
        }""")
        answer = self.ask("How often are laptops replaced?")
        expect(answer.locator(".body.streaming button.cite").first).to_be_visible()
        shoot(page, "streaming")
        expect(answer.locator(".body:not(.streaming)")).to_contain_text("your refresh date")
        seen = page.evaluate("window.seen")
        grown = [t for t in seen["texts"] if t]
        assert len(grown) >= 3 and all(a != b and b.startswith(a[:10]) for a, b in zip(grown, grown[1:])), grown
        assert any("Choosing the passages" in t for t in seen["typing"]), seen["typing"]
        assert any("Writing the answer" in t for t in seen["typing"]), seen["typing"]
        assert seen["reading"]  # the plan's sources were listed while the answer was written
        # each distinct chip once per sentence: "... refresh date [S1][S1]." shows one S1 chip
        expect(answer.locator(".body button.cite")).to_have_count(2)
        expect(answer.locator(".sources-used h3")).to_have_text("Sources used")
        expect(page.locator("#status")).to_have_text("Answer ready.")
        self.expect_idle()
        shoot(page, "answer")

        # with history, a follow-up is rewritten first: stopped while searching
        answer = self.ask("And who orders the new one?")
        expect(answer.locator(".typing")).to_contain_text("Searching the documents")
        page.click("#stop")
        expect(answer.locator(".note")).to_have_text("Stopped: this answer is incomplete.")
        self.expect_idle()
        # stopped while writing: the text so far is kept
        answer = self.ask("How often are laptops replaced?")
        expect(answer.locator(".body.streaming")).to_contain_text("Laptops are replaced")
        page.click("#stop")
        expect(answer.locator(".note")).to_have_text("Stopped: this answer is incomplete.")
        expect(answer.locator(".body")).to_contain_text("Laptops are replaced")
        self.expect_idle()
        stored = list(Message.objects.filter(role="assistant").order_by("pk").values_list("status", flat=True))
        assert stored == ["interrupted", "interrupted", "complete", "interrupted", "interrupted"]

    def test_answer_actions_and_conversation_management(self):
        page = self.page
        page.add_init_script("window.copied = []; navigator.clipboard.writeText = async (t) => { copied.push(t); };")
        self.login()
        user = get_user_model().objects.get(username="demo")
        domain = Domain.objects.get(slug="handbook")
        first = self.ask("How often are laptops replaced?")
        expect(first.locator(".msg-actions button.copy")).to_be_visible()
        # the new conversation's header shows its title, documents and export link at once, as a reload does (the
        # s45 new-user trial found the documents select left and no export link until a reload)
        expect(page.locator("#conversation-title")).to_contain_text("How often are laptops replaced")
        expect(page.locator(".domain-row .domain-name")).to_have_text(f"Documents: {domain.name}")
        expect(page.locator("a.export")).to_have_attribute("href", re.compile(r"^/c/\d+/export\.md$"))
        expect(page.locator("select#domain")).to_have_count(0)

        # copy: Markdown with the citations as numbered footnotes and the sources they stand for under it (s6: the
        # [S1] labels meant nothing once pasted)
        first.locator("button.copy").click()
        expect(page.locator("#status")).to_have_text("Copied the answer as Markdown.")
        copied = page.evaluate("copied[0]")
        assert copied.startswith("Laptops are replaced on a 36-month refresh cycle [1].")
        assert "[S1]" not in copied and "\n\nSources:\n[1] Equipment and Laptop Policy, " in copied
        assert copied.count("\n[") == len(set(re.findall(r"\[(\d+)\]", copied)))  # one line per footnote number

        # feedback: helpful, then not helpful with a reason, stored with the answer
        first.locator("button.helpful").click()
        expect(first.locator("button.helpful")).to_have_attribute("aria-pressed", "true")
        answer_id = int(first.get_attribute("data-message"))
        assert Message.objects.get(pk=answer_id).feedback == "helpful"
        first.locator("button.unhelpful").click()
        expect(first.locator("button.unhelpful")).to_have_attribute("aria-pressed", "true")
        page.fill(f"#reason-{answer_id}", "It should name the help desk's form.")
        page.click("text=Send reason")
        expect(first.locator(".feedback-thanks")).to_be_visible()
        stored = Message.objects.get(pk=answer_id)
        assert (stored.feedback, stored.feedback_reason) == ("unhelpful", "It should name the help desk's form.")

        # regenerate: a new answer, the earlier one kept and switchable
        first.locator("button.regenerate").click()
        second = page.locator("li.msg.assistant:not([hidden])")
        expect(second.locator(".versions .count")).to_have_text("Answer 2 of 2")
        expect(second.locator(".body:not(.streaming)")).to_contain_text("your refresh date")
        assert int(second.get_attribute("data-message")) != answer_id
        second.get_by_role("button", name="Show the previous answer to this question").click()
        shown = page.locator("li.msg.assistant:not([hidden])")
        expect(shown).to_have_attribute("data-message", str(answer_id))
        expect(shown.locator(".versions .count")).to_have_text("Answer 1 of 2")
        expect(shown.locator("button.unhelpful")).to_have_attribute("aria-pressed", "true")
        question = Message.objects.get(pk=answer_id).reply_to
        assert question.answers.count() == 2

        # edit and resend: the edited question is a new turn at the end; the first turn stays
        page.locator("li.msg.user").first.get_by_role("button", name="Edit this question and send it again").click()
        page.fill("li.msg.user .edit-form textarea", "How often is a laptop refreshed?")
        page.click("text=Send edited question")
        expect(page.locator("li.msg.user .body")).to_have_text(["How often are laptops replaced?",
                                                                "How often is a laptop refreshed?"])
        expect(page.locator("li.msg.assistant:not([hidden]) .body:not(.streaming)")).to_have_count(2)
        expect(page.locator("#send")).to_be_enabled()
        current = Conversation.objects.get(messages__pk=answer_id)

        # conversations: most recently used first, search, rename, delete
        meals = Conversation.objects.create(user=user, domain=domain, title="Meal money")
        Message.objects.create(conversation=meals, role="user", text="Is the dinner allowance higher abroad?")
        leave = Conversation.objects.create(user=user, domain=domain, title="Parental leave questions")
        page.goto(self.live_server_url + f"/c/{meals.pk}/")
        titles = page.locator("#conversation-list a.title")
        expect(titles).to_have_text(["Parental leave questions", "Meal money", current.title])
        page.fill("#question", "How often are laptops replaced?")
        page.click("#send")
        expect(titles.first).to_have_text("Meal money")  # used: it moves to the top
        expect(page.locator("#conversation-list li").first.locator(".domain")).to_have_text("Tallgrass handbook")
        expect(page.locator("li.msg.assistant .body:not(.streaming)")).to_have_count(1)

        page.fill("#conversation-search", "dinner")
        expect(titles).to_have_text(["Meal money"])
        expect(page.locator("#conversation-list .match")).to_contain_text("dinner allowance")
        page.fill("#conversation-search", "")
        expect(titles).to_have_count(3)

        item = page.locator("#conversation-list li", has_text="Meal money")
        item.get_by_role("button", name="Rename “Meal money”").click()
        page.fill(".rename-form input", "   ")
        page.keyboard.press("Enter")
        expect(page.locator(".rename-form .error")).to_have_text("The name is empty. Type a name for the conversation.")
        page.fill(".rename-form input", "Travel meals")
        page.keyboard.press("Enter")
        expect(titles.first).to_have_text("Travel meals")
        expect(page.locator("#conversation-title")).to_have_text("Travel meals")
        meals.refresh_from_db()
        assert meals.title == "Travel meals"

        # a click in the middle of a title opens that conversation (the hover buttons sit on the entry's second line:
        # over the title they took the click, and a new user got the rename form)
        other = page.locator("#conversation-list li", has_text=current.title).locator("a.title")
        other.hover()
        box = other.bounding_box()
        page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        expect(page).to_have_url(re.compile(rf"/c/{current.pk}/?$"))
        expect(page.locator(".rename-form")).to_have_count(0)

        gone = page.locator("#conversation-list li", has_text="Parental leave questions")
        gone.get_by_role("button", name="Delete “Parental leave questions”").click()
        expect(page.locator("#confirm-delete")).to_be_visible()
        shoot(page, "delete-confirmation")
        page.click("#confirm-delete button[value=cancel]")
        expect(gone).to_have_count(1)
        gone.get_by_role("button", name="Delete “Parental leave questions”").click()
        page.click("#confirm-delete-button")
        expect(gone).to_have_count(0)
        assert not Conversation.objects.filter(pk=leave.pk).exists()
        assert Conversation.objects.filter(pk__in=[meals.pk, current.pk]).count() == 2
        expect(page.locator("#status")).to_have_text("Deleted “Parental leave questions”.")

    def test_source_panel_structure_link_preview_focus_and_accessibility(self):
        page = self.page
        self.login()
        assert_accessible(page, "the empty chat page")
        answer = self.ask("How do I request time off?")
        chip = answer.locator(".body:not(.streaming) button.cite").first
        expect(chip).to_be_visible()
        chip.hover()
        preview = page.locator("#chip-preview")
        expect(preview).to_be_visible()
        expect(preview).to_contain_text("S1 · Paid Time Off and Holidays › Requesting time off")
        expect(preview).to_contain_text("Submit all PTO requests in Meadow")
        page.mouse.move(5, 5)
        expect(preview).to_be_hidden()
        chip.focus()
        expect(preview).to_be_visible()
        expect(chip).to_have_attribute("aria-describedby", "chip-preview")
        assert_accessible(page, "the chat page with an answer")

        page.keyboard.press("Enter")
        panel = page.locator("#source-panel")
        expect(panel).to_be_visible()
        text = panel.locator("#source-text")
        expect(text.locator("ul > li")).to_have_count(5)  # the list of the passage is a list
        expect(text.locator("ul > li mark")).to_contain_text("Submit all PTO requests in Meadow")
        expect(panel.locator("#source-title")).to_be_focused()
        shoot(page, "source-panel")
        assert_accessible(page, "the source panel open")
        # the title and metadata stay in view when the passage scrolls
        panel.evaluate("p => { p.scrollTop = p.scrollHeight; }")
        head = panel.locator(".panel-head").bounding_box()
        box = panel.bounding_box()
        assert head["y"] <= box["y"] + 1 and panel.locator("#source-title").is_visible()
        # Esc closes the panel and gives the focus back to the chip
        page.keyboard.press("Escape")
        expect(panel).to_be_hidden()
        expect(chip).to_be_focused()

        # the whole document version, opened at the passage
        chip.click()
        link = panel.locator("#source-document")
        expect(link).to_have_text("Open the whole document at this passage")
        href = link.get_attribute("href")
        assert re.fullmatch(r"/documents/\d+/#chunk-\d+", href), href
        link.click()
        expect(page).to_have_url(self.live_server_url + href)
        target = page.locator(f"#{href.split('#')[1]}")
        expect(target).to_contain_text("Submit all PTO requests in Meadow")
        expect(target.locator("ul > li")).to_have_count(5)
        expect(page.locator("h1")).to_have_text("Paid Time Off and Holidays")
        assert page.evaluate("document.querySelector(':target').id") == href.split("#")[1]
        shoot(page, "document")
        assert_accessible(page, "the document version page")

    def test_phone_screen_drawer_composer_and_full_screen_source_sheet(self):
        page = self.page
        page.set_viewport_size(PHONE)
        self.login()
        composer = page.locator("#question")
        toggle = page.locator("#menu-toggle")
        sidebar = page.locator("#sidebar")
        expect(composer).to_be_in_viewport()
        expect(sidebar).to_be_hidden()
        shoot(page, "empty")
        toggle.click()
        expect(sidebar).to_be_visible()
        expect(toggle).to_have_attribute("aria-expanded", "true")
        expect(page.locator("#conversation-search")).to_be_focused()
        shoot(page, "drawer")
        page.keyboard.press("Escape")
        expect(sidebar).to_be_hidden()
        expect(toggle).to_be_focused()
        toggle.click()
        expect(sidebar).to_be_visible()
        page.locator("#drawer-close").click()
        expect(sidebar).to_be_hidden()

        for question in ("How often are laptops replaced?", "How do I request time off?"):
            self.ask(question)
            expect(page.locator("li.msg.assistant .body:not(.streaming)").last).to_be_visible()
        expect(composer).to_be_in_viewport()  # the composer stays at the bottom, whatever the conversation's length
        box = composer.bounding_box()
        assert box["y"] + box["height"] <= PHONE["height"]
        shoot(page, "answer")
        assert_accessible(page, "the chat page on a phone")

        chip = page.locator("li.msg.assistant .body button.cite").last
        chip.click()
        panel = page.locator("#source-panel")
        expect(panel).to_be_visible()
        sheet = panel.bounding_box()
        assert (sheet["x"], sheet["y"], sheet["width"], sheet["height"]) == (0, 0, PHONE["width"], PHONE["height"])
        close = page.locator("#source-close")
        expect(close).to_be_in_viewport()
        shoot(page, "source-panel")
        close.click()
        expect(panel).to_be_hidden()
        expect(chip).to_be_focused()


class SmallThingsTests(BrowserCase):
    """The login page, the admin lists, the staff link, the token's copy button, the empty submit."""

    __test__ = True

    def test_login_admin_lists_tokens_and_empty_submit(self):
        page = self.page
        page.set_viewport_size(DESKTOP)
        page.goto(self.live_server_url + "/login/")
        expect(page.locator("link[rel=icon]")).to_have_attribute("href", re.compile(r"favicon\.svg$"))
        assert page.request.get(self.live_server_url + page.locator("link[rel=icon]").get_attribute("href")).ok
        assert_accessible(page, "the login page")
        page.fill("#id_username", "demo")
        page.fill("#id_password", "wrong password")
        page.click("button[type=submit]")
        expect(page.locator("#login-error")).to_be_visible()
        expect(page.locator("#id_username")).to_have_value("demo")  # a failed login keeps the user name
        expect(page.locator("#id_password")).to_be_focused()
        shoot(page, "login-failed")
        assert_accessible(page, "the login page after a failed login")

        self.login()
        expect(page.locator("a.admin-link")).to_have_count(0)  # not staff
        page.click("#send")  # empty: our message, not the browser's tooltip
        expect(page.locator("#composer-hint")).to_have_text("The message is empty. Type a question first.")
        expect(page.locator("#question")).to_have_attribute("aria-invalid", "true")
        assert page.locator("li.msg").count() == 0

        # the API token is shown once with a copy button
        page.add_init_script("window.copied = []; navigator.clipboard.writeText = async (t) => { copied.push(t); };")
        page.goto(self.live_server_url + "/settings/tokens/")
        page.fill("#token-name", "help desk form")
        page.click("text=Create token")
        token = page.locator("#new-token").input_value()
        page.get_by_role("button", name="Copy").click()
        expect(page.locator("#copy-status")).to_have_text("Copied to the clipboard.")
        assert page.evaluate("copied") == [token]

        # staff: a link to the admin, whose lists pass axe and show every column at 1280 px
        get_user_model().objects.create_superuser("root", password="root-pw-123")
        page.context.clear_cookies()
        page.goto(self.live_server_url + "/login/")
        page.fill("#id_username", "root")
        page.fill("#id_password", "root-pw-123")
        page.click("button[type=submit]")
        page.click("a.admin-link")
        expect(page).to_have_url(self.live_server_url + "/admin/")
        for name in ("knowledge/domain", "knowledge/document", "knowledge/documentversion", "knowledge/systemprompt",
                     "chat/conversation"):
            page.goto(f"{self.live_server_url}/admin/{name}/")
            assert_accessible(page, f"the admin list {name}")
            results = page.locator(".results")
            if results.count():
                clipped = results.evaluate("r => r.scrollWidth - r.clientWidth")
                assert clipped <= 0, f"{name}: {clipped}px of the list are cut off"
            tools = page.locator(".object-tools")
            banner = page.locator(".ax-banner")
            if tools.count() and banner.count():
                a, b = tools.bounding_box(), banner.bounding_box()
                assert a["y"] + a["height"] <= b["y"] or b["y"] + b["height"] <= a["y"], f"{name}: overlap"
        shoot(page, "admin-conversations")
