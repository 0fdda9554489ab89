// brain web UI: fast Search over GET /api/search (one retrieval, no planning, no model).
"use strict";

(() => {
  const { el, evidenceCard, isWeak, getJson, showHealth, loadStatus } = Brain;
  const form = document.getElementById("search-form");
  const input = document.getElementById("search-q");
  const sourceType = document.getElementById("search-source-type");
  const kind = document.getElementById("search-kind");
  const tag = document.getElementById("search-tag");
  const tagList = document.getElementById("search-tags");
  const limit = document.getElementById("search-limit");
  const since = document.getElementById("search-since");
  const until = document.getElementById("search-until");
  const range = document.getElementById("search-range");
  const status = document.getElementById("search-status");
  const lanesBox = document.getElementById("search-lanes");
  const results = document.getElementById("search-results");

  function params() {
    const p = new URLSearchParams();
    p.set("q", input.value.trim());
    if (sourceType.value) p.set("source_type", sourceType.value);
    if (kind.value) p.set("kind", kind.value);
    if (tag.value.trim()) p.set("tag", tag.value.trim());
    if (since.value) p.set("since", since.value);
    if (until.value) p.set("until", until.value);
    if (limit.value) p.set("limit", limit.value);
    const lanes = [...form.querySelectorAll("input[name=lane]:checked")].map((c) => c.value);
    if (lanes.length) p.set("lanes", lanes.join(","));
    return p;
  }

  function restore(p) {
    input.value = p.get("q") || "";
    if (p.get("kind")) kind.value = p.get("kind");
    if (p.get("tag")) tag.value = p.get("tag");
    if (p.get("since")) since.value = p.get("since");
    if (p.get("until")) until.value = p.get("until");
    if (p.get("limit")) limit.value = p.get("limit");
    if (p.get("lanes")) {
      const on = p.get("lanes").split(",");
      form.querySelectorAll("input[name=lane]").forEach((c) => { c.checked = on.includes(c.value); });
    }
  }

  async function run(p) {
    results.replaceChildren();
    lanesBox.replaceChildren();
    status.textContent = "Searching…";
    status.className = "muted";
    try {
      const result = await getJson("/api/search?" + p.toString());
      render(result);
    } catch (e) {
      status.textContent = e.message + (e.field ? ` (field: ${e.field})` : "");
      status.className = "error-box";
    }
  }

  function render(result) {
    const ranked = result.rows.filter((r) => !r.related_to).length;
    status.textContent = result.rows.length
      ? `${ranked} result${ranked === 1 ? "" : "s"} of ${result.candidates} candidates in ${Math.round(result.timings_ms.total)} ms`
      : `No results for “${result.query}”. Terms searched: ${result.query_terms.join(", ") || "none"}.`;
    status.className = result.rows.length ? "muted" : "notice";
    for (const lane of result.lanes) {
      // A vector lane over a partly embedded index says how much it covers ("vector: 41% of chunks").
      const coverage = (lane.detail || "").match(/vector: \d+% of chunks/);
      lanesBox.append(el("span", { title: lane.detail || "" },
        `${lane.name}: ${lane.status}${lane.hits ? ` (${lane.hits})` : ""}${coverage ? ` · ${coverage[0]}` : ""}`));
    }
    if (result.weak_rows_left_out) {
      const n = result.weak_rows_left_out;
      status.textContent += `. ${n} weaker row${n === 1 ? "" : "s"} left out: found by meaning alone, well below the best match.`;
    }
    const weak = result.rows.filter(isWeak).length;
    if (weak && weak === result.rows.length) {
      status.textContent += `. All ${weak} rows are weak matches: they miss most of the query's terms.`;
    }
    result.rows.forEach((row, i) => results.append(evidenceCard(row, { id: `result-${i}`, weak: isWeak(row) })));
  }

  form.addEventListener("submit", (event) => {
    event.preventDefault();
    if (!input.value.trim()) return;
    const p = params();
    history.replaceState(null, "", "/search?" + p.toString());
    run(p);
  });

  // Filters offer what is indexed: source types and kinds with their record counts, the most used
  // tags with theirs, and the days the records were created in as the date fields' bounds.
  showHealth();
  getJson("/api/facets").then((facets) => {
    for (const [type, count] of Object.entries(facets.source_types || {})) {
      sourceType.append(el("option", { value: type }, `${type} (${count})`));
    }
    for (const option of kind.options) {
      const count = option.value && (facets.kinds || {})[option.value];
      if (option.value) option.textContent = `${option.value} (${count || 0})`;
    }
    for (const t of facets.tags || []) tagList.append(el("option", { value: t.tag }, `${t.tag} (${t.count})`));
    if (facets.created) {
      // "Before" is exclusive, so only "From" is capped at the last day.
      since.min = until.min = facets.created.first;
      since.max = facets.created.last;
      range.textContent = `${facets.records} records created ${facets.created.first} to ${facets.created.last}` +
        ` · ${facets.distinct_tags} tags`;
      range.hidden = false;
    }
    const p = new URLSearchParams(location.search);
    if (p.get("source_type")) sourceType.value = p.get("source_type");
  }).catch(() => { /* filters stay free-form */ });
  const initial = new URLSearchParams(location.search);
  restore(initial);
  // The vault names must be known before cards render their Obsidian links.
  loadStatus().finally(() => {
    if (initial.get("q")) run(initial);
  });
  input.focus();
})();
