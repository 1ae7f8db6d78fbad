// Memories tab: search and filter, badges, pin / archive / edit / Forget, history.

import { api, settings } from "./api.js";
import {
  MEMORY_TYPES, clear, confirmDialog, contentText, debounce, emptyState, errorBox,
  fmtDate, fmtNumber, h, kindBadge, label, relTime, shortId, stateBadge, toast, typeBadge,
} from "./dom.js";

const PAGE = 50;
const STATE_FILTERS = [
  ["active,pinned", "Active and pinned"],
  ["pinned", "Pinned"],
  ["archived", "Archived"],
  ["superseded", "Superseded"],
  ["expired", "Expired"],
  ["deleted", "Forgotten (tombstones)"],
  ["", "All states"],
];

const root = () => document.getElementById("panel-memories");
let els = null;
let offset = 0;
let requestSeq = 0;

function filters() {
  return {
    q: els.q.value.trim(),
    type: els.type.value,
    state: els.state.value,
    project_id: els.scope.value === "all" ? undefined : settings.project,
    limit: PAGE,
  };
}

function build() {
  const q = h("input", { type: "search", id: "mem-q", placeholder: "Search memory text…", autocomplete: "off" });
  const type = h("select", { id: "mem-type" },
    h("option", { value: "" }, "All types"), MEMORY_TYPES.map((t) => h("option", { value: t }, label(t))));
  const state = h("select", { id: "mem-state" }, STATE_FILTERS.map(([v, text]) => h("option", { value: v }, text)));
  const scope = h("select", { id: "mem-scope" },
    h("option", { value: "project" }, "This project and user-wide"), h("option", { value: "all" }, "All projects"));
  const addToggle = h("button", { type: "button", class: "btn btn-primary", "aria-expanded": "false", "aria-controls": "mem-add" }, "Add memory");
  const toolbar = h("div", { class: "toolbar", role: "search" },
    h("div", { class: "field grow" }, h("label", { for: "mem-q" }, "Search"), q),
    h("div", { class: "field" }, h("label", { for: "mem-type" }, "Type"), type),
    h("div", { class: "field" }, h("label", { for: "mem-state" }, "State"), state),
    h("div", { class: "field" }, h("label", { for: "mem-scope" }, "Scope"), scope),
    h("div", { class: "field field-button" }, addToggle));
  const addForm = buildAddForm();
  addForm.hidden = true;
  addToggle.addEventListener("click", () => {
    addForm.hidden = !addForm.hidden;
    addToggle.setAttribute("aria-expanded", String(!addForm.hidden));
    if (!addForm.hidden) addForm.querySelector("textarea").focus();
  });
  const summary = h("p", { class: "muted", id: "mem-summary", "aria-live": "polite" });
  const list = h("ul", { class: "memory-list", id: "memory-list" });
  const more = h("button", { type: "button", class: "btn", hidden: true }, "Load more");
  more.addEventListener("click", () => load(true));
  const reload = debounce(() => load(false), 250);
  q.addEventListener("input", reload);
  [type, state, scope].forEach((el) => el.addEventListener("change", () => load(false)));
  clear(root(), h("section", { class: "card", "aria-labelledby": "mem-heading" },
    h("div", { class: "col-head" }, h("h2", { id: "mem-heading" }, "Memories")),
    toolbar, addForm, summary, list, more));
  els = { q, type, state, scope, list, more, summary, addForm };
}

function buildAddForm() {
  const content = h("textarea", { id: "add-content", rows: 2, required: true, maxlength: 8000, placeholder: "e.g. Never deploy on Fridays" });
  const type = h("select", { id: "add-type" },
    h("option", { value: "" }, "Infer from the text"), MEMORY_TYPES.filter((t) => t !== "deleted_by_user").map((t) => h("option", { value: t }, label(t))));
  const tags = h("input", { id: "add-tags", type: "text", placeholder: "comma, separated" });
  const pinned = h("input", { id: "add-pinned", type: "checkbox" });
  const problem = h("p", { class: "field-error", id: "add-error", role: "alert", hidden: true });
  content.setAttribute("aria-describedby", "add-error");
  content.addEventListener("input", () => { problem.hidden = true; content.removeAttribute("aria-invalid"); });
  const form = h("form", { class: "add-form", id: "mem-add", "aria-label": "Add a memory" },
    h("div", { class: "field grow" }, h("label", { for: "add-content" }, "Memory text"), content, problem),
    h("div", { class: "add-row" },
      h("div", { class: "field" }, h("label", { for: "add-type" }, "Type"), type),
      h("div", { class: "field grow" }, h("label", { for: "add-tags" }, "Tags"), tags),
      h("label", { class: "check" }, pinned, " Pin it"),
      h("button", { type: "submit", class: "btn btn-primary" }, "Save memory")));
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const body = { content: content.value.trim() };
    if (!body.content) {
      // `required` lets a whitespace-only text through: say why nothing was saved.
      problem.textContent = "Write the memory first: the text is empty (spaces alone are not saved).";
      problem.hidden = false;
      content.setAttribute("aria-invalid", "true");
      content.focus();
      return;
    }
    if (type.value) body.type = type.value;
    const tagList = tags.value.split(",").map((t) => t.trim()).filter(Boolean);
    if (tagList.length) body.tags = tagList;
    if (pinned.checked) body.state = "pinned";
    try {
      await api.addMemory(body);
      form.reset();
      toast("Memory saved.");
      load(false);
    } catch (err) {
      toast(`Could not save: ${err.detail || err.message}`, "error");
    }
  });
  return form;
}

function metaLine(m) {
  return h("p", { class: "mem-meta muted small" },
    h("span", {}, `importance ${fmtNumber(m.importance)}`),
    h("span", {}, `confidence ${fmtNumber(m.confidence)}`),
    h("span", {}, `used ${m.usage_count}×`),
    h("span", { title: fmtDate(m.created_at) }, `created ${relTime(m.created_at)}`),
    m.expires_at ? h("span", {}, `expires ${fmtDate(m.expires_at)}`) : null,
    m.privacy && m.privacy !== "normal" ? h("span", {}, m.privacy) : null,
    h("span", {}, m.project_id ? `project ${m.project_id}` : "user-wide"),
    h("code", { title: m.id }, shortId(m.id)));
}

function memoryCard(m) {
  const li = h("li", { class: `memory state-${m.state}`, dataset: { memoryId: m.id, state: m.state, type: m.type } });
  const render = () => {
    const live = ["active", "pinned", "archived"].includes(m.state);
    const actions = h("div", { class: "mem-actions", role: "group", "aria-label": "Actions" });
    const act = (text, fn, cls = "btn btn-small") => {
      const b = h("button", { type: "button", class: cls, dataset: { action: text.toLowerCase() } }, text);
      b.addEventListener("click", async () => {
        b.disabled = true;
        try { await fn(); } finally { b.disabled = false; }
      });
      actions.append(b);
    };
    if (m.state === "active") act("Pin", () => setState("pinned", "Pinned: it now comes first in every context."));
    if (m.state === "pinned") act("Unpin", () => setState("active", "Unpinned."));
    if (m.state === "active" || m.state === "pinned") act("Archive", () => setState("archived", "Archived (restore it any time)."));
    if (m.state === "archived") act("Restore", () => setState("active", "Restored."));
    if (live && m.content) act("Edit", async () => editMode());
    act("History", toggleHistory);
    if (m.state !== "deleted") act("Forget", forget, "btn btn-small btn-danger");
    clear(li,
      h("div", { class: "mem-head" }, typeBadge(m.type), stateBadge(m.state),
        (m.tags || []).map((t) => h("span", { class: "tag" }, `#${t}`))),
      h("p", { class: `mem-content${m.content ? "" : " erased"}` }, contentText(m.content)),
      metaLine(m), actions);
  };
  const setState = async (state, message) => {
    try {
      Object.assign(m, await api.updateMemory(m.id, { state }));
      toast(message);
      if (!stateMatches(m.state)) li.remove(); else render();
    } catch (err) {
      toast(`Could not change it: ${err.detail || err.message}`, "error");
    }
  };
  const editMode = () => {
    const content = h("textarea", { rows: 3, "aria-label": "Memory text", maxlength: 8000 });
    content.value = m.content;
    const tags = h("input", { type: "text", "aria-label": "Tags (comma separated)" });
    tags.value = (m.tags || []).join(", ");
    const importance = h("input", { type: "number", min: 0, max: 1, step: 0.05, "aria-label": "Importance (0 to 1)" });
    importance.value = m.importance;
    const save = h("button", { type: "submit", class: "btn btn-primary btn-small" }, "Save");
    const cancel = h("button", { type: "button", class: "btn btn-small" }, "Cancel");
    const form = h("form", { class: "edit-form" },
      h("label", { class: "field" }, h("span", {}, "Text"), content),
      h("div", { class: "add-row" },
        h("label", { class: "field grow" }, h("span", {}, "Tags"), tags),
        h("label", { class: "field" }, h("span", {}, "Importance"), importance),
        save, cancel));
    cancel.addEventListener("click", render);
    form.addEventListener("submit", async (e) => {
      e.preventDefault();
      const body = {};
      if (content.value.trim() !== m.content) body.content = content.value.trim();
      const newTags = tags.value.split(",").map((t) => t.trim()).filter(Boolean);
      if (newTags.join(",") !== (m.tags || []).join(",")) body.tags = newTags;
      const imp = Number(importance.value);
      if (!Number.isNaN(imp) && imp !== m.importance) body.importance = imp;
      if (!Object.keys(body).length) return render();
      try {
        Object.assign(m, await api.updateMemory(m.id, body));
        toast("Memory updated.");
        render();
      } catch (err) {
        toast(`Could not update: ${err.detail || err.message}`, "error");
      }
    });
    clear(li, h("div", { class: "mem-head" }, typeBadge(m.type), stateBadge(m.state), h("span", { class: "muted" }, "Editing")), form);
    content.focus();
  };
  const toggleHistory = async () => {
    const existing = li.querySelector(".history");
    if (existing) { existing.remove(); return; }
    try {
      const { events } = await api.history(m.id);
      li.append(h("ol", { class: "history", "aria-label": "History" }, events.map((ev) => h("li", {},
        kindBadge(ev.kind), " ", h("span", { class: "muted small" }, `${fmtDate(ev.at)} · ${ev.actor}`),
        ev.reason ? h("span", { class: "block small" }, ev.reason) : null))));
    } catch (err) {
      toast(`Could not load the history: ${err.detail || err.message}`, "error");
    }
  };
  const forget = async () => {
    // SPEC's Forget cascade: a typed memory may take the message it came from (its episode) along.
    const cascade = h("input", { type: "checkbox", id: "forget-cascade", name: "cascade" });
    const cascadeRow = m.type !== "episode" && m.source_ids?.length
      ? h("label", { class: "block", for: "forget-cascade" }, cascade,
        " Also forget the message it came from, and everything derived only from that message.")
      : null;
    const ok = await confirmDialog({
      title: "Forget this memory?",
      body: [
        h("blockquote", { class: "quote" }, contentText(m.content)),
        m.type === "episode"
          ? "Forget erases this message and every memory derived only from it: text, tags and vectors everywhere, including earlier events and summaries. Only content-free tombstones remain. This cannot be undone. (Archive hides a memory reversibly.)"
          : "Forget erases its text, tags and vector everywhere, including earlier events and summaries. Only a content-free tombstone remains. This cannot be undone. (Archive hides a memory reversibly.)",
        ...(cascadeRow ? [cascadeRow] : []),
      ],
      confirmLabel: "Forget",
      danger: true,
    });
    if (!ok) return;
    try {
      const result = await api.forgetMemory(m.id, cascade.checked);
      const others = result.also_forgotten || [];
      window.dispatchEvent(new CustomEvent("memopilot:forgotten", { detail: { id: m.id, content: m.content } }));
      toast(others.length
        ? `Forgotten, with ${others.length} more that came from the same message: the content is erased.`
        : "Forgotten: the content is erased.");
      const gone = [m.id, ...others];
      for (const id of gone) document.querySelector(`li[data-memory-id="${CSS.escape(id)}"]`)?.remove();
      li.remove();
      els.summary.textContent = els.summary.textContent.replace(/^\d+/, (n) => String(Math.max(0, Number(n) - gone.length)));
    } catch (err) {
      toast(`Could not forget it: ${err.detail || err.message}`, "error");
    }
  };
  render();
  return li;
}

function stateMatches(state) {
  const wanted = els.state.value;
  return !wanted || wanted.split(",").includes(state);
}

async function load(append) {
  const seq = ++requestSeq;
  if (!append) offset = 0;
  try {
    const page = await api.memories({ ...filters(), offset });
    if (seq !== requestSeq) return;
    const cards = page.items.map(memoryCard);
    if (append) els.list.append(...cards);
    else if (cards.length) clear(els.list, cards);
    else clear(els.list, h("li", {}, emptyState("No memory matches these filters.")));
    offset += page.items.length;
    els.summary.textContent = `${page.total} ${page.total === 1 ? "memory" : "memories"}` +
      (page.total > offset ? ` (showing ${offset})` : "");
    els.more.hidden = offset >= page.total;
  } catch (err) {
    if (seq !== requestSeq) return;
    clear(els.list, h("li", {}, errorBox(err, () => load(false))));
  }
}

export const memoriesTab = {
  mount() {
    if (!els || !root().contains(els.list)) build();
    load(false);
  },
  refresh() { build(); load(false); },
};

