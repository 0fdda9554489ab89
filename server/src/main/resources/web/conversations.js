// brain web UI: the Chat's saved conversations. Every finished turn is saved to its conversation's
// file under <data>/chat-transcripts (chat.js); this panel lists them (GET /api/conversations,
// last saved first) and opens one in the Chat (its turns drawn again), renames it or deletes it
// (POST .../rename, .../delete: writes, so this browser must be signed in, as for the Lab's
// writes), and links its shareable export (Markdown or JSON: no secrets, no local paths, a turn
// whose verification failed as rejected). Text from the server is set as text.
"use strict";

(() => {
  const panel = document.getElementById("conversations");
  if (!panel || typeof Brain === "undefined" || typeof BrainChat === "undefined") return;
  const { el, getJson, postJson } = Brain;
  const list = document.getElementById("conversation-list");
  const status = document.getElementById("conversation-status");
  const current = document.getElementById("conversation-current");

  function when(iso) {
    const d = new Date(iso);
    return isNaN(d) ? "" : d.toLocaleString([], { dateStyle: "medium", timeStyle: "short" });
  }

  function showCurrent() {
    const c = BrainChat.current();
    const error = BrainChat.keepError();
    current.title = error ? error.message : "";
    if (error && (error.code === "not_signed_in" || error.code === "unauthorized")) {
      // The Chat opened without the login link: it reads but cannot write; the title says how.
      current.textContent = "· this chat is not kept (sign in with the link brain serve printed)";
    } else if (error) {
      current.textContent = "· this chat is not kept: " + error.message;
    } else {
      current.textContent = c ? "· this chat: " + c.title : "";
    }
  }

  function exportUrl(id, format) {
    return `/api/conversations/${encodeURIComponent(id)}/export?format=${format}`;
  }

  async function refresh() {
    showCurrent();
    if (!panel.open) return;
    status.textContent = "Loading…";
    try {
      const listing = await getJson("/api/conversations");
      const open = BrainChat.current();
      list.replaceChildren(...listing.conversations.map((c) => item(c, open && open.id === c.id)));
      status.textContent = listing.count ? "" : "No saved conversations yet: each question you ask is saved here unless \"Don't save this question\" is on.";
    } catch (e) {
      status.textContent = "Cannot list conversations: " + (e.message || e);
    }
  }

  function item(c, isCurrent) {
    const name = (c.title || c.id) + "";
    return el("li", { class: "conversation" + (isCurrent ? " current" : ""), "data-id": c.id },
      el("button", { type: "button", class: "link open-conversation", title: "Open this conversation in the Chat", onclick: () => open(c.id) }, name),
      el("span", { class: "muted" }, ` ${c.turns} turn${c.turns === 1 ? "" : "s"} · ${when(c.updated_at)}`),
      el("span", { class: "conversation-actions" },
        el("button", { type: "button", class: "small rename-conversation", onclick: () => rename(c) }, "Rename"),
        el("button", { type: "button", class: "small delete-conversation", onclick: () => remove(c) }, "Delete"),
        el("span", { class: "muted" }, "Export:"),
        exportLink(c, "md", "Markdown"), exportLink(c, "json", "JSON")));
  }

  // With server.token set the tab keeps the token (brain.js, "brain.token") and every API call
  // must carry it, which a plain link cannot: the export is then fetched and saved from a blob.
  function exportLink(c, format, label) {
    const token = sessionStorage.getItem("brain.token");
    return el("a", {
      class: "small export-" + format, href: exportUrl(c.id, format), download: `${c.id}.${format}`,
      title: `Export to share, as ${label}: no secrets, no paths of this machine, rejected drafts left out`,
      onclick: token ? (e) => { e.preventDefault(); download(c, format, token); } : null,
    }, label);
  }

  async function download(c, format, token) {
    try {
      const response = await fetch(exportUrl(c.id, format), { headers: { Authorization: `Bearer ${token}` } });
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      const url = URL.createObjectURL(await response.blob());
      const a = el("a", { href: url, download: `${c.id}.${format}`, hidden: true });
      document.body.append(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 60000);
    } catch (e) {
      status.textContent = "Not exported: " + (e.message || e);
    }
  }

  async function open(id) {
    status.textContent = "Opening…";
    try {
      BrainChat.open(await getJson("/api/conversations/" + encodeURIComponent(id)));
      status.textContent = "";
      panel.open = false;
      showCurrent();
    } catch (e) {
      status.textContent = "Cannot open it: " + (e.message || e);
    }
  }

  async function rename(c) {
    const title = window.prompt("New name for this conversation:", c.title || "");
    if (title === null || !title.trim()) return;
    try {
      const renamed = await postJson(`/api/conversations/${encodeURIComponent(c.id)}/rename`, { title });
      BrainChat.changed(c.id, renamed.title);
      refresh();
    } catch (e) {
      status.textContent = "Not renamed: " + (e.message || e);
    }
  }

  async function remove(c) {
    if (!window.confirm(`Delete the saved conversation "${c.title}"? Its file is removed; the traces of its runs stay.`)) return;
    try {
      await postJson(`/api/conversations/${encodeURIComponent(c.id)}/delete`, {});
      BrainChat.changed(c.id, null);
      refresh();
    } catch (e) {
      status.textContent = "Not deleted: " + (e.message || e);
    }
  }

  panel.addEventListener("toggle", refresh);
  document.addEventListener("brain:conversation-saved", refresh);
  showCurrent();
})();
