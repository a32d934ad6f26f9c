// The source panel (the cited passage with its structure, title and metadata kept in view, the cited sentence
// highlighted and scrolled to, links to the whole document version and the original file), and the short preview
// a chip shows on hover or focus.

import {el, sourceName, spannedSection} from "./dom.js";

const panel = document.getElementById("source-panel");
const box = document.getElementById("source-text");
const preview = document.getElementById("chip-preview");
let openedFrom = null; // the chip that opened the panel: focus goes back to it when the panel closes
let opened = null; // {answer, label, span, index}: the citation the panel shows (index: its chip's place in the answer)

// The citation a chip stands for: its own span (the sentence it closes) when the server numbered it, else the
// answer's citation of that label.
function citedOf(answer, label, span) {
  const own = answer.spans[span];
  return own && own.label === label ? own : answer.citations.get(label);
}

export function openSource(answer, label, span, from, refreshing = false) {
  const s = answer.sources.get(label);
  if (!s) return;
  openedFrom = from || null;
  const chips = [...answer.body.querySelectorAll("button.cite")];
  opened = {answer, label, span, index: from ? chips.indexOf(from) : -1};
  const cited = citedOf(answer, label, span);
  document.getElementById("source-label").textContent = label;
  document.getElementById("source-title").textContent = s.title;
  // every section the passage spans (a source merged from adjacent chunks spans several), then the cited
  // sentence's own section when it is one of several
  const spanned = spannedSection(s).join(" › ");
  const own = cited && cited.section ? cited.section.split(" > ").join(" › ") : "";
  const field = document.getElementById("source-section");
  field.replaceChildren(spanned || own || "—");
  if (own && spanned && own !== spanned) field.append(el("span", "cited-section", ` (cited: ${own})`));
  document.getElementById("source-version").textContent = s.version || "—";
  document.getElementById("source-date").textContent = s.date || "undated";
  document.getElementById("source-status").textContent = s.status || "current";
  showPlaces(s, cited);
  if (s.html !== undefined) box.innerHTML = s.html; // rendered and sanitised by the server (nh3)
  else box.textContent = s.text || "";
  box.querySelectorAll("table").forEach((t) => t.classList.add("source-table"));
  const mark = highlight(box, cited ? cited.cited_text || "" : "");
  panel.hidden = false;
  document.body.classList.add("panel-open");
  box.scrollTop = 0;
  if (mark) mark.scrollIntoView({block: "center"});
  if (!refreshing) document.getElementById("source-title").focus({preventScroll: true});
}

// A chip clicked while its answer was streaming opened the source before the answer's cited sentences arrived (they
// come with the done frame), so nothing could be highlighted. When that answer is rendered in its final form, the
// panel shows the same citation again: the chip at the same place of the final text (else the first chip of that
// label), with its own sentence marked.
export function refreshSource(answer) {
  if (panel.hidden || !opened || opened.answer !== answer) return;
  const chips = [...answer.body.querySelectorAll("button.cite")];
  let chipEl = chips[opened.index];
  if (!chipEl || chipEl.dataset.label !== opened.label) chipEl = chips.find((c) => c.dataset.label === opened.label);
  const span = chipEl && chipEl.dataset.span !== undefined ? Number(chipEl.dataset.span) : opened.span;
  openSource(answer, opened.label, span, chipEl || null, true);
}

export function closeSource() {
  if (panel.hidden) return;
  panel.hidden = true;
  document.body.classList.remove("panel-open");
  if (openedFrom && openedFrom.isConnected) openedFrom.focus();
  openedFrom = null;
  opened = null;
}

// Where the passage is: the whole document version opened at this passage (a page of this site), and the original
// file (a PDF at the cited page) with the place the server named ("Leave, p. 4", "sheet Schedules, rows 2-14").
function showPlaces(source, cited) {
  const place = cited && cited.location && cited.location.format ? cited : source;
  const location = place.location || {};
  document.getElementById("source-location").textContent = location.format ? place.source_label : "—";
  const whole = document.getElementById("source-document");
  // the chunk holding the cited sentence (a source merged from adjacent chunks carries several), else the source's
  // primary chunk: the best match of the question among the chunks merged into the source
  const chunk = (cited && cited.chunk_id) || source.chunk_id;
  whole.hidden = !(source.version_id && chunk);
  if (!whole.hidden) whole.href = `/documents/${source.version_id}/#chunk-${chunk}`;
  const link = document.getElementById("source-original");
  link.hidden = !(location.format && source.version_id);
  if (link.hidden) return;
  const page = (location.pages || [])[0];
  link.href = `/documents/${source.version_id}/original` + (page ? `#page=${page}` : "");
  link.textContent = page ? `Open the original at page ${page}` : "Open the original file";
}

// Mark the cited sentence in the rendered passage, whatever elements it runs through (emphasis, list items, table
// cells). Text is compared without Markdown punctuation and with whitespace collapsed, so "- **Day** | 8" finds
// the rendered "Day" and "8". A cited table row is marked whole (class "cited"). Returns the first mark.
const SKIP = /[*_`#>|\s]/;

function flatten(root) {
  const flat = [];
  const where = [];
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (flat.length && flat[flat.length - 1] !== " ") { flat.push(" "); where.push(null); }
    for (let i = 0; i < node.data.length; i++) {
      const c = node.data[i];
      if (SKIP.test(c)) {
        if (flat.length && flat[flat.length - 1] !== " ") { flat.push(" "); where.push([node, i]); }
      } else {
        flat.push(c.toLowerCase()[0]);
        where.push([node, i]);
      }
    }
  }
  return {text: flat.join(""), where};
}

function normalise(text) {
  return text.replace(/(^|\n)\s*(?:[-+*]|\d{1,9}[.)])\s+/g, "$1 ").split("").map((c) => (SKIP.test(c) ? " " : c))
    .join("").replace(/\s+/g, " ").trim().toLowerCase();
}

export function highlight(root, sentence) {
  const target = normalise(sentence);
  if (!target) return null;
  const {text, where} = flatten(root);
  let at = text.indexOf(target);
  let length = target.length;
  if (at < 0 && target.length > 60) { // a sentence changed at its end (a quote cut short): its beginning
    length = 60;
    at = text.indexOf(target.slice(0, length));
  }
  if (at < 0) return null;
  const pieces = new Map(); // text node -> [first, last] offsets to mark
  for (let k = at; k < at + length; k++) {
    if (!where[k]) continue;
    const [node, i] = where[k];
    const piece = pieces.get(node);
    if (piece) piece[1] = i; else pieces.set(node, [i, i]);
  }
  const marks = [];
  for (const [node, [first, last]] of pieces) {
    const range = document.createRange();
    range.setStart(node, first);
    range.setEnd(node, last + 1);
    const mark = el("mark");
    range.surroundContents(mark);
    marks.push(mark);
  }
  for (const mark of marks) mark.closest("tr")?.classList.add("cited");
  return marks[0] || null;
}

// --- the chip preview -------------------------------------------------------------------------------------------------

export function showPreview(answer, chipEl) {
  const label = chipEl.dataset.label;
  const s = answer.sources.get(label);
  if (!s) return;
  const cited = citedOf(answer, label, chipEl.dataset.span === undefined ? -1 : Number(chipEl.dataset.span));
  const quote = (cited && cited.cited_text) || s.text || "";
  const short = quote.length > 220 ? quote.slice(0, 217).replace(/\s+\S*$/, "") + "…" : quote;
  // the cited sentence's own section
  const named = {...s, section: (cited && cited.section) || s.section, sections: cited && cited.section ? [] : s.sections};
  preview.replaceChildren(el("strong", "", `${label} · ${sourceName(named)}`), el("span", "", short.replace(/\s+/g, " ")));
  preview.hidden = false;
  const rect = chipEl.getBoundingClientRect();
  const width = Math.min(360, window.innerWidth - 16);
  preview.style.width = `${width}px`;
  preview.style.left = `${Math.max(8, Math.min(rect.left, window.innerWidth - width - 8))}px`;
  const below = rect.bottom + 8 + preview.offsetHeight < window.innerHeight;
  preview.style.top = `${below ? rect.bottom + 6 : Math.max(8, rect.top - preview.offsetHeight - 6)}px`;
  chipEl.setAttribute("aria-describedby", "chip-preview");
}

export function hidePreview() {
  preview.hidden = true;
  document.querySelectorAll("[aria-describedby=chip-preview]").forEach((c) => c.removeAttribute("aria-describedby"));
}

document.getElementById("source-close").addEventListener("click", closeSource);
