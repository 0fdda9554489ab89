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
  const { el, renderMarkdown, postStream, getJson } = Brain;
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

  function shorten(text) {
    return text.length <= 140 ? text : text.slice(0, 137) + "…";
  }

  async function run(text) {
    const timeline = el("ol", { class: "timeline agent-timeline" });
    const answer = el("div", { class: "answer" });
    const status = el("p", { class: "muted" }, "Agent running…");
    const item = el("li", { class: "turn agent-turn" },
      el("p", { class: "question" }, el("strong", {}, "Agent: "), text), timeline, status, answer);
    turnsList.appendChild(item);
    item.scrollIntoView({ block: "nearest" });
    const controller = new AbortController();
    running = controller;
    const add = (line, cls) => timeline.appendChild(el("li", { class: cls || "" }, line));
    try {
      await postStream("/api/agent/run", { task: text, surface: "web_chat" }, (name, data) => {
        if (name === "start") {
          add("tools: " + (data.tools || []).join(", "), "muted");
          (data.mcp_failures || []).forEach((f) => add(f, "warning"));
        } else if (name === "progress") {
          add(stepText(data), data.type === "tool_refused" ? "warning" : "");
        } else if (name === "answer") {
          answer.replaceChildren();
          answer.insertAdjacentHTML("beforeend", renderMarkdown(data.text || "", null));
        } else if (name === "done") {
          status.textContent = "Cited: " + (data.cited_keys || []).join(", ") +
            " · " + data.turns + " turns, " + data.tool_calls + " tool calls" +
            (data.trace_id ? " · trace " + data.trace_id : "");
        } else if (name === "verification_failed" || name === "error") {
          answer.replaceChildren();
          status.textContent = "No answer (" + (data.stop_reason || name) + "): " + (data.message || "");
        }
      }, controller.signal);
    } catch (e) {
      status.textContent = controller.signal.aborted ? "Stopped." : (e.message || String(e));
    } finally {
      running = null;
    }
  }

  setUp();
})();
