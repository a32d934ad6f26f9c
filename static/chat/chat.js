// Chat page: asks over the websocket and shows each answer as it is written (chat/answer.js), with the actions on
// each answer (chat/thread.js), the source panel (chat/panel.js) and the conversations sidebar (chat/sidebar.js).

import {announce, page} from "./dom.js";
import {closeSource, hidePreview, openSource, showPreview} from "./panel.js";
import {closeDrawer, touch} from "./sidebar.js";
import {Thread} from "./thread.js";
import {TOO_LARGE, characterWarning, frameBytes, tokenWarning} from "./limits.js";

const data = page();
const list = document.getElementById("messages");
const form = document.getElementById("ask");
const input = document.getElementById("question");
const hint = document.getElementById("composer-hint");
const sendButton = document.getElementById("send");
const stopButton = document.getElementById("stop");

let conversation = data.conversation;
let socket = null;
let pending = null; // a frame waiting for an open socket
let current = null; // {answer, turn, text (of an ask), regenerate} while an answer is being asked for
const streaming = new Set(); // answers being generated that this page shows (resumed after a reconnect)
// error codes of asks refused before anything was stored (the text goes back into the input)
const NOT_STORED = new Set(["rate_limited", "empty_message", "message_too_long", "invalid_text", "unknown_domain",
                            "bad_frame", "forbidden", "not_found", "busy"]);

const thread = new Thread(list, {regenerate, resend: (text) => ask(text)});

function setBusy(busy) {
  sendButton.disabled = busy;
  stopButton.hidden = !busy;
  list.querySelectorAll("button.regenerate, button.edit").forEach((b) => { b.disabled = busy; });
}

function scrollToEnd() {
  list.scrollTop = list.scrollHeight;
}

function send(frame) {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(frame));
  else pending = frame;
}

function showHint(text) {
  hint.textContent = text;
  input.setAttribute("aria-invalid", text ? "true" : "false");
}


// Ask a question (the composer, or an edited question): returns false when it was not sent.
function ask(raw) {
  const text = (raw || "").trim();
  if (current) { showHint("An answer is still being written. Wait for it or press Stop."); return false; }
  if (!text) { showHint("The message is empty. Type a question first."); input.focus(); return false; }
  const tooLong = characterWarning(text, data.maxChars); // the server's limit, counted as the server counts
  if (tooLong) { showHint(tooLong); return false; }
  const domainSelect = document.getElementById("domain");
  // a conversation keeps its domain: the domain is sent for a new conversation only (the server refuses a
  // conversation with another domain than its own)
  const frame = {type: "ask", text, conversation, client_id: crypto.randomUUID(), progress: true};
  if (!conversation) frame.domain = domainSelect ? domainSelect.value : data.domain;
  const bytes = frameBytes(frame);
  if (bytes > data.maxFrameBytes) {
    showHint(`${TOO_LARGE}: ${bytes.toLocaleString("en")} bytes; the limit is ` +
             `${data.maxFrameBytes.toLocaleString("en")} bytes. Shorten it or split it into several questions.`);
    return false;
  }
  showHint("");
  const turn = thread.addQuestion(text);
  const answer = thread.addAnswer(turn);
  answer.stage("sending");
  current = {answer, turn, text};
  setBusy(true);
  announce("");
  scrollToEnd();
  send(frame);
  return true;
}

// A new answer to the question of `earlier`; the earlier answer is kept and can be shown again.
function regenerate(earlier) {
  if (current) return;
  const answer = thread.addAnswer(earlier.turn);
  answer.stage("sending");
  current = {answer, turn: earlier.turn, regenerate: true};
  setBusy(true);
  announce("");
  send({type: "regenerate", message: Number(earlier.id), client_id: crypto.randomUUID(), progress: true});
}

function stop() {
  if (!current) { announce("This answer is being written from another window or tab; stop it there."); return; }
  if (pending) { // never sent: nothing is stored on the server
    pending = null;
    refused("Not sent.", false);
    return;
  }
  current.answer.stage("stopping");
  send({type: "stop"});
}

// The question (or regeneration) was refused before anything was stored: remove what the page added for it.
function refused(message, isError = true) {
  if (!current) return;
  if (current.regenerate) thread.removeAnswer(current.answer);
  else {
    thread.removeTurn(current.turn);
    if (!input.value) input.value = current.text;
  }
  current = null;
  setBusy(false);
  announce(message, isError);
  // next to the question put back in the composer, where the asker looks (the status line alone was missed)
  if (isError) showHint(message);
}

// The answer a frame is about: known by its id, or the one being asked for, which takes the id.
function answerOf(id) {
  const known = thread.answers.get(String(id));
  if (known) return known;
  if (current && current.answer.id === null) {
    thread.setAnswerId(current.answer, id);
    return current.answer;
  }
  return null;
}

// A new conversation's first question is stored: its header shows what a reloaded page shows (its title, its
// documents, the export link) instead of the documents select, which no longer applies.
function showConversationHeader(title, domainName) {
  const row = document.querySelector(".domain-row");
  if (!row || document.getElementById("conversation-title")) return;
  const select = document.getElementById("domain");
  const name = domainName || (select ? select.options[select.selectedIndex]?.text : "") || "";
  row.querySelector("label[for='domain']")?.remove();
  select?.remove();
  row.querySelector("h1.visually-hidden")?.remove();
  const heading = document.createElement("h1");
  heading.className = "conversation-title";
  heading.id = "conversation-title";
  heading.textContent = title;
  const documents = document.createElement("span");
  documents.className = "domain-name";
  documents.append("Documents: ");
  const strong = document.createElement("strong");
  strong.textContent = name;
  documents.append(strong);
  const exportLink = document.createElement("a");
  exportLink.className = "export";
  exportLink.href = `/c/${conversation}/export.md`;
  exportLink.setAttribute("download", "");
  exportLink.textContent = "Export (Markdown)";
  row.prepend(heading, documents, exportLink);
}

function handle(frame) {
  switch (frame.type) {
    case "accepted":
      if (current && !current.regenerate && current.turn.qid === null) thread.setQuestionId(current.turn, frame.message);
      if (conversation !== frame.conversation) {
        const fresh = !conversation;
        conversation = frame.conversation;
        history.replaceState(null, "", `/c/${conversation}/`);
        if (fresh) showConversationHeader(frame.title, frame.domain);
      }
      touch(frame.conversation, frame.title, frame.domain);
      break;
    case "status":
    case "queued":
      answerOf(frame.message)?.stage(frame.stage || "queued", frame.position);
      break;
    case "plan": {
      streaming.add(String(frame.message));
      let answer = answerOf(frame.message);
      if (!answer) { // a resumed answer this page did not show yet
        const turn = thread.turns.get(String(frame.question));
        if (!turn) break;
        answer = thread.addAnswer(turn, frame.message);
      }
      answer.setSources(frame.sources);
      answer.showPlanned();
      if (frame.resumed) setBusy(true);
      break;
    }
    case "partial": {
      const answer = thread.answers.get(String(frame.message));
      if (answer) { answer.body.textContent = ""; answer.queue = []; answer.push(frame.text, frame.cites); }
      break;
    }
    case "delta":
      thread.answers.get(String(frame.message))?.push(frame.text, frame.cites);
      break;
    case "done": {
      let answer = answerOf(frame.message);
      if (!answer) {
        const turn = thread.turns.get(String(frame.question_message)) || thread.addQuestion("", frame.question_message);
        answer = thread.addAnswer(turn, frame.message);
      }
      const said = frame.status === "interrupted" ? "Stopped." : frame.status === "complete" ? "Answer ready." : "";
      answer.finish(frame, () => announce(said)); // once the last queued words are on the page
      streaming.delete(String(frame.message));
      if (current && current.answer === answer) current = null;
      if (!current) setBusy(false);
      break;
    }
    case "error":
      if (frame.code === "nothing_to_stop") break; // the answer ended before the stop arrived
      if (frame.message_id) {
        streaming.delete(String(frame.message_id));
        answerOf(frame.message_id)?.fail(frame.message);
        current = null;
        setBusy(false);
        announce(frame.message, true);
      } else if (current && (NOT_STORED.has(frame.code) || current.answer.id === null)) {
        refused(frame.message);
      } else {
        announce(frame.message, true);
      }
      break;
  }
}

const SIGNED_OUT = "You are signed out: sign in again to go on (your question was not sent).";

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${scheme}://${location.host}/ws/chat/`);
  socket.addEventListener("open", () => {
    announce("");
    // answers still generating when the page loaded or the socket dropped: follow them to the end
    for (const id of streaming) socket.send(JSON.stringify({type: "resume", message: Number(id)}));
    if (pending) { socket.send(JSON.stringify(pending)); pending = null; }
  });
  socket.addEventListener("message", (event) => handle(JSON.parse(event.data)));
  socket.addEventListener("close", (event) => {
    if (event.code === 4401) { // signed out (logged out elsewhere, account deactivated, session expired): no retry
      if (current && current.answer.id === null) refused(SIGNED_OUT);
      else announce(SIGNED_OUT, true);
      const link = document.createElement("a");
      link.href = `/login/?next=${encodeURIComponent(location.pathname)}`;
      link.textContent = "Sign in";
      document.getElementById("status").append(" ", link);
      return;
    }
    if (event.code === 1009) { // the server refused a message over its size limit (nothing of it was stored)
      // the server's reason names its limit ("... exceeds payload limit of 65536 octets"): it may differ from
      // this page's, when the page was opened before the limit changed
      const limit = Number((/limit of (\d+)/.exec(event.reason || "") || [])[1]) || data.maxFrameBytes;
      const said = `${TOO_LARGE}: it is over the server's limit of ${limit.toLocaleString("en")} bytes. ` +
                   "Shorten it or split it into several questions; reconnecting.";
      if (current && current.answer.id === null) refused(said);
      else announce(said, true);
      pending = null;
      setTimeout(connect, 500);
      return;
    }
    if (current && current.answer.id !== null) streaming.add(current.answer.id); // followed again on reconnect
    else if (current && !pending) { // sent, but not confirmed: the question may not have been stored
      refused("The connection dropped before the server confirmed your question; reconnecting, then send it again.");
      setTimeout(connect, 1500);
      return;
    }
    announce("Connection closed. Reconnecting…");
    setTimeout(connect, 1500);
  });
}

form.addEventListener("submit", (event) => {
  event.preventDefault();
  if (ask(input.value)) input.value = "";
});
input.addEventListener("keydown", (e) => {
  if (e.key === "Enter" && !e.shiftKey && !e.isComposing) { e.preventDefault(); form.requestSubmit(); }
});
// while typing: an earlier error goes, and a message over the character limit, or that may be over the token limit,
// is said so before it is sent (the hint is rewritten only when it changes, so a screen reader hears it once)
input.addEventListener("input", () => {
  const text = input.value;
  const warning = text.trim() ? (characterWarning(text, data.maxChars) || tokenWarning(text, data.maxTokens)) : "";
  if (hint.textContent !== warning && (warning || input.value.trim())) showHint(warning);
});
stopButton.addEventListener("click", stop);

// chips: open the passage (click, Enter), preview it (hover, focus)
list.addEventListener("click", (event) => {
  const chipEl = event.target.closest("button.cite");
  const li = chipEl && chipEl.closest("li.msg.assistant");
  const answer = li && thread.answers.get(li.dataset.message);
  if (!answer) return;
  hidePreview();
  openSource(answer, chipEl.dataset.label, chipEl.dataset.span === undefined ? -1 : Number(chipEl.dataset.span),
             chipEl);
});
for (const [on, off] of [["mouseover", "mouseout"], ["focusin", "focusout"]]) {
  list.addEventListener(on, (event) => {
    const chipEl = event.target.closest?.("button.cite");
    const answer = chipEl && thread.answers.get(chipEl.closest("li.msg.assistant")?.dataset.message);
    if (answer) showPreview(answer, chipEl);
  });
  list.addEventListener(off, (event) => { if (event.target.closest?.("button.cite")) hidePreview(); });
}
list.addEventListener("scroll", hidePreview, {passive: true});
document.addEventListener("keydown", (e) => {
  if (e.key !== "Escape" || document.querySelector("dialog[open]")) return;
  hidePreview();
  if (!closeDrawer()) closeSource();
});

thread.load(data.messages, (answer) => streaming.add(answer.id));
scrollToEnd();
connect();
document.body.dataset.chatReady = "true"; // handlers attached (the browser tests wait for this)
