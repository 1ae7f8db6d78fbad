// Graph tab: memories as nodes coloured by type, consolidation summaries as gold stars,
// supersedes / summarizes / merged_into / related edges. A small hand-written force layout.

import { api } from "./api.js";
import {
  TYPE_COLORS, clear, contentText, emptyState, errorBox, fmtDate, fmtNumber, h, label, s, shortId, stateBadge,
  typeBadge,
} from "./dom.js";

const EDGE_STYLE = {
  supersedes: { color: "#b91c1c", length: 90, strength: 0.06, label: "supersedes (new → old)" },
  summarizes: { color: "#b7791f", length: 80, strength: 0.05, label: "summarizes" },
  merged_into: { color: "#475569", length: 70, strength: 0.06, label: "merged into" },
  related: { color: "#94a3b8", length: 120, strength: 0.02, label: "related (similar)" },
};
const GOLD = "#f5b301";
const root = () => document.getElementById("panel-graph");
let els = null;
let data = { nodes: [], edges: [] };
let sim = null;
let selectedId = null;
let view = { x: 0, y: 0, k: 1 };

function hash(str) {
  let x = 2166136261;
  for (let i = 0; i < str.length; i++) { x ^= str.charCodeAt(i); x = Math.imul(x, 16777619); }
  return (x >>> 0) / 4294967295;
}

function starPoints(r) {
  const pts = [];
  for (let i = 0; i < 10; i++) {
    const rad = i % 2 === 0 ? r : r * 0.45;
    const a = -Math.PI / 2 + (i * Math.PI) / 5;
    pts.push(`${(rad * Math.cos(a)).toFixed(2)},${(rad * Math.sin(a)).toFixed(2)}`);
  }
  return pts.join(" ");
}

function nodeRadius(n) {
  return n.summary ? 20 : 7 + 7 * (n.importance ?? 0.5);
}

function build() {
  const showHidden = h("input", { type: "checkbox", id: "graph-hidden", checked: true });
  const showRelated = h("input", { type: "checkbox", id: "graph-related", checked: true });
  const fit = h("button", { type: "button", class: "btn btn-small" }, "Fit");
  const reload = h("button", { type: "button", class: "btn btn-small" }, "Reload");
  const svg = s("svg", {
    class: "graph-svg", id: "graph-svg", role: "group", "aria-label": "Memory graph. Tab to a node and press Enter for its details.",
    viewBox: "-400 -300 800 600", preserveAspectRatio: "xMidYMid meet",
  });
  const defs = s("defs", {}, Object.entries(EDGE_STYLE).map(([kind, st]) => s("marker", {
    id: `arrow-${kind}`, viewBox: "0 0 10 10", refX: 10, refY: 5, markerWidth: 7, markerHeight: 7, orient: "auto-start-reverse",
  }, s("path", { d: "M0,0 L10,5 L0,10 z", fill: st.color }))));
  const world = s("g", { class: "world" });
  svg.append(defs, world);
  const details = h("aside", { class: "graph-details card", id: "graph-details", "aria-live": "polite", "aria-label": "Node details" });
  const legend = h("div", { class: "graph-legend", id: "graph-legend" });
  const stats = h("p", { class: "muted small", id: "graph-stats" });
  clear(root(), h("section", { class: "card graph-card", "aria-labelledby": "graph-heading" },
    h("div", { class: "col-head" }, h("h2", { id: "graph-heading" }, "Memory graph"),
      h("div", { class: "inline-controls" },
        h("label", { class: "check" }, showHidden, " archived & superseded"),
        h("label", { class: "check" }, showRelated, " related edges"), fit, reload)),
    stats,
    h("div", { class: "graph-layout" },
      h("div", { class: "graph-canvas" }, svg), details),
    legend));
  showHidden.addEventListener("change", () => draw());
  showRelated.addEventListener("change", () => draw());
  fit.addEventListener("click", () => fitView());
  reload.addEventListener("click", () => load());
  installPanZoom(svg, world);
  els = { svg, world, details, legend, stats, showHidden, showRelated };
  showDetails(null);
}

function visible() {
  const hidden = !els.showHidden.checked;
  const nodes = data.nodes.filter((n) => !hidden || n.state === "active" || n.state === "pinned");
  const ids = new Set(nodes.map((n) => n.id));
  const edges = data.edges.filter((e) => ids.has(e.source) && ids.has(e.target) &&
    (els.showRelated.checked || e.kind !== "related"));
  return { nodes, edges };
}

function draw() {
  if (sim) { cancelAnimationFrame(sim.frame); sim = null; }
  const { nodes, edges } = visible();
  const world = els.world;
  world.replaceChildren();
  els.stats.textContent = `${nodes.length} nodes · ${edges.length} edges · ${nodes.filter((n) => n.summary).length} consolidation summaries`;
  renderLegend(nodes, edges);
  if (!nodes.length) {
    world.append(s("text", { x: 0, y: 0, "text-anchor": "middle", class: "graph-empty" }, "No memories to show yet."));
    return;
  }
  const byId = new Map();
  nodes.forEach((n, i) => {
    if (n.x === undefined) {
      const a = hash(n.id) * Math.PI * 2;
      const r = 40 + 160 * Math.sqrt((i + 1) / nodes.length);
      n.x = Math.cos(a) * r; n.y = Math.sin(a) * r; n.vx = 0; n.vy = 0;
    }
    byId.set(n.id, n);
  });
  const links = edges.map((e) => ({ ...e, s: byId.get(e.source), t: byId.get(e.target) }));
  const edgeLayer = s("g", { class: "edges" });
  const nodeLayer = s("g", { class: "nodes" });
  world.append(edgeLayer, nodeLayer);
  for (const l of links) {
    const st = EDGE_STYLE[l.kind] || EDGE_STYLE.related;
    l.el = s("line", {
      class: `edge edge-${l.kind}`, stroke: st.color,
      "stroke-width": l.kind === "related" ? 1 + 2 * (l.weight ?? 0.5) : 2,
      "stroke-dasharray": l.kind === "supersedes" ? "6 4" : l.kind === "merged_into" ? "2 3" : null,
      "marker-end": l.kind === "related" ? null : `url(#arrow-${l.kind})`,
      dataset: { source: l.source, target: l.target, kind: l.kind },
    });
    edgeLayer.append(l.el);
  }
  // Phone widths: labels appear on focus, hover or selection (the star keeps its own).
  const narrow = (els.svg.getBoundingClientRect().width || 800) < 560;
  const showLabels = nodes.length <= 40 && !narrow;
  // Summaries last, so the stars paint above everything else.
  for (const n of [...nodes.filter((x) => !x.summary), ...nodes.filter((x) => x.summary)]) {
    const r = nodeRadius(n);
    const shape = n.summary
      ? s("polygon", { points: starPoints(r), fill: GOLD, stroke: "#7c5200", "stroke-width": 1.5 })
      : s("circle", {
        r, fill: TYPE_COLORS[n.type] || "#374151", stroke: n.state === "pinned" ? "#111827" : "#ffffff",
        "stroke-width": n.state === "pinned" ? 3 : 1.5,
      });
    const title = s("title", {}, `${n.summary ? "Summary" : label(n.type)} (${n.state}): ${n.label}`);
    const text = s("text", { x: r + 4, y: 4, class: `node-label${showLabels || n.summary ? "" : " hover-only"}` },
      n.label.length > 28 ? `${n.label.slice(0, 27)}…` : n.label);
    n.el = s("g", {
      class: `node node-${n.shape || (n.summary ? "star" : "circle")} node-state-${n.state}`,
      tabindex: 0, role: "button", "aria-label": `${n.summary ? "consolidation summary" : label(n.type)}, ${n.state}: ${n.label}`,
      dataset: { id: n.id, type: n.type, state: n.state },
    }, shape, title, text);
    n.el.addEventListener("click", (e) => { if (!n.dragged) select(n.id); e.stopPropagation(); });
    n.el.addEventListener("keydown", (e) => {
      if (e.key === "Enter" || e.key === " ") { e.preventDefault(); select(n.id); }
    });
    installNodeDrag(n);
    nodeLayer.append(n.el);
  }
  sim = { nodes, links, alpha: 1, frame: 0, ticks: 0, squeeze: narrow ? 0.8 : 0.45 };
  // Settle the layout before the first paint (a few ms for a few hundred nodes); dragging re-heats it.
  while (sim.alpha > 0.02) tick();
  paint();
  fitView();
  if (selectedId && byId.has(selectedId)) highlight(selectedId);
}

function tick() {
  const { nodes, links } = sim;
  const alpha = sim.alpha;
  for (let i = 0; i < nodes.length; i++) {
    const a = nodes[i];
    for (let j = i + 1; j < nodes.length; j++) {
      const b = nodes[j];
      let dx = b.x - a.x; let dy = b.y - a.y;
      if (dx * dx + dy * dy < 0.01) { dx = hash(a.id + b.id) - 0.5; dy = 0.5 - hash(b.id + a.id); }
      // Distances are measured with x squeezed: labels run sideways, so nodes need more room across.
      const ex = dx * sim.squeeze;
      const d2 = ex * ex + dy * dy + 0.01;
      const d = Math.sqrt(d2);
      const minD = nodeRadius(a) + nodeRadius(b) + 24;
      const f = (9000 / Math.max(d2, 300) + (d < minD ? (minD - d) * 0.8 : 0)) * alpha;
      const fx = (ex / d) * f * (sim.squeeze < 0.6 ? 1.6 : 1); const fy = (dy / d) * f;
      if (!a.fixed) { a.vx -= fx; a.vy -= fy; }
      if (!b.fixed) { b.vx += fx; b.vy += fy; }
    }
  }
  for (const l of links) {
    const st = EDGE_STYLE[l.kind] || EDGE_STYLE.related;
    const dx = l.t.x - l.s.x; const dy = l.t.y - l.s.y;
    const d = Math.sqrt(dx * dx + dy * dy) || 1;
    const k = ((d - st.length) / d) * st.strength * alpha * 4 * (l.kind === "related" ? (l.weight ?? 0.5) : 1);
    if (!l.s.fixed) { l.s.vx += dx * k; l.s.vy += dy * k; }
    if (!l.t.fixed) { l.t.vx -= dx * k; l.t.vy -= dy * k; }
  }
  for (const n of nodes) {
    if (n.fixed) { n.vx = 0; n.vy = 0; continue; }
    // Gravity pulls harder vertically: the canvas is wider than tall and labels run sideways.
    const gx = sim.squeeze < 0.6 ? 0.008 : 0.02;
    n.vx -= n.x * gx * alpha; n.vy -= n.y * 0.02 * alpha;
    n.vx *= 0.6; n.vy *= 0.6;
    n.x += Math.max(-30, Math.min(30, n.vx)); n.y += Math.max(-30, Math.min(30, n.vy));
  }
  sim.alpha *= 0.985;
  sim.ticks += 1;
}

function paint() {
  for (const l of sim.links) {
    const dx = l.t.x - l.s.x; const dy = l.t.y - l.s.y;
    const d = Math.sqrt(dx * dx + dy * dy) || 1;
    const rt = nodeRadius(l.t) + 3; const rs = nodeRadius(l.s);
    l.el.setAttribute("x1", (l.s.x + (dx / d) * rs).toFixed(1));
    l.el.setAttribute("y1", (l.s.y + (dy / d) * rs).toFixed(1));
    l.el.setAttribute("x2", (l.t.x - (dx / d) * rt).toFixed(1));
    l.el.setAttribute("y2", (l.t.y - (dy / d) * rt).toFixed(1));
  }
  for (const n of sim.nodes) n.el.setAttribute("transform", `translate(${n.x.toFixed(1)},${n.y.toFixed(1)})`);
}

function applyView() {
  els.world.setAttribute("transform", `translate(${view.x.toFixed(1)},${view.y.toFixed(1)}) scale(${view.k.toFixed(3)})`);
}

function fitView() {
  if (!sim || !sim.nodes.length) return;
  let minX = Infinity; let minY = Infinity; let maxX = -Infinity; let maxY = -Infinity;
  for (const n of sim.nodes) {
    const r = nodeRadius(n);
    let bb = null;
    try { bb = n.el.getBBox(); } catch { bb = null; } // includes the label when it is shown
    const right = bb && bb.width ? bb.x + bb.width : r + 90;
    minX = Math.min(minX, n.x - r); maxX = Math.max(maxX, n.x + right);
    minY = Math.min(minY, n.y - r); maxY = Math.max(maxY, n.y + r);
  }
  // Never magnify: a small graph keeps its natural size (labels stay at their font size).
  const box = els.svg.getBoundingClientRect();
  const w = Math.max(box.width || 600, maxX - minX + 40);
  const hgt = Math.max(box.height || 400, maxY - minY + 40);
  const cx = (minX + maxX) / 2; const cy = (minY + maxY) / 2;
  view = { x: 0, y: 0, k: 1 };
  applyView();
  els.svg.setAttribute("viewBox", `${(cx - w / 2).toFixed(0)} ${(cy - hgt / 2).toFixed(0)} ${w.toFixed(0)} ${hgt.toFixed(0)}`);
}

function svgPoint(evt) {
  const pt = els.svg.createSVGPoint();
  pt.x = evt.clientX; pt.y = evt.clientY;
  const m = els.world.getScreenCTM();
  return m ? pt.matrixTransform(m.inverse()) : { x: 0, y: 0 };
}

function installNodeDrag(n) {
  n.el.addEventListener("pointerdown", (e) => {
    if (e.button !== 0) return;
    e.stopPropagation();
    n.el.setPointerCapture(e.pointerId);
    const start = svgPoint(e);
    const origin = { x: n.x, y: n.y };
    n.dragged = false;
    const move = (ev) => {
      const p = svgPoint(ev);
      if (Math.abs(p.x - start.x) + Math.abs(p.y - start.y) > 3) n.dragged = true;
      if (!n.dragged) return;
      n.fixed = true;
      n.x = origin.x + p.x - start.x; n.y = origin.y + p.y - start.y;
      if (sim) { sim.alpha = Math.max(sim.alpha, 0.15); paint(); }
    };
    const up = () => {
      n.el.removeEventListener("pointermove", move);
      n.el.removeEventListener("pointerup", up);
      n.fixed = false;
      if (sim && n.dragged) {
        const loop = () => { if (!sim) return; tick(); paint(); if (sim.alpha > 0.02) sim.frame = requestAnimationFrame(loop); };
        cancelAnimationFrame(sim.frame);
        sim.frame = requestAnimationFrame(loop);
      }
      setTimeout(() => { n.dragged = false; }, 0);
    };
    n.el.addEventListener("pointermove", move);
    n.el.addEventListener("pointerup", up);
  });
}

function installPanZoom(svg, world) {
  svg.addEventListener("wheel", (e) => {
    e.preventDefault();
    const factor = e.deltaY < 0 ? 1.12 : 1 / 1.12;
    const k = Math.max(0.2, Math.min(5, view.k * factor));
    const ctm = svg.getScreenCTM();
    if (!ctm) return;
    const p = svg.createSVGPoint(); p.x = e.clientX; p.y = e.clientY;
    const q = p.matrixTransform(ctm.inverse());
    view.x = q.x - ((q.x - view.x) * k) / view.k;
    view.y = q.y - ((q.y - view.y) * k) / view.k;
    view.k = k;
    applyView();
  }, { passive: false });
  svg.addEventListener("pointerdown", (e) => {
    if (e.button !== 0) return;
    const ctm = svg.getScreenCTM();
    if (!ctm) return;
    const scale = 1 / ctm.a;
    const start = { x: e.clientX, y: e.clientY, vx: view.x, vy: view.y };
    let moved = false;
    const move = (ev) => {
      const dx = (ev.clientX - start.x) * scale; const dy = (ev.clientY - start.y) * scale;
      if (Math.abs(dx) + Math.abs(dy) > 2) moved = true;
      view.x = start.vx + dx; view.y = start.vy + dy;
      applyView();
    };
    const up = () => {
      svg.removeEventListener("pointermove", move);
      svg.removeEventListener("pointerup", up);
      if (!moved) select(null);
    };
    svg.addEventListener("pointermove", move);
    svg.addEventListener("pointerup", up);
  });
  world.setAttribute("transform", "");
}

function highlight(id) {
  const neighbours = new Set([id]);
  for (const l of sim?.links || []) {
    if (l.source === id) neighbours.add(l.target);
    if (l.target === id) neighbours.add(l.source);
  }
  els.world.classList.toggle("has-selection", Boolean(id));
  for (const n of sim?.nodes || []) {
    n.el.classList.toggle("selected", n.id === id);
    n.el.classList.toggle("neighbour", Boolean(id) && neighbours.has(n.id));
  }
  for (const l of sim?.links || []) l.el.classList.toggle("neighbour", l.source === id || l.target === id);
}

function select(id) {
  selectedId = id;
  highlight(id);
  showDetails(id ? data.nodes.find((n) => n.id === id) : null);
}

async function showDetails(node) {
  const panel = els.details;
  if (!node) {
    clear(panel, h("h3", {}, "Details"),
      h("p", { class: "muted" }, "Click a node (or focus it and press Enter) to see the memory, its links and, for a gold star, the memories it summarises."));
    return;
  }
  const edges = data.edges.filter((e) => e.source === node.id || e.target === node.id);
  const nameOf = (id) => data.nodes.find((n) => n.id === id)?.label || shortId(id);
  const edgeList = h("ul", { class: "edge-list" }, edges.map((e) => {
    const other = e.source === node.id ? e.target : e.source;
    const dir = e.source === node.id ? label(e.kind) : `${label(e.kind)} (from)`;
    return h("li", {}, h("span", { class: "muted small" }, `${dir}: `),
      h("button", { type: "button", class: "link-btn", onclick: () => select(other) }, nameOf(other)),
      e.weight !== undefined && e.weight !== null ? h("span", { class: "muted small" }, ` (${fmtNumber(e.weight)})`) : null);
  }));
  const content = h("p", { class: "detail-content" }, node.label);
  clear(panel,
    h("h3", {}, node.summary ? "★ Consolidation summary" : "Memory"),
    h("div", { class: "chips" }, typeBadge(node.type), stateBadge(node.state)),
    content,
    h("dl", { class: "facts" },
      h("dt", {}, "importance"), h("dd", {}, fmtNumber(node.importance)),
      h("dt", {}, "used"), h("dd", {}, `${node.usage_count}×`),
      h("dt", {}, "project"), h("dd", {}, node.project_id ?? "user-wide"),
      h("dt", {}, "created"), h("dd", {}, fmtDate(node.created_at)),
      h("dt", {}, "id"), h("dd", {}, h("code", {}, shortId(node.id)))),
    node.summary && node.source_ids?.length
      ? h("div", {}, h("h4", {}, `Summarises ${node.source_ids.length} memories`),
        h("ul", { class: "edge-list" }, node.source_ids.map((sid) => h("li", {},
          data.nodes.some((n) => n.id === sid)
            ? h("button", { type: "button", class: "link-btn", onclick: () => select(sid) }, nameOf(sid))
            : h("code", {}, shortId(sid))))))
      : null,
    edges.length ? h("div", {}, h("h4", {}, `Links (${edges.length})`), edgeList) : h("p", { class: "muted" }, "No links."));
  try {
    const m = await api.memory(node.id);
    if (selectedId === node.id) content.textContent = contentText(m.content);
  } catch { /* keep the label */ }
}

function renderLegend(nodes, edges) {
  const types = [...new Set(nodes.filter((n) => !n.summary).map((n) => n.type))];
  const kinds = [...new Set(edges.map((e) => e.kind))];
  clear(els.legend,
    h("ul", { class: "legend" },
      types.map((t) => h("li", {}, h("span", { class: "swatch round", style: { background: TYPE_COLORS[t] }, "aria-hidden": "true" }), label(t))),
      nodes.some((n) => n.summary) ? h("li", {}, h("span", { class: "swatch star", "aria-hidden": "true" }, "★"), "summary") : null,
      nodes.some((n) => n.state === "pinned") ? h("li", {}, h("span", { class: "swatch round pinned-ring", "aria-hidden": "true" }), "pinned") : null,
      kinds.map((k) => h("li", {}, h("span", {
        class: `swatch line line-${k}`, style: { borderColor: EDGE_STYLE[k]?.color }, "aria-hidden": "true",
      }), EDGE_STYLE[k]?.label || label(k)))));
}

async function load() {
  try {
    const fresh = await api.graph();
    const old = new Map(data.nodes.map((n) => [n.id, n]));
    fresh.nodes.forEach((n) => {
      const prev = old.get(n.id);
      if (prev) Object.assign(n, { x: prev.x, y: prev.y, vx: 0, vy: 0 });
    });
    data = fresh;
    if (!data.nodes.length) {
      if (sim) { cancelAnimationFrame(sim.frame); sim = null; }
      els.world.replaceChildren();
      els.stats.textContent = "";
      els.legend.replaceChildren();
      clear(els.details, emptyState("No memories in this project yet.", h("p", { class: "muted" }, "Chat or add memories, then run Reflect in Analytics to create summaries.")));
      return;
    }
    draw();
    // The panel always follows the new data: the selected node's fresh details, else the hint
    // (never the empty-store notice of an earlier load).
    select(data.nodes.some((n) => n.id === selectedId) ? selectedId : null);
  } catch (err) {
    clear(els.details, errorBox(err, load));
  }
}

export const graphTab = {
  mount() {
    if (!els || !root().contains(els.svg)) build();
    load();
  },
  refresh() { data = { nodes: [], edges: [] }; selectedId = null; build(); load(); },
  unmount() { if (sim) { cancelAnimationFrame(sim.frame); } },
};
