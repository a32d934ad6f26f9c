// Chat page: streams answers over the websocket and renders citation chips from the application's source map.
// Model text is only ever inserted as text; the answer HTML comes from the server, built and sanitised there.

const data = JSON.parse(document.getElementById("page-data").textContent);
const list = document.getElementById("messages");
const form = document.getElementById("ask");
const input = document.getElementById("question");
const sendButton = document.getElementById("send");
const stopButton = document.getElementById("stop");
const statusLine = document.getElementById("status");
const panel = document.getElementById("source-panel");

let conversation = data.conversation;
const answers = new Map(); // assistant message id -> {el, body, sources: Map(label -> source), citations}
let socket = null;
let pending = null; // the ask frame waiting for an open socket
let lastAsk = null; // the question just sent and its bubble, until the server accepts or refuses it
// error codes of asks refused before anything was stored (the text goes back into the input)
const NOT_STORED = new Set(["rate_limited", "empty_message", "message_too_long", "invalid_text", "unknown_domain",
                            "bad_frame", "forbidden", "not_found"]);
const streaming = new Set(); // ids of answers being generated that this page shows (resumed after a reconnect)

function el(tag, cls, text) {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  if (text !== undefined) node.textContent = text;
  return node;
}

function setBusy(busy) {
  sendButton.disabled = busy;
  stopButton.hidden = !busy;
}

function scrollToEnd() {
  list.scrollTop = list.scrollHeight;
  const last = list.lastElementChild;
  if (last) last.scrollIntoView({block: "end"});
}

function addUser(text) {
  document.getElementById("empty-hint")?.remove();
  const li = el("li", "msg user");
  li.append(el("div", "body", text));
  list.append(li);
  scrollToEnd();
  return li;
}

function addToSidebar(id, title) {
  const nav = document.querySelector("ul.conversations");
  if (!nav || nav.querySelector(`a[href="/c/${id}/"]`)) return;
  nav.querySelector("li.empty")?.remove();
  nav.querySelectorAll("li[aria-current]").forEach((li) => li.removeAttribute("aria-current"));
  const li = el("li");
  li.setAttribute("aria-current", "page");
  const a = el("a", "", title);
  a.href = `/c/${id}/`;
  li.append(a);
  nav.prepend(li);
}

function addAssistant(id, sources, provider) {
  const li = el("li", "msg assistant");
  li.dataset.message = id;
  if (provider && provider.name === "extractive") {
    li.append(el("span", "badge", "Extractive answer · quoted from the sources"));
  } else if (provider && provider.name) {
    li.append(el("span", "badge model", "Answered by " + (provider.label || provider.name)));
  }
  const body = el("div", "body streaming");
  li.append(body);
  const used = el("div", "sources-used");
  li.append(used);
  list.append(li);
  const entry = {el: li, body, used, sources: new Map(), citations: new Map(), spans: []};
  for (const s of sources || []) entry.sources.set(s.label, s);
  answers.set(String(id), entry);
  return entry;
}

function renderNotes(entry, notes) {
  entry.el.querySelector(".notes")?.remove();
  if (!notes.length) return;
  const box = el("div", "notes");
  box.append(el("h3", "", "The sources disagree"));
  for (const note of notes) {
    const p = el("p", "note-conflict");
    p.append(el("span", "", note.text + " "));
    for (const label of note.labels) {
      if (!entry.sources.has(label)) continue;
      const chip = el("button", "cite", label);
      chip.type = "button";
      chip.dataset.label = label;
      chip.setAttribute("aria-label", `Show source ${label}`);
      p.append(chip);
    }
    box.append(p);
  }
  entry.used.before(box);
}

function renderSourcesUsed(entry, labels) {
  entry.used.replaceChildren();
  if (!labels.length) return;
  entry.used.append(el("h3", "", "Sources used"));
  const ul = el("ul");
  for (const label of labels) {
    const s = entry.sources.get(label);
    if (!s) continue;
    const li = el("li");
    const chip = el("button", "cite", label);
    chip.type = "button";
    chip.dataset.label = label;
    li.append(chip, " ", el("span", "", [s.title, ...(s.section ? s.section.split(" > ") : [])].join(" › ")));
    ul.append(li);
  }
  entry.used.append(ul);
}

// While streaming, the markers the server reports as citations (`cites`: [start, end] in this piece of text; never
// a look-alike inside code, never half a marker) become chips at once when all their labels are in this answer's
// source map (sent in the plan frame); anything else stays text. The final HTML replaces all of it.
function appendStreamed(entry, text, cites) {
  let last = 0;
  for (const [start, end] of cites || []) {
    const labels = (text.slice(start, end).match(/[Ss]?\d{1,3}/g) || []).map((x) => x.toUpperCase());
    if (!labels.length || !labels.every((label) => entry.sources.has(label))) continue;
    entry.body.append(text.slice(last, start));
    for (const label of labels) {
      const chip = el("button", "cite", label);
      chip.type = "button";
      chip.dataset.label = label;
      chip.setAttribute("aria-label", `Show source ${label}`);
      entry.body.append(chip);
    }
    last = end;
  }
  entry.body.append(text.slice(last));
}

function finish(entry, frame) {
  entry.body.classList.remove("streaming");
  entry.el.dataset.status = frame.status;
  for (const c of frame.citations || []) entry.citations.set(c.label, c);
  entry.spans = frame.spans || [];
  if (frame.html) {
    entry.body.innerHTML = frame.html; // built and sanitised by the server (nh3); chips come from the source map
  } else {
    entry.body.textContent = frame.text || "";
  }
  if (frame.abstained) {
    entry.el.classList.add("abstained");
    const badge = entry.el.querySelector(".badge");
    if (badge) badge.textContent = "Not in the documents";
  }
  if (frame.status === "interrupted") entry.el.append(el("p", "note", "Stopped: this answer is incomplete."));
  if (frame.status === "failed") entry.el.append(el("p", "error", "This answer failed: " + (frame.error || "")));
  if (frame.invalid && frame.invalid.length) {
    entry.el.append(el("p", "warning", "Some citations did not match a source and are shown as plain text: "
      + frame.invalid.join(", ")));
  }
  markSupport(entry, frame.support);
  renderNotes(entry, frame.notes || []);
  renderSourcesUsed(entry, (frame.citations || []).map((c) => c.label));
  scrollToEnd();
}

// Sentences without a valid citation are marked, with the reason on hover and focus. "Weak" and "unsupported" grades
// are marked only when a model judge made them (support.judge === "model"): the offline similarity check is measured
// near chance on human labels, so its grades stay in the trace (the done frame's support) and are not shown.
const SUPPORT_TEXT = {weak: "Weakly supported", unsupported: "Not supported by its source", uncited: "No citation"};

function markSupport(entry, support) {
  const byModel = Boolean(support && support.judge === "model");
  const flagged = ((support && support.sentences) || [])
    .filter((s) => s.status === "uncited" || (byModel && s.status !== "supported"));
  for (const sentence of flagged) {
    const probe = sentence.text.slice(0, 40).replace(/[.\s]+$/, "");
    const walker = document.createTreeWalker(entry.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const at = node.data.indexOf(probe);
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
  if (flagged.length) {
    entry.el.append(el("p", "warning", `${flagged.length} sentence(s) could not be fully checked against their ` +
      "sources; they are underlined. Hover or focus them for the reason."));
  }
}

function showSource(entry, label, spanIndex) {
  const s = entry.sources.get(label);
  if (!s) return;
  const own = entry.spans[spanIndex];
  document.getElementById("source-label").textContent = label;
  document.getElementById("source-title").textContent = s.title;
  document.getElementById("source-section").textContent = s.section ? s.section.split(" > ").join(" › ") : "—";
  document.getElementById("source-version").textContent = s.version || "—";
  document.getElementById("source-date").textContent = s.date || "undated";
  document.getElementById("source-status").textContent = s.status || "current";
  const box = document.getElementById("source-text");
  box.replaceChildren();
  const text = s.text;
  const cited = own && own.label === label ? own : entry.citations.get(label);
  const span = cited ? cited.cited_text.trim() : "";
  const at = span ? text.indexOf(span) : -1;
  if (at >= 0) {
    const mark = el("mark", "", span);
    box.append(text.slice(0, at), mark, text.slice(at + span.length));
    panel.hidden = false;
    mark.scrollIntoView({block: "nearest"});
  } else {
    box.append(text);
    panel.hidden = false;
  }
  panel.focus();
}

list.addEventListener("click", (event) => {
  const chip = event.target.closest("button.cite");
  if (!chip) return;
  const li = chip.closest("li.msg.assistant");
  const entry = li && answers.get(li.dataset.message);
  if (entry) showSource(entry, chip.dataset.label, chip.dataset.span === undefined ? -1 : Number(chip.dataset.span));
});
document.getElementById("source-close").addEventListener("click", () => { panel.hidden = true; });
document.addEventListener("keydown", (e) => { if (e.key === "Escape") panel.hidden = true; });

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${scheme}://${location.host}/ws/chat/`);
  socket.addEventListener("open", () => {
    statusLine.textContent = "";
    // answers still generating when the page loaded or the socket dropped: follow them to the end
    for (const id of streaming) socket.send(JSON.stringify({type: "resume", message: Number(id)}));
    if (pending) { socket.send(JSON.stringify(pending)); pending = null; }
  });
  socket.addEventListener("message", (event) => handle(JSON.parse(event.data)));
  socket.addEventListener("close", () => {
    setBusy(false);
    statusLine.textContent = "Connection closed. Reconnecting…";
    setTimeout(connect, 1500);
  });
}

function handle(frame) {
  if (frame.type === "accepted") {
    lastAsk = null;
    if (conversation !== frame.conversation) {
      conversation = frame.conversation;
      history.replaceState(null, "", `/c/${conversation}/`);
      addToSidebar(conversation, frame.title);
    }
  } else if (frame.type === "plan") {
    statusLine.textContent = "";
    streaming.add(String(frame.message));
    const known = answers.get(String(frame.message));
    if (known) for (const src of frame.sources || []) known.sources.set(src.label, src);
    else addAssistant(frame.message, frame.sources, frame.provider);
    if (frame.resumed) setBusy(true);
  } else if (frame.type === "partial") {
    const entry = answers.get(String(frame.message));
    if (entry) { entry.body.textContent = ""; appendStreamed(entry, frame.text, frame.cites); }
  } else if (frame.type === "delta") {
    const entry = answers.get(String(frame.message));
    if (entry) appendStreamed(entry, frame.text, frame.cites);
  } else if (frame.type === "done") {
    let entry = answers.get(String(frame.message));
    if (!entry) entry = addAssistant(frame.message, frame.sources, {name: frame.provider});
    finish(entry, frame);
    streaming.delete(String(frame.message));
    setBusy(false);
  } else if (frame.type === "error") {
    if (frame.message_id) streaming.delete(String(frame.message_id));
    if (NOT_STORED.has(frame.code) && lastAsk) {
      // the server kept nothing of this question: give the text back so it can be sent again
      lastAsk.bubble.remove();
      if (!input.value) input.value = lastAsk.text;
    }
    lastAsk = null;
    statusLine.textContent = frame.message;
    statusLine.classList.add("error");
    setBusy(false);
  }
}

form.addEventListener("submit", (event) => {
  event.preventDefault();
  const text = input.value.trim();
  statusLine.classList.remove("error");
  if (!text) { statusLine.textContent = "The message is empty. Type a question first."; return; }
  if (text.length > data.maxChars) {
    statusLine.textContent = `The message is ${text.length} characters long; the limit is ${data.maxChars}.`;
    statusLine.classList.add("error");
    return;
  }
  const domainSelect = document.getElementById("domain");
  const frame = {type: "ask", text, conversation, client_id: crypto.randomUUID(),
                 domain: domainSelect ? domainSelect.value : data.domain};
  lastAsk = {text, bubble: addUser(text)};
  input.value = "";
  setBusy(true);
  statusLine.textContent = "Searching the documents…";
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(frame));
  else pending = frame;
});

input.addEventListener("keydown", (e) => {
  if (e.key === "Enter" && !e.shiftKey) { e.preventDefault(); form.requestSubmit(); }
});
stopButton.addEventListener("click", () => socket && socket.send(JSON.stringify({type: "stop"})));

for (const m of data.messages) {
  if (m.role === "user") addUser(m.text);
  else if (m.status === "streaming") {  // still generating (another tab, a dropped socket): resumed on connect
    appendStreamed(addAssistant(m.id, m.sources, {name: m.provider}), m.text);
    streaming.add(String(m.id));
  } else finish(addAssistant(m.id, m.sources, {name: m.provider}), m);
}
scrollToEnd();
connect();
document.body.dataset.chatReady = "true"; // handlers attached (the browser tests wait for this)
