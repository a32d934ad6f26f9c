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

// "Title › Section › Sub-section" of a source snapshot.
export function sourceName(source) {
  return [source.title, ...(source.section ? source.section.split(" > ") : [])].filter(Boolean).join(" › ");
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
