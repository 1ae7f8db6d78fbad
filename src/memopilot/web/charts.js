// Small chart helpers: HTML bar lists and an SVG column/line chart. No library.

import { fmtNumber, h, s } from "./dom.js";

/** Narrow screens draw in a narrower coordinate system so axis text stays readable. */
function chartWidth() {
  return window.matchMedia("(max-width: 640px)").matches ? 380 : 640;
}

/** A round axis maximum: four ticks of 1, 2, 2.5 or 5 times a power of ten (integers for counts). */
function niceMax(value) {
  const raw = Math.max(value, 1) / 4;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * power).find((x) => x >= raw);
  return Math.max(4, Math.ceil(step) * 4);
}

/** Horizontal bars: rows of {label, value, color?}. */
export function barList(rows, { max = null, format = fmtNumber, ariaLabel = "" } = {}) {
  const top = max ?? Math.max(1, ...rows.map((r) => r.value));
  return h("ul", { class: "bars", "aria-label": ariaLabel },
    rows.map((r) => h("li", { class: "bar-row", dataset: { key: r.key ?? r.label } },
      h("span", { class: "bar-label" }, r.label),
      h("span", { class: "bar-track", "aria-hidden": "true" },
        h("span", { class: "bar-fill", style: { width: `${Math.max(0, (r.value / top) * 100)}%`, background: r.color || "" } })),
      h("span", { class: "bar-value" }, format(r.value)))));
}

/** Columns per point plus a cumulative line; points are {label, value}. */
export function growthChart(points, { height = 200, ariaLabel = "" } = {}) {
  const width = chartWidth();
  const pad = { l: 40, r: 44, t: 14, b: 34 };
  const innerW = width - pad.l - pad.r;
  const innerH = height - pad.t - pad.b;
  const maxV = niceMax(Math.max(...points.map((p) => p.value)));
  let running = 0;
  const cumulative = points.map((p) => (running += p.value));
  const maxC = niceMax(running);
  const n = Math.max(1, points.length);
  const bw = Math.max(2, Math.min(40, (innerW / n) * 0.7));
  const x = (i) => pad.l + (innerW * (i + 0.5)) / n;
  const yV = (v) => pad.t + innerH - (v / maxV) * innerH;
  const yC = (v) => pad.t + innerH - (v / maxC) * innerH;
  const svg = s("svg", { viewBox: `0 0 ${width} ${height}`, class: "chart", role: "img", "aria-label": ariaLabel });
  for (let i = 0; i <= 4; i++) {
    const y = pad.t + (innerH * i) / 4;
    svg.append(s("line", { x1: pad.l, x2: width - pad.r, y1: y, y2: y, class: "grid" }));
    svg.append(s("text", { x: pad.l - 6, y: y + 4, "text-anchor": "end", class: "axis" }, fmtNumber(maxV * (1 - i / 4))));
    svg.append(s("text", { x: width - pad.r + 6, y: y + 4, class: "axis axis-cum" }, fmtNumber(maxC * (1 - i / 4))));
  }
  points.forEach((p, i) => {
    svg.append(s("rect", {
      x: x(i) - bw / 2, y: yV(p.value), width: bw, height: Math.max(0, pad.t + innerH - yV(p.value)), class: "col",
    }, s("title", {}, `${p.label}: ${p.value} created`)));
  });
  const step = Math.ceil(n / (width < 500 ? 4 : 8));
  points.forEach((p, i) => {
    // Every step-th day from the end backwards, so the last day is always labelled.
    if ((n - 1 - i) % step === 0) {
      svg.append(s("text", { x: x(i), y: height - pad.b + 16, "text-anchor": "middle", class: "axis" }, p.label));
    }
  });
  if (points.length) {
    const d = cumulative.map((c, i) => `${i ? "L" : "M"}${x(i).toFixed(1)},${yC(c).toFixed(1)}`).join(" ");
    svg.append(s("path", { d, class: "cum-line" }));
    cumulative.forEach((c, i) => svg.append(s("circle", { cx: x(i), cy: yC(c), r: 3, class: "cum-dot" },
      s("title", {}, `${points[i].label}: ${c} in total`))));
  }
  return svg;
}

/** Grouped vertical bars: groups of {label, values: {series: number}}, series colours given. */
export function groupedBars(groups, series, { height = 230, max = null, format = fmtNumber, ariaLabel = "" } = {}) {
  const width = chartWidth();
  const pad = { l: 44, r: 10, t: 12, b: 48 };
  const innerW = width - pad.l - pad.r;
  const innerH = height - pad.t - pad.b;
  const top = max ?? Math.max(1e-9, ...groups.flatMap((g) => series.map((sr) => g.values[sr.key] ?? 0)));
  const gw = innerW / Math.max(1, groups.length);
  const bw = Math.min(36, (gw * 0.8) / Math.max(1, series.length));
  const svg = s("svg", { viewBox: `0 0 ${width} ${height}`, class: "chart", role: "img", "aria-label": ariaLabel });
  for (let i = 0; i <= 4; i++) {
    const y = pad.t + (innerH * i) / 4;
    svg.append(s("line", { x1: pad.l, x2: width - pad.r, y1: y, y2: y, class: "grid" }));
    svg.append(s("text", { x: pad.l - 6, y: y + 4, "text-anchor": "end", class: "axis" }, format(top * (1 - i / 4))));
  }
  groups.forEach((g, gi) => {
    const x0 = pad.l + gi * gw + (gw - bw * series.length) / 2;
    series.forEach((sr, si) => {
      const v = g.values[sr.key];
      if (v === undefined || v === null) return;
      const hgt = (Math.max(0, v) / top) * innerH;
      svg.append(s("rect", { x: x0 + si * bw, y: pad.t + innerH - hgt, width: bw - 2, height: hgt, fill: sr.color },
        s("title", {}, `${g.label} · ${sr.label}: ${format(v)}`)));
    });
    const cx = pad.l + gi * gw + gw / 2;
    const lines = fitLabel(g.label, Math.floor(gw / AXIS_CHAR_WIDTH));
    svg.append(s("text", { x: cx, y: height - pad.b + 18, "text-anchor": "middle", class: "axis axis-strong" },
      lines.map((line, li) => s("tspan", { x: cx, dy: li ? 14 : 0 }, line)),
      s("title", {}, g.label)));
  });
  return svg;
}

// Bold 12px axis text averages under 7.5 units a character: labels are fitted to their group's
// width in the chart's own coordinates, so they never run into each other on a phone.
const AXIS_CHAR_WIDTH = 7.5;

/** A group label as at most two lines of at most `maxChars` characters (words kept whole where they fit). */
function fitLabel(text, maxChars) {
  const limit = Math.max(3, maxChars);
  const lines = [];
  let line = "";
  for (const word of text.split(/\s+/)) {
    if (!line) line = word;
    else if (line.length + 1 + word.length <= limit) line += ` ${word}`;
    else { lines.push(line); line = word; }
  }
  if (line) lines.push(line);
  const shown = lines.slice(0, 2).map((l) => (l.length > limit ? `${l.slice(0, limit - 1)}…` : l));
  if (lines.length > 2) shown[1] = `${shown[1].slice(0, limit - 1)}…`;
  return shown;
}

export function chartLegend(series) {
  return h("ul", { class: "legend" }, series.map((sr) => h("li", {},
    h("span", { class: "swatch", style: { background: sr.color }, "aria-hidden": "true" }), sr.label)));
}
