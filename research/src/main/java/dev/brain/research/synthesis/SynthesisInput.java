package dev.brain.research.synthesis;

import dev.brain.research.pack.ResearchPack;
import dev.brain.research.plan.Concept;
import dev.brain.research.plan.QueryPlan;
import dev.brain.retrieval.EvidenceRow;
import dev.brain.retrieval.Retriever;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Builds the synthesis input of a pack deterministically, in rank order, under the evidence budget:
 *
 * <ol>
 *   <li>the question, a plan summary and a coverage summary (not counted against the budget);
 *   <li>primary evidence rows in rank order, within the budget minus a reservation of {@value
 *       #EXACT_TAG_RESERVED_CHARS} characters (at most a quarter of the budget) for one exact-tag
 *       example when the pack has one and no primary row that fits already is one;
 *   <li>at least one exact-tag example;
 *   <li>the topic brief's summary (at most {@value #TOPIC_BRIEF_SUMMARY_MAX_CHARS} characters),
 *       only if at least {@value #TOPIC_BRIEF_MIN_REMAINING_CHARS} characters remain;
 *   <li>related rows last.
 * </ol>
 *
 * Rows are included whole or not at all, and a lower-ranked row is never included when a higher one
 * was dropped; the one exception is the bottom-most included row, which is trimmed to fit when at
 * least {@value #MIN_TRIMMED_CHARS} characters remain and nothing follows it.
 *
 * <p>Research-internal: public only for the other research packages; not API.
 */
public final class SynthesisInput {

  /** Characters reserved for one exact-tag example. */
  static final int EXACT_TAG_RESERVED_CHARS = 2_000;

  /** The topic brief summary is included only when this many characters remain. */
  static final int TOPIC_BRIEF_MIN_REMAINING_CHARS = 2_000;

  /** Longest topic brief summary included. */
  static final int TOPIC_BRIEF_SUMMARY_MAX_CHARS = 2_000;

  /** A row is trimmed only if at least this much of it fits; otherwise it is dropped. */
  static final int MIN_TRIMMED_CHARS = 200;

  private static final String TRIMMED = " …[trimmed]";

  private final ResearchPack pack;
  private final int budget;
  private final Quotes quotes;
  private final java.util.Map<String, String> passageText = new java.util.HashMap<>();
  private final List<Included> included = new ArrayList<>();
  private final Set<String> dropped = new LinkedHashSet<>();
  private final Set<String> sectionClosed = new LinkedHashSet<>();
  private String trimmedKey;
  private int used;
  private boolean stopped;
  private String topicSummary;

  private record Included(EvidenceRow row, String block, String section) {}

  private SynthesisInput(ResearchPack pack, int budget, Quotes quotes) {
    this.pack = pack;
    this.budget = budget;
    this.quotes = quotes;
    List<Passage> answer = quotes.answer(keysOf(pack));
    for (EvidenceRow row : pack.evidence()) {
      String text = passages(quotes.ofRow(row.sourceKey(), answer));
      if (!text.isEmpty()) {
        passageText.put(row.sourceKey(), text);
      }
    }
  }

  /**
   * The prepared synthesis of a pack under {@code options}, its rows shown by their excerpts (no
   * stored text is read).
   */
  public static PreparedSynthesis prepare(ResearchPack pack, SynthesisOptions options) {
    return prepare(pack, options, EvidenceReader.EXCERPTS);
  }

  /**
   * The prepared synthesis of a pack under {@code options}, its rows shown by the passages the
   * extractive answer quotes (read through {@code retriever}): the same text an extractive answer
   * and a chat model answer from.
   */
  public static PreparedSynthesis prepare(
      ResearchPack pack, SynthesisOptions options, Retriever retriever) {
    return prepare(pack, options, EvidenceReader.of(retriever));
  }

  static PreparedSynthesis prepare(
      ResearchPack pack, SynthesisOptions options, EvidenceReader reader) {
    boolean answerable = pack.hasEvidence() && !Names.declines(pack);
    Quotes quotes = answerable ? Quotes.read(pack, reader) : Quotes.NONE;
    var input = new SynthesisInput(pack, options.maxEvidenceChars(), quotes);
    input.fill();
    return input.prepared();
  }

  private static java.util.Set<String> keysOf(ResearchPack pack) {
    var keys = new LinkedHashSet<String>();
    pack.evidence().forEach(r -> keys.add(r.sourceKey()));
    pack.exactTagEvidence().forEach(r -> keys.add(r.sourceKey()));
    return keys;
  }

  /** Passages as a row shows them to a model: each under its headings. */
  private static String passages(List<Passage> passages) {
    var t = new StringBuilder();
    for (Passage p : passages) {
      if (!p.headingPath().isEmpty()) {
        t.append("### ")
            .append(String.join(AnswerText.PATH_SEPARATOR, p.headingPath()))
            .append('\n');
      }
      t.append(p.markdown()).append("\n\n");
    }
    return t.toString().strip();
  }

  private void fill() {
    List<EvidenceRow> primary = pack.evidence().stream().filter(r -> !r.isRelated()).toList();
    List<EvidenceRow> related = pack.evidence().stream().filter(EvidenceRow::isRelated).toList();
    int reserve = needsTagReserve(primary) ? reserve() : 0;
    boolean primaryCut = false;
    for (EvidenceRow row : primary) {
      // With a reservation the tag example follows, so a primary row is dropped, never trimmed.
      boolean whole = add(row, "evidence", budget - reserve, reserve == 0);
      primaryCut |= !whole;
    }
    if (reserve > 0 && !stopped && !hasIncludedTagRow()) {
      addTagExample();
    }
    if (!stopped && pack.topicBrief() != null && budget - used >= TOPIC_BRIEF_MIN_REMAINING_CHARS) {
      String summary = pack.topicBrief().summary();
      topicSummary =
          summary.length() > TOPIC_BRIEF_SUMMARY_MAX_CHARS
              ? summary.substring(0, TOPIC_BRIEF_SUMMARY_MAX_CHARS - 1) + "…"
              : summary;
      used += topicSummary.length();
    }
    stopped = stopped || primaryCut; // related rows rank below every primary row
    for (EvidenceRow row : related) {
      add(row, "related", budget, true);
    }
  }

  /** The exact-tag reservation: 2,000 characters, but never more than a quarter of the budget. */
  private int reserve() {
    return Math.min(EXACT_TAG_RESERVED_CHARS, budget / 4);
  }

  /** Whether an exact-tag example must be reserved for: the pack has one, no primary row is one. */
  private boolean needsTagReserve(List<EvidenceRow> primary) {
    if (pack.exactTagEvidence().isEmpty()) {
      return false;
    }
    Set<String> tagKeys = new LinkedHashSet<>();
    pack.exactTagEvidence().forEach(r -> tagKeys.add(r.sourceKey()));
    // If the top primary rows that certainly fit include a tag row, no reservation is needed.
    int sum = 0;
    for (EvidenceRow row : primary) {
      sum += block(row).length();
      if (sum > budget - reserve()) {
        return true;
      }
      if (tagKeys.contains(row.sourceKey())) {
        return false;
      }
    }
    return true;
  }

  private boolean hasIncludedTagRow() {
    return included.stream()
        .anyMatch(
            i ->
                pack.exactTagEvidence().stream()
                    .anyMatch(t -> t.sourceKey().equals(i.row().sourceKey())));
  }

  private void addTagExample() {
    for (EvidenceRow row : pack.exactTagEvidence()) {
      if (included.stream().noneMatch(i -> i.row().sourceKey().equals(row.sourceKey()))) {
        dropped.remove(row.sourceKey());
        add(row, "exact_tag", budget, true);
        return;
      }
    }
  }

  /**
   * Includes a row whole if it fits under {@code limit} and returns true. Otherwise returns false
   * and either trims the row into the room left and stops everything (when {@code mayTrim}, and at
   * least {@value #MIN_TRIMMED_CHARS} characters are left), or drops it; every later row of the
   * same section is dropped as well.
   */
  private boolean add(EvidenceRow row, String section, int limit, boolean mayTrim) {
    if (stopped || sectionClosed.contains(section)) {
      dropped.add(row.sourceKey());
      return false;
    }
    String block = block(row);
    if (used + block.length() <= limit) {
      included.add(new Included(row, block, section));
      used += block.length();
      return true;
    }
    int room = limit - used;
    if (mayTrim && room >= MIN_TRIMMED_CHARS) {
      String cut = trim(block, room);
      included.add(new Included(row, cut, section));
      used += cut.length();
      trimmedKey = row.sourceKey();
      stopped = true;
    } else {
      dropped.add(row.sourceKey());
      sectionClosed.add(section);
    }
    return false;
  }

  private static String trim(String block, int room) {
    int end = Math.max(0, room - TRIMMED.length());
    int space = block.lastIndexOf(' ', end);
    if (space > end / 2) {
      end = space;
    }
    return block.substring(0, end) + TRIMMED;
  }

  /**
   * The text of one evidence row in the synthesis input: the passages quoted from it, else its
   * excerpt.
   */
  String block(EvidenceRow row) {
    String passages = passageText.get(row.sourceKey());
    return passages == null ? RowBlock.of(row, row.excerpt()) : RowBlock.of(row, passages);
  }

  private PreparedSynthesis prepared() {
    var warnings = new ArrayList<AnswerWarning>();
    AnswerStatus status;
    if (!pack.hasEvidence() || Names.declines(pack)) {
      // A question naming something the corpus never mentions is not answered from the rest.
      status = AnswerStatus.NO_EVIDENCE;
      warnings.add(AnswerWarning.NO_EVIDENCE);
    } else if (!dropped.isEmpty() || trimmedKey != null) {
      status = AnswerStatus.OK_TRUNCATED;
      warnings.add(AnswerWarning.EVIDENCE_TRUNCATED);
    } else {
      status = AnswerStatus.OK;
    }
    var truncation = new Truncation(budget, used, List.copyOf(dropped), trimmedKey);
    return new PreparedSynthesis(
        PreparedSynthesis.SCHEMA_VERSION,
        pack.question(),
        SynthesisPrompt.VERSION,
        status,
        warnings,
        truncation,
        included.stream().map(i -> Citation.of(i.row())).toList(),
        SynthesisPrompt.SYSTEM,
        text(truncation),
        included.stream().map(Included::row).toList(),
        pack,
        quotes);
  }

  private String text(Truncation truncation) {
    var t = new StringBuilder();
    t.append("# Question\n").append(pack.question().strip()).append("\n\n");
    t.append("# Plan (how the evidence was found; not evidence)\n")
        .append(planSummary())
        .append('\n');
    t.append("# Coverage (not evidence)\n").append(pack.coverage().recallNote()).append('\n');
    if (truncation.truncated()) {
      t.append("The evidence below is truncated to ")
          .append(budget)
          .append(" characters; ")
          .append(truncation.droppedSourceKeys().size())
          .append(" rows were left out.\n");
    }
    t.append('\n');
    appendSection(t, "evidence", "# Evidence\n");
    appendSection(
        t, "exact_tag", "# Exact-tag example (a record carrying a tag of the question)\n");
    if (topicSummary != null) {
      t.append("# Topic brief (derived from tags and links; not evidence)\n")
          .append(topicSummary)
          .append("\n\n");
    }
    appendSection(t, "related", "# Related evidence (linked to the rows above)\n");
    if (included.isEmpty()) {
      t.append("# Evidence\nNone: nothing in the corpus matched the question.\n");
    }
    return t.toString();
  }

  private void appendSection(StringBuilder t, String section, String heading) {
    boolean any = false;
    for (Included i : included) {
      if (i.section().equals(section)) {
        if (!any) {
          t.append(heading);
          any = true;
        }
        t.append(i.block());
      }
    }
  }

  private String planSummary() {
    QueryPlan plan = pack.queryPlan();
    var required = new ArrayList<String>();
    var optional = new ArrayList<String>();
    for (Concept c : plan.concepts()) {
      (c.required() ? required : optional).add(c.preferred());
    }
    var s = new StringBuilder();
    s.append("family: ")
        .append(plan.queryFamily().wireName())
        .append("; main search: \"")
        .append(plan.textQuery())
        .append("\"\n");
    s.append("required concepts: ").append(String.join(", ", required));
    if (!optional.isEmpty()) {
      s.append("; optional: ").append(String.join(", ", optional));
    }
    s.append('\n');
    s.append(
        String.format(
            Locale.ROOT,
            "%d search variants; lanes: %s%n",
            plan.queryVariants().size(),
            String.join(", ", plan.retrievalLanes())));
    return s.toString();
  }
}
