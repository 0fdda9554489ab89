// brain web UI, the Harness Lab's saved conversations: the Chat's conversations (GET
// /api/conversations); one opened shows its turns and the draft eval cases proposed from it (GET
// /api/conversations/{id}/eval-cases, as `brain eval propose --from-conversation` drafts them), which
// a button appends to <data>/evals/cases/<file>.jsonl (POST, a write: the browser must be signed
// in). Text from the server is set with textContent; nothing here builds HTML from strings.
"use strict";

(() => {
  const { el, getJson, postJson } = Brain;
  const $ = (id) => document.getElementById(id);
  if (!$("conversations-body")) return;
  let opened = null; // the opened conversation's id

  async function load() {
    $("conversations-status").textContent = "loading…";
    try {
      const listing = await getJson("/api/conversations");
      $("conversations-count").textContent = `${listing.count} saved`;
      $("conversations-body").replaceChildren(...listing.conversations.map((c) =>
        el("tr", { class: "conversation-row", "data-id": c.id, tabindex: "0", onclick: () => open(c.id),
          onkeydown: (e) => { if (e.key === "Enter") open(c.id); } },
        el("td", {}, new Date(c.updated_at).toLocaleString()),
        el("td", {}, c.title || c.id),
        el("td", {}, String(c.turns)))));
      $("conversations-status").textContent = listing.count ? "" : "No saved conversations: the Chat saves each one.";
    } catch (e) {
      $("conversations-status").textContent = "Cannot list conversations: " + (e.message || e);
    }
  }

  async function open(id) {
    opened = id;
    $("conversation").hidden = false;
    $("conversation-message").replaceChildren();
    $("conversation-cases").textContent = "proposing…";
    try {
      const saved = await getJson("/api/conversations/" + encodeURIComponent(id));
      $("conversation-title").textContent = saved.title || saved.id;
      $("conversation-turns").replaceChildren(...saved.turns.map((t) =>
        el("li", {}, el("span", { class: "status " + (t.status === "ok" ? "ok" : t.status === "failed" ? "bad" : "warn") },
          t.status === "failed" ? "rejected" : t.status || "?"), " ", t.question)));
    } catch (e) {
      $("conversation-title").textContent = "Cannot open it: " + (e.message || e);
      $("conversation-turns").replaceChildren();
    }
    try {
      const proposed = await getJson(`/api/conversations/${encodeURIComponent(id)}/eval-cases`);
      $("conversation-cases").textContent = proposed.cases.map((c) => JSON.stringify(c)).join("\n");
      $("conversation-promote").disabled = false;
    } catch (e) {
      $("conversation-cases").textContent = "No drafts: " + (e.message || e);
      $("conversation-promote").disabled = true;
    }
  }

  async function promote() {
    if (!opened) return;
    const file = $("conversation-case-file").value.trim() || "lab";
    try {
      const done = await postJson(`/api/conversations/${encodeURIComponent(opened)}/eval-cases`, { file });
      const skipped = done.skipped.length ? ` (${done.skipped.length} already there: ${done.skipped.map((s) => s.case_id).join(", ")})` : "";
      $("conversation-message").replaceChildren(el("p", { class: "notice lab-notice" },
        `${done.case_ids.length} draft case${done.case_ids.length === 1 ? "" : "s"} appended to `, el("code", {}, done.path), skipped,
        ". Review them (set \"reviewed\": true), then run ", el("code", {}, `brain eval research --cases ${done.path}`), "."));
    } catch (e) {
      $("conversation-message").replaceChildren(el("div", { class: "error-box", role: "alert" }, "Not appended: " + (e.message || e)));
    }
  }

  $("conversations-refresh").addEventListener("click", load);
  $("conversation-promote").addEventListener("click", promote);
  load();
})();
