// One answer's bubble: the typing state before its first delta, its text growing as deltas arrive (chips appear as
// their markers are decided), the planned sources while it is written, then the stored answer from the server.
// Model text is only ever inserted as text; the final HTML comes from the server, built and sanitised there.

import {chip, el, page, reducedMotion, sourceName} from "./dom.js";

const STAGES = {
  sending: "Sending your question…",
  searching: "Searching the documents…",
  planning: "Choosing the passages…",
  writing: "Writing the answer…",
  stopping: "Stopping…",
};
const SUPPORT_TEXT = {weak: "Weakly supported", unsupported: "Not supported by its source", uncited: "No citation"};
const SENTENCE_END = /[.!?]["')\]]*(\s|$)|\n/;
const TICK_MS = 35; // the pace at which queued deltas are shown, so that even a burst of them is seen growing
// The start of the offline answerer's sentence on a note, which the note box shows (grounding/note_sentences.py).
const NOTE_LEAD = /\s*Note that (?:this changed|the sources disagree):/;

// Keep the newest text in view while it grows, unless the reader scrolled up to read something else.
function followEnd(list) {
  if (list && list.scrollHeight - list.scrollTop - list.clientHeight < 160) list.scrollTop = list.scrollHeight;
}

export class Answer {
  constructor(turn, id = null) {
    this.turn = turn;
    this.id = id === null ? null : String(id);
    this.sources = new Map();
    this.citations = new Map();
    this.spans = [];
    this.queue = [];
    this.final = null;
    this.status = "streaming";
    this.markdown = "";
    this.feedback = "";
    this.sentenceLabels = new Set();
    this.el = el("li", "msg assistant");
    this.versions = el("div", "versions");
    this.versions.hidden = true;
    this.typing = el("p", "typing");
    this.typing.setAttribute("aria-live", "polite");
    this.body = el("div", "body streaming");
    this.body.setAttribute("aria-busy", "true");
    this.used = el("div", "sources-used");
    this.actions = el("div", "msg-actions");
    this.el.append(this.versions, this.typing, this.body, this.used, this.actions);
    if (this.id) this.el.dataset.message = this.id;
  }

  setId(id) {
    this.id = String(id);
    this.el.dataset.message = this.id;
  }

  setSources(sources) {
    for (const s of sources || []) this.sources.set(s.label, s);
  }

  stage(name, position) {
    if (this.status !== "streaming" || this.final) return;
    const text = name === "queued" ? `Many questions are being answered; yours is number ${position} in the queue…`
      : STAGES[name] || "";
    this.typing.replaceChildren(el("span", "dots", ""), text);
    this.typing.hidden = !text;
  }

  // The plan's sources while the answer is written: chips that open the passages at once.
  showPlanned() {
    this.used.replaceChildren();
    if (!this.sources.size || this.final) return;
    this.used.append(el("h3", "", `Reading ${this.sources.size} source${this.sources.size > 1 ? "s" : ""}`));
    const ul = el("ul");
    for (const [label, s] of this.sources) ul.append(this.sourceLine(label, s));
    this.used.append(ul);
    followEnd(this.el.parentElement);
  }

  // A source of the list: its chip and name; an earlier version, or a source named like another of this answer, says
  // which version it is (two "Travel Policy › Meals" lines could not be told apart).
  sourceLine(label, s) {
    const li = el("li");
    li.append(chip(label), " ", el("span", "", sourceName(s)));
    const twin = [...this.sources].some(([other, o]) => other !== label && sourceName(o) === sourceName(s));
    if (s.status && s.status !== "current") {
      li.append(" ", el("span", "version-tag", `(earlier version${s.date ? `, ${s.date}` : ""})`));
    } else if (twin) {
      li.append(" ", el("span", "version-tag", `(${s.date || (s.version ? `version ${s.version}` : "current")})`));
    }
    return li;
  }

  // A piece of streamed text (`cites`: [start, end] of its decided citation markers).
  push(text, cites) {
    this.queue.push([text, cites || []]);
    if (reducedMotion) { this.drain(); return; }
    if (!this.timer) this.timer = setInterval(() => this.tick(), TICK_MS);
  }

  tick() {
    const n = this.queue.length > 24 ? 3 : this.queue.length > 8 ? 2 : 1;
    for (let i = 0; i < n && this.queue.length; i++) this.append(...this.queue.shift());
    if (!this.queue.length) this.drain();
  }

  drain() {
    while (this.queue.length) this.append(...this.queue.shift());
    clearInterval(this.timer);
    this.timer = null;
    if (this.final) this.render(this.final);
  }

  // Decided markers become chips when all their labels are in this answer's source map; each label once per
  // sentence (as the server renders it); anything else stays text.
  append(text, cites) {
    this.typing.hidden = true;
    if (this.noteCut) return;
    // the offline answerer's own sentence on a note ("Note that this changed: ...") is left to the note box: the
    // streamed text stops where it begins (the page's rendered answer leaves it out likewise)
    this.streamed = (this.streamed || "") + text;
    const note = NOTE_LEAD.exec(this.streamed);
    if (note) {
      const at = note.index - (this.streamed.length - text.length);
      this.noteCut = true;
      if (at <= 0) return;
      text = text.slice(0, at);
      cites = cites.filter(([start]) => start < at);
    }
    let last = 0;
    for (const [start, end] of cites) {
      const labels = (text.slice(start, end).match(/[Ss]?\d{1,3}/g) || []).map((x) => x.toUpperCase());
      if (!labels.length || !labels.every((label) => this.sources.has(label))) continue;
      this.appendText(text.slice(last, start));
      for (const label of labels) {
        if (this.sentenceLabels.has(label)) continue;
        this.sentenceLabels.add(label);
        this.body.append(chip(label));
      }
      last = end;
    }
    this.appendText(text.slice(last));
  }

  appendText(text) {
    if (!text) return;
    if (SENTENCE_END.test(text)) this.sentenceLabels.clear();
    this.body.append(text);
    followEnd(this.el.parentElement);
  }

  // The answer as stored (the done frame, or a stored message on page load); waits until the queued text is shown,
  // then calls shown() (the page announces "Answer ready." only then, not while words are still appearing).
  finish(frame, shown) {
    this.final = frame;
    this.shown = shown || null;
    if (!this.queue.length) this.render(frame);
  }

  render(frame) {
    clearInterval(this.timer);
    this.timer = null;
    this.typing.hidden = true;
    this.body.classList.remove("streaming");
    this.body.removeAttribute("aria-busy");
    this.status = frame.status;
    this.el.dataset.status = frame.status;
    this.setSources(frame.sources);
    this.citations = new Map((frame.citations || []).map((c) => [c.label, c]));
    this.spans = frame.spans || [];
    this.markdown = frame.markdown || frame.text || "";
    this.feedback = frame.feedback || "";
    this.el.querySelectorAll(".state-note").forEach((n) => n.remove());
    if (frame.html) this.body.innerHTML = frame.html; // built and sanitised by the server (nh3)
    else this.body.textContent = frame.text || "";
    if (frame.abstained) {
      this.el.classList.add("abstained");
      this.body.before(el("span", "badge state-note", "Not in the documents"));
    } else if (frame.provider && page().answerer && frame.provider !== page().answerer.name) {
      this.body.before(el("span", "badge state-note", `Answered by ${frame.provider}`));
    }
    const after = [];
    if (frame.status === "interrupted") after.push(el("p", "note state-note", "Stopped: this answer is incomplete."));
    if (frame.status === "failed") {
      after.push(el("p", "error state-note", "This answer failed: " + (frame.error || "unknown reason") +
        " Use Regenerate to try again."));
    }
    if (frame.invalid && frame.invalid.length) {
      after.push(el("p", "warning state-note", "Some citations did not match a source and are shown as plain " +
        "text: " + frame.invalid.join(", ")));
    }
    this.body.after(...after);
    const flagged = this.markSupport(frame.support);
    if (flagged) {
      this.used.before(el("p", "warning state-note", `${flagged} sentence(s) could not be fully checked against ` +
        "their sources; they are underlined. Hover or focus them for the reason."));
    }
    this.renderNotes(frame.notes || []);
    this.renderUsed((frame.citations || []).map((c) => c.label));
    this.onRender?.(this);
    followEnd(this.el.parentElement);
    const shown = this.shown;
    this.shown = null;
    shown?.();
  }

  // Sentences without a valid citation are marked, with the reason on hover/focus. "Weak" and "unsupported" grades
  // are marked only when a model judge made them (support.judge === "model"): the offline similarity check is
  // measured near chance on human labels, so its grades stay in the trace (the done frame's support), not shown.
  markSupport(support) {
    const byModel = Boolean(support && support.judge === "model");
    const flagged = ((support && support.sentences) || [])
      .filter((s) => s.status === "uncited" || (byModel && s.status !== "supported"));
    for (const sentence of flagged) {
      const probe = sentence.text.slice(0, 40).replace(/[.\s]+$/, "");
      const walker = document.createTreeWalker(this.body, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const at = probe ? node.data.indexOf(probe) : -1;
        if (at < 0) continue;
        const range = document.createRange();
        range.setStart(node, at);
        range.setEnd(node, node.data.length);
        const mark = el("span", `support-${sentence.status}`);
        mark.tabIndex = 0;
        mark.title = `${SUPPORT_TEXT[sentence.status] || sentence.status}: ${sentence.reason}`;
        mark.setAttribute("aria-label", mark.title);
        range.surroundContents(mark);
        break;
      }
    }
    return flagged.length;
  }

  // Contradiction and other context notes live in one place, the note box; the text points to each note from the
  // first chip of a source it names.
  renderNotes(notes) {
    this.el.querySelector(".notes")?.remove();
    const shown = notes.filter((n) => n.kind !== "injection" || n.labels.some((l) => this.citations.has(l)));
    if (!shown.length) return;
    const box = el("div", "notes");
    // a value changed between two versions of one document is an update, not a disagreement
    const kinds = new Set(shown.map((n) => (n.kind === "version_superseded" ? "changed" :
                                             n.kind === "injection" ? "note" : "disagree")));
    const heading = kinds.size > 1 ? "Notes" : kinds.has("changed") ? "Changed since an earlier version" :
      kinds.has("disagree") ? "The sources disagree" : "Note";
    box.append(el("h3", "", heading));
    shown.forEach((note, i) => {
      const p = el("p", "note-conflict");
      p.id = `note-${this.id}-${i + 1}`;
      p.tabIndex = -1;
      p.append(el("span", "note-number", `Note ${i + 1}. `), el("span", "", note.text + " "));
      for (const label of note.labels) if (this.sources.has(label)) p.append(chip(label));
      box.append(p);
      const first = [...this.body.querySelectorAll("button.cite")].find((c) => note.labels.includes(c.dataset.label));
      if (first) {
        const ref = el("a", "note-ref", `note ${i + 1}`);
        ref.href = `#${p.id}`;
        const about = note.kind === "version_superseded" ? "this changed" :
          note.kind === "injection" ? "a passage was withheld" : "the sources disagree";
        ref.setAttribute("aria-label", `See note ${i + 1}: ${about}`);
        first.after(ref);
      }
    });
    this.used.before(box);
  }

  renderUsed(labels) {
    this.used.replaceChildren();
    labels = [...new Set(labels)].filter((label) => this.sources.has(label));
    if (!labels.length) return;
    this.used.append(el("h3", "", "Sources used"));
    const ul = el("ul");
    for (const label of labels) ul.append(this.sourceLine(label, this.sources.get(label)));
    this.used.append(ul);
  }

  // A failure reported without a stored answer (the turn keeps its question).
  fail(message) {
    this.render({status: "failed", error: message, text: "", sources: []});
  }
}
