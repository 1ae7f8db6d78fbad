// Analytics tab: counts by type and state, growth, token savings, and the Reflect button.

import { api } from "./api.js";
import { barList, growthChart } from "./charts.js";
import {
  MEMORY_STATES, MEMORY_TYPES, TYPE_COLORS, clear, contentText, errorBox, fmtNumber, h, label, shortId, toast,
  typeBadge,
} from "./dom.js";

const STATE_COLORS = {
  active: "#15803d", pinned: "#1e3a8a", archived: "#6b7280", expired: "#b45309", superseded: "#7e22ce", deleted: "#b91c1c",
};
const root = () => document.getElementById("panel-analytics");
let els = null;
let lastReflect = null;

function kpi(title, value, hint, key) {
  return h("div", { class: "kpi", dataset: { kpi: key } },
    h("span", { class: "kpi-value" }, value), h("span", { class: "kpi-title" }, title),
    hint ? h("span", { class: "kpi-hint" }, hint) : null);
}

function build() {
  const reflectBtn = h("button", { type: "button", class: "btn btn-primary", id: "reflect-btn" }, "Reflect now");
  const sweepBtn = h("button", { type: "button", class: "btn", id: "sweep-btn" }, "Run forgetting sweep");
  const reflectOut = h("div", { class: "reflect-out", id: "reflect-out", "aria-live": "polite" });
  const body = h("div", { class: "analytics-body", id: "analytics-body" });
  reflectBtn.addEventListener("click", () => reflect(reflectBtn));
  sweepBtn.addEventListener("click", () => sweep(sweepBtn));
  clear(root(),
    h("section", { class: "card", "aria-labelledby": "reflect-heading" },
      h("div", { class: "col-head" }, h("h2", { id: "reflect-heading" }, "Consolidation"),
        h("div", { class: "inline-controls" }, sweepBtn, reflectBtn)),
      h("p", { class: "muted" },
        "Reflect goes over this project's memories and the user-wide ones it sees (chat keeps preferences user-wide), each on its own: it merges near-duplicates of the same type, promotes memories used at least twice, and keeps one summary per type with at least 3 memories. Running it again with nothing new changes nothing."),
      reflectOut),
    body);
  els = { body, reflectOut };
  if (lastReflect) renderReflect(lastReflect);
}

async function load() {
  try {
    const a = await api.analytics();
    render(a);
  } catch (err) {
    clear(els.body, errorBox(err, load));
  }
}

function render(a) {
  const t = a.tokens || {};
  const c = a.consolidation || {};
  // The server leaves savings out (null) until they mean something: a context was built and it is
  // smaller than every active memory sent whole.
  const measured = typeof t.savings_ratio === "number";
  const savings = measured ? `${(t.savings_ratio * 100).toFixed(0)}%` : "–";
  const basis = `vs. ${t.savings_basis || "every active memory in the prompt"}`;
  const typeRows = MEMORY_TYPES.filter((k) => a.by_type?.[k]).map((k) => ({ key: k, label: label(k), value: a.by_type[k], color: TYPE_COLORS[k] }));
  Object.keys(a.by_type || {}).filter((k) => !MEMORY_TYPES.includes(k)).forEach((k) => typeRows.push({ key: k, label: label(k), value: a.by_type[k] }));
  const stateRows = MEMORY_STATES.filter((k) => a.by_state?.[k]).map((k) => ({ key: k, label: k, value: a.by_state[k], color: STATE_COLORS[k] }));
  const growth = dailySeries(a.growth || []);
  const tokenRows = [
    { key: "all", label: "every active memory", value: t.active_memory_tokens ?? 0, color: "#94a3b8" },
    { key: "candidates", label: "candidates (avg)", value: t.avg_candidate_tokens ?? 0, color: "#60a5fa" },
    { key: "context", label: "context sent (avg)", value: t.avg_context_tokens ?? 0, color: "#0f766e" },
  ];
  clear(els.body,
    h("section", { class: "kpis", "aria-label": "Key numbers" },
      kpi("memories", fmtNumber(a.total ?? 0), null, "total"),
      kpi("active memory tokens", fmtNumber(t.active_memory_tokens ?? 0), "what sending everything would cost", "active_tokens"),
      kpi("contexts built", fmtNumber(t.contexts ?? 0), null, "contexts"),
      kpi("avg context tokens", fmtNumber(t.avg_context_tokens ?? 0, 0), null, "avg_context"),
      kpi("token savings", savings, measured ? basis : "none yet: see below", "savings"),
      kpi("summaries", fmtNumber(c.summaries ?? 0), null, "summaries"),
      kpi("promoted", fmtNumber(c.promoted ?? 0), null, "promoted"),
      kpi("pinned", fmtNumber(c.pinned ?? 0), null, "pinned")),
    h("div", { class: "grid-2" },
      h("section", { class: "card", "aria-labelledby": "by-type-h" }, h("h3", { id: "by-type-h" }, "By type"),
        typeRows.length ? barList(typeRows, { ariaLabel: "memories by type" }) : h("p", { class: "muted" }, "No memories yet.")),
      h("section", { class: "card", "aria-labelledby": "by-state-h" }, h("h3", { id: "by-state-h" }, "By state"),
        stateRows.length ? barList(stateRows, { ariaLabel: "memories by state" }) : h("p", { class: "muted" }, "No memories yet."))),
    h("div", { class: "grid-2" },
      h("section", { class: "card", "aria-labelledby": "growth-h" }, h("h3", { id: "growth-h" }, "Growth over time"),
        growth.length
          ? [growthChart(growth, { ariaLabel: "memories created per day, with the running total" }),
            h("p", { class: "muted small" }, "Columns: created that day (left axis). Line: running total (right axis).")]
          : h("p", { class: "muted" }, "No memories yet.")),
      h("section", { class: "card", "aria-labelledby": "tokens-h" }, h("h3", { id: "tokens-h" }, "Token savings per context"),
        barList(tokenRows, { ariaLabel: "average tokens per context", format: (v) => `${fmtNumber(v, 0)} tok` }),
        h("p", { class: "muted small", id: "savings-note" }, savingsNote(t, measured, savings)))));
}

function savingsNote(t, measured, savings) {
  if (!t.contexts) return "Build a context (send a chat message) to measure savings.";
  if (!measured) {
    return `No savings yet: this project's active memories (${fmtNumber(t.active_memory_tokens ?? 0)} tokens) are no more than a context costs with its data header, so sending them whole would cost as much. Savings show once the store outgrows a context.`;
  }
  return `Over ${fmtNumber(t.contexts)} contexts, a typical context was ${savings} smaller than putting every active memory in the prompt. A context counts its data header too.`;
}

/** Every day from the first creation (at least two weeks back) to today, zeros included. */
function dailySeries(growth) {
  if (!growth.length) return [];
  const counts = new Map(growth.map((g) => [String(g.date).slice(0, 10), g.created]));
  const day = 86_400_000;
  const parse = (d) => Date.parse(`${d}T00:00:00Z`);
  const dates = [...counts.keys()].map(parse).filter((t) => !Number.isNaN(t));
  if (!dates.length) return growth.map((g) => ({ label: String(g.date), value: g.created }));
  const today = parse(new Date().toISOString().slice(0, 10));
  const end = Math.max(today, ...dates);
  const start = Math.min(Math.min(...dates), end - 13 * day);
  const points = [];
  for (let t = start; t <= end && points.length < 400; t += day) {
    const iso = new Date(t).toISOString().slice(0, 10);
    points.push({ label: iso.slice(5), value: counts.get(iso) || 0 });
  }
  return points;
}

function lineFor(id, extra) {
  const line = h("li", { dataset: { memoryId: id } }, h("code", {}, shortId(id)), " ", h("span", { class: "txt" }, ""),
    extra ? h("span", { class: "muted small" }, ` ${extra}`) : null);
  api.memory(id).then((m) => {
    line.querySelector("code").replaceWith(typeBadge(m.type));
    line.querySelector(".txt").textContent = contentText(m.content);
  }).catch(() => {});
  return line;
}

function renderReflect(r) {
  const merged = r.merged || [];
  const promoted = r.promoted || [];
  const created = r.summaries_created || [];
  const refreshed = r.summaries_refreshed || [];
  const retired = r.summaries_retired || [];
  const group = (title, cls, items) => h("div", { class: `reflect-group ${cls}` },
    h("h4", {}, `${title} `, h("span", { class: "count" }, String(items.length))),
    items.length ? h("ul", { class: "turn-list" }, items) : h("p", { class: "muted small" }, "none"));
  clear(els.reflectOut,
    h("p", { class: r.changed ? "callout callout-ok" : "callout" },
      r.changed ? "Reflect changed the memory set:" : "Nothing to consolidate: reflect changed nothing."),
    h("div", { class: "reflect-grid" },
      group("Merged", "r-merged", merged.map((m) => {
        const li = lineFor(m.survivor, `kept (similarity ${fmtNumber(m.ratio)})`);
        li.append(h("ul", { class: "sub" }, (m.archived || []).map((id) => lineFor(id, "archived into it"))));
        return li;
      })),
      group("Promoted", "r-promoted", promoted.map((id) => lineFor(id))),
      group("Summaries created", "r-created", created.map((sm) => lineFor(sm.id, `${label(sm.type)} · ${sm.source_ids?.length ?? 0} sources`))),
      group("Summaries refreshed", "r-refreshed", refreshed.map((sm) => lineFor(sm.id || sm, sm.type ? label(sm.type) : ""))),
      group("Summaries retired", "r-retired", retired.map((id) => lineFor(typeof id === "string" ? id : id.id)))),
    created.length || refreshed.length
      ? h("p", { class: "muted small" }, "Summaries show as gold stars in the Graph tab.") : null);
}

async function reflect(button) {
  button.disabled = true;
  button.textContent = "Reflecting…";
  try {
    lastReflect = await api.reflect();
    renderReflect(lastReflect);
    toast(lastReflect.changed ? "Reflect done." : "Reflect: nothing to consolidate.");
    load();
  } catch (err) {
    clear(els.reflectOut, errorBox(err));
  } finally {
    button.disabled = false;
    button.textContent = "Reflect now";
  }
}

async function sweep(button) {
  button.disabled = true;
  try {
    const r = await api.forgettingRun();
    toast(`Forgetting sweep: ${r.expired?.length ?? 0} expired, ${r.archived?.length ?? 0} archived.`);
    load();
  } catch (err) {
    toast(`Sweep failed: ${err.detail || err.message}`, "error");
  } finally {
    button.disabled = false;
  }
}

export const analyticsTab = {
  mount() {
    if (!els || !root().contains(els.body)) build();
    load();
  },
  refresh() { lastReflect = null; build(); load(); },
};
