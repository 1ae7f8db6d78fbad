// Chat tab: the conversation on the left, the live trace of the last answer on the right.

import { api, settings } from "./api.js";
import { clear, emptyState, errorBox, h, toast } from "./dom.js";
import { renderTrace } from "./trace.js";

const root = () => document.getElementById("panel-chat");
let els = null;
let busy = false;
const HISTORY = 100; // messages shown and restored

function storageKey(name) { return `memopilot.${name}.${settings.project}`; }

function storedSessionId() { return sessionStorage.getItem(storageKey("session")); }

function sessionId() {
  let id = storedSessionId();
  if (!id) {
    id = `web-${crypto.randomUUID ? crypto.randomUUID() : Date.now().toString(36)}`;
    sessionStorage.setItem(storageKey("session"), id);
  }
  return id;
}

// The conversation is the server's logged turns of this tab's session (its id survives a reload
// in sessionStorage); the page keeps a copy per project, never the text in browser storage, so
// that Forget, which erases logged turns on the server, leaves no transcript behind.
const conversations = new Map();
function loadMessages() { return [...(conversations.get(settings.project) || [])]; }
function saveMessages(messages) { conversations.set(settings.project, messages.slice(-HISTORY)); }

const ERASED = "(erased: this message was forgotten or quoted a memory you forgot)";

/** The page's messages from the stored turns of the session (after a reload, or a Forget). */
async function restoreMessages() {
  const id = storedSessionId();
  if (!id) { saveMessages([]); return; }
  const { items } = await api.sessionTurns(id, HISTORY);
  saveMessages((items || []).map((t) => ({
    role: t.role,
    text: t.content || ERASED,
    erased: !t.content,
    traceId: t.role === "assistant" ? t.trace_id : null,
  })));
}

// Forget anywhere in the app: the server erased what it stored of the memory, so every copy this
// page holds (transcripts, the trace on screen) is dropped and fetched again when shown.
window.addEventListener("memopilot:forgotten", () => {
  conversations.clear();
  if (els && document.body.contains(els.list)) chatTab.mount();
});

function build() {
  const list = h("ol", { class: "messages", id: "messages", "aria-live": "polite", "aria-label": "Conversation" });
  const input = h("textarea", {
    id: "chat-input", name: "message", rows: 3, required: true, maxlength: 32000,
    placeholder: "Tell me something to remember, or ask a question…  (Enter sends, Shift+Enter for a new line)",
  });
  const send = h("button", { type: "submit", class: "btn btn-primary", id: "chat-send" }, "Send");
  const form = h("form", { class: "composer", "aria-label": "Send a message" },
    h("label", { for: "chat-input", class: "sr-only" }, "Message"), input, send);
  const tracePanel = h("div", { class: "trace-body", id: "trace-panel" });
  const newChat = h("button", { type: "button", class: "btn btn-small", title: "Start a new session" }, "New session");
  const layout = h("div", { class: "chat-layout" },
    h("section", { class: "chat-col card", "aria-labelledby": "chat-heading" },
      h("div", { class: "col-head" }, h("h2", { id: "chat-heading" }, "Conversation"), newChat),
      list, form),
    h("section", { class: "trace-col card", "aria-labelledby": "trace-heading", id: "trace-col" },
      h("div", { class: "col-head" }, h("h2", { id: "trace-heading" }, "Trace of the last answer")),
      tracePanel));
  form.addEventListener("submit", (e) => { e.preventDefault(); submit(); });
  input.addEventListener("keydown", (e) => {
    if (e.key === "Enter" && !e.shiftKey && !e.isComposing) { e.preventDefault(); submit(); }
  });
  newChat.addEventListener("click", () => {
    sessionStorage.removeItem(storageKey("session"));
    saveMessages([]);
    renderMessages();
    toast("Started a new session. Memories are kept.");
  });
  clear(root(), layout);
  els = { list, input, send, tracePanel };
}

function messageNode(msg) {
  const body = h("div", { class: "bubble" }, h("p", { class: `bubble-text${msg.erased ? " erased" : ""}` }, msg.text));
  if (msg.role === "assistant" && msg.summary) {
    body.append(h("p", { class: "bubble-meta" }, msg.summary));
  }
  if (msg.role === "assistant" && msg.traceId) {
    body.append(h("button", {
      type: "button", class: "link-btn", onclick: () => showTrace(msg.traceId),
    }, "Show trace"));
  }
  return h("li", { class: `msg msg-${msg.role}${msg.error ? " msg-error" : ""}` },
    h("span", { class: "msg-who" }, msg.role === "user" ? "You" : "MemoPilot"), body);
}

function renderMessages() {
  const messages = loadMessages();
  if (!messages.length) {
    clear(els.list, h("li", { class: "msg-empty" }, emptyState(
      "No messages in this session yet.",
      h("p", { class: "muted" }, "Try “I prefer tabs over spaces” and then “How should I indent this file?”."))));
    return;
  }
  clear(els.list, messages.map(messageNode));
  els.list.lastElementChild?.scrollIntoView({ block: "end" });
}

function summarise(actions) {
  if (!actions) return "";
  const parts = [];
  const n = (list) => (Array.isArray(list) ? list.length : 0);
  if (n(actions.created)) parts.push(`${n(actions.created)} created`);
  if (n(actions.updated)) parts.push(`${n(actions.updated)} updated`);
  if (n(actions.superseded)) parts.push(`${n(actions.superseded)} superseded`);
  if (n(actions.archived)) parts.push(`${n(actions.archived)} archived`);
  if (actions.redacted) parts.push(`${actions.redacted} redacted`);
  return parts.length ? `Memory: ${parts.join(", ")}` : "Memory: nothing stored";
}

async function submit() {
  const text = els.input.value.trim();
  if (!text || busy) return;
  busy = true;
  els.send.disabled = true;
  els.send.textContent = "Sending…";
  const messages = loadMessages();
  messages.push({ role: "user", text });
  saveMessages(messages);
  renderMessages();
  els.input.value = "";
  const pending = h("li", { class: "msg msg-assistant msg-pending", "aria-label": "waiting for the answer" },
    h("span", { class: "msg-who" }, "MemoPilot"), h("div", { class: "bubble" }, h("span", { class: "dots" }, "Thinking")));
  els.list.append(pending);
  try {
    const result = await api.chat(text, sessionId());
    messages.push({ role: "assistant", text: result.answer, traceId: result.trace_id, summary: summarise(result.actions) });
    saveMessages(messages);
    renderMessages();
    showTraceObject(result.trace, result.actions);
    showTrace(result.trace_id); // refetch: the live text of every item, nothing the page kept
  } catch (err) {
    messages.push({ role: "assistant", text: `Error: ${err.detail || err.message}`, error: true });
    saveMessages(messages);
    renderMessages();
    els.input.value = text;
  } finally {
    busy = false;
    els.send.disabled = false;
    els.send.textContent = "Send";
    els.input.focus();
  }
}

function showTraceObject(trace, actions) {
  clear(els.tracePanel, renderTrace(trace, { actions }));
}

async function showTrace(traceId) {
  try {
    const trace = await api.trace(traceId);
    if (!els) return;
    showTraceObject(trace, null);
    els.tracePanel.dataset.ready = traceId;
  } catch (err) {
    clear(els.tracePanel, errorBox(err, () => showTrace(traceId)));
  }
}

async function loadLastTrace() {
  const messages = loadMessages();
  const last = [...messages].reverse().find((m) => m.traceId);
  if (last) return showTrace(last.traceId);
  try {
    const { items } = await api.traces(20);
    const mine = (items || []).find((t) => t.project_id === settings.project && t.turn) ||
      (items || []).find((t) => t.project_id === settings.project);
    if (mine) return showTrace(mine.id);
    clear(els.tracePanel, emptyState(
      "No answer yet in this project.",
      h("p", { class: "muted" }, "Send a message: its trace shows which memories were used, which were skipped and why, the token budget, the latency, and what the turn stored.")));
  } catch (err) {
    clear(els.tracePanel, errorBox(err, loadLastTrace));
  }
}

export const chatTab = {
  async mount() {
    build();
    if (!conversations.has(settings.project)) {
      try {
        await restoreMessages();
      } catch (err) {
        clear(els.list, h("li", {}, errorBox(err, () => chatTab.mount())));
        return;
      }
    }
    renderMessages();
    loadLastTrace();
  },
  refresh() { this.mount(); },
};
