// Timeline tab: every event (who, what, why, when), filterable by kind.

import { api, settings } from "./api.js";
import {
  EVENT_KINDS, clear, contentText, emptyState, errorBox, fmtDate, fmtNumber, h, kindBadge, label, shortId, stateBadge,
  typeBadge,
} from "./dom.js";

const PAGE = 100;
const root = () => document.getElementById("panel-timeline");
let els = null;
let offset = 0;
let seq = 0;

function selectedKinds() {
  return [...els.kinds.querySelectorAll("input:checked")].map((i) => i.value);
}

function build() {
  const kinds = h("fieldset", { class: "kind-filter" },
    h("legend", { class: "sr-only" }, "Show events of kind"),
    EVENT_KINDS.map((k) => h("label", { class: "kind-chip" },
      h("input", { type: "checkbox", value: k, onchange: () => { load(false); countSelected(); } }), label(k))));
  const summaryText = h("span", {}, "Filter by kind");
  const filter = h("details", { class: "kind-details", open: !window.matchMedia("(max-width: 640px)").matches },
    h("summary", {}, summaryText), kinds);
  const countSelected = () => {
    const n = kinds.querySelectorAll("input:checked").length;
    summaryText.textContent = n ? `Filter by kind (${n} selected)` : "Filter by kind (all kinds shown)";
  };
  countSelected();
  const reset = h("button", { type: "button", class: "btn btn-small" }, "All kinds");
  reset.addEventListener("click", () => {
    kinds.querySelectorAll("input").forEach((i) => { i.checked = false; });
    countSelected();
    load(false);
  });
  const list = h("ol", { class: "timeline", id: "timeline-list" });
  const more = h("button", { type: "button", class: "btn", hidden: true }, "Load more");
  more.addEventListener("click", () => load(true));
  clear(root(), h("section", { class: "card", "aria-labelledby": "tl-heading" },
    h("div", { class: "col-head" }, h("h2", { id: "tl-heading" }, "Timeline"), reset),
    h("p", { class: "muted" }, "Newest first: events of this project's memories and of user-wide ones."),
    filter, list, more));
  els = { kinds, list, more };
}

const HEX_ID = /^[0-9a-f]{32}$/;
let contentById = new Map();

/** One request for the text of every memory in scope (tombstones included), to label events. */
async function loadContents() {
  try {
    const page = await api.memories({ project_id: settings.project, limit: 1000 });
    contentById = new Map(page.items.map((m) => [m.id, m]));
  } catch {
    contentById = new Map();
  }
}

function detailText(details) {
  if (!details || typeof details !== "object") return [];
  return Object.entries(details).filter(([, v]) => v !== null && v !== "" && !(Array.isArray(v) && !v.length))
    .map(([k, v]) => h("span", { class: "detail" }, h("span", { class: "muted" }, `${label(k)}: `),
      Array.isArray(v) ? v.map((x) => (typeof x === "string" && HEX_ID.test(x) ? shortId(x) : JSON.stringify(x))).join(", ")
        : typeof v === "object" ? JSON.stringify(v)
          : typeof v === "number" ? fmtNumber(v)
          : typeof v === "string" && HEX_ID.test(v) ? shortId(v) : String(v)));
}

function eventNode(ev) {
  const known = ev.memory_id ? contentById.get(ev.memory_id) : null;
  const memoryButton = ev.memory_id ? h("button", {
    type: "button", class: "link-btn", "aria-expanded": "false",
    title: "Show this memory",
  }, `memory ${shortId(ev.memory_id)}`) : null;
  const li = h("li", { class: `event kind-${ev.kind}`, dataset: { kind: ev.kind } },
    h("div", { class: "event-dot", "aria-hidden": "true" }),
    h("div", { class: "event-body" },
      h("div", { class: "event-head" }, kindBadge(ev.kind),
        h("time", { datetime: ev.at, class: "small" }, fmtDate(ev.at)),
        h("span", { class: "muted small" }, `by ${ev.actor}`),
        ev.project_id ? h("span", { class: "muted small" }, `· ${ev.project_id}`) : null,
        memoryButton),
      known ? h("p", { class: `event-content${known.content ? "" : " erased"}` }, typeBadge(known.type), " ",
        contentText(known.content)) : null,
      ev.reason ? h("p", { class: "event-reason" }, ev.reason) : null,
      h("p", { class: "event-details small" }, detailText(ev.details))));
  memoryButton?.addEventListener("click", async () => {
    const existing = li.querySelector(".event-memory");
    if (existing) { existing.remove(); memoryButton.setAttribute("aria-expanded", "false"); return; }
    try {
      const m = await api.memory(ev.memory_id);
      li.querySelector(".event-body").append(h("div", { class: "event-memory" },
        typeBadge(m.type), " ", stateBadge(m.state), " ", h("span", {}, contentText(m.content))));
      memoryButton.setAttribute("aria-expanded", "true");
    } catch (err) {
      li.querySelector(".event-body").append(h("div", { class: "event-memory" }, err.detail || err.message));
    }
  });
  return li;
}

async function load(append) {
  const mine = ++seq;
  if (!append) offset = 0;
  try {
    const kinds = selectedKinds();
    const [{ events }] = await Promise.all([
      api.timeline({ kind: kinds.join(","), limit: PAGE, offset }),
      append ? null : loadContents(),
    ]);
    if (mine !== seq) return;
    const nodes = events.map(eventNode);
    if (append) els.list.append(...nodes);
    else if (nodes.length) clear(els.list, nodes);
    else clear(els.list, h("li", {}, emptyState("No events yet for these kinds.")));
    offset += events.length;
    els.more.hidden = events.length < PAGE;
  } catch (err) {
    if (mine === seq) clear(els.list, h("li", {}, errorBox(err, () => load(false))));
  }
}

export const timelineTab = {
  mount() {
    if (!els || !root().contains(els.list)) build();
    load(false);
  },
  refresh() { build(); load(false); },
};
