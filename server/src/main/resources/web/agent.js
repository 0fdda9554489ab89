// brain web UI: the Chat's agent mode. When the server's configured agent model can call tools
// (GET /api/health → agent.available), an "Agent" switch appears beside the Ask button; with it
// on, a question goes to POST /api/agent/run instead of the research run, and every tool call the
// model makes shows in the turn's timeline as it happens. It is a mode of chat.js (BrainChat.addMode):
// the Chat keeps its turns with the research turns (restored on reload, sent with a follow-up's
// conversation as question, cited keys and the keys the tools returned); this file folds the
// agent's events into a turn and draws it.
"use strict";

(() => {
  const form = document.getElementById("ask-form");
  if (!form || typeof Brain === "undefined" || typeof BrainChat === "undefined") return;
  const { el, renderMarkdown, postStream, getJson, escapeHtml } = Brain;
  let toggle = null;

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

  /** Folds one event of POST /api/agent/run into the turn (the Chat saves and draws it after). */
  function onEvent(turn, name, data) {
    turn.steps = turn.steps || [];
    turn.calls = turn.calls || 0;
    data = data || {};
    if (name === "start") {
      turn.steps.push({ text: "tools: " + (data.tools || []).join(", "), cls: "muted" });
      (data.mcp_failures || []).forEach((f) => turn.steps.push({ text: f, cls: "warning" }));
      turn.model = data.controller;
    } else if (name === "progress") {
      if (data.type === "tool_call") turn.calls++;
      turn.steps.push({ text: stepText(data), cls: data.type === "tool_refused" ? "warning" : "" });
    } else if (name === "answer") {
      turn.answer = data.text || "";
    } else if (name === "done" || name === "verification_failed" || name === "error") {
      turn.finished = Date.now();
      turn.stopReason = data.stop_reason || name;
      turn.evidenceKeys = (data.evidence_keys || []).filter(Boolean);
      turn.turns = data.turns;
      turn.toolCalls = data.tool_calls;
      if (data.trace_id) turn.trace = data.trace_id;
      if (data.trace_error) turn.traceError = data.trace_error;
      if (name === "done") {
        turn.status = "ok";
        turn.citations = (data.cited_keys || []).filter(Boolean);
        if (typeof data.answer === "string") turn.answer = data.answer;
      } else {
        turn.status = "failed";
        turn.answer = ""; // an unverified answer is not kept, let alone shown
        turn.citations = [];
        turn.message = data.message || "";
      }
    }
  }

  function statusText(turn) {
    switch (turn.status) {
      case "running": return "Agent running…";
      case "ok":
        return "Cited: " + (turn.citations || []).join(", ") + " · " + plural(turn.turns || 0, "turn") + ", " +
          plural(turn.toolCalls || 0, "tool call") +
          (turn.trace ? " · trace " + turn.trace : turn.unsaved ? " · not saved" : turn.traceError ? " · trace not saved: " + turn.traceError : "");
      case "failed": return "No answer (" + turn.stopReason + "): " + (turn.message || "");
      default: return (turn.error && turn.error.message) || "Failed.";
    }
  }

  /** An agent turn as the Chat lists it: the answer first, the tool timeline under it. */
  function render(turn) {
    const answer = el("div", { class: "answer" });
    if (turn.answer) answer.innerHTML = renderMarkdown(turn.answer, citeLink); // escaped; see markdown.js
    const timeline = el("ol", { class: "timeline agent-timeline", "aria-label": "tool calls" },
      (turn.steps || []).map((s) => el("li", { class: s.cls || "" }, s.text)));
    const running = turn.status === "running";
    const seconds = turn.finished && turn.started ? ((turn.finished - turn.started) / 1000).toFixed(1) + " s" : null;
    const summary = running ? "Agent running…"
      : [plural(turn.calls || 0, "tool call"), seconds, turn.stopReason ? "stop: " + turn.stopReason : null].filter(Boolean).join(" · ");
    // Open while the tools run, then folded to one line; stays as the reader left it after that.
    const steps = el("details", {
      class: "timeline-box", open: running || !!turn.timelineOpen,
      ontoggle: (e) => { if (!running) turn.timelineOpen = e.currentTarget.open; },
    }, el("summary", { class: "timeline-summary" }, summary), timeline);
    // An error, a stop or a reload that cut the run is said in an alert; the rest in the status line.
    const cut = !running && turn.status !== "ok" && turn.status !== "failed";
    const box = el("div", { class: "answer-box" }, cut ? el("div", { class: "error-box", role: "alert" }, statusText(turn)) : null,
      answer, cut ? null : el("p", { class: "muted agent-status" }, statusText(turn)));
    return el("li", { class: "turn agent-turn", "data-status": turn.status },
      el("p", { class: "question" }, el("strong", {}, "Agent: "), turn.question), box, steps);
  }

  BrainChat.addMode("agent", {
    label: "Agent",
    active: () => !!toggle && toggle.checked,
    // "Don't save this question" holds for agent runs too (turn.unsaved is the switch when asked).
    // The earlier turns (research or agent) go along, so "and for the V60?" has its context.
    run: (turn, emit, signal, conversation) => postStream("/api/agent/run",
      { task: turn.question, conversation: conversation || [], surface: "web_chat", trace: !turn.unsaved },
      emit, signal),
    onEvent,
    render,
  });
  setUp();
})();
