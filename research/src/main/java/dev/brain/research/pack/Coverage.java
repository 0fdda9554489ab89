package dev.brain.research.pack;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the evidence covers, and how much of the corpus it leaves out: the {@code coverage} of a
 * {@link ResearchPack}. The evidence is a capped working set, never the full corpus; {@link
 * #recallNote()} says so in words.
 *
 * @param evidenceCount evidence rows in the pack (related rows included)
 * @param byKind evidence rows per kind ({@code item}, {@code source}), largest first
 * @param bySourceType evidence rows per source type, largest first
 * @param topUserTags the most frequent user tags on the evidence rows (at most {@value #TOP_TAGS})
 * @param exactTagMatches records whose user tags equal one of the plan's tag queries
 * @param textMatches records per kind whose text matches the main search text (at least; counted
 *     over the first {@value #TEXT_MATCH_DEPTH} matching chunks)
 * @param topicNodeCount nodes of the topic brief's graph (0 without a brief)
 * @param topicEdgeCount edges of the topic brief's graph (0 without a brief)
 * @param missingConcepts required concepts that no evidence row matches (keys)
 * @param absentConcepts required concepts that occur nowhere in the corpus (keys)
 * @param commonConcepts required concepts that occur in at least {@value #COMMON_SHARE} of the
 *     corpus's chunks (keys): the corpus's own subject ("Rust" in a book on Rust), context of a
 *     question rather than what it asks
 * @param recallNote a plain statement of what the evidence is and is not
 */
public record Coverage(
    @JsonProperty("evidence_count") int evidenceCount,
    @JsonProperty("by_kind") Map<String, Integer> byKind,
    @JsonProperty("by_source_type") Map<String, Integer> bySourceType,
    @JsonProperty("top_user_tags") List<TagCount> topUserTags,
    @JsonProperty("exact_tag_matches") int exactTagMatches,
    @JsonProperty("text_matches") Map<String, Integer> textMatches,
    @JsonProperty("topic_node_count") int topicNodeCount,
    @JsonProperty("topic_edge_count") int topicEdgeCount,
    @JsonProperty("missing_concepts") List<String> missingConcepts,
    @JsonProperty("absent_concepts") List<String> absentConcepts,
    @JsonProperty("common_concepts") List<String> commonConcepts,
    @JsonProperty("recall_note") String recallNote) {

  /** Most tags in {@link #topUserTags()}. */
  public static final int TOP_TAGS = 12;

  /** Chunk hits examined when counting {@link #textMatches()}. */
  public static final int TEXT_MATCH_DEPTH = 1000;

  /** Share of the corpus's chunks from which a concept counts as common. */
  public static final double COMMON_SHARE = 0.05;

  public Coverage {
    byKind = Collections.unmodifiableMap(new LinkedHashMap<>(byKind));
    bySourceType = Collections.unmodifiableMap(new LinkedHashMap<>(bySourceType));
    topUserTags = List.copyOf(topUserTags);
    textMatches = Collections.unmodifiableMap(new LinkedHashMap<>(textMatches));
    missingConcepts = List.copyOf(missingConcepts);
    absentConcepts = List.copyOf(absentConcepts);
    commonConcepts = commonConcepts == null ? List.of() : List.copyOf(commonConcepts);
  }

  /** A coverage without {@link #commonConcepts()}. */
  public Coverage(
      int evidenceCount,
      Map<String, Integer> byKind,
      Map<String, Integer> bySourceType,
      List<TagCount> topUserTags,
      int exactTagMatches,
      Map<String, Integer> textMatches,
      int topicNodeCount,
      int topicEdgeCount,
      List<String> missingConcepts,
      List<String> absentConcepts,
      String recallNote) {
    this(
        evidenceCount,
        byKind,
        bySourceType,
        topUserTags,
        exactTagMatches,
        textMatches,
        topicNodeCount,
        topicEdgeCount,
        missingConcepts,
        absentConcepts,
        List.of(),
        recallNote);
  }

  /**
   * A user tag and how many evidence rows carry it.
   *
   * @param tag the tag
   * @param count evidence rows with it
   */
  public record TagCount(String tag, int count) {}
}
