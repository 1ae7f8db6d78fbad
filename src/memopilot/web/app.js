// MemoPilot web app: tabs, project switcher, settings. Plain ES modules, no build step.

import { ApiError, api, onApiError, settings } from "./api.js";
import { analyticsTab } from "./analytics.js";
import { chatTab } from "./chat.js";
import { clear, h, toast } from "./dom.js";
import { evaluationTab } from "./evaluation.js";
import { graphTab } from "./graph.js";
import { memoriesTab } from "./memories.js";
import { timelineTab } from "./timeline.js";

const TABS = {
  chat: chatTab,
  memories: memoriesTab,
  timeline: timelineTab,
  graph: graphTab,
  analytics: analyticsTab,
  evaluation: evaluationTab,
};
let current = null;

function tabButtons() { return [...document.querySelectorAll('[role="tab"]')]; }

function activate(name, { focus = false } = {}) {
  if (!TABS[name]) name = "chat";
  if (current && current !== name) TABS[current].unmount?.();
  current = name;
  for (const btn of tabButtons()) {
    const on = btn.dataset.tab === name;
    btn.setAttribute("aria-selected", String(on));
    btn.tabIndex = on ? 0 : -1;
    if (on && focus) btn.focus();
    document.getElementById(btn.getAttribute("aria-controls")).hidden = !on;
  }
  document.title = `MemoPilot · ${name[0].toUpperCase()}${name.slice(1)}`;
  document.body.dataset.tab = name;
  TABS[name].mount();
}

function setupTabs() {
  const buttons = tabButtons();
  buttons.forEach((btn, i) => {
    btn.addEventListener("click", () => {
      if (location.hash !== `#${btn.dataset.tab}`) location.hash = btn.dataset.tab;
      else activate(btn.dataset.tab);
    });
    btn.addEventListener("keydown", (e) => {
      let j = null;
      if (e.key === "ArrowRight") j = (i + 1) % buttons.length;
      if (e.key === "ArrowLeft") j = (i - 1 + buttons.length) % buttons.length;
      if (e.key === "Home") j = 0;
      if (e.key === "End") j = buttons.length - 1;
      if (j === null) return;
      e.preventDefault();
      location.hash = buttons[j].dataset.tab;
      buttons[j].focus();
    });
  });
  window.addEventListener("hashchange", () => activate(location.hash.slice(1)));
}

// --- projects ---------------------------------------------------------------------------------
const NEW_PROJECT = "\u0000new";

async function loadProjects() {
  const select = document.getElementById("project");
  let names = [];
  try {
    names = (await api.projects()).items || [];
  } catch {
    names = [];
  }
  if (!names.includes(settings.project)) names.push(settings.project);
  if (!names.includes("default")) names.unshift("default");
  clear(select,
    names.map((n) => h("option", { value: n, selected: n === settings.project }, n)),
    h("option", { value: NEW_PROJECT }, "+ New project…"));
  select.value = settings.project;
}

function switchProject(name) {
  settings.project = name;
  document.getElementById("project").value = name;
  for (const tab of Object.values(TABS)) tab.unmount?.();
  TABS[current].refresh ? TABS[current].refresh() : TABS[current].mount();
  toast(`Project: ${name}`);
}

function setupProjects() {
  const select = document.getElementById("project");
  select.addEventListener("change", async () => {
    if (select.value !== NEW_PROJECT) { switchProject(select.value); return; }
    select.value = settings.project;
    const name = await promptProject();
    if (!name) return;
    if (![...select.options].some((o) => o.value === name)) {
      select.insertBefore(h("option", { value: name }, name), select.lastElementChild);
    }
    switchProject(name);
  });
}

function promptProject() {
  return new Promise((resolve) => {
    const input = h("input", { id: "new-project", type: "text", required: true, maxlength: 200, autocomplete: "off", pattern: "\\S.*" });
    const dialog = h("dialog", { class: "modal", "aria-labelledby": "np-title" });
    const form = h("form", { method: "dialog" },
      h("h2", { id: "np-title" }, "New project"),
      h("p", { class: "muted" }, "A project groups memories. Questions asked in a project see its memories and the user-wide ones. It appears in the list once it holds a memory."),
      h("label", { for: "new-project" }, "Project name"), input,
      h("div", { class: "modal-actions" },
        h("button", { type: "button", class: "btn", value: "cancel", onclick: () => dialog.close("cancel") }, "Cancel"),
        h("button", { type: "submit", class: "btn btn-primary", value: "ok" }, "Create")));
    dialog.append(form);
    dialog.addEventListener("close", () => {
      const name = dialog.returnValue === "ok" ? input.value.trim() : "";
      dialog.remove();
      resolve(name);
    });
    document.body.append(dialog);
    dialog.showModal();
    input.focus();
  });
}

// --- settings and health ----------------------------------------------------------------------
function setupSettings() {
  const dialog = document.getElementById("settings");
  const key = document.getElementById("settings-key");
  const user = document.getElementById("settings-user");
  document.getElementById("settings-open").addEventListener("click", () => {
    key.value = settings.apiKey;
    user.value = settings.userId;
    dialog.returnValue = ""; // Escape closes without saving
    dialog.showModal();
  });
  dialog.addEventListener("close", () => {
    if (dialog.returnValue !== "save") return;
    settings.apiKey = key.value.trim();
    settings.userId = user.value.trim();
    hideBanner();
    toast("Settings saved.");
    checkHealth();
    loadProjects().then(() => TABS[current].refresh ? TABS[current].refresh() : TABS[current].mount());
  });
}

async function checkHealth() {
  const badge = document.getElementById("health");
  try {
    const health = await api.health();
    badge.className = "health health-ok";
    badge.textContent = `${health.mode === "keys" ? "API keys" : "local"} · ${health.llm ? "LLM on" : "offline replies"}`;
    badge.title = `MemoPilot ${health.version} — ${health.mode === "keys" ? "every request needs an API key" : "local mode, no key needed"}; ${health.llm ? "a chat model answers" : "no chat model configured: answers list the memories they would use"}`;
    if (health.mode === "keys" && !settings.apiKey) {
      showBanner("This server uses API keys. Open Settings and paste your key.");
    }
  } catch {
    badge.className = "health health-bad";
    badge.textContent = "server unreachable";
  }
}

function showBanner(text) {
  const banner = document.getElementById("banner");
  clear(banner, h("span", {}, text), h("button", {
    type: "button", class: "btn btn-small", onclick: () => document.getElementById("settings-open").click(),
  }, "Open settings"));
  banner.hidden = false;
}
function hideBanner() { document.getElementById("banner").hidden = true; }

onApiError((err) => {
  if (!(err instanceof ApiError)) return;
  if (err.status === 401) showBanner(`Not authorised: ${err.detail}`);
  else if (err.status === 429) toast(`Slow down: ${err.detail}`, "error");
  else if (err.status === 0) toast(err.detail, "error");
});

function start() {
  setupTabs();
  setupProjects();
  setupSettings();
  checkHealth();
  loadProjects();
  activate(location.hash.slice(1) || "chat");
  document.documentElement.dataset.ready = "true";
}

start();
