// The conversations sidebar: most recently used first, kept up to date as questions are asked; search by title and
// text; rename in place; delete after a confirmation. On a phone it is a drawer opened from the top bar.

import {announce, el, getJSON, page, postJSON} from "./dom.js";

const list = document.getElementById("conversation-list");
const search = document.getElementById("conversation-search");
const result = document.getElementById("search-result");
const dialog = document.getElementById("confirm-delete");
const toggle = document.getElementById("menu-toggle");
const sidebar = document.getElementById("sidebar");
const backdrop = document.getElementById("drawer-backdrop");
const phone = window.matchMedia("(max-width: 760px)");
let current = page().conversation ? String(page().conversation) : null;
let query = "";

function item(c) {
  const li = el("li");
  li.dataset.id = String(c.id);
  if (String(c.id) === current) li.setAttribute("aria-current", "page");
  const a = el("a", "title", c.title);
  a.href = c.url || `/c/${c.id}/`;
  li.append(a, el("small", "domain", c.domain || ""));
  if (c.match) li.append(el("small", "match", c.match));
  decorate(li);
  return li;
}

// Rename and delete buttons of an entry (named after it for screen readers).
function decorate(li) {
  li.querySelector(".item-actions")?.remove();
  const title = li.querySelector("a.title").textContent;
  const actions = el("span", "item-actions");
  const rename = el("button", "rename", "Rename");
  const remove = el("button", "delete", "Delete");
  rename.type = remove.type = "button";
  rename.setAttribute("aria-label", `Rename “${title}”`);
  remove.setAttribute("aria-label", `Delete “${title}”`);
  rename.addEventListener("click", () => startRename(li));
  remove.addEventListener("click", () => confirmDelete(li));
  actions.append(rename, remove);
  li.append(actions);
}

function render(conversations) {
  list.replaceChildren(...conversations.map(item));
  if (!conversations.length) list.append(el("li", "empty", query ? "No conversation matches." : "No conversations yet."));
}

// A question asked (or an answer regenerated) in conversation `id`: it moves to the top, and a new one is added
// with its domain under its title.
export function touch(id, title, domain) {
  current = String(id);
  list.querySelectorAll("li[aria-current]").forEach((li) => li.removeAttribute("aria-current"));
  list.querySelector("li.empty")?.remove();
  let li = list.querySelector(`li[data-id="${current}"]`);
  if (!li) {
    if (query) return; // a search is shown: the new conversation appears when it is cleared
    li = item({id, title, domain});
  }
  li.setAttribute("aria-current", "page");
  list.prepend(li);
}

async function runSearch() {
  query = search.value.trim();
  const found = await getJSON(`/conversations/search?q=${encodeURIComponent(query)}`);
  if (!found.ok) { announce((found.data.error || {}).message || "The search failed.", true); return; }
  if (query !== search.value.trim()) return; // typed on meanwhile
  render(found.data.conversations);
  const n = found.data.conversations.length;
  result.textContent = query ? `${n} conversation${n === 1 ? "" : "s"} found.` : "";
}

let timer = null;
search.addEventListener("input", () => { clearTimeout(timer); timer = setTimeout(runSearch, 250); });
document.getElementById("conversation-search-form").addEventListener("submit", (e) => {
  e.preventDefault();
  clearTimeout(timer);
  runSearch();
});

function startRename(li) {
  const link = li.querySelector("a.title");
  const form = el("form", "rename-form");
  const input = el("input");
  input.value = link.textContent;
  input.maxLength = page().maxNameChars;
  input.setAttribute("aria-label", "New name of the conversation");
  const error = el("small", "error", "");
  error.id = `rename-error-${li.dataset.id}`;
  error.setAttribute("role", "alert");
  input.setAttribute("aria-describedby", error.id);
  form.append(input, error);
  link.hidden = true;
  li.querySelector(".item-actions").hidden = true;
  li.prepend(form);
  input.focus();
  input.select();
  const close = () => {
    form.remove();
    link.hidden = false;
    li.querySelector(".item-actions").hidden = false;
    li.querySelector("button.rename").focus();
  };
  input.addEventListener("keydown", (e) => { if (e.key === "Escape") { e.stopPropagation(); close(); } });
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const done = await postJSON(`/conversations/${li.dataset.id}/rename`, {title: input.value});
    if (!done.ok) { error.textContent = done.data.error.message; input.setAttribute("aria-invalid", "true"); return; }
    const title = done.data.conversation.title;
    link.textContent = title;
    decorate(li);
    close();
    if (li.dataset.id === current) {
      const heading = document.getElementById("conversation-title");
      if (heading) heading.textContent = title;
      document.title = `${title} · Grounded chat`;
    }
    announce(`Renamed to “${title}”.`);
  });
}

function confirmDelete(li) {
  const title = li.querySelector("a.title").textContent;
  document.getElementById("confirm-delete-text").textContent =
    `“${title}” and all its questions, answers and feedback will be deleted. This cannot be undone.`;
  dialog.returnValue = "";
  dialog.showModal();
  dialog.addEventListener("close", async () => {
    if (dialog.returnValue !== "delete") { li.querySelector("button.delete")?.focus(); return; }
    const done = await postJSON(`/conversations/${li.dataset.id}/delete`);
    if (!done.ok) { announce(done.data.error.message, true); li.querySelector("button.delete")?.focus(); return; }
    if (li.dataset.id === current) { window.location.assign("/"); return; }
    const next = li.nextElementSibling || li.previousElementSibling;
    li.remove();
    if (!list.children.length) list.append(el("li", "empty", "No conversations yet."));
    (next?.querySelector("a.title") || search).focus();
    announce(`Deleted “${title}”.`);
  }, {once: true});
}

// --- the drawer (phone screens) ---------------------------------------------------------------------------------------

export function openDrawer() {
  document.body.classList.add("drawer-open");
  toggle.setAttribute("aria-expanded", "true");
  backdrop.hidden = false;
  search.focus();
}

export function closeDrawer(focusToggle = true) {
  if (!document.body.classList.contains("drawer-open")) return false;
  document.body.classList.remove("drawer-open");
  toggle.setAttribute("aria-expanded", "false");
  backdrop.hidden = true;
  if (focusToggle) toggle.focus();
  return true;
}

toggle.addEventListener("click", () => (document.body.classList.contains("drawer-open") ? closeDrawer() : openDrawer()));
backdrop.addEventListener("click", () => closeDrawer());
document.getElementById("drawer-close").addEventListener("click", () => closeDrawer());
sidebar.addEventListener("keydown", (e) => { if (e.key === "Escape" && phone.matches && closeDrawer()) e.stopPropagation(); });
phone.addEventListener("change", () => closeDrawer(false));

list.querySelectorAll("li[data-id]").forEach(decorate);
