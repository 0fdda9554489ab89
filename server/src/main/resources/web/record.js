// brain web UI: one record (GET /api/get): its text as rendered Markdown, its chunks, its links
// and backlinks. The key is the page's own path: /record/<url-encoded key>.
"use strict";

(() => {
  const { el, renderMarkdown, safeLink, getJson, showHealth } = Brain;
  const main = document.getElementById("record");
  const status = document.getElementById("record-status");

  function keyOfPath() {
    const raw = location.pathname.replace(/^\/record\//, "");
    try { return decodeURIComponent(raw); } catch (e) { return raw; }
  }

  // A linked record by its title (the key below it); a key alone when the index holds no title.
  function recordLink(key, titles) {
    const title = titles && titles[key];
    return title
      ? el("span", {}, el("a", { href: "/record/" + encodeURIComponent(key) }, title), " ", el("span", { class: "key muted" }, key))
      : el("a", { href: "/record/" + encodeURIComponent(key), class: "key" }, key);
  }

  // One of the record's links: the record it reaches (which may have another key: the bookmark of
  // a web address, a note of that name in another collection), or, when it reaches none, what the
  // note names marked unresolved with the reason.
  function linkItem(link, titles) {
    if (link.target) return recordLink(link.target, titles);
    const text = link.text || link.key;
    const named = /^https?:\/\//i.test(text) ? safeLink(text) : el("span", {}, link.key.startsWith("note:") ? "[[" + text + "]]" : text);
    return el("span", {},
      el("span", { class: "unresolved-link", title: link.unresolved || "unresolved" }, named),
      " ", el("span", { class: "muted" }, "unresolved: " + (link.unresolved || "no record")));
  }

  // Where the shown date came from (the record's date_source); records indexed before brain
  // kept it, and records of other importers, just say "saved".
  const DATE_SOURCES = {
    "front_matter:created": ["created", "front matter"],
    "front_matter:date": ["dated", "front matter"],
    file_time: ["created", "file time"],
  };

  function createdLine(r) {
    const day = String(r.created_at).slice(0, 10);
    const known = DATE_SOURCES[r.date_source];
    const title = r.date_source ? "date source: " + r.date_source : "date source unknown";
    return el("span", { class: "date", "data-source": r.date_source || "unknown", title },
      known ? `${known[0]} ${day} (${known[1]})` : "saved " + day);
  }

  function section(title, ...children) {
    return el("section", { class: "record-section" }, el("h2", {}, title), ...children);
  }

  // The server renders the note (CommonMark, Obsidian's wikilinks, embeds and callouts) with raw
  // HTML escaped and URLs sanitized; without it, the page's own renderer escapes first.
  function markdown(text, html, links) {
    const box = el("div", { class: "md" });
    box.innerHTML = typeof html === "string" ? html : renderMarkdown(text, null, links);
    return box;
  }

  // The page's heading: the record's title, except for a note the index titles after its file
  // name (no front-matter title, no H1) that opens with a heading of another level: a reader sees
  // that heading first, so the page is headed by it. The index keeps the file name as the title
  // (search, get, citations): on the Rust book, whose sections open with ##, titling notes by that
  // heading cost answers (evals/README.md).
  function pageTitle(r, text) {
    const title = r.title && r.title.trim() ? r.title : r.key;
    if (r.source_type !== "note" || !r.path) return title;
    const fileName = r.path.replace(/^.*\//, "").replace(/\.[^.]*$/, "");
    const first = text.firstElementChild;
    const opening = first && /^H[1-6]$/.test(first.tagName) ? first.textContent.trim() : "";
    return title === fileName && opening ? opening : title;
  }

  function render(detail) {
    const r = detail.record;
    const links = detail.links || (r.links || []).map((k) => ({ key: k, target: k }));
    const reached = [...new Set(links.filter((l) => l.target).map((l) => l.target))];
    const resolve = Markdown.noteResolver(reached.map((k) => ({ key: k, title: (detail.titles || {})[k] })));
    const text = markdown(r.text || "", detail.text_html, { note: resolve });
    const title = pageTitle(r, text);
    document.title = "brain · " + title;
    const head = el("header", { class: "record-head" },
      el("h1", {}, title),
      el("span", { class: "key" }, r.key));
    const badges = el("div", { class: "badges" },
      el("span", { class: "badge kind-" + (r.kind || "item") }, r.kind || "?"),
      el("span", { class: "badge" }, r.source_type || "?"),
      (r.tags || []).map((t) => el("a", { class: "badge tag", href: "/search?q=" + encodeURIComponent(t) + "&tag=" + encodeURIComponent(t) }, "#" + t)));
    const where = el("div", { class: "where" });
    if (r.path) where.append(el("span", { class: "path" }, r.path));
    if (r.url) where.append(r.path ? " · " : "", safeLink(r.url));
    const sep = () => (where.childNodes.length ? " · " : "");
    if (r.created_at) where.append(sep(), createdLine(r));
    const updated = r.updated_at ? String(r.updated_at).slice(0, 10) : null;
    if (updated && updated !== String(r.created_at || "").slice(0, 10)) where.append(sep() + "updated " + updated);
    if (r.published_at) where.append(sep() + "published " + String(r.published_at).slice(0, 10));
    const parts = [head, badges, where];
    if (r.summary) parts.push(section("Summary (derived)", el("p", { class: "muted" }, r.summary)));
    if (detail.truncated) {
      const t = detail.truncated;
      parts.push(el("p", { class: "notice" },
        `A long record: the first ${t.max_chars} of ${t.text_chars} characters and ${t.chunks_sent} of ${t.chunks_total} chunks are shown.`));
    }
    parts.push(section("Text", text));
    const chunks = el("ol", { class: "chunks" });
    for (const c of detail.chunks || []) {
      const heading = (c.heading_path || []).join(" › ");
      chunks.append(el("li", { id: "chunk-" + c.ordinal, value: c.ordinal },
        el("div", { class: "muted" }, `${c.role} · chars ${c.start_char}–${c.end_char}${heading ? " · " + heading : ""}`),
        el("div", { class: "excerpt" }, c.text)));
    }
    parts.push(el("details", { class: "record-section" },
      el("summary", {}, `Chunks (${(detail.chunks || []).length})`), chunks));
    parts.push(section(`Links (${links.length})`,
      links.length ? el("ul", { class: "links" }, links.map((l) => el("li", {}, linkItem(l, detail.titles)))) : el("p", { class: "muted" }, "none")));
    const back = detail.backlinks || [];
    parts.push(section(`Backlinks (${back.length})`,
      back.length ? el("ul", { class: "links" }, back.map((k) => el("li", {}, recordLink(k, detail.titles)))) : el("p", { class: "muted" }, "none")));
    main.replaceChildren(...parts);
  }

  const key = keyOfPath();
  getJson("/api/get?render=html&key=" + encodeURIComponent(key))
    .then(render)
    .catch((e) => {
      status.textContent = e.message;
      status.className = "error-box";
    });
  showHealth();
})();
