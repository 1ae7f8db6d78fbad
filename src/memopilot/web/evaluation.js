// Evaluation tab: run the scenario suite, show the strategies side by side.
// The report's shape is read defensively: unknown metrics still show in the table.

import { api } from "./api.js";
import { barList, chartLegend, groupedBars } from "./charts.js";
import { clear, emptyState, errorBox, fmtNumber, h, label } from "./dom.js";

const PREFERRED = [
  "accuracy", "context_recall", "outdated_avoidance", "answer_f1", "avg_context_tokens", "token_reduction",
  "latency_p50_ms", "latency_p95_ms", "p50_ms", "p95_ms",
];
const NOT_METRICS = new Set(["n"]);
const SERIES_COLORS = ["#1d4ed8", "#0f766e", "#b45309", "#7e22ce", "#be123c", "#4b5563"];
const STRATEGY_COLORS = ["#0f766e", "#1d4ed8", "#b45309", "#7e22ce", "#be123c", "#4b5563", "#15803d", "#9f1239"];
const root = () => document.getElementById("panel-evaluation");
let els = null;
let running = false;

function isRatio(key, values) {
  if (/(_ms|tokens|count|_s)$/.test(key)) return false;
  return values.every((v) => typeof v === "number" && v >= 0 && v <= 1);
}

function metricKeys(strategies) {
  const keys = new Set();
  Object.values(strategies).forEach((m) => Object.entries(m || {}).forEach(([k, v]) => {
    if ((typeof v === "number" || v === null) && !NOT_METRICS.has(k)) keys.add(k);
  }));
  return [...PREFERRED.filter((k) => keys.has(k)), ...[...keys].filter((k) => !PREFERRED.includes(k)).sort()];
}

function fmtMetric(key, value, ratio) {
  if (typeof value !== "number") return value === undefined || value === null ? "–" : String(value);
  if (ratio) return `${(value * 100).toFixed(1)}%`;
  if (key.endsWith("_ms")) return `${value.toFixed(value < 10 ? 2 : 0)} ms`;
  return fmtNumber(value, 1);
}

function build() {
  const run = h("button", { type: "button", class: "btn btn-primary", id: "eval-run" }, "Run scenario suite");
  const status = h("p", { class: "muted", id: "eval-status", "aria-live": "polite" });
  const body = h("div", { id: "eval-body" });
  run.addEventListener("click", () => runSuite(run));
  clear(root(),
    h("section", { class: "card", "aria-labelledby": "eval-heading" },
      h("div", { class: "col-head" }, h("h2", { id: "eval-heading" }, "Evaluation"), run),
      h("p", { class: "muted" },
        "Runs the scenario suite against MemoPilot's memory and the baselines (no memory, raw or full history, a history summary) and compares recall in the assembled context, outdated-avoidance, context tokens and latency."),
      status),
    body);
  els = { run, status, body };
}

async function load() {
  try {
    const report = await api.evalReport();
    if (report.ran === false) {
      clear(els.body, h("section", { class: "card" }, emptyState("No evaluation has run yet.",
        h("p", { class: "muted" }, "Press “Run scenario suite” to run one. It takes a few seconds to a minute."))));
    } else {
      render(report);
    }
    els.status.textContent = "";
  } catch (err) {
    clear(els.body, errorBox(err, load));
  }
}

async function runSuite(button) {
  if (running) return;
  running = true;
  button.disabled = true;
  const started = Date.now();
  const timer = setInterval(() => {
    els.status.textContent = `Running the scenario suite… ${Math.round((Date.now() - started) / 1000)} s`;
  }, 500);
  els.status.textContent = "Running the scenario suite…";
  try {
    const report = await api.evalRun();
    if (report && report.strategies) render(report);
    else await load();
    els.status.textContent = `Finished in ${((Date.now() - started) / 1000).toFixed(1)} s.`;
  } catch (err) {
    els.status.textContent = "";
    clear(els.body, errorBox(err, () => runSuite(button)));
  } finally {
    clearInterval(timer);
    running = false;
    button.disabled = false;
  }
}

function genericTable(rows, caption) {
  if (!rows.length) return null;
  const cols = [...new Set(rows.flatMap((r) => Object.keys(r).filter((k) => r[k] === null || typeof r[k] !== "object")))].slice(0, 9);
  return h("div", { class: "table-wrap" }, labelCells(h("table", { class: "data" },
    h("caption", { class: "sr-only" }, caption),
    h("thead", {}, h("tr", {}, cols.map((c) => h("th", { scope: "col" }, label(c))))),
    h("tbody", {}, rows.slice(0, 300).map((r) => h("tr", {}, cols.map((c) => {
      const v = r[c];
      return h("td", { class: typeof v === "number" ? "num" : "" },
        typeof v === "boolean" ? (v ? "✓ yes" : "✗ no") : typeof v === "number" ? fmtNumber(v) : (v ?? "–"));
    })))))));
}

/** Each body cell carries its column's name: on a phone the rows stack and show it (app.css). */
function labelCells(table) {
  const names = [...table.querySelectorAll("thead th")].map((th) => th.textContent);
  table.querySelectorAll("tbody tr").forEach((tr) => {
    [...tr.children].forEach((cell, i) => { cell.dataset.label = names[i] ?? ""; });
  });
  return table;
}

/** {category: {strategy: {metric: value, n}}} (or {category: {strategy: value}}) as a table. */
function categorySection(byCategory, strategyNames, metricNames) {
  const cats = Object.keys(byCategory || {});
  if (!cats.length) return null;
  const nested = cats.some((c) => Object.values(byCategory[c] || {}).some((v) => v && typeof v === "object"));
  const choices = nested
    ? [...new Set(cats.flatMap((c) => Object.values(byCategory[c] || {}).flatMap((v) => Object.keys(v || {}))))]
      .filter((k) => !NOT_METRICS.has(k))
    : [];
  const ordered = [...metricNames.filter((k) => choices.includes(k)), ...choices.filter((k) => !metricNames.includes(k))];
  const select = nested ? h("select", { id: "eval-cat-metric" }, ordered.map((k) => h("option", { value: k }, label(k)))) : null;
  const holder = h("div", { class: "table-wrap" });
  const cols = strategyNames.filter((n) => cats.some((c) => n in (byCategory[c] || {})));
  const draw = () => {
    const metric = select?.value;
    const ratio = metric ? isRatio(metric, cats.flatMap((c) => cols.map((n) => byCategory[c]?.[n]?.[metric]))
      .filter((v) => v !== undefined && v !== null)) : true;
    clear(holder, labelCells(h("table", { class: "data", id: "eval-categories" },
      h("caption", { class: "sr-only" }, `${metric ? label(metric) : "results"} by category`),
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "category"), cols.map((c) => h("th", { scope: "col" }, label(c))))),
      h("tbody", {}, cats.map((cat) => {
        const first = byCategory[cat]?.[cols[0]];
        const n = first && typeof first === "object" ? first.n : undefined;
        return h("tr", {}, h("th", { scope: "row" }, label(cat), n !== undefined ? h("span", { class: "muted small" }, ` (${n})`) : null),
          cols.map((c) => {
            const v = metric ? byCategory[cat]?.[c]?.[metric] : byCategory[cat]?.[c];
            return h("td", { class: "num" }, fmtMetric(metric || "", v, ratio));
          }));
      })))));
  };
  select?.addEventListener("change", draw);
  if (select && ordered.includes("context_recall")) select.value = "context_recall";
  draw();
  return h("section", { class: "card", "aria-labelledby": "eval-c-h" },
    h("div", { class: "col-head" }, h("h3", { id: "eval-c-h" }, "By category"),
      select ? h("label", { class: "check" }, "Metric ", select) : null),
    holder);
}

/** Scenario rows as a pivot: one row per scenario, one column per strategy. */
function scenarioSection(scenarios, strategyNames) {
  if (!scenarios.length) return null;
  const pivot = scenarios.every((r) => "id" in r && "strategy" in r && "context_recall" in r);
  let table;
  if (pivot) {
    const rows = new Map();
    for (const r of scenarios) {
      if (!rows.has(r.id)) rows.set(r.id, { id: r.id, category: r.category, by: {} });
      rows.get(r.id).by[r.strategy] = r;
    }
    const cols = strategyNames.filter((n) => scenarios.some((r) => r.strategy === n));
    table = h("div", { class: "table-wrap" }, labelCells(h("table", { class: "data", id: "eval-scenarios" },
      h("caption", { class: "sr-only" }, "Context recall per scenario and strategy"),
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "scenario"), h("th", { scope: "col" }, "category"),
        cols.map((c) => h("th", { scope: "col" }, label(c))))),
      h("tbody", {}, [...rows.values()].map((row) => h("tr", {},
        h("th", { scope: "row" }, row.id), h("td", {}, label(row.category)),
        cols.map((c) => {
          const r = row.by[c];
          if (!r) return h("td", {}, "–");
          const outdated = Array.isArray(r.forbidden_in_context) && r.forbidden_in_context.length;
          const missing = Array.isArray(r.missing) ? r.missing.map((g) => (Array.isArray(g) ? g.join(" / ") : String(g))) : [];
          return h("td", {
            class: `num ${r.context_recall >= 1 && !outdated ? "cell-ok" : "cell-bad"}`,
            title: [missing.length ? `missing: ${missing.join("; ")}` : "", outdated ? `outdated in context: ${r.forbidden_in_context.join(", ")}` : ""]
              .filter(Boolean).join(" · ") || null,
          }, `${Math.round(r.context_recall * 100)}%`, outdated ? " ⚠ outdated" : "");
        })))))));
  } else {
    table = genericTable(scenarios, "Scenarios");
  }
  return h("section", { class: "card" }, h("details", { class: "disclosure" },
    h("summary", {}, h("h3", { class: "inline" }, `Scenarios (${pivot ? new Set(scenarios.map((r) => r.id)).size : scenarios.length})`)),
    pivot ? h("p", { class: "muted small" }, "Context recall per scenario; “outdated” marks a context that still held a superseded fact. Hover a cell for what was missing.") : null,
    table));
}

function render(report) {
  const strategies = report.strategies || {};
  const names = Object.keys(strategies);
  if (!names.length) {
    clear(els.body, h("section", { class: "card" }, emptyState("The report lists no strategies.")));
    return;
  }
  const keys = metricKeys(strategies);
  const ratioKeys = keys.filter((k) => isRatio(k, names.map((n) => strategies[n][k]).filter((v) => v !== undefined && v !== null)));
  const table = h("div", { class: "table-wrap" }, labelCells(h("table", { class: "data", id: "eval-table" },
    h("caption", { class: "sr-only" }, "Metrics per strategy"),
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "strategy"), keys.map((k) => h("th", { scope: "col" }, label(k))))),
    h("tbody", {}, names.map((n) => h("tr", { dataset: { strategy: n } }, h("th", { scope: "row" }, label(n)),
      keys.map((k) => h("td", { class: "num" }, fmtMetric(k, strategies[n][k], ratioKeys.includes(k))))))))));
  const quality = ratioKeys.slice(0, 4).map((k, i) => ({ key: k, label: label(k), color: SERIES_COLORS[i] }));
  const qualityChart = quality.length
    ? [groupedBars(names.map((n) => ({ label: label(n), values: strategies[n] })), quality, {
      max: 1, format: (v) => `${Math.round(v * 100)}%`, ariaLabel: "quality metrics per strategy",
    }), chartLegend(quality)]
    : null;
  const tokensKey = keys.find((k) => k === "avg_context_tokens") || keys.find((k) => k.includes("tokens"));
  const tokenBars = tokensKey
    ? barList(names.map((n, i) => ({ key: n, label: label(n), value: strategies[n][tokensKey] ?? 0, color: STRATEGY_COLORS[i % STRATEGY_COLORS.length] })),
      { ariaLabel: label(tokensKey), format: (v) => `${fmtNumber(v, 0)} tok` })
    : null;
  const latency = ["p50", "p95"].map((p) => keys.find((k) => k.endsWith("_ms") && k.includes(p))).filter(Boolean)
    .map((k, i) => ({ key: k, label: label(k), color: SERIES_COLORS[i + 2] }));
  const latencyChart = latency.length
    ? [groupedBars(names.map((n) => ({ label: label(n), values: strategies[n] })), latency, {
      format: (v) => `${v.toFixed(v < 10 ? 1 : 0)}`, ariaLabel: "latency per strategy in milliseconds",
    }), chartLegend(latency)]
    : null;
  const meta = Object.entries(report).filter(([, v]) => v !== null && typeof v !== "object");
  const counts = [...new Set(names.map((n) => strategies[n].n).filter((v) => typeof v === "number"))];
  if (counts.length === 1) meta.unshift(["scenarios", counts[0]]);
  const scenarios = Array.isArray(report.scenarios) ? report.scenarios.filter((x) => x && typeof x === "object") : [];
  clear(els.body,
    meta.length ? h("p", { class: "muted small eval-meta" }, meta.map(([k, v]) => `${label(k)}: ${v}`).join(" · ")) : null,
    h("section", { class: "card", "aria-labelledby": "eval-table-h" }, h("h3", { id: "eval-table-h" }, "Strategies"), table),
    h("div", { class: "grid-2" },
      qualityChart ? h("section", { class: "card", "aria-labelledby": "eval-q-h" }, h("h3", { id: "eval-q-h" }, "Quality"), qualityChart) : null,
      h("section", { class: "card", "aria-labelledby": "eval-t-h" }, h("h3", { id: "eval-t-h" }, "Context tokens and latency"),
        tokenBars, latencyChart ? h("h4", {}, "Latency (ms)") : null, latencyChart)),
    categorySection(report.by_category, names, keys),
    scenarioSection(scenarios, names));
}

export const evaluationTab = {
  mount() {
    if (!els || !root().contains(els.body)) build();
    if (!running) load();
  },
  refresh() { this.mount(); },
};
