// brain web UI: the Chat's agent mode. When the server's configured agent model can call tools
// (GET /api/health → agent.available), an "Agent" switch appears beside the Ask button; with it
// on, a question goes to POST /api/agent/run instead of the research run, and every tool call the
// model makes shows in the turn's timeline as it happens. Kept apart from chat.js: this file only
// adds its own switch, intercepts the form while the switch is on, and renders its own turns.
"use strict";

(() => {
  const form = document.getElementById("ask-form");
  const question = document.getElementById("question");
  const turnsList = document.getElementById("turns");
  if (!form || !question || !turnsList || typeof Brain === "undefined") return;
  const { el, renderMarkdown, postStream, getJson, escapeHtml } = Brain;
  let toggle = null;
  let running = null;

  async function setUp() {
    let health;
    try {
      health = await getJson("/api/health");
    } catch (e) {
      return;
    }
    if (!health || !health.agent || !health.agent.available) return;
    toggle = el("input", { type: "checkbox", id: "agent-mode" });
    const label = el("label", { class: "check", title: "Let " + health.agent.model + " call brain's tools" }, toggle, " Agent");
    const row = form.querySelector(".ask-row");
    const spacer = row && row.querySelector(".spacer");
    if (row) row.insertBefore(label, spacer || null);
  }

  function active() {
    return toggle && toggle.checked;
  }

  // Capture phase on the form: runs before chat.js's own listeners and stops them while on.
  form.addEventListener("submit", (event) => {
    if (!active()) return;
    event.preventDefault();
    event.stopImmediatePropagation();
    submit();
  }, true);
  form.addEventListener("keydown", (event) => {
    if (!active() || event.target !== question) return;
    if (event.key === "Enter" && !event.shiftKey) {
      event.preventDefault();
      event.stopImmediatePropagation();
      submit();
    }
  }, true);

  function submit() {
    const text = question.value.trim();
    if (running || !text) return;
    question.value = "";
    run(text);
  }

  function stepText(step) {
    switch (step.type) {
      case "turn": return "model turn " + step.turn;
      case "tool_call":
        return "→ " + step.tool + " " + shorten(step.arguments || "") + " (" + step.result_chars + " chars" +
          (step.truncated ? ", cut" : "") + ", " + step.elapsed_ms + " ms)";
      case "tool_refused": return "✕ " + step.tool + ": " + (step.message || "refused");
      default: return step.type + (step.message ? ": " + step.message : "");
    }
  }

  function plural(n, word) {
    return n + " " + word + (n === 1 ? "" : "s");
  }

  function shorten(text) {
    return text.length <= 140 ? text : text.slice(0, 137) + "…";
  }

  // A cited key links to its record page; a number the agent wrote is left as text (an agent run
  // cites keys, it has no numbered source list).
  function citeLink(key) {
    if (/^\d+$/.test(key)) return escapeHtml("[" + key + "]");
    return `<a class="cite" href="/record/${encodeURIComponent(key)}" title="open the record">[${escapeHtml(key)}]</a>`;
  }

  async function run(text) {
    // As in a research turn: the answer first, the tool timeline under it, folded to one line once
    // the run is done.
    const timeline = el("ol", { class: "timeline agent-timeline", "aria-label": "tool calls" });
    const summary = el("summary", { class: "timeline-summary" }, "Agent running…");
    const steps = el("details", { class: "timeline-box", open: true }, summary, timeline);
    const answer = el("div", { class: "answer" });
    const status = el("p", { class: "muted agent-status" }, "Agent running…");
    const item = el("li", { class: "turn agent-turn", "data-status": "running" },
      el("p", { class: "question" }, el("strong", {}, "Agent: "), text),
      el("div", { class: "answer-box" }, answer, status), steps);
    turnsList.appendChild(item);
    item.scrollIntoView({ block: "nearest" });
    const controller = new AbortController();
    running = controller;
    const started = Date.now();
    let calls = 0;
    const add = (line, cls) => timeline.appendChild(el("li", { class: cls || "" }, line));
    const finish = (state, stop) => {
      item.dataset.status = state;
      const seconds = ((Date.now() - started) / 1000).toFixed(1) + " s";
      summary.textContent = [plural(calls, "tool call"), seconds, stop ? "stop: " + stop : null]
        .filter(Boolean).join(" · ");
      steps.open = false;
    };
    try {
      await postStream("/api/agent/run", { task: text, surface: "web_chat" }, (name, data) => {
        if (name === "start") {
          add("tools: " + (data.tools || []).join(", "), "muted");
          (data.mcp_failures || []).forEach((f) => add(f, "warning"));
        } else if (name === "progress") {
          if (data.type === "tool_call") calls++;
          add(stepText(data), data.type === "tool_refused" ? "warning" : "");
        } else if (name === "answer") {
          answer.innerHTML = renderMarkdown(data.text || "", citeLink); // escaped; see brain.js
        } else if (name === "done") {
          status.textContent = "Cited: " + (data.cited_keys || []).join(", ") +
            " · " + plural(data.turns, "turn") + ", " + plural(data.tool_calls, "tool call") +
            (data.trace_id ? " · trace " + data.trace_id : "");
          finish("ok", data.stop_reason);
        } else if (name === "verification_failed" || name === "error") {
          answer.replaceChildren();
          status.textContent = "No answer (" + (data.stop_reason || name) + "): " + (data.message || "");
          finish("failed", data.stop_reason || name);
        }
      }, controller.signal);
    } catch (e) {
      status.textContent = controller.signal.aborted ? "Stopped." : (e.message || String(e));
      finish("error", null);
    } finally {
      running = null;
    }
  }

  setUp();
})();
