package dev.brain.research.plan;

import com.fasterxml.jackson.annotation.JsonCreator;
import dev.brain.retrieval.WireName;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * One idea of the question, with the words that express it. Evidence rows are re-scored by how many
 * required concepts they match; a row that matches none is not evidence.
 *
 * @param key stable slug of the preferred form ({@code tempo-runs})
 * @param preferred the form searched first, as the user wrote it (lower-case)
 * @param terms the synonym family: every form that counts as a match, preferred first. A form of
 *     several words matches when all its words match
 * @param required whether evidence must match it; only concepts taken from the question itself can
 *     be required, never concepts a model planner proposed alone
 * @param role why the concept is there
 */
public record Concept(
    String key, String preferred, List<String> terms, boolean required, Role role) {

  public Concept {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(preferred, "preferred");
    Objects.requireNonNull(role, "role");
    terms = List.copyOf(terms);
  }

  /** Why a concept is part of the plan. */
  public enum Role implements WireName {
    /** A named thing: a capitalized phrase, a quoted phrase. Required. */
    ENTITY,
    /** A content word of the question. Required. */
    SUBJECT,
    /** A user tag named in the question ({@code #search-engine}, "tagged coffee"). Required. */
    TAG,
    /** A generic word ({@code often}, {@code best}, {@code share}). Optional. */
    MODIFIER,
    /** A time word or year. Optional. */
    TIME,
    /** A word that names a kind of source ({@code podcast}, {@code pdf}); boosts that type. */
    SOURCE_HINT,
    /** A word of an earlier chat question, kept for context. Optional. */
    CONTEXT,
    /** A concept only the model planner proposed. Optional, never required. */
    EXPANSION;

    /** The role with this wire name. */
    @JsonCreator
    public static Role parse(String name) {
      return valueOf(name.strip().toUpperCase(Locale.ROOT));
    }
  }
}
