package dev.brain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import dev.brain.research.json.Json;
import dev.brain.research.pack.ResearchOptions;
import dev.brain.retrieval.InvalidSearchException;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The one research request every surface reads (HTTP bodies, MCP arguments): its JSON names, its
 * limits and the field each error names.
 */
class ResearchRequestTest {
  private static final ObjectMapper JSON =
      Json.newMapper().enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

  private static ResearchRequest read(Map<String, Object> json) {
    return JSON.convertValue(json, ResearchRequest.class);
  }

  @Test
  void itIsReadFromSnakeCaseJsonAndAppliesItsOptionsOverTheConfiguredOnes() {
    ResearchRequest r =
        read(Map.of(
                "question",
                "What grind size do I use for espresso?",
                "limit",
                4,
                "max_chars_per_doc",
                900,
                "conversation",
                List.of(Map.of("question", "earlier?", "cited_keys", List.of("note:a.md"))),
                "pinned_keys",
                List.of("note:b.md")))
            .validateForPack();

    ResearchOptions options = r.options(ResearchOptions.defaults().withSemantic(false));
    assertThat(options.limit()).isEqualTo(4);
    assertThat(options.maxCharsPerDoc()).isEqualTo(900);
    assertThat(options.semantic()).isFalse(); // not sent: the configured value stands
    assertThat(r.continuity().priorQuestions()).containsExactly("earlier?");
    assertThat(r.continuity().pinnedEvidenceKeys()).containsExactly("note:b.md");
    assertThat(r.continuity().priorEvidenceKeys()).containsExactly("note:a.md");
  }

  @Test
  void eachBadRequestNamesItsField() {
    assertField(ResearchRequest.of("  "), "question");
    assertField(ResearchRequest.of("x".repeat(ResearchRequest.MAX_QUESTION_CHARS + 1)), "question");
    assertField(
        read(
            Map.of(
                "question",
                "coffee",
                "conversation",
                Collections.nCopies(
                    ResearchRequest.MAX_CONVERSATION_TURNS + 1, Map.of("question", "x")))),
        "conversation");
    assertField(
        read(Map.of("question", "coffee", "conversation", List.of(Map.of("question", "")))),
        "conversation[0].question");
    assertField(
        read(
            Map.of(
                "question",
                "coffee",
                "pinned_keys",
                Collections.nCopies(ResearchRequest.MAX_PINNED_KEYS + 1, "k"))),
        "pinned_keys");
    assertField(read(Map.of("question", "coffee", "surface", "Web Chat!")), "surface");
  }

  @Test
  void aPackRequestRefusesWhatOnlyARunReads() {
    var run = read(Map.of("question", "coffee", "model", "ollama/llama3.2"));
    assertThat(run.validate()).isSameAs(run);
    assertThatThrownBy(run::validateForPack)
        .isInstanceOfSatisfying(
            InvalidSearchException.class,
            e -> {
              assertThat(e.field()).isEqualTo("model");
              assertThat(e.allowedValues()).containsAll(ResearchRequest.PACK_FIELDS);
            });
  }

  @Test
  void anUnknownFieldOfATurnIsRefused() {
    assertThatThrownBy(
            () ->
                read(
                    Map.of(
                        "question",
                        "coffee",
                        "conversation",
                        List.of(Map.of("question", "x", "answer", "y")))))
        .hasCauseInstanceOf(UnrecognizedPropertyException.class);
  }

  @Test
  void anOptionOutOfRangeIsRefusedWhereTheOptionsCheckIt() {
    var r = read(Map.of("question", "coffee", "limit", 0)).validate();
    assertThatThrownBy(() -> r.options(ResearchOptions.defaults()))
        .isInstanceOfSatisfying(
            InvalidSearchException.class, e -> assertThat(e.field()).isEqualTo("limit"));
  }

  private static void assertField(ResearchRequest request, String field) {
    assertThatThrownBy(request::validate)
        .isInstanceOfSatisfying(
            InvalidSearchException.class, e -> assertThat(e.field()).isEqualTo(field));
  }
}
