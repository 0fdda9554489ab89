// brain web UI, the Harness Lab: saved research runs, a rerun compared side by side with the saved
// run (the server's trace diff, the one `brain trace diff` prints), and promotion of a run to a
// draft eval case (the one `brain eval propose` writes). Text from traces is set with textContent
// or escaped by Brain.renderMarkdown; nothing here builds HTML from strings.
"use strict";

(() => {
  const { el, getJson, evidenceCard, renderMarkdown, escapeHtml, showHealth, loadStatus, ApiError } = Brain;

  const STAGE_LABEL = {
    planning: "Planning", retrieval: "Retrieval", inspection: "Inspection", judge: "Judge",
    retry: "Retry", expansion: "Expansion", preparation: "Preparation", synthesis: "Synthesis",
    verification: "Verification", review: "Review", trace: "Trace",
  };
  const STATUS_CLASS = { started: "running", completed: "done", skipped: "skipped", failed: "failed" };
  const OK_STATUSES = new Set(["ok", "ok_truncated"]);

  const $ = (id) => document.getElementById(id);
  let current = null; // the opened trace (run.json)

  // ---------- HTTP: JSON POST with the tab's bearer token, errors as Brain.ApiError ----------

  async function postJson(url, body) {
    const headers = { "Content-Type": "application/json", Accept: "application/json" };
    const response = await Brain.post(url, { headers, body: JSON.stringify(body) });
    let json = null;
    try { json = await response.json(); } catch (e) { /* not JSON */ }
    if (!response.ok) throw new ApiError(response.status, (json && json.error) || { message: `HTTP ${response.status}` });
    return json;
  }

  function message(kind, ...children) {
    $("lab-message").replaceChildren(el("div", { class: kind === "error" ? "error-box" : "notice lab-notice", role: kind === "error" ? "alert" : null }, ...children));
  }

  function statusBadge(status) {
    const cls = OK_STATUSES.has(status) ? "ok" : status === "no_evidence" || status === "partial" ? "warn" : "bad";
    return el("span", { class: "status " + cls }, status || "?");
  }

  function when(iso) {
    if (!iso) return "?";
    const d = new Date(iso);
    return isNaN(d) ? iso : d.toLocaleString();
  }

  // ---------- the list of saved runs ----------

  async function loadRuns() {
    $("runs-status").textContent = "loading…";
    let listing;
    try {
      listing = await getJson("/api/research/traces?limit=100");
    } catch (e) {
      $("runs-status").textContent = "cannot list the saved runs: " + e.message;
      return;
    }
    $("runs-count").textContent = listing.count === 1 ? "1 run" : `${listing.count} runs`;
    $("runs-status").textContent = listing.count ? "" : "No saved runs yet: ask something in the Chat, or run `brain research \"…\"`.";
    $("runs-body").replaceChildren(...listing.traces.map((t) =>
      el("tr", { class: "run-row" + (current && current.run_id === t.run_id ? " selected" : ""), "data-run-id": t.run_id },
        el("td", { class: "nowrap" }, when(t.started_at)),
        el("td", {}, el("a", { href: "#run=" + encodeURIComponent(t.run_id), class: "run-link" }, t.question || t.error || t.run_id)),
        el("td", {}, statusBadge(t.status)),
        el("td", { class: "key" }, t.stop_reason || ""))));
  }

  // ---------- one run: timeline, plan, answer, evidence ----------

  async function openRun(runId) {
    $("compare").hidden = true;
    $("lab-message").replaceChildren();
    let trace;
    try {
      trace = await getJson("/api/research/traces/" + encodeURIComponent(runId));
    } catch (e) {
      $("run").hidden = false;
      current = null;
      $("run-question").textContent = "Run " + runId;
      message("error", e.status === 404 ? `No saved run ${runId}.` : e.message);
      return;
    }
    current = trace;
    for (const row of document.querySelectorAll("#runs-body tr")) row.classList.toggle("selected", row.dataset.runId === trace.run_id);
    $("run").hidden = false;
    $("run").dataset.runId = trace.run_id;
    $("run-question").textContent = trace.question;
    const settings = trace.settings || {};
    $("run-meta").replaceChildren(
      el("span", { class: "key" }, trace.run_id), " · ", when(trace.started_at),
      " · ", trace.surface || "?", " · ", statusBadge(trace.status),
      " · stop: ", el("span", { class: "key" }, trace.stop_reason || "?"),
      " · answer model: ", settings.synthesis_model || "extractive",
      " · planner: ", settings.planner_model || "deterministic",
      trace.metrics && trace.metrics.total_ms != null ? ` · ${trace.metrics.total_ms} ms` : "");
    renderTimeline(trace);
    renderPlan(trace);
    renderAnswer(trace);
    const cited = new Set(((trace.synthesis || {}).citations || []).map((c) => c.source_key));
    const rows = (trace.pack && trace.pack.evidence) || [];
    $("run-evidence").replaceChildren(...rows.map((row, i) => evidenceCard(row, { id: "lab-ev-" + i, cited: cited.has(row.source_key) })));
    if (!rows.length) $("run-evidence").append(el("li", { class: "muted" }, "No evidence."));
    $("run").scrollIntoView({ block: "start" });
  }

  function renderTimeline(trace) {
    // One line per stage, with its last status and message.
    const stages = [];
    for (const e of trace.events || []) {
      if (!e.stage || e.stage === "run") continue;
      let entry = stages.find((s) => s.stage === e.stage);
      if (!entry) stages.push((entry = { stage: e.stage }));
      entry.status = STATUS_CLASS[e.status] || e.status;
      entry.message = e.message || entry.message || "";
      entry.ms = e.elapsed_ms;
    }
    for (const s of stages) {
      if (s.status !== "running") continue;
      // run.json is written during the trace stage, so that stage never reads as completed in it;
      // any other stage still running in a saved run did not finish.
      if (s.stage === "trace") Object.assign(s, { status: "done", message: "Trace saved" });
      else Object.assign(s, { status: "failed", message: s.message + " (did not finish)" });
    }
    $("run-timeline").replaceChildren(...stages.map((s) =>
      el("li", { class: s.status, "data-stage": s.stage },
        el("span", { class: "stage" }, STAGE_LABEL[s.stage] || s.stage), s.message,
        s.ms != null ? el("span", { class: "muted" }, ` · at ${(s.ms / 1000).toFixed(1)} s`) : null)));
    if (!stages.length) $("run-timeline").append(el("li", { class: "muted" }, "No events recorded."));
  }

  function label(v) {
    if (v == null) return "";
    if (typeof v !== "object") return String(v);
    return v.text || v.query || v.label || v.key || v.name || JSON.stringify(v);
  }

  function renderPlan(trace) {
    const plan = (trace.pack && trace.pack.query_plan) || {};
    const judge = trace.judge || {};
    const items = [
      ["Query family", plan.query_family],
      ["Planner", plan.planner + (plan.planner_model ? ` (${plan.planner_model})` : "")],
      ["Planner error", plan.planner_error],
      ["Text query", plan.text_query],
      ["Query terms", (plan.query_terms || []).join(", ")],
      ["Tag queries", (plan.tag_queries || []).join(", ")],
      ["Variants", (plan.query_variants || []).map(label).join(" · ")],
      ["Concepts", (plan.concepts || []).map(label).join(" · ")],
      ["Lanes", (plan.retrieval_lanes || []).join(", ")],
      ["Related", plan.include_related ? "included" : null],
      ["Judge", judge.verdict ? judge.verdict + (judge.retry_action ? `, retry: ${judge.retry_action}` : "") : null],
    ];
    $("run-plan").replaceChildren(...items.filter(([, v]) => v).flatMap(([k, v]) => [el("dt", {}, k), el("dd", {}, String(v))]));
  }

  function citeHtml(key) {
    return `<span class="lab-cite">[${escapeHtml(key)}]</span>`;
  }

  function answerInto(target, synthesis, fallback) {
    const answer = synthesis && synthesis.answer;
    if (!answer) {
      target.replaceChildren(el("p", { class: "muted" }, fallback));
      return;
    }
    const div = el("div", { class: "answer" });
    div.innerHTML = renderMarkdown(answer, citeHtml); // renderMarkdown escapes every piece of text
    target.replaceChildren(div);
  }

  function renderAnswer(trace) {
    const s = trace.synthesis;
    answerInto($("run-answer"), s, trace.failure ? "No answer: " + (trace.failure.message || trace.stop_reason) : "No answer was written for this run.");
    // A draft that failed verification was never shown as an answer: the Lab shows it struck
    // through under the reasons it was rejected, and its status as the run's, not the draft's.
    const rejected = trace.status === "verification_failed";
    if (rejected) {
      const reasons = (trace.verification && trace.verification.reasons) || [];
      const box = el("div", { class: "error-box rejected-draft" },
        el("strong", {}, "Rejected draft: it failed verification and was not shown as an answer."),
        reasons.length ? el("ul", {}, ...reasons.map((r) => el("li", {}, r))) : null);
      const draft = $("run-answer").querySelector(".answer");
      if (draft) draft.classList.add("rejected");
      $("run-answer").prepend(box);
    }
    if (s) {
      $("run-answer").append(el("p", { class: "muted lab-small" },
        rejected ? `status: verification_failed (the draft's own status: ${s.answer_status || "?"})` : `answer status: ${s.answer_status || "?"}`,
        s.citations && s.citations.length ? ` · ${rejected ? "the draft cited" : "cites"} ${s.citations.map((c) => c.source_key).join(", ")}` : ""));
    }
  }

  // ---------- rerun and compare ----------

  async function rerun() {
    if (!current) return;
    const button = $("rerun");
    const withoutPlanner = $("rerun-no-planner").checked;
    button.disabled = true;
    button.textContent = "Running…";
    $("lab-message").replaceChildren();
    try {
      const diff = await postJson("/api/research/trace-diff", { run_id: current.run_id, planner: !withoutPlanner });
      renderCompare(diff, withoutPlanner);
    } catch (e) {
      message("error", "Rerun failed: " + e.message);
    } finally {
      button.disabled = false;
      button.textContent = "Rerun and compare";
    }
  }

  function renderCompare(diff, withoutPlanner) {
    const a = diff.answer || {};
    const summary = $("diff-summary");
    summary.dataset.added = diff.added.length;
    summary.dataset.removed = diff.removed.length;
    summary.dataset.reordered = diff.reordered.length;
    summary.dataset.answerChanged = String(!!a.changed);
    summary.dataset.citationsChanged = String(!!a.citations_changed);
    const parts = [];
    parts.push(diff.unchanged ? "same evidence in the same order" :
      `${diff.added.length} added · ${diff.removed.length} removed · ${diff.reordered.length} reordered`);
    parts.push(a.changed ? "answer changed" : "answer unchanged");
    parts.push(a.citations_changed ? "citations changed" : "citations unchanged");
    if (diff.stop_reason_before !== diff.stop_reason_after) parts.push(`stop reason ${diff.stop_reason_before} → ${diff.stop_reason_after}`);
    summary.textContent = parts.join(" · ");

    const titles = {};
    for (const row of (current.pack && current.pack.evidence) || []) titles[row.source_key] = row.title;
    const moved = {};
    for (const m of diff.reordered) moved[m.source_key] = m;

    const side = (target, heading, status, stop, keys, marked, mark, answer, cited, citeMarked) => {
      const list = el("ol", { class: "diff-keys" });
      keys.forEach((key) => {
        const m = moved[key];
        const cls = marked.includes(key) ? mark : m ? "moved" : "same";
        list.append(el("li", { class: cls, "data-key": key },
          el("span", { class: "key" }, key),
          titles[key] ? el("span", { class: "muted" }, " " + titles[key]) : null,
          cls === "added" ? el("span", { class: "badge diff-added" }, "added") : null,
          cls === "removed" ? el("span", { class: "badge diff-removed" }, "removed") : null,
          m ? el("span", { class: "badge diff-moved" }, `#${m.before_rank} → #${m.after_rank}`) : null));
      });
      if (!keys.length) list.append(el("li", { class: "muted" }, "no evidence"));
      const answerBox = el("div", { class: "answer-box side-answer" });
      answerInto(answerBox, answer == null ? null : { answer }, "no answer");
      target.replaceChildren(
        el("h4", {}, heading),
        el("p", { class: "lab-small" }, statusBadge(status), " · stop: ", el("span", { class: "key" }, stop || "?")),
        el("h5", {}, "Evidence"), list,
        el("h5", {}, "Answer"), answerBox,
        el("h5", {}, "Citations"),
        el("ul", { class: "diff-citations" }, cited.length ? cited.map((k) =>
          el("li", { class: citeMarked.includes(k) ? mark : "same" }, el("span", { class: "key" }, k),
            citeMarked.includes(k) ? el("span", { class: "badge diff-" + mark }, mark) : null)) : el("li", { class: "muted" }, "none")));
    };
    side($("side-before"), "Saved run", diff.status_before, diff.stop_reason_before, diff.before, diff.removed, "removed",
      a.before, a.citations_before || [], a.citations_removed || []);
    side($("side-after"), withoutPlanner ? "Rerun without the planner" : "Rerun", diff.status_after, diff.stop_reason_after, diff.after, diff.added, "added",
      a.after, a.citations_after || [], a.citations_added || []);
    $("compare").hidden = false;
    $("compare").scrollIntoView({ block: "start" });
  }

  // ---------- promote to an eval case ----------

  async function promote() {
    if (!current) return;
    const button = $("promote");
    button.disabled = true;
    try {
      const saved = await postJson("/api/research/eval-cases", {
        run_id: current.run_id, include_answer: $("include-answer").checked, file: $("case-file").value.trim() || "lab",
      });
      message("ok",
        el("p", { class: "promoted" }, "Draft case ", el("code", {}, saved.case_id), " appended to ", el("code", { class: "case-path" }, saved.path), "."),
        el("p", {}, "Review it (set ", el("code", {}, '"reviewed": true'), ", keep what must hold), then run: ",
          el("code", {}, `brain eval research --cases ${saved.path}`)),
        el("pre", { class: "lab-case" }, JSON.stringify(saved.case, null, 2)));
    } catch (e) {
      message("error", "Not saved: " + e.message);
    } finally {
      button.disabled = false;
    }
  }

  // ---------- wiring ----------

  function fromHash() {
    const m = /^#run=(.+)$/.exec(location.hash);
    if (m) openRun(decodeURIComponent(m[1]));
  }

  $("runs-refresh").addEventListener("click", loadRuns);
  $("rerun").addEventListener("click", rerun);
  $("promote").addEventListener("click", promote);
  window.addEventListener("hashchange", fromHash);
  showHealth();
  loadStatus();
  loadRuns().then(fromHash);
})();
