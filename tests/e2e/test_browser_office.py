"""Real browser: a citation of a PDF shows its page in the source panel and links to the original at that page, and
a spreadsheet citation shows its rows as a table (issue 21)."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from knowledge.models import DocumentVersion
from knowledge.services import document_ingest, domain_get_or_create
from tests.e2e.test_browser import BrowserCase
from tests.office_files import office


class OfficeCitationsInBrowserTests(BrowserCase):
    __test__ = True

    def setUp(self):
        super().setUp()
        domain = domain_get_or_create(slug="hr", name="HR office files")
        for name in ("travel-and-leave__fmla.pdf",
                     "general-information-and-resources__employee-resources-policies__work-schedules.xlsx"):
            assert document_ingest(domain=domain, name=name, data=office(name)).status == "new"

    def ask(self, question: str, domain: str = "hr"):
        page = self.page
        self.login()
        page.select_option("#domain", domain)
        page.fill("#question", question)
        page.click("#send")
        answer = page.locator("li.msg.assistant").last
        expect(answer.locator(".body:not(.streaming)")).to_have_count(1)
        return answer

    def test_a_pdf_citation_shows_its_page_and_links_to_the_original_there(self):
        page = self.page
        answer = self.ask("How many weeks of unpaid FMLA can I take to care for an ill servicemember?")
        expect(answer.locator(".body")).to_contain_text("26 weeks")
        answer.locator(".body button.cite").first.click()
        panel = page.locator("#source-panel")
        expect(panel.locator("#source-location")).to_have_text("Family Medical Leave Act (FMLA), p. 1")
        link = panel.locator("#source-original")
        expect(link).to_have_text("Open the original at page 1")
        version = DocumentVersion.objects.get(original_name="travel-and-leave__fmla.pdf")
        expect(link).to_have_attribute("href", f"/documents/{version.pk}/original#page=1")
        response = page.request.get(self.live_server_url + link.get_attribute("href").split("#")[0])
        assert response.status == 200 and response.headers["content-type"] == "application/pdf"
        assert response.body() == office("travel-and-leave__fmla.pdf")

    def test_a_spreadsheet_citation_names_its_row_and_shows_the_table(self):
        page = self.page
        answer = self.ask("What is the week 2 total when the week 1 total is 37 hours?")  # rows, no headings
        expect(answer.locator(".body")).to_contain_text("43")
        answer.locator(".body button.cite").first.click()
        panel = page.locator("#source-panel")
        expect(panel.locator("#source-location")).to_have_text(re.compile(r", sheet general-information-and-resourc, "
                                                                          r"row 14$"))
        expect(panel.locator("#source-original")).to_have_text("Open the original file")
        table = panel.locator("#source-text table.source-table").first
        expect(table.locator("th").first).to_have_text("Day")  # its Markdown rendered (issue 22)
        expect(table.locator("th strong").first).to_have_text("Day")
        expect(panel.locator("#source-text tr.cited")).to_contain_text("43")

    def test_a_word_citation_shows_its_paragraph(self):
        """The user saw a DOCX citation's place in the source panel as the document alone, where a PDF's shows its
        page: it names the paragraph (the s14 office round)."""
        domain = domain_get_or_create(slug="hr-word", name="HR Word files")
        assert document_ingest(domain=domain, name="travel-and-leave__fmla.docx",
                               data=office("travel-and-leave__fmla.docx")).status == "new"
        answer = self.ask("How many weeks of unpaid FMLA can I take to care for an ill servicemember?", "hr-word")
        expect(answer.locator(".body")).to_contain_text("26 weeks")
        answer.locator(".body button.cite").first.click()
        panel = self.page.locator("#source-panel")
        expect(panel.locator("#source-location")).to_have_text("Family Medical Leave Act (FMLA), para. 10")
        expect(panel.locator("#source-original")).to_have_text("Open the original file")
