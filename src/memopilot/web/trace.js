// Rendering of one retrieval trace: budget, latency, included/skipped memories with
// their score components, and what a chat turn wrote.

import { api } from "./api.js";
import {
  contentText, fmtDate, fmtMs, fmtNumber, h, label, shortId, stateBadge, typeBadge,
} from "./dom.js";

const POSITIVE = ["semantic", "importance", "recency", "confidence", "usage", "project_match", "critical_bonus"];
const PENALTIES = ["outdated_penalty", "privacy_penalty", "superseded_penalty"];
const COMPONENT_LABELS = {
  semantic: "semantic",
  importance: "importance",
  recency: "recency",
  confidence: "confidence",
  usage: "usage",
  project_match: "project",
  critical_bonus: "critical/pinned",
  outdated_penalty: "outdated",
  privacy_penalty: "privacy",
  superseded_penalty: "superseded",
};
const LATENCY_STAGES = ["forgetting", "embed", "retrieve", "score_and_pack", "answer", "write"];

function signed(v) {
  if (v === undefined || v === null) return "–";
  return `${v >= 0 ? "+" : "−"}${Math.abs(v).toFixed(3)}`;
}

export function budgetBar(trace) {
  const budget = Math.max(1, trace.budget_tokens || 0);
  const used = trace.used_tokens || 0;
  const candidates = trace.candidate_tokens ?? null;
  const pct = Math.min(100, (used / budget) * 100);
  const saved = candidates ? Math.max(0, candidates - used) : null;
  return h("div", { class: "budget" },
    h("div", { class: "budget-head" },
      h("span", { class: "budget-title" }, "Token budget"),
      h("span", { class: "budget-numbers" },
        `${fmtNumber(used)} / ${fmtNumber(budget)} tokens (${pct.toFixed(pct < 10 ? 1 : 0)}%)`)),
    h("div", {
      class: "meter", role: "meter", "aria-label": "tokens used of the budget",
      "aria-valuemin": 0, "aria-valuemax": budget, "aria-valuenow": used,
    }, h("div", { class: "meter-fill", style: { width: `${pct}%` } })),
    candidates !== null
      ? h("p", { class: "muted small" },
        trace.candidates_considered === 1
          ? `The one candidate would cost ${fmtNumber(candidates)} tokens`
          : `All ${fmtNumber(trace.candidates_considered ?? 0)} candidates would cost ${fmtNumber(candidates)} tokens`,
        saved ? `; the budget and ranking kept ${fmtNumber(saved)} out.` : ".")
      : null);
}

export function latencyBar(latency) {
  if (!latency) return null;
  const stages = LATENCY_STAGES.filter((k) => typeof latency[k] === "number");
  const sum = stages.reduce((a, k) => a + latency[k], 0) || 1;
  const total = latency.turn ?? latency.total ?? sum;
  return h("div", { class: "latency" },
    h("div", { class: "budget-head" },
      h("span", { class: "budget-title" }, "Latency"),
      h("span", { class: "budget-numbers" },
        `retrieval ${fmtMs(latency.total)}`, latency.turn !== undefined ? ` · turn ${fmtMs(total)}` : "")),
    h("div", { class: "stack", "aria-hidden": "true" },
      stages.map((k) => h("span", {
        class: `stack-seg lat-${k}`, style: { width: `${(latency[k] / sum) * 100}%` }, title: `${label(k)} ${fmtMs(latency[k])}`,
      }))),
    h("ul", { class: "legend" }, stages.map((k) => h("li", {},
      h("span", { class: `swatch lat-${k}`, "aria-hidden": "true" }), `${label(k)} ${fmtMs(latency[k])}`))));
}

/** One row per component: the raw value as a bar, the weighted contribution as a number. */
export function componentBars(item) {
  const components = item.components || {};
  const contributions = item.contributions || {};
  const rows = [];
  for (const key of [...POSITIVE, ...PENALTIES]) {
    const value = components[key];
    if (value === undefined) continue;
    const penalty = PENALTIES.includes(key);
    if (penalty && !value) continue;
    const clamped = Math.max(0, Math.min(1, value));
    rows.push(h("div", { class: `comp-row${penalty ? " comp-penalty" : ""}`, dataset: { component: key } },
      h("span", { class: "comp-name" }, COMPONENT_LABELS[key] || label(key)),
      h("span", {
        class: "comp-track", role: "meter", "aria-label": `${COMPONENT_LABELS[key] || key} ${value.toFixed(2)}`,
        "aria-valuemin": 0, "aria-valuemax": 1, "aria-valuenow": clamped.toFixed(2),
      }, h("span", { class: `comp-fill comp-${key}`, style: { width: `${clamped * 100}%` } })),
      h("span", { class: "comp-value" }, value.toFixed(2)),
      h("span", { class: `comp-contrib ${(contributions[key] ?? 0) < 0 ? "neg" : ""}` }, signed(contributions[key]))));
  }
  return h("div", { class: "comp-grid" },
    h("div", { class: "comp-row comp-header", "aria-hidden": "true" },
      h("span", {}, "component"), h("span", {}, "value"), h("span", {}, ""), h("span", {}, "weighted")),
    rows);
}

function traceItem(item, rank, contentById) {
  const content = "content" in item ? item.content : contentById.get(item.memory_id);
  const known = "content" in item || contentById.has(item.memory_id);
  const head = h("div", { class: "titem-head" },
    rank !== null ? h("span", { class: "rank", "aria-label": `rank ${rank}` }, `#${rank}`) : null,
    typeBadge(item.type), stateBadge(item.state),
    h("span", { class: "score", title: "final score" }, `score ${Number(item.score).toFixed(3)}`),
    h("span", { class: "tokens" }, `${item.tokens} tok`),
    (item.sources || []).map((src) => h("span", { class: "chip", title: "candidate source" }, src)));
  const text = h("p", { class: `titem-content${content ? "" : " erased"}` },
    known ? contentText(content) : `memory ${shortId(item.memory_id)}`);
  const reason = h("p", { class: "titem-reason" }, item.reason);
  const bars = componentBars(item);
  const li = h("li", {
    class: `titem ${item.included ? "is-included" : "is-skipped"}`, dataset: { memoryId: item.memory_id },
  }, head, text, reason);
  // The first few included items show their components; the rest fold them away.
  if (item.included && rank !== null && rank <= 3) li.append(bars);
  else li.append(h("details", { class: "titem-details" }, h("summary", {}, "Score components"), bars));
  return li;
}

function memoryLine(memory, extra) {
  return h("li", { class: "turn-memory", dataset: { memoryId: memory.id } },
    typeBadge(memory.type), " ", h("span", { class: "turn-text" }, contentText(memory.content)),
    extra ? h("span", { class: "muted small" }, ` ${extra}`) : null);
}

function idLine(id, text) {
  const line = h("li", { class: "turn-memory", dataset: { memoryId: id } },
    h("code", {}, shortId(id)), " ", h("span", { class: "turn-text" }, text || ""));
  return line;
}

/** Fill in the text of memories known only by id (superseded ones, archived ones). */
function fillContent(line, id, prefix) {
  api.memory(id).then((m) => {
    const target = line.querySelector(".turn-text");
    if (target) target.textContent = `${prefix}${contentText(m.content)}`;
    line.prepend(typeBadge(m.type), " ");
    line.querySelector("code")?.remove();
  }).catch(() => { /* the id stays visible */ });
}

export function turnSection(trace, actions) {
  const turn = trace.turn;
  if (!turn && !actions) return null;
  const created = actions?.created || [];
  const updated = actions?.updated || [];
  const superseded = actions?.superseded || turn?.superseded || [];
  const archived = actions?.archived || turn?.archived || [];
  const redacted = actions?.redacted ?? turn?.redacted ?? 0;
  const blocks = [];
  const meta = [];
  if (turn?.answered_by) meta.push(h("span", { class: "chip" }, `answered by ${turn.answered_by}`));
  if (turn?.editor) meta.push(h("span", { class: "chip" }, `editor: ${turn.editor}`));
  if (turn?.fallback_reason) meta.push(h("span", { class: "chip chip-warn" }, `fallback: ${turn.fallback_reason}`));
  if (meta.length) blocks.push(h("div", { class: "chips" }, meta));

  const group = (title, count, list, cls) => h("div", { class: `turn-group ${cls}` },
    h("h4", {}, `${title} `, h("span", { class: "count" }, String(count))), list);

  if (created.length || turn?.created?.length) {
    const list = created.length
      ? created.map((m) => memoryLine(m))
      : turn.created.map((id) => { const l = idLine(id, ""); fillContent(l, id, ""); return l; });
    blocks.push(group("Created", list.length, h("ul", { class: "turn-list" }, list), "turn-created"));
  }
  if (updated.length || turn?.updated?.length) {
    const list = updated.length
      ? updated.map((m) => memoryLine(m))
      : turn.updated.map((id) => { const l = idLine(id, ""); fillContent(l, id, ""); return l; });
    blocks.push(group("Updated", list.length, h("ul", { class: "turn-list" }, list), "turn-updated"));
  }
  if (superseded.length) {
    const list = superseded.map((s) => {
      const l = idLine(s.id, "");
      fillContent(l, s.id, "");
      l.append(h("span", { class: "muted small block" },
        `superseded${s.by ? ` by ${shortId(s.by)}` : ""}${s.rule ? ` · rule ${s.rule}` : ""}${s.reason ? ` · ${s.reason}` : ""}`));
      return l;
    });
    blocks.push(group("Superseded", list.length, h("ul", { class: "turn-list" }, list), "turn-superseded"));
  }
  if (archived.length) {
    const list = archived.map((a) => {
      const id = typeof a === "string" ? a : a.id;
      const l = idLine(id, "");
      fillContent(l, id, "");
      if (a.reason) l.append(h("span", { class: "muted small block" }, a.reason));
      return l;
    });
    blocks.push(group("Archived", list.length, h("ul", { class: "turn-list" }, list), "turn-archived"));
  }
  blocks.push(h("p", { class: `redacted-line${redacted ? " has-redactions" : ""}` },
    redacted
      ? `Redacted ${redacted} secret${redacted === 1 ? "" : "s"}${turn?.redacted_kinds?.length ? ` (${turn.redacted_kinds.join(", ")})` : ""} before anything was stored.`
      : "No secrets redacted."));
  if (!created.length && !updated.length && !superseded.length && !archived.length
    && !turn?.created?.length && !turn?.updated?.length) {
    blocks.unshift(h("p", { class: "muted" }, "This turn stored nothing new."));
  }
  if (turn?.notes?.length) {
    blocks.push(h("details", {}, h("summary", {}, `Editor notes (${turn.notes.length})`),
      h("ul", { class: "notes" }, turn.notes.map((n) => h("li", {}, n)))));
  }
  return h("section", { class: "trace-section turn", "aria-label": "What this turn changed" },
    h("h3", {}, "What this turn changed"), blocks);
}

/**
 * The whole trace. `actions` (from POST /api/chat) carries the text of what was created;
 * `contentById` maps memory ids to text for items whose trace lacks "content".
 */
export function renderTrace(trace, { actions = null, contentById = new Map() } = {}) {
  const included = trace.included || [];
  const skipped = trace.skipped || [];
  const head = h("div", { class: "trace-head" },
    h("p", { class: "trace-query" }, h("span", { class: "muted" }, "Question: "),
      trace.query || h("span", { class: "erased" }, "(erased: the message was forgotten)")),
    h("p", { class: "muted small" },
      `${fmtDate(trace.created_at)} · project ${trace.project_id ?? "user-wide"} · `,
      `${fmtNumber(trace.candidates_considered ?? included.length + skipped.length)} candidates considered`,
      trace.maintenance && (trace.maintenance.expired || trace.maintenance.archived)
        ? ` · sweep expired ${trace.maintenance.expired}, archived ${trace.maintenance.archived}` : ""));
  return h("div", { class: "trace", dataset: { traceId: trace.id } },
    head,
    h("section", { class: "trace-section" }, budgetBar(trace), latencyBar(trace.latency_ms)),
    turnSection(trace, actions),
    h("section", { class: "trace-section", "aria-label": "Included memories" },
      h("h3", {}, "Included ", h("span", { class: "count" }, String(included.length))),
      included.length
        ? h("ol", { class: "titems included-list" }, included.map((it, i) => traceItem(it, i + 1, contentById)))
        : h("p", { class: "muted" }, "No memory was relevant enough to include.")),
    h("section", { class: "trace-section", "aria-label": "Skipped candidates" },
      h("details", { class: "skipped-block", open: skipped.length > 0 && skipped.length <= 3 },
        h("summary", {}, h("h3", { class: "inline" }, "Skipped candidates ", h("span", { class: "count" }, String(skipped.length)))),
        skipped.length
          ? h("ul", { class: "titems skipped-list" }, skipped.map((it) => traceItem(it, null, contentById)))
          : h("p", { class: "muted" }, "No candidate was skipped."))));
}
