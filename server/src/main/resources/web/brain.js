// brain web UI, shared parts: safe DOM building, evidence cards, the JSON and SSE clients.
// Plain browser JavaScript: no build step, no dependencies. Every piece of text that comes from
// the corpus or from a model is either set with textContent or escaped before it reaches HTML.
"use strict";

const Brain = (() => {
  // ---------- escaping and DOM building ----------

  // Markdown (markdown.js, loaded first) escapes; brain's pages share its escaping and renderer.
  const { escapeHtml, render: renderMarkdown, renderExcerpt } = Markdown;

  /** el("a", {href: "#x", class: "y"}, "text", child) — children are strings (text) or nodes. */
  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [name, value] of Object.entries(attrs || {})) {
      if (value === undefined || value === null || value === false) continue;
      if (name === "class") node.className = value;
      else if (name.startsWith("on") && typeof value === "function") node.addEventListener(name.slice(2), value);
      else node.setAttribute(name, value === true ? "" : String(value));
    }
    for (const child of children.flat()) {
      if (child === undefined || child === null || child === false) continue;
      node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return node;
  }

  /** An http(s) URL as a link; anything else (javascript:, data:, ...) as plain text. */
  function safeLink(url, text) {
    try {
      const parsed = new URL(url);
      if (parsed.protocol === "http:" || parsed.protocol === "https:") {
        return el("a", { href: parsed.href, target: "_blank", rel: "noopener noreferrer", class: "url" }, text || url);
      }
    } catch (e) { /* not a URL */ }
    return el("span", { class: "url" }, text || url);
  }

  // ---------- evidence cards ----------

  const ROLE_LABELS = {
    raw: "raw text", summary: "summary (derived)", transcript: "transcript", ocr: "OCR",
    exact_tag: "exact tag", related: "related", pinned: "pinned",
    brain_written: "written by brain",
  };

  function laneBadges(row) {
    const lanes = (row.retrieval && row.retrieval.lanes) || [];
    return lanes.map((l) => el("span", { class: "badge lane", title: `raw score ${l.raw_score}, contribution ${l.contribution}` },
      `${l.name} #${l.rank}`));
  }

  /**
   * One evidence row as a card. opts: id (element id), pinned (bool), onPin(key) (adds a pin
   * button), cited (bool), weak (bool: flag the row as a weak match).
   */
  function evidenceCard(row, opts = {}) {
    const key = row.source_key;
    const title = row.title && row.title.trim() ? row.title : key;
    const head = el("div", { class: "card-head" },
      el("span", { class: "rank" }, row.rank ? `#${row.rank}` : ""),
      el("a", { class: "title", href: "/record/" + encodeURIComponent(key) }, title));
    if (opts.onPin) {
      head.append(el("button", {
        type: "button", class: "small pin" + (opts.pinned ? " on" : ""), "aria-pressed": opts.pinned ? "true" : "false",
        title: "Send this record with follow-up questions", onclick: () => opts.onPin(key),
      }, opts.pinned ? "Pinned" : "Pin"));
    }
    const badges = el("div", { class: "badges" },
      el("span", { class: "badge kind-" + (row.kind || "item") }, row.kind || "?"),
      el("span", { class: "badge" }, row.source_type || "?"),
      el("span", { class: "badge role", title: "evidence role" }, ROLE_LABELS[row.evidence_role] || row.evidence_role || "?"),
      chunkBadge(row),
      row.related_to ? el("span", { class: "badge role" }, `${row.relationship || "related"} ${row.related_to}`) : null,
      row.relationship === "pinned" ? el("span", { class: "badge role" }, "pinned by you") : null,
      laneBadges(row),
      opts.cited ? el("span", { class: "badge cited" }, "cited") : null,
      (row.user_tags || []).map((t) => el("span", { class: "badge tag" }, "#" + t)));
    const where = el("div", { class: "where" });
    if (row.note_path) where.append(el("span", { class: "path" }, row.note_path));
    const obsidian = obsidianLink(key, row.note_path);
    if (obsidian) where.append(" · ", obsidian);
    if (row.url) {
      if (row.note_path) where.append(" · ");
      where.append(safeLink(row.url));
    }
    const card = el("li", { class: "evidence-card" + (opts.weak ? " weak" : ""), id: opts.id, "data-key": key },
      head, el("span", { class: "key" }, key), badges, where);
    if (opts.weak) {
      card.append(el("p", { class: "weak-flag", title: "this row matches fewer than half of the query's terms" },
        "Weak match: missing " + (row.missing_terms || []).join(", ")));
    }
    if (row.summary) card.append(el("div", { class: "excerpt muted" }, "Summary (derived): " + row.summary));
    if (row.excerpt) {
      // Long excerpts start folded to six lines; a click unfolds them. The excerpt is rendered
      // Markdown (escaped first, see markdown.js) with the matched query terms marked.
      const long = row.excerpt.length > 600;
      const excerpt = el("div", {
        class: "excerpt md" + (long ? " clamped" : ""), title: long ? "click to show all" : null,
        onclick: long ? (e) => e.currentTarget.classList.toggle("clamped") : null,
      });
      excerpt.innerHTML = renderExcerpt(row.excerpt);
      highlight(excerpt, row.matched_terms || []);
      card.append(excerpt);
    }
    return card;
  }

  /** Wraps each word of node's text that starts with one of terms in <mark>. */
  function highlight(node, terms) {
    const words = terms.map((t) => String(t).trim().toLowerCase()).filter((t) => t.length > 1)
      .map((t) => t.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
    if (!words.length) return;
    const pattern = new RegExp(`\\b(?:${words.join("|")})[\\p{L}\\p{N}]*`, "giu");
    const walker = document.createTreeWalker(node, NodeFilter.SHOW_TEXT);
    const texts = [];
    while (walker.nextNode()) texts.push(walker.currentNode);
    for (const text of texts) {
      const value = text.nodeValue;
      pattern.lastIndex = 0;
      if (!pattern.test(value)) continue;
      pattern.lastIndex = 0;
      const frag = document.createDocumentFragment();
      let last = 0;
      let m;
      while ((m = pattern.exec(value))) {
        frag.append(value.slice(last, m.index), el("mark", {}, m[0]));
        last = m.index + m[0].length;
      }
      frag.append(value.slice(last));
      text.replaceWith(frag);
    }
  }

  // ---------- index status and Obsidian links ----------

  /** Collection name -> Obsidian vault name, for collections whose root holds .obsidian/. */
  const vaults = {};

  /** An obsidian://open link for a note of a collection that is an Obsidian vault, else null. */
  function obsidianLink(key, notePath) {
    if (!key || !key.startsWith("note:") || !notePath) return null;
    const collection = key.slice(5, key.indexOf("/") > 5 ? key.indexOf("/") : 5);
    const vault = vaults[collection];
    if (!vault) return null;
    const href = `obsidian://open?vault=${encodeURIComponent(vault)}&file=${encodeURIComponent(notePath)}`;
    return el("a", { href, class: "obsidian", title: "open the note in Obsidian" }, "open in Obsidian");
  }

  /** Loads GET /api/status: remembers the Obsidian vaults and fills #status-body if present. */
  async function loadStatus() {
    let status;
    try {
      status = await getJson("/api/status");
    } catch (e) {
      return null;
    }
    for (const c of status.collections || []) if (c.obsidian_vault) vaults[c.name] = c.obsidian_vault;
    const body = document.getElementById("status-body");
    if (body) {
      body.replaceChildren(el("p", {},
        `${status.records} records, ${status.chunks} chunks · vector: ${Math.floor(100 * status.vector_coverage)}% of chunks · ` +
        `summaries: ${Math.floor(100 * status.summary_coverage)}% of long records · ` +
        (status.summary_model
          ? `model summaries: ${Math.floor(100 * status.model_summary_coverage)}%` +
            (status.model_summary_failed ? ` (${status.model_summary_failed} failed)` : "") + " · "
          : "") +
        (status.watching ? "watching for changes" : "not watching")));
      const list = el("ul", { class: "status-list" });
      for (const c of status.collections || []) {
        const listed = [...(c.skipped || []), ...(c.failed || []), ...(c.truncated || []), ...(c.warnings || [])];
        const issues = listed.length + (c.more_issues || 0);
        list.append(el("li", {},
          el("strong", {}, c.name), " ", el("span", { class: "path" }, c.root || "(not in brain.yaml)"),
          el("div", { class: "muted" },
            `${c.files} files · ${c.records} records · ${c.chunks} chunks · vector: ${Math.floor(100 * c.vector_coverage)}%` +
            ` · last sync ${c.last_sync_at ? new Date(c.last_sync_at).toLocaleString() : "never"}${c.watching ? " · watched" : ""}` +
            (c.attachments && c.attachments.total ? ` · ${c.attachments.total} attachments skipped` : "") +
            (issues ? ` · ${issues} issues` : "")),
          issues ? el("details", {}, el("summary", {}, "skipped, failed and truncated files, warnings"),
            el("ul", {}, listed.map((i) => el("li", {}, `${i.file}: ${i.reason}`)))) : null));
      }
      body.append(list);
    }
    return status;
  }

  function chunkBadge(row) {
    const chunk = row.chunk;
    if (!chunk || !chunk.ordinals || !chunk.ordinals.length) return null;
    const heading = (chunk.heading_path || []).join(" › ");
    const label = chunk.ordinals.length > 1 ? `chunks ${chunk.ordinals.join(", ")}` : `chunk ${chunk.ordinals[0]}`;
    return el("span", { class: "badge role", title: heading || "chunk window" }, label);
  }

  /** Whether a row misses most of the query's terms (a vector-only neighbour, say). */
  // The server says which rows are weak (EvidenceRow.weak); older payloads get the same rule here.
  function isWeak(row) {
    if (typeof row.weak === "boolean") return row.weak;
    const missing = (row.missing_terms || []).length;
    const matched = (row.matched_terms || []).length;
    return missing > 0 && missing > matched;
  }

  /** Scrolls to an evidence card and flashes it; opens the <details> around it if closed. */
  function revealCard(id) {
    const card = document.getElementById(id);
    if (!card) return false;
    const details = card.closest("details");
    if (details && !details.open) details.open = true;
    card.scrollIntoView({ behavior: "smooth", block: "center" });
    card.classList.add("flash");
    setTimeout(() => card.classList.remove("flash"), 1600);
    return true;
  }

  // ---------- HTTP ----------

  class ApiError extends Error {
    constructor(status, error) {
      super((error && error.message) || `HTTP ${status}`);
      this.status = status;
      this.code = (error && error.code) || "http_error";
      this.field = error && error.field;
      this.answerStatus = error && error.answer_status;
    }
  }

  async function errorOf(response) {
    let body = null;
    try { body = await response.json(); } catch (e) { /* not JSON */ }
    const error = (body && body.error) || { message: `${response.status} ${response.statusText}` };
    if (response.status === 404 && !error.code) error.code = "not_found";
    const retry = response.headers.get("Retry-After");
    if (retry) error.message += ` (retry in ${retry} s)`;
    return new ApiError(response.status, error);
  }

  // With server.token set, open the page once as /#token=<token>: the token is kept for this tab
  // (sessionStorage), removed from the address bar and sent as a bearer token with every call.
  const TOKEN_KEY = "brain.token";
  (() => {
    const match = /(?:^#|&)token=([^&]+)/.exec(location.hash);
    if (!match) return;
    sessionStorage.setItem(TOKEN_KEY, decodeURIComponent(match[1]));
    history.replaceState(null, "", location.pathname + location.search);
  })();

  function authorized(headers) {
    const token = sessionStorage.getItem(TOKEN_KEY);
    return token ? { ...headers, Authorization: `Bearer ${token}` } : headers;
  }

  // Requests that write (a Lab case file, a note's Research section) need the server's token even
  // without server.token. brain's own pages get it from /api/session once this browser is signed
  // in by the login link `brain serve` prints (it sets a session cookie); unsigned, they read but do
  // not write, and a refused write says how to sign in. The token is kept for the tab; every POST
  // carries it. A 401 (the server restarted with a new token, or the browser signed in since) asks
  // for it again once.
  const SESSION_KEY = "brain.session";
  let signedOut = null; // /api/session's refusal (an ApiError) while this page is not signed in

  async function authorizedPost(headers) {
    if (sessionStorage.getItem(TOKEN_KEY)) return authorized(headers);
    if (!sessionStorage.getItem(SESSION_KEY) && !signedOut) {
      const response = await fetch("/api/session", { headers: { Accept: "application/json" } });
      if (response.status === 401) signedOut = await errorOf(response);
      else if (!response.ok) throw await errorOf(response);
      else sessionStorage.setItem(SESSION_KEY, (await response.json()).token);
    }
    const token = sessionStorage.getItem(SESSION_KEY);
    return token ? { ...headers, Authorization: `Bearer ${token}` } : headers;
  }

  /**
   * fetch() of a POST with the tab's token, asking for a new session token once on a 401; a write
   * refused because this browser is not signed in rejects with an ApiError saying how to sign in.
   */
  async function post(url, init) {
    const send = async () => fetch(url, { ...init, method: "POST", headers: await authorizedPost(init.headers) });
    const response = await send();
    if (response.status !== 401 || sessionStorage.getItem(TOKEN_KEY)) return response;
    sessionStorage.removeItem(SESSION_KEY);
    signedOut = null;
    const again = await send();
    if (again.status === 401 && signedOut) throw signedOut;
    return again;
  }

  async function getJson(url) {
    const response = await fetch(url, { headers: authorized({ Accept: "application/json" }) });
    if (!response.ok) throw await errorOf(response);
    return response.json();
  }

  /** POSTs JSON and reads a JSON reply; a non-2xx reply rejects with an ApiError. */
  async function postJson(url, body) {
    const response = await post(url, {
      headers: { "Content-Type": "application/json", Accept: "application/json" },
      body: JSON.stringify(body),
    });
    if (!response.ok) throw await errorOf(response);
    return response.json();
  }

  /**
   * POSTs JSON and reads a text/event-stream reply (fetch + stream reader: EventSource cannot
   * POST). onEvent(name, data) is called per event; the promise resolves when the stream ends.
   * A non-2xx reply rejects with an ApiError carrying the structured envelope.
   */
  async function postStream(url, body, onEvent, signal) {
    const response = await post(url, {
      headers: { "Content-Type": "application/json", Accept: "text/event-stream" },
      body: JSON.stringify(body),
      signal,
    });
    if (!response.ok) throw await errorOf(response);
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = "";
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += value.replace(/\r\n?/g, "\n");
      let cut;
      while ((cut = buffer.indexOf("\n\n")) >= 0) {
        const frame = buffer.slice(0, cut);
        buffer = buffer.slice(cut + 2);
        dispatch(frame, onEvent);
      }
    }
    if (buffer.trim()) dispatch(buffer, onEvent);
  }

  function dispatch(frame, onEvent) {
    let name = "message";
    const data = [];
    for (const line of frame.split("\n")) {
      if (!line || line.startsWith(":")) continue;
      const colon = line.indexOf(":");
      const field = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
      if (field === "event") name = value;
      else if (field === "data") data.push(value);
    }
    if (!data.length && name === "message") return;
    let parsed = data.join("\n");
    try { parsed = JSON.parse(parsed); } catch (e) { /* plain text data */ }
    onEvent(name, parsed);
  }

  /** Fills the header's health line: record count and the answering model. */
  async function showHealth() {
    const target = document.getElementById("health");
    if (!target) return null;
    try {
      const health = await getJson("/api/health");
      target.textContent = `${health.index.records} records · model ${health.model}`;
      return health;
    } catch (e) {
      target.textContent = "server unreachable";
      return null;
    }
  }

  return { escapeHtml, el, safeLink, renderMarkdown, highlight, evidenceCard, isWeak, revealCard, getJson, postJson, postStream, post, showHealth, loadStatus, ApiError };
})();
