// The REST client: JSON in and out, the optional API key, the current project.

const KEY_STORAGE = "memopilot.apiKey";
const USER_STORAGE = "memopilot.userId";
const PROJECT_STORAGE = "memopilot.project";

export class ApiError extends Error {
  constructor(status, detail) {
    super(detail);
    this.status = status;
    this.detail = detail;
  }
}

export const settings = {
  get apiKey() { return localStorage.getItem(KEY_STORAGE) || ""; },
  set apiKey(v) { v ? localStorage.setItem(KEY_STORAGE, v) : localStorage.removeItem(KEY_STORAGE); },
  // Only honoured by a server in local mode (no API keys).
  get userId() { return localStorage.getItem(USER_STORAGE) || ""; },
  set userId(v) { v ? localStorage.setItem(USER_STORAGE, v) : localStorage.removeItem(USER_STORAGE); },
  get project() { return localStorage.getItem(PROJECT_STORAGE) || "default"; },
  set project(v) { localStorage.setItem(PROJECT_STORAGE, v || "default"); },
};

const listeners = new Set();
/** Called with every ApiError (the app shows a banner for 401 and 429). */
export function onApiError(fn) { listeners.add(fn); }

function buildUrl(path, query) {
  const url = new URL(path, window.location.origin);
  const params = { ...(query || {}) };
  if (settings.userId && !settings.apiKey) params.user_id = settings.userId;
  for (const [k, v] of Object.entries(params)) {
    if (v !== undefined && v !== null && v !== "") url.searchParams.set(k, String(v));
  }
  return url.pathname + url.search;
}

export async function request(method, path, { query, body, signal } = {}) {
  const headers = { Accept: "application/json" };
  if (settings.apiKey) headers.Authorization = `Bearer ${settings.apiKey}`;
  const init = { method, headers, signal };
  if (body !== undefined) {
    headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(buildUrl(path, query), init);
  } catch (err) {
    if (err.name === "AbortError") throw err;
    const error = new ApiError(0, "The server cannot be reached. Is `memopilot serve` running?");
    listeners.forEach((fn) => fn(error));
    throw error;
  }
  const text = await response.text();
  let data = null;
  if (text) {
    try { data = JSON.parse(text); } catch { data = { detail: text.slice(0, 300) }; }
  }
  if (!response.ok) {
    const detail = (data && typeof data.detail === "string") ? data.detail
      : `${response.status} ${response.statusText}`;
    const error = new ApiError(response.status, detail);
    listeners.forEach((fn) => fn(error));
    throw error;
  }
  return data;
}

export const api = {
  health: () => request("GET", "/health"),
  projects: () => request("GET", "/api/projects"),
  chat: (message, sessionId) =>
    request("POST", "/api/chat", { body: { message, project_id: settings.project, session_id: sessionId } }),
  memories: (query) => request("GET", "/api/memories", { query }),
  memory: (id) => request("GET", `/api/memories/${encodeURIComponent(id)}`),
  addMemory: (body) => request("POST", "/api/memories", { body: { project_id: settings.project, ...body } }),
  updateMemory: (id, body) => request("PATCH", `/api/memories/${encodeURIComponent(id)}`, { body }),
  forgetMemory: (id, cascade = false) =>
    request("DELETE", `/api/memories/${encodeURIComponent(id)}${cascade ? "?cascade=true" : ""}`),
  history: (id) => request("GET", `/api/memories/${encodeURIComponent(id)}/history`),
  timeline: (query) => request("GET", "/api/timeline", { query: { project_id: settings.project, ...query } }),
  traces: (limit = 20) => request("GET", "/api/traces", { query: { limit } }),
  trace: (id) => request("GET", `/api/traces/${encodeURIComponent(id)}`),
  sessionTurns: (sessionId, limit = 100) =>
    request("GET", `/api/sessions/${encodeURIComponent(sessionId)}/turns`, { query: { limit } }),
  reflect: () => request("POST", "/api/reflect", { body: { project_id: settings.project } }),
  forgettingRun: () => request("POST", "/api/forgetting/run", { body: {} }),
  graph: () => request("GET", "/api/graph", { query: { project_id: settings.project } }),
  analytics: () => request("GET", "/api/analytics", { query: { project_id: settings.project } }),
  evalRun: (strategies) => request("POST", "/api/eval/run", { body: strategies ? { strategies } : {} }),
  evalReport: () => request("GET", "/api/eval/report"),
};
