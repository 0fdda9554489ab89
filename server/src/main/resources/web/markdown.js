// brain web UI: Markdown as brain's pages show it (a Chat answer, an evidence excerpt, a record
// without its server-rendered HTML). Plain browser JavaScript, no dependencies. Every piece of text
// is escaped before it reaches HTML; the renderer only ever adds its own tags, and no raw HTML,
// Markdown link or image of the text is ever followed.
//
// Obsidian's syntax renders as the record page's server renderer (NoteHtml) renders a note, with the
// same markup and classes: a callout (> [!tip] Title) is a box, [[note]], [[note|alias]] and
// [[note#heading]] link to the note's record page when the caller can resolve the name (else they
// are their text), ![[image.png]] is the image when the caller knows its URL, ![[note]] a link.
"use strict";

const Markdown = (() => {
  const ESCAPES = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

  function escapeHtml(value) {
    return String(value ?? "").replace(/[&<>"']/g, (c) => ESCAPES[c]);
  }

  // A bracketed record key, or a numbered marker ([1]) that the caller maps to its cited key.
  // "[1, 2]" cites two sources; "[x](url)" is a Markdown link, not a citation (and not rendered).
  const CITATION = /\[([a-z][a-z0-9_-]*:[^\[\]\n]+?|\d{1,2}(?:\s*[,;]\s*\d{1,2})*)\](?!\()/g;
  // The same shapes as NoteHtml's: an optional "!" (embed), the target, "#heading", "|alias".
  const WIKILINK = /(!?)\[\[([^\[\]|#^\n]+)(#[^\[\]|\n]*)?(?:\|([^\[\]\n]*))?\]\]/g;
  const CALLOUT = /^\[!([A-Za-z-]+)\]([+-]?)\s*(.*)$/;
  const QUOTE = /^\s{0,3}>/;
  const IMAGES = new Set(["png", "jpg", "jpeg", "gif", "webp", "avif", "bmp"]);
  // Holds a rendered wikilink's place while the text around it is escaped and emphasized.
  const HELD = /\u0000(\d+)\u0000/g;

  /**
   * The HTML of Markdown source: paragraphs, headings (as h4), bullet and numbered lists, block
   * quotes and Obsidian callouts, **bold**, *italic*, `code`, fenced code blocks (``` or ~~~),
   * wikilinks and embeds, and citations.
   *
   * cite(ref) gives the HTML of a citation: a [key] bracket or a numbered [1] marker; without it
   * they stay text. links resolves wikilinks: {note(target) -> record key or null, image(name) ->
   * URL of an image in the collection or null}; without it a wikilink is its visible text.
   */
  function render(source, cite, links) {
    const lines = String(source ?? "").replace(/\r\n?/g, "\n").replace(/\u0000/g, "").split("\n");
    return blocks(lines, { cite, links: links || null });
  }

  function blocks(lines, ctx) {
    let html = "";
    let para = [];
    let list = null;
    let code = null;
    let fence = null; // the ``` or ~~~ that opened the code block; only the same one closes it
    const flushPara = () => {
      if (para.length) html += "<p>" + inline(para.join(" "), ctx) + "</p>";
      para = [];
    };
    const flushList = () => {
      if (list) {
        // A numbered list keeps its first number (digits only: safe in the attribute).
        const start = list.start && list.start !== 1 ? ` start="${list.start}"` : "";
        html += `<${list.type}${start}>` + list.items.map((i) => "<li>" + inline(i, ctx) + "</li>").join("") + `</${list.type}>`;
      }
      list = null;
    };
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i];
      const marker = /^\s*(```|~~~)/.exec(line);
      if (marker && (!code || marker[1] === fence)) {
        if (code) {
          html += "<pre><code>" + escapeHtml(code.join("\n")) + "</code></pre>";
          code = null;
        } else {
          flushPara();
          flushList();
          code = [];
          fence = marker[1];
        }
        continue;
      }
      if (code) { code.push(line); continue; }
      let m;
      if (!line.trim()) { flushPara(); flushList(); continue; }
      if (QUOTE.test(line)) {
        flushPara(); flushList();
        const inner = [];
        for (; i < lines.length && QUOTE.test(lines[i]); i++) inner.push(lines[i].replace(/^\s{0,3}> ?/, ""));
        i--;
        html += quote(inner, ctx);
        continue;
      }
      if ((m = /^\s{0,3}#{1,6}\s+(.*)$/.exec(line))) {
        flushPara(); flushList();
        html += "<h4>" + inline(m[1], ctx) + "</h4>";
        continue;
      }
      if ((m = /^\s*[-*+]\s+(.*)$/.exec(line)) || (m = /^\s*\d{1,3}[.)]\s+(.*)$/.exec(line))) {
        const type = /^\s*\d/.test(line) ? "ol" : "ul";
        flushPara();
        if (!list || list.type !== type) {
          flushList();
          list = { type, items: [], start: type === "ol" ? Number(/\d+/.exec(line)[0]) : null };
        }
        list.items.push(m[1]);
        continue;
      }
      if (list && /^\s{2,}\S/.test(line)) { list.items[list.items.length - 1] += " " + line.trim(); continue; }
      flushList();
      para.push(line.trim());
    }
    if (code) html += "<pre><code>" + escapeHtml(code.join("\n")) + "</code></pre>";
    flushPara();
    flushList();
    return html;
  }

  /** A block quote; one whose first line is [!type] is a callout box titled by the rest of it. */
  function quote(inner, ctx) {
    const m = CALLOUT.exec(inner[0].trim());
    if (!m) return "<blockquote>" + blocks(inner, ctx) + "</blockquote>";
    // The type is letters and dashes only, so it is safe in the attributes.
    const type = m[1].toLowerCase();
    const title = m[3].trim() || type.charAt(0).toUpperCase() + type.slice(1);
    return `<div class="callout callout-${type}" data-callout="${type}">` +
      `<div class="callout-title">${inline(title, ctx)}</div>` + blocks(inner.slice(1), ctx) + "</div>";
  }

  function inline(text, ctx) {
    let out = "";
    for (const part of text.split(/(`[^`]+`)/)) {
      if (part.length > 1 && part.startsWith("`") && part.endsWith("`")) {
        out += "<code>" + escapeHtml(part.slice(1, -1)) + "</code>";
        continue;
      }
      const held = [];
      const marked = part.replace(WIKILINK, (all, bang, target, heading, alias) => {
        held.push(wikilink(bang === "!", target.trim(), heading, alias, ctx.links));
        return "\u0000" + (held.length - 1) + "\u0000";
      });
      out += citations(marked, ctx.cite).replace(HELD, (all, n) => held[Number(n)]);
    }
    return out;
  }

  function wikilink(embed, target, heading, alias, links) {
    const shown = alias && alias.trim() ? alias.trim() : heading ? target + " › " + heading.slice(1).trim() : target;
    if (embed && IMAGES.has(extension(target)) && links && links.image) {
      const url = links.image(target);
      // Only brain's own asset endpoint: never a URL the text chose.
      if (url && url.startsWith("/api/asset?")) return `<img src="${escapeHtml(url)}" alt="${escapeHtml(shown)}">`;
      return escapeHtml(`[image ${target} is not in the collection]`);
    }
    const key = links && links.note ? links.note(target) : null;
    if (!key) return escapeHtml(embed ? `[embedded ${shown}]` : shown);
    const href = escapeHtml("/record/" + encodeURIComponent(key));
    return embed
      ? `<a href="${href}" title="embedded note">↪ ${escapeHtml(shown)}</a>`
      : `<a href="${href}">${escapeHtml(shown)}</a>`;
  }

  function extension(name) {
    const dot = name.lastIndexOf(".");
    return dot < 0 ? "" : name.slice(dot + 1).toLowerCase();
  }

  function citations(text, cite) {
    let out = "";
    let last = 0;
    CITATION.lastIndex = 0;
    let m;
    while ((m = CITATION.exec(text))) {
      out += emphasis(escapeHtml(text.slice(last, m.index)));
      // "[note:a.md; note:b.md]" cites two keys.
      const keys = /^\d/.test(m[1])
        ? m[1].split(/\s*[,;]\s*/)
        : m[1].split(/\s*;\s*|,\s+(?=[a-z][a-z0-9_-]*:)/).filter(Boolean);
      out += keys.map((k) => (cite ? cite(k.trim()) : escapeHtml("[" + k.trim() + "]"))).join(" ");
      last = m.index + m[0].length;
    }
    return out + emphasis(escapeHtml(text.slice(last)));
  }

  // Runs on already-escaped text, so it can only ever add <strong> and <em>.
  function emphasis(escaped) {
    return escaped
      .replace(/\*\*(\S(?:[^*]*?\S)?)\*\*/g, "<strong>$1</strong>")
      .replace(/(^|[^*\w])\*(\S(?:[^*]*?\S)?)\*(?![*\w])/g, "$1<em>$2</em>")
      .replace(/(^|[\s(])_(\S(?:[^_]*?\S)?)_(?=[\s).,;:!?]|$)/g, "$1<em>$2</em>");
  }

  /**
   * An excerpt as safe inline Markdown. Excerpts are windows with their whitespace collapsed, so
   * block syntax has lost its line starts: heading marks and code fences are dropped rather than
   * turning the whole window into a heading or code, callouts show their type, and wikilinks their
   * visible text.
   */
  function renderExcerpt(text) {
    const plain = String(text ?? "")
      .replace(/\u0000/g, "")
      .replace(/(^|\s|…)#{1,6}\s+/g, "$1")
      .replace(/(^|\s|…)>\s*\[!([\w-]+)\][+-]?/g, "$1$2:") // an Obsidian callout's opening
      .replace(/```[\w-]*/g, "")
      .replace(/\[\[([^\]|]+)\|([^\]]+)\]\]/g, "$2")
      .replace(/\[\[([^\]]+)\]\]/g, "$1");
    return "<p>" + inline(plain, { cite: null, links: null }) + "</p>";
  }

  /** A note path or key's path without its Markdown extension, lower case. */
  function notePath(path) {
    return String(path).trim().replace(/\.(md|markdown|txt)$/i, "").toLowerCase();
  }

  /**
   * Resolves a wikilink's target among known records ({key, title} each), as the record page does
   * among a note's links: by note name (the file name without .md), a path in the link
   * disambiguating (Plugins/Templates), then by title. Returns the record key, or null.
   */
  function noteResolver(records) {
    const notes = (records || []).filter((r) => r && typeof r.key === "string" && r.key.startsWith("note:"));
    return (target) => {
      const wanted = notePath(target);
      for (const r of notes) {
        const path = notePath(r.key.slice(r.key.indexOf("/") + 1));
        if (path === wanted || path.endsWith("/" + wanted)) return r.key;
      }
      const byTitle = notes.find((r) => r.title && r.title.trim().toLowerCase() === wanted);
      return byTitle ? byTitle.key : null;
    };
  }

  return { escapeHtml, render, renderExcerpt, noteResolver };
})();
