// DOM helpers. Data only ever reaches the page as text nodes or attribute values:
// nothing here (or anywhere in the app) assigns innerHTML.

const SVG_NS = "http://www.w3.org/2000/svg";

function applyAttrs(el, attrs, isSvg) {
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "class") el.setAttribute("class", Array.isArray(value) ? value.filter(Boolean).join(" ") : value);
    else if (key === "dataset") Object.assign(el.dataset, value);
    else if (key === "style" && typeof value === "object") Object.assign(el.style, value);
    else if (key.startsWith("on") && typeof value === "function") el.addEventListener(key.slice(2), value);
    else if (!isSvg && (key === "value" || key === "checked" || key === "selected" || key === "disabled")) {
      el[key] = value;
    } else el.setAttribute(key, value === true ? "" : String(value));
  }
}

function appendChildren(el, children) {
  for (const child of children.flat(Infinity)) {
    if (child === undefined || child === null || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** h("div", {class: "x"}, "text", otherNode): strings become text nodes. */
export function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  applyAttrs(el, attrs, false);
  appendChildren(el, children);
  return el;
}

export function s(tag, attrs, ...children) {
  const el = document.createElementNS(SVG_NS, tag);
  applyAttrs(el, attrs, true);
  appendChildren(el, children);
  return el;
}

export function clear(el, ...children) {
  el.replaceChildren();
  appendChildren(el, children);
  return el;
}

export const MEMORY_TYPES = [
  "preference", "project", "decision", "mistake", "constraint", "deadline", "learning_goal",
  "task", "critical", "temporary", "outdated", "deleted_by_user", "fact", "episode",
];
export const MEMORY_STATES = ["active", "pinned", "archived", "expired", "superseded", "deleted"];
export const EVENT_KINDS = [
  "created", "updated", "pinned", "unpinned", "archived", "restored", "expired", "superseded",
  "deleted", "merged", "promoted", "summary_created", "summary_refreshed", "imported", "reembedded",
];

// Colours chosen for white text at >= 4.5:1 contrast; the graph reuses them.
export const TYPE_COLORS = {
  preference: "#6d28d9",
  project: "#1d4ed8",
  decision: "#0f766e",
  mistake: "#b91c1c",
  constraint: "#c2410c",
  deadline: "#92400e",
  learning_goal: "#15803d",
  fact: "#0e7490",
  task: "#0369a1",
  critical: "#9f1239",
  temporary: "#4b5563",
  outdated: "#57534e",
  deleted_by_user: "#1f2937",
  episode: "#4338ca",
};

export function label(name) {
  return String(name ?? "").replaceAll("_", " ");
}

export function typeBadge(type) {
  return h("span", {
    class: "badge badge-type", style: { background: TYPE_COLORS[type] || "#374151" },
    title: `type: ${label(type)}`,
  }, label(type));
}

export function stateBadge(state) {
  return h("span", { class: `badge badge-state state-${state}`, title: `state: ${state}` }, state);
}

export function kindBadge(kind) {
  return h("span", { class: `badge badge-kind kind-${kind}` }, label(kind));
}

export function shortId(id) {
  return id ? String(id).slice(0, 8) : "";
}

export function fmtNumber(value, digits = 2) {
  if (value === null || value === undefined || Number.isNaN(value)) return "–";
  if (typeof value !== "number") return String(value);
  if (Number.isInteger(value)) return value.toLocaleString();
  return value.toFixed(digits);
}

export function fmtMs(value) {
  if (value === null || value === undefined) return "–";
  return value < 10 ? `${value.toFixed(1)} ms` : `${Math.round(value)} ms`;
}

export function fmtDate(iso, { time = true } = {}) {
  if (!iso) return "–";
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return String(iso);
  return time
    ? d.toLocaleString(undefined, { year: "numeric", month: "short", day: "numeric", hour: "2-digit", minute: "2-digit" })
    : d.toLocaleDateString(undefined, { year: "numeric", month: "short", day: "numeric" });
}

export function relTime(iso) {
  if (!iso) return "";
  const seconds = (Date.now() - new Date(iso).getTime()) / 1000;
  if (Number.isNaN(seconds)) return "";
  const abs = Math.abs(seconds);
  const fmt = new Intl.RelativeTimeFormat(undefined, { numeric: "auto" });
  if (abs < 60) return fmt.format(-Math.round(seconds), "second");
  if (abs < 3600) return fmt.format(-Math.round(seconds / 60), "minute");
  if (abs < 86400) return fmt.format(-Math.round(seconds / 3600), "hour");
  return fmt.format(-Math.round(seconds / 86400), "day");
}

/** A text shown for a memory whose content is gone (Forget) or missing. */
export function contentText(content) {
  return content ? content : "(content erased)";
}

// --- notifications ---------------------------------------------------------------------------
let toastRegion;
export function toast(message, kind = "info") {
  toastRegion ||= document.getElementById("toasts");
  const item = h("div", { class: `toast toast-${kind}`, role: kind === "error" ? "alert" : "status" }, message);
  toastRegion.append(item);
  setTimeout(() => item.remove(), kind === "error" ? 8000 : 4000);
}

export function errorBox(error, retry) {
  return h("div", { class: "callout callout-error", role: "alert" },
    h("strong", {}, "Something went wrong: "), error?.detail || error?.message || String(error),
    retry ? h("button", { type: "button", class: "btn btn-small", onclick: retry }, "Retry") : null);
}

export function emptyState(text, ...extra) {
  return h("div", { class: "empty" }, h("p", {}, text), ...extra);
}

/** A modal confirmation built on <dialog>; resolves true when confirmed. */
export function confirmDialog({ title, body, confirmLabel = "Confirm", danger = false }) {
  return new Promise((resolve) => {
    const dialog = h("dialog", { class: "modal", "aria-labelledby": "confirm-title" });
    const cancel = h("button", { type: "button", class: "btn", value: "cancel" }, "Cancel");
    const ok = h("button", { type: "button", class: danger ? "btn btn-danger" : "btn btn-primary", value: "ok" },
      confirmLabel);
    const finish = (result) => { dialog.close(); dialog.remove(); resolve(result); };
    cancel.addEventListener("click", () => finish(false));
    ok.addEventListener("click", () => finish(true));
    dialog.addEventListener("cancel", (e) => { e.preventDefault(); finish(false); });
    dialog.append(
      h("h2", { id: "confirm-title" }, title),
      ...(Array.isArray(body) ? body : [body]).map((b) => (b instanceof Node ? b : h("p", {}, b))),
      h("div", { class: "modal-actions" }, cancel, ok),
    );
    document.body.append(dialog);
    dialog.showModal();
    cancel.focus();
  });
}

export function debounce(fn, ms = 250) {
  let timer;
  return (...args) => { clearTimeout(timer); timer = setTimeout(() => fn(...args), ms); };
}
