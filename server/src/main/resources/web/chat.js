// brain web UI: Chat over POST /api/research/run (SSE). Session state lives in sessionStorage:
// the last 8 turns and up to 24 pinned evidence keys. A follow-up sends the earlier turns (question,
// cited and evidence keys) and the pinned keys — never earlier answers, which are model output, not
// evidence. Each finished turn is also saved to the conversation's file on the server (POST
// /api/conversations, <data>/chat-transcripts) unless "Don't save this question" was on for it;
// conversations.js lists the saved ones and opens one through BrainChat.open.
"use strict";

(() => {
  const { el, renderMarkdown, evidenceCard, revealCard, postJson, postStream, showHealth, escapeHtml } = Brain;

  const STORE = "brain.chat.v1";
  const MAX_TURNS = 8;
  const MAX_PINS = 24;
  // The research runner's stages, in run order (the "run" stage frames them and is not shown).
  const STAGE_LABEL = {
    planning: "Planning",
    retrieval: "Retrieval",
    inspection: "Inspection",
    judge: "Judge",
    retry: "Retry",
    expansion: "Expansion",
    preparation: "Preparation",
    synthesis: "Synthesis",
    verification: "Verification",
    review: "Review",
    trace: "Trace",
  };
  const STATUS_CLASS = { started: "running", completed: "done", skipped: "skipped", failed: "failed" };

  const turnsList = document.getElementById("turns");
  const form = document.getElementById("ask-form");
  const question = document.getElementById("question");
  const askButton = document.getElementById("ask");
  const stopButton = document.getElementById("stop");
  const synthesize = document.getElementById("synthesize");
  const related = document.getElementById("related");
  const noTrace = document.getElementById("no-trace");
  const pinsBox = document.getElementById("pins");
  const pinList = document.getElementById("pin-list");

  let state = load();
  let running = null; // { turn, controller }

  // ---------- session state ----------

  function load() {
    try {
      const saved = JSON.parse(sessionStorage.getItem(STORE) || "null");
      if (saved && Array.isArray(saved.turns) && Array.isArray(saved.pins)) {
        saved.turns.forEach(restored);
        return saved;
      }
    } catch (e) { /* corrupt or unavailable storage: start fresh */ }
    return { turns: [], pins: [], next: 1 };
  }

  /** A kept turn made fit to draw again after a reload or from a saved conversation. */
  function restored(turn) {
    // A run cut by a reload cannot resume: say so rather than spin forever.
    if (turn.status === "running") {
      turn.status = "interrupted";
      turn.error = { message: "The page was reloaded while this question was running." };
    }
    // Nor can a rerun or a save that was under way; the button is offered again.
    if (turn.rerun && turn.rerun.status === "running") delete turn.rerun;
    if (turn.evalCase && turn.evalCase.status === "running") delete turn.evalCase;
    turn.timeline = Array.isArray(turn.timeline) ? turn.timeline : [];
    turn.citations = Array.isArray(turn.citations) ? turn.citations : [];
    turn.warnings = Array.isArray(turn.warnings) ? turn.warnings : [];
    turn.answer = typeof turn.answer === "string" ? turn.answer : "";
    return turn;
  }

  function save() {
    state.turns = state.turns.slice(-MAX_TURNS);
    state.pins = state.pins.slice(0, MAX_PINS);
    try {
      sessionStorage.setItem(STORE, JSON.stringify(state));
    } catch (e) {
      // Quota: drop the evidence of the oldest turns first, keep questions and answers.
      for (const turn of state.turns.slice(0, -1)) if (turn.pack) turn.pack.evidence = [];
      try { sessionStorage.setItem(STORE, JSON.stringify(state)); } catch (e2) { /* give up quietly */ }
    }
  }

  /** The parts of a research pack the UI shows; keeps sessionStorage small. */
  function compactPack(pack) {
    const plan = pack.query_plan || {};
    const brief = pack.topic_brief;
    return {
      evidence: pack.evidence || [],
      exact_tag_evidence: pack.exact_tag_evidence || [],
      coverage: pack.coverage || {},
      next_steps: pack.next_steps || [],
      query_plan: {
        text_query: plan.text_query,
        query_family: plan.query_family,
        query_terms: plan.query_terms || [],
        tag_queries: plan.tag_queries || [],
        query_variants: plan.query_variants || [],
        concepts: (plan.concepts || []).map((c) => ({ preferred: c.preferred, terms: c.terms || [], required: !!c.required, role: c.role })),
        source_types: plan.source_types || [],
        retrieval_lanes: plan.retrieval_lanes || [],
        planner: plan.planner,
        planner_model: plan.planner_model,
        follow_up: plan.follow_up || null,
      },
      // The brief's graph (nodes, edges) is not shown; its pivots are offered as next questions.
      topic_brief: brief ? { topic: brief.topic, summary: brief.summary, pivots: (brief.pivots || []).slice(0, 8) } : null,
    };
  }

  // ---------- pins ----------

  function togglePin(key) {
    const at = state.pins.indexOf(key);
    if (at >= 0) state.pins.splice(at, 1);
    else if (state.pins.length < MAX_PINS) state.pins.push(key);
    else alert(`At most ${MAX_PINS} pinned records; unpin one first.`);
    save();
    renderAll();
  }

  function renderPins() {
    pinsBox.hidden = state.pins.length === 0;
    pinList.replaceChildren(...state.pins.map((key) =>
      el("span", { class: "pin-chip key" }, key,
        el("button", { type: "button", title: "unpin", "aria-label": "unpin " + key, onclick: () => togglePin(key) }, "×"))));
  }

  // ---------- asking ----------

  // How a question is answered. A mode is { label, run(turn, onEvent, signal) } that streams the
  // runner's events (progress, pack, start, token, answer, citation, done, verification_failed,
  // error) into onEvent; the page's optional #chat-mode control picks one by name, else the first
  // mode whose active() says so, else "research". Other scripts add modes through
  // BrainChat.addMode; a mode with events of its own brings onEvent(turn, name, data) to fold them
  // into the turn, and render(turn) to draw its turns. Its turns are kept like research turns: in
  // the session, restored on reload, and sent with a follow-up's conversation.
  const modes = {
    research: {
      label: "Research",
      run: (turn, onEvent, signal) => postStream("/api/research/run", researchBody(turn.question), onEvent, signal),
    },
  };

  function currentMode() {
    const control = document.getElementById("chat-mode");
    const name = control && control.value;
    if (modes[name]) return name;
    const active = Object.keys(modes).find((m) => typeof modes[m].active === "function" && modes[m].active());
    return active || "research";
  }

  /**
   * The runner request: the conversation's earlier turns (question, cited keys, evidence keys), so
   * a short follow-up ("and for the V60?") keeps the earlier intent — never earlier answers.
   */
  function researchBody(text) {
    return {
      question: text,
      conversation: conversation(),
      pinned_keys: state.pins.slice(),
      synthesize: synthesize.checked,
      include_related: related.checked,
      trace: !noTrace.checked,
      max_chars_per_doc: 4000,
      surface: "web_chat",
    };
  }

  /** The turns before the current one, oldest first, as POST /api/research/run reads them. */
  function conversation() {
    return state.turns.slice(0, -1).slice(-(MAX_TURNS - 1))
      .filter((t) => t.question && t.question.trim())
      .map((t) => ({
        question: t.question,
        cited_keys: (t.citations || []).slice(0, 100),
        evidence_keys: evidenceKeys(t).slice(0, 100),
      }));
  }

  /** The keys a turn's evidence holds: a research turn's pack rows, an agent turn's tool results. */
  function evidenceKeys(turn) {
    if (Array.isArray(turn.evidenceKeys)) return turn.evidenceKeys.filter(Boolean);
    return (turn.pack ? turn.pack.evidence : []).map((r) => r.source_key).filter(Boolean);
  }

  async function ask(text) {
    const mode = currentMode();
    const turn = {
      id: state.next++,
      question: text,
      mode,
      status: "running",
      timeline: [],
      pack: null,
      answer: "",
      citations: [],
      warnings: [],
      unsaved: noTrace.checked,
      started: Date.now(),
    };
    state.turns.push(turn);
    const owner = state; // replaced by "New chat" or an opened conversation
    save();
    renderAll();
    const controller = new AbortController();
    running = { turn, controller };
    setBusy(true);
    try {
      const fold = modes[mode].onEvent || onEvent;
      // A mode gets the conversation's earlier turns too (the agent sends them with its task).
      await modes[mode].run(turn, (name, data) => {
        fold(turn, name, data);
        scheduleRender(turn);
      }, controller.signal, conversation());
      if (turn.status === "running") {
        turn.status = "error";
        turn.error = { message: "The stream ended without a final event." };
      }
    } catch (e) {
      if (controller.signal.aborted) {
        turn.status = "stopped";
        turn.error = { message: "Stopped." };
      } else {
        turn.status = "error";
        turn.error = { message: describeError(e), code: e.code };
      }
    } finally {
      running = null;
      setBusy(false);
      save();
      scheduleRender(turn);
      // A run cut by "New chat" or by opening another conversation is not saved into that one.
      if (!turn.unsaved && state === owner) keep(turn);
    }
  }

  // ---------- the conversation's file on the server ----------

  // Saves run one after another, so the first one's new conversation id is known to the next.
  let saving = Promise.resolve();

  /** Saves a finished turn into the conversation's file (a new conversation for the first one). */
  function keep(turn) {
    const owner = state;
    saving = saving.then(() => persist([turn], owner)).catch(() => {});
    return saving;
  }

  /** What the file keeps of a turn: what draws it again; not the state of its buttons. */
  function savedTurn(turn) {
    const { rerun, evalCase, panelsOpen, timelineOpen, heartbeat, ...kept } = turn;
    return kept;
  }

  /** Saves turns of the chat state owner, unless the Chat has moved on to another one since. */
  async function persist(turns, owner, retried = false) {
    if (state !== owner) return;
    const conversation = state.conversation;
    const body = { turns: turns.map(savedTurn) };
    if (conversation && conversation.id) body.id = conversation.id;
    try {
      const saved = await postJson("/api/conversations", body);
      if (state !== owner) return; // the Chat moved on to another conversation meanwhile
      state.conversation = { id: saved.id, title: saved.title };
      delete state.keepError;
    } catch (e) {
      if (e.status === 404 && conversation && !retried) {
        // Deleted meanwhile (another tab, the list): the turns on screen start a new one.
        if (state !== owner) return;
        state.conversation = null;
        return persist(state.turns.filter((t) => !t.unsaved && t.status !== "running"), owner, true);
      }
      if (state !== owner) return;
      // Shown by the saved-conversations panel (conversations.js), not on the turn.
      state.keepError = { message: e.message || String(e), code: e.code };
    }
    save();
    document.dispatchEvent(new CustomEvent("brain:conversation-saved", { detail: state.conversation }));
  }

  function describeError(e) {
    if (e.status === 404) return "This server has no research endpoint yet (404). Search still works.";
    if (e.status === 503) return e.message || "The model is unavailable.";
    return e.message || String(e);
  }

  function onEvent(turn, name, data) {
    switch (name) {
      case "progress":
        upsertStage(turn, data);
        break;
      case "pack":
        turn.pack = compactPack(data);
        break;
      case "start":
        turn.model = data.model;
        turn.tool = data.tool;
        if (Array.isArray(data.answer_warnings)) turn.warnings = data.answer_warnings;
        break;
      case "heartbeat":
        turn.heartbeat = data && data.elapsed_ms;
        break;
      case "token":
        turn.answer += (data && data.text) || "";
        break;
      case "answer":
        turn.answer = (data && data.text) || "";
        break;
      case "citation":
        if (data && data.source_key && !turn.citations.includes(data.source_key)) turn.citations.push(data.source_key);
        break;
      case "done":
        finish(turn, data);
        if (typeof data.answer === "string") turn.answer = data.answer; // the final text wins
        if (data.model_unavailable) turn.modelUnavailable = data.model_unavailable;
        if (data.retrieval_only) turn.status = "evidence";
        else if (data.answer_status === "no_evidence") turn.status = "no_evidence";
        else if (data.answer_status === "partial") turn.status = "partial";
        else turn.status = "ok";
        break;
      case "verification_failed":
        finish(turn, data, true);
        turn.status = "failed";
        turn.answer = ""; // an unverified draft is not kept, let alone shown
        turn.failures = data.failures || [];
        break;
      case "error":
        finish(turn, data, true);
        turn.status = "error";
        turn.error = { message: data.message || "The run failed.", code: data.code };
        break;
      default:
    }
  }

  function finish(turn, data, failed = false) {
    turn.finished = Date.now();
    for (const entry of turn.timeline) if (entry.status === "running") entry.status = failed ? "failed" : "done";
    if (!data) return;
    turn.answerStatus = data.answer_status;
    if (Array.isArray(data.answer_warnings)) turn.warnings = data.answer_warnings;
    if (Array.isArray(data.citations)) {
      turn.citations = data.citations.map((c) => (typeof c === "string" ? c : c.source_key)).filter(Boolean);
    }
    if (data.model) turn.model = data.model;
    if (data.tool) turn.tool = data.tool;
    if (data.stop_reason) turn.stopReason = data.stop_reason;
    if (data.trace_id) turn.trace = data.trace_id;
    if (data.trace_error) turn.traceError = data.trace_error;
    if (data.pack) turn.pack = compactPack(data.pack);
    if (data.verification && Array.isArray(data.verification.warnings)) turn.softWarnings = data.verification.warnings;
  }

  /**
   * Marks the answer's blocks the soft gates found stating a fact without a citation (matched by
   * their opening text) and says how many; advisory: the answer stands.
   */
  function markUncited(turn, answer) {
    const warnings = (turn.softWarnings || []).filter((w) => w && w.gate === "uncited_paragraph" && w.excerpt);
    if (!warnings.length) return null;
    const plain = (t) => String(t).replace(/[*_`#>]/g, "").replace(/^\s*(?:[-+]|\d+\.)\s+/, "").replace(/\s+/g, " ").trim();
    for (const w of warnings) {
      const head = plain(w.excerpt).replace(/…$/, "").slice(0, 40);
      const block = [...answer.children].find((c) => !c.classList.contains("uncited") && plain(c.textContent).startsWith(head));
      if (block) {
        block.classList.add("uncited");
        block.title = "This paragraph states a fact without citing a record (a soft check: the answer stands)";
      }
    }
    const n = warnings.length;
    return el("p", { class: "notice soft-warnings" },
      `${n} paragraph${n === 1 ? "" : "s"} state${n === 1 ? "s" : ""} a fact without citing a record (marked).`);
  }

  function upsertStage(turn, data) {
    if (!data || !data.stage || data.stage === "run") return;
    let entry = turn.timeline.find((t) => t.stage === data.stage);
    if (!entry) {
      entry = { stage: data.stage };
      turn.timeline.push(entry);
    }
    entry.status = STATUS_CLASS[data.status] || data.status || "running";
    entry.message = data.message || entry.message || "";
  }

  // ---------- rendering ----------

  let pending = new Set();
  function scheduleRender(turn) {
    if (!pending.size) requestAnimationFrame(() => { pending.forEach(renderTurn); pending = new Set(); });
    pending.add(turn);
  }

  function renderAll() {
    renderPins();
    turnsList.replaceChildren(...state.turns.map(turnElement));
    document.getElementById("intro").hidden = state.turns.length > 0;
  }

  function renderTurn(turn) {
    const old = document.getElementById("turn-" + turn.id);
    const fresh = turnElement(turn);
    if (old) old.replaceWith(fresh);
    else turnsList.append(fresh);
  }

  function turnElement(turn) {
    const mode = modes[turn.mode || "research"];
    if (mode && mode.render && turn.mode !== "research") {
      const own = mode.render(turn);
      own.id = "turn-" + turn.id;
      return own;
    }
    const li = el("li", { class: "turn " + turn.status, id: "turn-" + turn.id, "data-status": turn.status },
      el("p", { class: "question" }, turn.question));
    // The answer first; the stage timeline under it, folded to one line once the run is done.
    li.append(answerBox(turn));
    if (isResearch(turn) && turn.status !== "running") li.append(...ChatTurnActions.of(turn, changed));
    if (turn.timeline.length || turn.status === "running") li.append(timeline(turn));
    if (turn.pack && turn.status !== "running") li.append(...runPanels(turn));
    if (turn.pack && allRows(turn).length) li.append(evidenceSection(turn));
    return li;
  }

  function isResearch(turn) {
    return (turn.mode || "research") === "research";
  }

  /** A turn's state moved outside a run (a rerun, a saved case): keep it and draw it again. */
  function changed(turn) {
    save();
    scheduleRender(turn);
  }

  // ---------- what the run did: plan, coverage, topic pivots ----------

  /**
   * The folded Plan and Coverage panels of a finished turn, its topic pivots and the pack's next
   * steps, if any (a turn without evidence shows its steps in the no-evidence box).
   */
  function runPanels(turn) {
    return [planPanel(turn), coveragePanel(turn), pivotRow(turn), nextStepsRow(turn)].filter(Boolean);
  }

  /**
   * The pack's next steps as buttons under a turn with evidence: inspect the strongest rows (their
   * cards unfolded and scrolled to), expand related evidence (the question asked again with
   * "Related notes" on), open the top record (its record page).
   */
  function nextStepsRow(turn) {
    const steps = turn.pack.next_steps || [];
    if (!turn.pack.evidence.length || !steps.length) return null;
    const row = el("div", { class: "next-steps pack-steps" }, el("span", { class: "muted" }, "Next:"));
    for (const step of steps) {
      const params = step.params || {};
      const label = step.label || step.action;
      if (step.action === "inspect_top_evidence") {
        row.append(el("button", { type: "button", class: "small step", "data-action": step.action, onclick: () => showCards(turn, params.lookups || []) }, label));
      } else if (step.action === "expand_related") {
        row.append(el("button", {
          type: "button", class: "small step", "data-action": step.action,
          title: "Ask this question again with Related notes on",
          onclick: () => { related.checked = true; submit(turn.question); },
        }, label));
      } else if (step.action === "open_lookup" && params.lookup) {
        row.append(el("a", { class: "button small step", "data-action": step.action, href: "/record/" + encodeURIComponent(params.lookup), title: params.lookup }, label));
      } else {
        row.append(el("span", { class: "badge", "data-action": step.action }, label));
      }
    }
    return row;
  }

  /** Unfolds a turn's evidence and scrolls to the first card of these keys, marking each. */
  function showCards(turn, keys) {
    const ids = cardIds(turn);
    const cards = keys.map((k) => document.getElementById(ids.get(k))).filter(Boolean);
    if (!cards.length) return;
    const details = cards[0].closest("details");
    if (details) details.open = true;
    cards.forEach((c) => c.classList.add("inspected"));
    cards[0].scrollIntoView({ block: "center" });
  }

  /** A folded panel that stays as the reader left it across re-renders. */
  function folded(turn, name, summary, body) {
    const open = (turn.panelsOpen || {})[name];
    return el("details", {
      class: "run-panel " + name, open: !!open,
      ontoggle: (e) => { turn.panelsOpen = { ...turn.panelsOpen, [name]: e.currentTarget.open }; },
    }, el("summary", {}, summary), body);
  }

  /** A definition list of the [term, value] pairs that have a value (strings or nodes). */
  function facts(pairs) {
    const dl = el("dl", { class: "facts" });
    for (const [term, value] of pairs) {
      if (value === undefined || value === null || value === "" || (Array.isArray(value) && !value.length)) continue;
      dl.append(el("dt", {}, term), el("dd", {}, value));
    }
    return dl;
  }

  function conceptLabel(c) {
    const others = (c.terms || []).filter((t) => t !== c.preferred);
    return c.preferred + (others.length ? ` (${others.join(", ")})` : "");
  }

  function planPanel(turn) {
    const plan = turn.pack.query_plan || {};
    const concepts = plan.concepts || [];
    const required = concepts.filter((c) => c.required);
    const optional = concepts.filter((c) => !c.required);
    const variants = plan.query_variants || [];
    const follow = plan.follow_up;
    const summary = ["Plan", `${required.length} required concept${required.length === 1 ? "" : "s"}`,
      `${variants.length} search${variants.length === 1 ? "" : "es"}`, follow ? "follow-up" : null];
    const body = facts([
      ["Searched for", plan.text_query],
      ["Question shape", plan.query_family],
      ["Required", required.map(conceptLabel).join(" · ")],
      ["Optional", optional.map((c) => conceptLabel(c) + (c.role ? ` [${c.role}]` : "")).join(" · ")],
      ["Searches", variants.length ? el("ol", { class: "variants" },
        variants.map((v) => el("li", {}, v.query, v.reason ? el("span", { class: "muted" }, " — " + v.reason) : null))) : null],
      ["Tags tried", (plan.tag_queries || []).map((t) => "#" + t).join(", ")],
      ["Filters", (plan.source_types || []).join(", ")],
      ["Lanes", (plan.retrieval_lanes || []).join(", ")],
      ["Planner", plan.planner ? plan.planner + (plan.planner_model ? ` (${plan.planner_model})` : "") : null],
      ["Read as", follow ? follow.resolved_question : null],
      ["Continues", follow ? follow.previous_question : null],
      ["Replaced", follow ? follow.replaced : null],
      ["Kept", follow ? (follow.inherited_concepts || []).join(", ") : null],
      ["Why", follow ? follow.reason : null],
    ]);
    if (!body.childElementCount) return null; // a turn kept from before plans were stored
    return folded(turn, "plan", summary.filter(Boolean).join(" · "), body);
  }

  /** "note 5, pdf 2" of a { name: count } map. */
  function counts(map) {
    return Object.entries(map || {}).map(([k, v]) => `${k} ${v}`).join(", ");
  }

  function coveragePanel(turn) {
    const c = turn.pack.coverage || {};
    const missing = c.missing_concepts || [];
    const absent = c.absent_concepts || [];
    const tags = (c.top_user_tags || []).map((t) => el("span", { class: "badge tag" }, `#${t.tag} (${t.count})`));
    const rows = typeof c.evidence_count === "number" ? c.evidence_count : allRows(turn).length;
    const summary = ["Coverage", `${rows} row${rows === 1 ? "" : "s"}`,
      missing.length ? `${missing.length} concept${missing.length === 1 ? "" : "s"} unmatched` : null];
    const body = el("div", {}, facts([
      ["Evidence", counts(c.by_kind)],
      ["Source types", counts(c.by_source_type)],
      ["Text matches", counts(c.text_matches)],
      ["Exact-tag matches", c.exact_tag_matches ? String(c.exact_tag_matches) : null],
      ["Top tags", tags.length ? el("span", { class: "badges" }, tags) : null],
      ["Unmatched concepts", missing.join(", ")],
      ["Nowhere in corpus", absent.join(", ")],
    ]));
    if (c.recall_note) body.append(el("p", { class: "recall-note muted" }, c.recall_note));
    if (!body.firstChild.childElementCount && !c.recall_note) return null;
    return folded(turn, "coverage", summary.filter(Boolean).join(" · "), body);
  }

  /** A pivot of the topic brief as a question of its own. */
  function pivotQuestion(pivot) {
    const label = String(pivot.label || "").trim();
    return pivot.type === "tag" ? `What do my notes tagged #${label.replace(/^#/, "")} say?` : `What do my notes say about ${label}?`;
  }

  /** The topic brief's pivots as next questions: a click fills the ask box and asks. */
  function pivotRow(turn) {
    const brief = turn.pack.topic_brief;
    // A linked record known only by its key (an untitled source) makes no question worth asking.
    const pivots = ((brief && brief.pivots) || []).filter((p) => p && p.label && !(p.type === "record" && p.label === p.id));
    if (!pivots.length) return null;
    const row = el("div", { class: "next-steps pivots", title: brief.summary || null }, el("span", { class: "muted" }, "Explore next:"));
    for (const pivot of pivots) {
      const text = pivotQuestion(pivot);
      row.append(el("button", {
        type: "button", class: "small pivot", title: text, "data-question": text,
        onclick: () => { question.value = text; submit(text); },
      }, pivot.type === "tag" ? "#" + pivot.label.replace(/^#/, "") : pivot.label));
    }
    return row;
  }

  function timeline(turn) {
    const list = stageList(turn);
    if (turn.status === "running") return list;
    const stages = turn.timeline.filter((t) => t.status === "done").length;
    const seconds = turn.finished && turn.started ? ((turn.finished - turn.started) / 1000).toFixed(1) + " s" : null;
    const parts = [`${stages} stage${stages === 1 ? "" : "s"}`, seconds, turn.stopReason ? "stop: " + turn.stopReason : null];
    // Stays as the reader left it across re-renders (a pin, a later turn).
    return el("details", { class: "timeline-box", open: !!turn.timelineOpen, ontoggle: (e) => { turn.timelineOpen = e.currentTarget.open; } },
      el("summary", { class: "timeline-summary" }, parts.filter(Boolean).join(" · ")), list);
  }

  function stageList(turn) {
    const list = el("ol", { class: "timeline", "aria-label": "progress" });
    for (const entry of turn.timeline) {
      list.append(el("li", { class: entry.status, "data-stage": entry.stage },
        el("span", { class: "stage" }, STAGE_LABEL[entry.stage] || entry.stage), entry.message || ""));
    }
    if (turn.status === "running") {
      const waited = turn.heartbeat ? ` (${Math.round(turn.heartbeat / 1000)} s)` : "";
      if (!turn.timeline.length) list.append(el("li", { class: "running" }, el("span", { class: "stage" }, "Starting"), "sending the question" + waited));
      else if (waited) list.append(el("li", { class: "muted heartbeat" }, "still working" + waited));
    }
    return list;
  }

  function answerBox(turn) {
    const box = el("div", { class: "answer-box" });
    if (turn.status === "failed") {
      box.append(el("p", { class: "status bad" }, "Verification failed — this draft is not shown as an answer."));
      const failures = (turn.failures || []).map((f) => (typeof f === "string" ? f : f.message || f.reason || JSON.stringify(f)));
      if (failures.length) box.append(el("ul", {}, failures.map((f) => el("li", {}, f))));
      box.append(meta(turn));
      return box;
    }
    if (turn.status === "error" || turn.status === "interrupted" || turn.status === "stopped") {
      box.append(el("div", { class: "error-box", role: "alert" }, (turn.error && turn.error.message) || "Failed."));
    }
    const noEvidence = turn.status === "no_evidence" || (turn.pack && turn.pack.evidence.length === 0 && turn.status !== "running");
    if (noEvidence && turn.pack) box.append(noEvidenceBox(turn));
    // Without evidence the answer is the synthesizer's account of what was searched: it is what
    // "Explain this result" shows, not a second copy under the box.
    if (turn.answer && !(noEvidence && turn.pack && isNoEvidenceAnswer(turn))) {
      const { body, labels } = splitSources(turn.answer);
      const used = new Map();
      const answer = el("div", { class: "answer" });
      answer.innerHTML = renderMarkdown(body, citeLinker(turn, used), answerLinks(turn)); // escaped; see markdown.js
      box.append(answer);
      const uncited = turn.status !== "running" ? markUncited(turn, answer) : null;
      if (uncited) box.append(uncited);
      if (used.size && turn.status !== "running") box.append(sourceList(turn, used, labels));
    } else if (turn.status === "running") {
      box.append(el("p", { class: "muted" }, "Working…"));
    } else if (turn.status === "evidence" && turn.modelUnavailable) {
      box.append(el("div", { class: "notice model-unavailable", role: "status" },
        el("strong", {}, "Model unreachable: showing the evidence. "), turn.modelUnavailable));
    } else if (turn.status === "evidence") {
      box.append(el("p", { class: "muted" }, "Evidence only (answer switched off)."));
    }
    if (turn.status === "partial") {
      box.prepend(el("p", { class: "notice" }, "Partial answer: your notes cover only part of this question (its last line says what is missing)."));
    }
    // The no-evidence box already says what the no_evidence warning would.
    const warnings = (turn.warnings || []).filter((w) => !(noEvidence && w === "no_evidence"));
    if (warnings.length) box.append(el("p", { class: "notice" }, "Warnings: " + warnings.join(", ")));
    if (turn.status !== "running") box.append(meta(turn));
    return box;
  }

  function meta(turn) {
    const line = el("div", { class: "meta" });
    const label = { ok: "answered", partial: "partial answer", no_evidence: "no evidence", failed: "verification failed",
      error: "error", evidence: "evidence only", interrupted: "interrupted", stopped: "stopped" }[turn.status] || turn.status;
    const cls = { ok: "ok", evidence: "ok", no_evidence: "warn", failed: "bad", error: "bad" }[turn.status] || "warn";
    line.append(el("span", { class: "status " + cls }, label));
    if (turn.model) {
      const tool = turn.tool && turn.tool !== turn.model ? ` via ${turn.tool}` : "";
      const builtIn = turn.model === "extractive" ? " (built in, no LLM)" : "";
      line.append(el("span", { class: "model" }, "model: " + turn.model + tool + builtIn));
    }
    if (turn.answerStatus) line.append(el("span", {}, "answer_status: " + turn.answerStatus));
    if (turn.stopReason) line.append(el("span", {}, "stop: " + turn.stopReason));
    if (turn.trace) line.append(el("span", { class: "trace-saved", title: "saved under <data>/research-runs/" }, "trace saved: " + turn.trace));
    else if (turn.unsaved) line.append(el("span", { class: "trace-unsaved", title: "no trace was written for this question" }, "not saved"));
    else if (turn.traceError) line.append(el("span", { class: "trace-unsaved", title: turn.traceError }, "trace not saved: " + turn.traceError));
    return line;
  }

  /**
   * An answer may end with its numbered sources ("Sources:" then "[1] [key] label" lines); they are
   * cut from the text and shown as the source list, keeping their labels.
   */
  function splitSources(answer) {
    const at = answer.lastIndexOf("\nSources:\n");
    if (at < 0) return { body: answer, labels: new Map() };
    const labels = new Map();
    for (const line of answer.slice(at + 10).split("\n")) {
      const m = /^\[(\d+)\] \[([^\]]+)\]\s*(.*)$/.exec(line.trim());
      if (m) labels.set(m[2], m[3]);
    }
    return labels.size ? { body: answer.slice(0, at), labels } : { body: answer, labels: new Map() };
  }

  /**
   * Numbers the sources of an answer: marker [n] is the n-th key of the run's citations[]; a
   * bracketed [key] (a model's answer) gets the number of its key there, or the next free one.
   */
  function numbering(turn) {
    const numbers = new Map();
    (turn.citations || []).forEach((key) => { if (!numbers.has(key)) numbers.set(key, numbers.size + 1); });
    return {
      keyOf: (n) => [...numbers].find(([, v]) => v === n)?.[0],
      numberOf: (key) => {
        if (!numbers.has(key)) numbers.set(key, numbers.size + 1);
        return numbers.get(key);
      },
    };
  }

  /**
   * Resolves an answer's wikilinks among the turn's evidence (the notes the answer was written
   * from): [[note]] links to that note's record page; ![[image.png]] is the image, looked up by name
   * in the collection of the turn's first note (the server serves only an image inside it).
   */
  function answerLinks(turn) {
    const rows = allRows(turn);
    const note = Markdown.noteResolver(rows.map((r) => ({ key: r.source_key, title: r.title })));
    const first = rows.find((r) => String(r.source_key).startsWith("note:") && r.source_key.indexOf("/") > 5);
    const collection = first ? first.source_key.slice(5, first.source_key.indexOf("/")) : null;
    const image = (name) => (collection
      ? `/api/asset?collection=${encodeURIComponent(collection)}&name=${encodeURIComponent(name)}`
      : null);
    return { note, image };
  }

  /** Renders citations as numbered links to their cards; records which numbers the text used. */
  function citeLinker(turn, used) {
    const ids = cardIds(turn);
    const n = numbering(turn);
    return (ref) => {
      let key = ref;
      if (/^\d+$/.test(ref)) {
        key = n.keyOf(Number(ref));
        if (!key) return escapeHtml(`[${ref}]`); // a bracketed number that cites nothing
      }
      const number = n.numberOf(key);
      const id = ids.get(key);
      if (!id) return `<span class="cite-missing" title="not in this turn's evidence">[${escapeHtml(key)}]</span>`;
      used.set(key, number);
      return `<a class="cite num" href="#${id}" data-card="${id}" data-key="${escapeHtml(key)}" title="${escapeHtml(key)}">${number}</a>`;
    };
  }

  /** The cited sources by number: title (scrolls to its card), label or source type, record page. */
  function sourceList(turn, used, labels) {
    const ids = cardIds(turn);
    const rows = new Map(allRows(turn).map((r) => [r.source_key, r]));
    const list = el("ol", { class: "sources", "aria-label": "sources" });
    for (const [key, number] of [...used].sort((x, y) => x[1] - y[1])) {
      const row = rows.get(key);
      const title = row && row.title && row.title.trim() ? row.title : key;
      const id = ids.get(key);
      const label = labels.get(key) || (row && row.source_type) || "";
      list.append(el("li", { value: number },
        el("a", { class: "cite source", href: "#" + id, "data-card": id, "data-key": key }, title),
        el("span", { class: "muted" }, label ? ` ${label} · ` : " "),
        el("a", { class: "key", href: "/record/" + encodeURIComponent(key), title: "open the record" }, key)));
    }
    return list;
  }

  function allRows(turn) {
    return turn.pack ? [...turn.pack.evidence, ...turn.pack.exact_tag_evidence] : [];
  }

  function cardIds(turn) {
    const ids = new Map();
    if (!turn.pack) return ids;
    [...turn.pack.evidence, ...turn.pack.exact_tag_evidence].forEach((row, i) => {
      if (!ids.has(row.source_key)) ids.set(row.source_key, `ev-${turn.id}-${i}`);
    });
    return ids;
  }

  function evidenceSection(turn) {
    const rows = [...turn.pack.evidence];
    const seen = new Set(rows.map((r) => r.source_key));
    const tagged = turn.pack.exact_tag_evidence.filter((r) => !seen.has(r.source_key));
    const details = el("details", { class: "evidence", open: turn.id === lastTurnId() });
    details.append(el("summary", {}, `Evidence (${rows.length}${tagged.length ? ` + ${tagged.length} exact-tag` : ""})`));
    const list = el("ol", { class: "evidence-list" });
    const all = [...turn.pack.evidence, ...turn.pack.exact_tag_evidence];
    const ids = cardIds(turn);
    all.forEach((row, i) => {
      if (ids.get(row.source_key) !== `ev-${turn.id}-${i}`) return; // shown once
      list.append(evidenceCard(row, {
        id: `ev-${turn.id}-${i}`,
        pinned: state.pins.includes(row.source_key),
        onPin: togglePin,
        cited: turn.citations.includes(row.source_key),
      }));
    });
    details.append(list);
    return details;
  }

  function lastTurnId() {
    return state.turns.length ? state.turns[state.turns.length - 1].id : -1;
  }

  function noEvidenceBox(turn) {
    const plan = turn.pack.query_plan || {};
    const box = el("div", { class: "no-evidence" }, el("p", { class: "status warn" }, "No evidence found in your corpus for this question."));
    const dl = el("dl");
    const row = (term, value) => { if (value) dl.append(el("dt", {}, term), el("dd", {}, value)); };
    row("Searched for", plan.text_query);
    row("Terms", (plan.query_terms || []).join(", "));
    row("Tags tried", (plan.tag_queries || []).join(", "));
    row("Variants", (plan.query_variants || []).map((v) => v.query).join(" · "));
    row("Filters", (plan.source_types || []).join(", "));
    box.append(dl);
    const steps = (turn.pack.next_steps || []).filter((s) => s.action !== "nearest_by_meaning");
    const nearest = (turn.pack.next_steps || []).find((s) => s.action === "nearest_by_meaning");
    if (nearest) {
      // Not evidence: records near the question in meaning with too few of its key words.
      const list = el("ul", { class: "nearest" });
      const titles = nearest.params.titles || [];
      (nearest.params.lookups || []).forEach((key, i) => {
        list.append(el("li", {}, el("a", { href: `/search?q=${encodeURIComponent(turn.question)}` }, titles[i] || key),
          el("span", { class: "muted" }, ` ${key} · cosine ${nearest.params.cosines[i]}`)));
      });
      box.append(el("p", { class: "muted" }, "Nearest in meaning, with too few of the key words to count as evidence:"), list);
    }
    const explanation = el("div", { class: "explanation", hidden: true, "aria-live": "polite" });
    box.append(el("div", { class: "next-steps" },
      el("button", { type: "button", class: "small explain", onclick: (e) => explain(turn, explanation, e.currentTarget) }, "Explain this result")),
      explanation);
    if (steps.length) {
      const buttons = el("div", { class: "next-steps" }, el("span", { class: "muted" }, "Try:"));
      for (const step of steps) {
        const query = step.params && step.params.query;
        buttons.append(query
          ? el("button", { type: "button", class: "small", onclick: () => submit(query) }, step.label || query)
          : el("span", { class: "badge" }, step.label || step.action));
      }
      box.append(buttons);
    }
    return box;
  }

  /** Whether the turn's answer is the synthesizer's no-evidence statement. */
  function isNoEvidenceAnswer(turn) {
    return !!turn.answer && (turn.answerStatus === "no_evidence" || turn.status === "no_evidence");
  }

  /**
   * "Explain this result": the synthesis over the question's empty pack, as the design describes:
   * what was searched and which concepts occur nowhere in the corpus. A run that synthesized has
   * it already; one that did not (answer switched off) fetches the pack again and synthesizes it.
   */
  async function explain(turn, target, button) {
    button.disabled = true;
    target.hidden = false;
    target.textContent = "Explaining…";
    try {
      let text = isNoEvidenceAnswer(turn) ? turn.answer : "";
      if (!text) {
        const sourceTypes = (turn.pack && turn.pack.query_plan.source_types) || [];
        const pack = await postJson("/api/research",
          sourceTypes.length ? { question: turn.question, source_types: sourceTypes } : { question: turn.question });
        await postStream("/api/research/synthesize", { research_pack: pack }, (name, data) => {
          if (name === "token") text += (data && data.text) || "";
          if (name === "answer") text = (data && data.text) || "";
          if (name === "done" && data && typeof data.answer === "string") text = data.answer;
          if (name === "error") text = (data && data.message) || "The explanation failed.";
        });
      }
      target.innerHTML = renderMarkdown(text || "No explanation came back.", null); // escaped; see brain.js
    } catch (e) {
      target.textContent = e.message || String(e);
    } finally {
      button.disabled = false;
    }
  }

  function setBusy(busy) {
    askButton.disabled = busy;
    stopButton.hidden = !busy;
  }

  function submit(text) {
    if (running || !text.trim()) return;
    question.value = "";
    ask(text.trim());
  }

  // ---------- wiring ----------

  form.addEventListener("submit", (event) => {
    event.preventDefault();
    submit(question.value);
  });
  question.addEventListener("keydown", (event) => {
    if (event.key === "Enter" && !event.shiftKey) {
      event.preventDefault();
      submit(question.value);
    }
  });
  stopButton.addEventListener("click", () => running && running.controller.abort());
  document.getElementById("clear-chat").addEventListener("click", () => {
    if (running) running.controller.abort();
    state = { turns: [], pins: state.pins, next: state.next, unsaved: state.unsaved, conversation: null };
    save();
    renderAll();
    document.dispatchEvent(new CustomEvent("brain:conversation-saved", { detail: null }));
  });
  document.getElementById("clear-pins").addEventListener("click", () => {
    state.pins = [];
    save();
    renderAll();
  });
  turnsList.addEventListener("click", (event) => {
    const link = event.target.closest("a.cite");
    if (!link) return;
    event.preventDefault();
    revealCard(link.dataset.card);
  });

  // For other scripts of the page (another answering mode, say): add a mode, render a turn again.
  window.BrainChat = {
    addMode: (name, mode) => {
      modes[name] = mode;
      state.turns.filter((t) => t.mode === name).forEach(scheduleRender); // kept turns, drawn its way
    },
    renderTurn: scheduleRender,
    /** The saved conversation on screen ({ id, title }), or null. */
    current: () => state.conversation || null,
    /** Why the last turn could not be saved ({ message, code }), or null. */
    keepError: () => state.keepError || null,
    /** Shows a saved conversation (GET /api/conversations/{id}) in place of the one on screen. */
    open: (saved) => {
      if (running) running.controller.abort();
      const turns = (saved.turns || []).filter((t) => t && typeof t.question === "string").map(restored);
      const next = turns.reduce((n, t) => Math.max(n, (Number(t.id) || 0) + 1), state.next);
      state = { turns, pins: state.pins, next, unsaved: state.unsaved, conversation: { id: saved.id, title: saved.title } };
      save();
      renderAll();
    },
    /** A saved conversation was renamed or deleted: the one on screen follows. */
    changed: (id, title) => {
      if (!state.conversation || state.conversation.id !== id) return;
      state.conversation = title === null ? null : { id, title };
      save();
    },
  };

  // "Don't save this question": the tab's own choice, else the server's chat.save-traces.
  if (typeof state.unsaved === "boolean") noTrace.checked = state.unsaved;
  noTrace.addEventListener("change", () => {
    state.unsaved = noTrace.checked;
    save();
  });

  renderAll();
  showHealth().then((health) => {
    if (health && typeof health.save_traces === "boolean" && typeof state.unsaved !== "boolean") noTrace.checked = !health.save_traces;
  });
  question.focus();
})();
