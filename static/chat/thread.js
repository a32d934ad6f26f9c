// The conversation on the page: each question with its answers (a regenerated answer is kept beside the earlier
// ones and the reader switches between them), and the actions on each: copy, regenerate, feedback, edit and resend.

import {Answer} from "./answer.js";
import {announce, el, postJSON} from "./dom.js";
import {refreshSource} from "./panel.js";

class Turn {
  constructor(userEl, qid) {
    this.userEl = userEl;
    this.qid = qid === null ? null : String(qid);
    this.answers = [];
    this.shown = -1;
  }
}

export class Thread {
  // handlers: regenerate(answer) and resend(text) (the chat sends them), busy() (an answer is being generated).
  constructor(list, handlers) {
    this.list = list;
    this.handlers = handlers;
    this.turns = new Map(); // question id -> Turn
    this.answers = new Map(); // answer id -> Answer
  }

  addQuestion(text, qid = null) {
    document.getElementById("empty-hint")?.remove();
    const li = el("li", "msg user");
    li.append(el("div", "body", text));
    const actions = el("div", "msg-actions");
    const edit = el("button", "action edit", "Edit");
    edit.type = "button";
    edit.setAttribute("aria-label", "Edit this question and send it again");
    edit.addEventListener("click", () => this.edit(li, text));
    actions.append(edit);
    li.append(actions);
    this.list.append(li);
    const turn = new Turn(li, qid);
    if (qid !== null) this.setQuestionId(turn, qid);
    return turn;
  }

  setQuestionId(turn, qid) {
    turn.qid = String(qid);
    turn.userEl.dataset.question = turn.qid;
    this.turns.set(turn.qid, turn);
  }

  // A new answer of a turn, shown in place of the earlier ones (which stay switchable).
  addAnswer(turn, id = null) {
    const answer = new Answer(turn, id);
    answer.onRender = () => {
      this.renderActions(answer);
      refreshSource(answer);
    };
    const last = turn.answers.length ? turn.answers[turn.answers.length - 1].el : turn.userEl;
    last.after(answer.el);
    turn.answers.push(answer);
    if (id !== null) this.answers.set(String(id), answer);
    this.show(turn, turn.answers.length - 1);
    return answer;
  }

  setAnswerId(answer, id) {
    answer.setId(id);
    this.answers.set(String(id), answer);
    this.show(answer.turn, answer.turn.shown);
  }

  removeAnswer(answer) {
    const turn = answer.turn;
    answer.el.remove();
    turn.answers = turn.answers.filter((a) => a !== answer);
    if (answer.id) this.answers.delete(answer.id);
    this.show(turn, turn.answers.length - 1);
  }

  removeTurn(turn) {
    for (const answer of turn.answers) this.removeAnswer(answer);
    turn.userEl.remove();
    if (turn.qid) this.turns.delete(turn.qid);
  }

  // Show answer `index` of a turn; the others are hidden, and each says which of how many it is.
  show(turn, index) {
    turn.shown = index;
    const n = turn.answers.length;
    turn.answers.forEach((answer, i) => {
      answer.el.hidden = i !== index;
      answer.versions.hidden = n < 2;
      if (n < 2) return;
      answer.versions.replaceChildren();
      const prev = el("button", "action", "‹");
      const next = el("button", "action", "›");
      prev.type = next.type = "button";
      prev.setAttribute("aria-label", "Show the previous answer to this question");
      next.setAttribute("aria-label", "Show the next answer to this question");
      prev.disabled = i === 0;
      next.disabled = i === n - 1;
      prev.addEventListener("click", () => this.switchTo(turn, i - 1, "prev"));
      next.addEventListener("click", () => this.switchTo(turn, i + 1, "next"));
      answer.versions.append(prev, el("span", "count", `Answer ${i + 1} of ${n}`), next);
    });
  }

  switchTo(turn, index, which) {
    this.show(turn, index);
    const button = turn.answers[index].versions.querySelector(which === "prev" ? "button" : "button:last-child");
    (button && !button.disabled ? button : turn.answers[index].versions.querySelector(".count"))?.focus?.();
  }

  // The stored messages of the conversation (page load): questions in order, each answer under its question.
  load(messages, onStreaming) {
    for (const m of messages) {
      if (m.role === "user") { this.addQuestion(m.text, m.id); continue; }
      const turn = this.turns.get(String(m.reply_to)) || this.addQuestion("", null);
      const answer = this.addAnswer(turn, m.id);
      answer.setSources(m.sources);
      if (m.status === "streaming") { // still generating (another tab, a dropped socket): resumed on connect
        answer.stage("writing");
        answer.push(m.text, []);
        onStreaming(answer);
      } else {
        answer.finish(m);
      }
    }
  }

  renderActions(answer) {
    const bar = answer.actions;
    bar.replaceChildren();
    if (answer.status === "streaming") return;
    const button = (cls, text, label, onClick) => {
      const b = el("button", `action ${cls}`, text);
      b.type = "button";
      if (label) b.setAttribute("aria-label", label);
      b.addEventListener("click", onClick);
      bar.append(b);
      return b;
    };
    if (answer.markdown) {
      button("copy", "Copy", "Copy this answer as Markdown, citations as numbered sources",
             () => this.copy(answer));
    }
    button("regenerate", "Regenerate", "Write a new answer to this question (this one is kept)",
           () => this.handlers.regenerate(answer));
    if (answer.status !== "failed" && answer.markdown) {
      const up = button("helpful", "Helpful", "This answer was helpful", () => this.feedback(answer, "helpful"));
      const down = button("unhelpful", "Not helpful", "This answer was not helpful",
                          () => this.feedback(answer, "unhelpful"));
      up.setAttribute("aria-pressed", String(answer.feedback === "helpful"));
      down.setAttribute("aria-pressed", String(answer.feedback === "unhelpful"));
    }
  }

  async copy(answer) {
    try {
      await navigator.clipboard.writeText(answer.markdown);
      announce("Copied the answer as Markdown.");
    } catch (error) {
      announce("Copying was refused by the browser; select the text and copy it instead.", true);
    }
  }

  async feedback(answer, value) {
    const taken = answer.feedback === value;
    const result = await postJSON(`/answers/${answer.id}/feedback`, {value: taken ? "" : value});
    if (!result.ok) { announce(result.data.error.message, true); return; }
    answer.feedback = result.data.feedback;
    this.renderActions(answer);
    answer.el.querySelector(".feedback-form")?.remove();
    if (answer.feedback === "unhelpful") this.reasonForm(answer);
    announce(taken ? "Feedback taken back." : "Thank you for the feedback.");
  }

  // An optional reason for "not helpful", stored with the feedback.
  reasonForm(answer) {
    const form = el("form", "feedback-form");
    const id = `reason-${answer.id}`;
    const label = el("label", "", "What was wrong? (optional)");
    label.htmlFor = id;
    const input = el("input");
    input.id = id;
    input.maxLength = 1000;
    const send = el("button", "action", "Send reason");
    send.type = "submit";
    form.append(label, input, send);
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      const result = await postJSON(`/answers/${answer.id}/feedback`, {value: "unhelpful", reason: input.value});
      if (!result.ok) { announce(result.data.error.message, true); return; }
      form.replaceWith(el("p", "feedback-thanks", "Thank you: your reason is stored with the answer."));
    });
    answer.actions.after(form);
    input.focus();
  }

  // Edit a question and send it again: the edited question is asked as a new turn at the end of the conversation;
  // the original question and its answers stay as they were.
  edit(li, text) {
    if (li.querySelector(".edit-form")) return;
    const form = el("form", "edit-form");
    const area = el("textarea");
    area.value = text;
    area.rows = 3;
    area.setAttribute("aria-label", "Edited question");
    const send = el("button", "action primary", "Send edited question");
    send.type = "submit";
    const cancel = el("button", "action", "Cancel");
    cancel.type = "button";
    form.append(area, send, cancel);
    li.querySelector(".body").hidden = true;
    li.querySelector(".msg-actions").hidden = true;
    li.append(form);
    area.focus();
    const close = () => {
      form.remove();
      li.querySelector(".body").hidden = false;
      li.querySelector(".msg-actions").hidden = false;
      li.querySelector("button.edit").focus();
    };
    cancel.addEventListener("click", close);
    form.addEventListener("keydown", (e) => { if (e.key === "Escape") { e.stopPropagation(); close(); } });
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      if (this.handlers.resend(area.value)) close();
    });
  }
}
