// brain web UI: the actions under a finished research turn of the Chat, the Harness Lab's two
// flows for one turn. "Rerun without the planner" asks POST /api/research/trace-diff to run the
// turn's saved question again with a deterministic plan and shows what changed (evidence, answer,
// citations) beside the saved run; "Save as eval case" asks POST /api/research/eval-cases to append
// the saved run's draft case to <data>/evals/cases/chat.jsonl and shows the path written. Both work
// from the turn's saved trace: a turn that was not saved has them disabled, saying why. What they
// bring back is kept on the turn (turn.rerun, turn.evalCase), so it survives a reload. Text from the
// server is set as text, or rendered by Brain.renderMarkdown, which escapes it first.
"use strict";

const ChatTurnActions = (() => {
  const { el, postJson, renderMarkdown, escapeHtml } = Brain;

  /** The case file (under <data>/evals/cases) the Chat's cases go to. */
  const CASE_FILE = "chat";

  /** Why a turn has no saved run to rerun or promote; null when it has one. */
  function unsavedReason(turn) {
    if (turn.trace) return null;
    if (turn.unsaved) return "This question was not saved (\"Don't save this question\"): there is no saved run to use.";
    if (turn.status === "evidence") return "Evidence-only runs (Answer off) are not saved: there is no saved run to use.";
    if (turn.traceError) return `The trace was not saved (${turn.traceError}): there is no saved run to use.`;
    return "This turn has no saved run.";
  }

  /**
   * The action row of a finished research turn, and what its actions brought back. changed(turn)
   * is called whenever the turn's state moved (to save it and draw the turn again).
   */
  function of(turn, changed) {
    const reason = unsavedReason(turn);
    const rerunning = !!turn.rerun && turn.rerun.status === "running";
    const saving = !!turn.evalCase && turn.evalCase.status === "running";
    const saved = !!turn.evalCase && turn.evalCase.status === "saved";
    const row = el("div", { class: "turn-actions" },
      el("button", {
        type: "button", class: "small rerun-no-planner", disabled: !!reason || rerunning,
        title: reason || "Run this question again with the planner off (a deterministic plan) and compare it with the saved run",
        onclick: () => rerun(turn, changed),
      }, rerunning ? "Rerunning…" : "Rerun without the planner"),
      el("button", {
        type: "button", class: "small save-eval-case", disabled: !!reason || saving || saved,
        title: reason || (saved ? "Saved as " + turn.evalCase.case_id
          : `Append this run as a draft eval case to <data>/evals/cases/${CASE_FILE}.jsonl`),
        onclick: () => saveCase(turn, changed),
      }, saved ? "Saved as eval case" : saving ? "Saving…" : "Save as eval case"),
      reason ? el("span", { class: "muted actions-why" }, "needs a saved run") : null);
    return [row, caseNote(turn), rerunPanel(turn)].filter(Boolean);
  }

  // ---------- rerun without the planner ----------

  async function rerun(turn, changed) {
    turn.rerun = { status: "running" };
    changed(turn);
    try {
      const diff = await postJson("/api/research/trace-diff", { run_id: turn.trace, planner: false });
      turn.rerun = { status: "done", diff, open: true };
    } catch (e) {
      turn.rerun = { status: "error", message: e.message || String(e) };
    }
    changed(turn);
  }

  /** One line: what moved between the saved run and the rerun. */
  function diffSummary(diff) {
    const a = diff.answer || {};
    const parts = [diff.unchanged ? "same evidence in the same order"
      : `${diff.added.length} added · ${diff.removed.length} removed · ${diff.reordered.length} reordered`];
    parts.push(a.changed ? "answer changed" : "answer unchanged");
    parts.push(a.citations_changed ? "citations changed" : "citations unchanged");
    if (diff.stop_reason_before !== diff.stop_reason_after) parts.push(`stop ${diff.stop_reason_before} → ${diff.stop_reason_after}`);
    return parts.join(" · ");
  }

  function rerunPanel(turn) {
    const r = turn.rerun;
    if (!r) return null;
    if (r.status === "running") {
      return el("p", { class: "muted rerun-status", "aria-live": "polite" }, "Running the question again without the planner…");
    }
    if (r.status === "error") return el("div", { class: "error-box rerun-error", role: "alert" }, "Rerun failed: " + r.message);
    const diff = r.diff;
    const a = diff.answer || {};
    const plan = (turn.pack && turn.pack.query_plan) || {};
    const planner = plan.planner ? plan.planner + (plan.planner_model ? ` (${plan.planner_model})` : "") : "unknown";
    const titles = new Map(((turn.pack && turn.pack.evidence) || []).map((row) => [row.source_key, row.title]));
    const moved = new Map((diff.reordered || []).map((m) => [m.source_key, m]));
    const side = (heading, status, stop, keys, marked, mark, answer, cited, citeMarked) => el("div", { class: "side" },
      el("h4", {}, heading),
      el("p", { class: "small-print" }, `${status || "?"} · stop: ${stop || "?"}`),
      el("h5", {}, "Evidence"), keyList(keys, marked, mark, moved, titles),
      a.changed ? [el("h5", {}, "Answer"), answerBlock(answer)] : null,
      el("h5", {}, "Citations"), el("ul", { class: "diff-citations" }, cited.length
        ? cited.map((k) => el("li", { class: citeMarked.includes(k) ? mark : "same" }, el("span", { class: "key" }, k),
          citeMarked.includes(k) ? el("span", { class: "badge diff-" + mark }, mark) : null))
        : el("li", { class: "muted" }, "none")));
    const body = el("div", { class: "rerun-body" },
      el("p", { class: "small-print muted" }, `The saved run was planned by: ${planner}. The rerun plans deterministically`
        + " with the saved options, against the index as it is now; it is not saved."),
      a.changed ? null : el("p", { class: "small-print" }, "The answer is the same text in both."),
      el("div", { class: "side-by-side" },
        side("Saved run", diff.status_before, diff.stop_reason_before, diff.before, diff.removed, "removed",
          a.before, a.citations_before || [], a.citations_removed || []),
        side("Without the planner", diff.status_after, diff.stop_reason_after, diff.after, diff.added, "added",
          a.after, a.citations_after || [], a.citations_added || [])));
    return el("details", {
      class: "run-panel rerun", open: r.open !== false,
      ontoggle: (e) => { r.open = e.currentTarget.open; },
    }, el("summary", { class: "rerun-summary", "data-answer-changed": String(!!a.changed) },
      "Without the planner: " + diffSummary(diff)), body);
  }

  function keyList(keys, marked, mark, moved, titles) {
    const list = el("ol", { class: "diff-keys" });
    for (const key of keys) {
      const m = moved.get(key);
      const cls = marked.includes(key) ? mark : m ? "moved" : "same";
      list.append(el("li", { class: cls, "data-key": key },
        el("span", { class: "key" }, key),
        titles.get(key) ? el("span", { class: "muted" }, " " + titles.get(key)) : null,
        cls === mark ? el("span", { class: "badge diff-" + mark }, mark) : null,
        m ? el("span", { class: "badge diff-moved" }, `#${m.before_rank} → #${m.after_rank}`) : null));
    }
    if (!keys.length) list.append(el("li", { class: "muted" }, "no evidence"));
    return list;
  }

  function answerBlock(text) {
    if (!text) return el("p", { class: "muted" }, "no answer");
    const div = el("div", { class: "answer side-answer" });
    div.innerHTML = renderMarkdown(text, (ref) => `<span class="lab-cite">[${escapeHtml(ref)}]</span>`); // escaped; see markdown.js
    return div;
  }

  // ---------- save as eval case ----------

  async function saveCase(turn, changed) {
    turn.evalCase = { status: "running" };
    changed(turn);
    try {
      const saved = await postJson("/api/research/eval-cases", { run_id: turn.trace, include_answer: false, file: CASE_FILE });
      turn.evalCase = { status: "saved", case_id: saved.case_id, path: saved.path, file: saved.file };
    } catch (e) {
      turn.evalCase = { status: "error", message: e.message || String(e), code: e.code };
    }
    changed(turn);
  }

  function caseNote(turn) {
    const c = turn.evalCase;
    if (!c || c.status === "running") return null;
    if (c.status === "error") {
      return el("div", { class: "error-box eval-case-error", role: "alert" }, "Not saved as an eval case: " + c.message);
    }
    return el("p", { class: "notice eval-case-saved" },
      "Draft eval case ", el("code", {}, c.case_id), " appended to ", el("code", { class: "case-path" }, c.path),
      ". Review it (set ", el("code", {}, '"reviewed": true'), "), then run ",
      el("code", {}, `brain eval research --cases ${c.path}`), ".");
  }

  return { of };
})();
