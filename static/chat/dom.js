// Small DOM and HTTP helpers shared by the chat page's modules.

export function el(tag, cls, text) {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  if (text !== undefined) node.textContent = text;
  return node;
}

// A citation chip for one label of the application's source map (never built from model text).
export function chip(label, span) {
  const button = el("button", "cite", label);
  button.type = "button";
  button.dataset.label = label;
  if (span !== undefined && span >= 0) button.dataset.span = String(span);
  button.setAttribute("aria-label", `Show source ${label}`);
  return button;
}

// The headings of the sections a source snapshot spans: one merged from adjacent chunks of several sections
// (`sections`: [[offset, section path], ...]) names them all, as grounding.chunking.section_label names a chunk
// covering several: their common path, then the distinct next headings joined by " · " ("Travel > Meals" and
// "Travel > Hotels" -> ["Travel", "Meals · Hotels"]); a parent whose own text is there names the whole. Else the
// source's own section ("Travel > Meals" -> ["Travel", "Meals"]).
export function spannedSection(source) {
  const paths = [...new Set((source.sections || []).map((part) => part[1]).filter(Boolean))]
    .map((path) => path.split(" > "));
  if (paths.length <= 1) {
    const only = paths.length ? paths[0].join(" > ") : source.section;
    return only ? only.split(" > ") : [];
  }
  const prefix = [];
  while (paths.every((p) => p.length > prefix.length && p[prefix.length] === paths[0][prefix.length])) {
    prefix.push(paths[0][prefix.length]);
  }
  if (paths.some((p) => p.length === prefix.length)) return prefix;
  // a part's heading may itself join merged sections ("Before you travel · Flights"): each heading is named once
  return [...prefix, [...new Set(paths.flatMap((p) => p[prefix.length].split(" · ")))].join(" · ")];
}

// "Title › Section › Sub-section" of a source snapshot, naming every section a merged source spans.
export function sourceName(source) {
  return [source.title, ...spannedSection(source)].filter(Boolean).join(" › ");
}

export const reducedMotion = window.matchMedia("(prefers-reduced-motion: reduce)").matches;

const pageData = JSON.parse(document.getElementById("page-data").textContent);
export function page() { return pageData; }

// POST JSON to one of the page's endpoints (session cookie, CSRF token): {ok, status, data}; data.error.message says
// what went wrong when not ok (a network failure too).
export async function postJSON(url, body) {
  try {
    const response = await fetch(url, {
      method: "POST", credentials: "same-origin",
      headers: {"Content-Type": "application/json", "X-CSRFToken": pageData.csrf},
      body: JSON.stringify(body || {}),
    });
    const data = await response.json().catch(() => ({error: {message: `The server answered ${response.status}.`}}));
    return {ok: response.ok, status: response.status, data};
  } catch (error) {
    return {ok: false, status: 0, data: {error: {message: "The server could not be reached. Try again."}}};
  }
}

export async function getJSON(url) {
  try {
    const response = await fetch(url, {credentials: "same-origin", headers: {"Accept": "application/json"}});
    return {ok: response.ok, status: response.status, data: await response.json()};
  } catch (error) {
    return {ok: false, status: 0, data: {error: {message: "The server could not be reached. Try again."}}};
  }
}

// Announce a short text to screen readers (and show it in the status line).
export function announce(text, isError = false) {
  const status = document.getElementById("status");
  status.textContent = text;
  status.classList.toggle("error", isError);
}
