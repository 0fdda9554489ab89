package dev.brain.research.plan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.brain.research.plan.Concept.Role;
import dev.brain.research.plan.Strategy.Variant;
import dev.brain.retrieval.InvalidSearchException;
import dev.brain.retrieval.Lane;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The deterministic strategy, one question family at a time; no index, no model. */
class QueryAnalyzerTest {

  private static Strategy analyze(String question) {
    return QueryAnalyzer.analyze(question, true);
  }

  private static Concept concept(Strategy s, String key) {
    return s.concepts().stream().filter(c -> c.key().equals(key)).findFirst().orElseThrow();
  }

  private static List<String> queries(Strategy s) {
    return s.variants().stream().map(Variant::query).toList();
  }

  @Test
  void stripsAskingPrefixesFillerAndStopWords() {
    Strategy s = analyze("What do I know about home espresso?");

    assertThat(s.textQuery()).isEqualTo("home espresso");
    assertThat(s.queryTerms()).containsExactly("home", "espresso");
    assertThat(s.variants().get(0).reason()).contains("without filler");
  }

  @Test
  void aContractionTypedWithoutItsApostropheIsNoSearchTermEither() {
    Strategy typed = analyze("esbuild postinstall script isnt running, pnpm doesnt say why");
    Strategy proper = analyze("esbuild postinstall script isn't running, pnpm doesn't say why");

    assertThat(typed.queryTerms()).doesNotContain("isnt", "doesnt");
    assertThat(typed.queryTerms()).isEqualTo(proper.queryTerms());
  }

  @Test
  void broadQuestionIsAnEntityTopicOverviewWithATopic() {
    Strategy s = analyze("What do I know about the history of computing?");

    assertThat(s.family()).isEqualTo(QueryFamily.ENTITY_TOPIC_OVERVIEW);
    assertThat(s.topic()).isEqualTo("history of computing");
    assertThat(s.tagQueries()).contains("history-of-computing");
    assertThat(queries(s)).contains("history of computing");
  }

  @Test
  void bareTopicIsAnOverviewToo() {
    assertThat(analyze("tomatoes").family()).isEqualTo(QueryFamily.ENTITY_TOPIC_OVERVIEW);
    assertThat(analyze("my Berlin marathon result").family())
        .isEqualTo(QueryFamily.ENTITY_TOPIC_OVERVIEW);
  }

  @Test
  void aShortPhraseWithAVerbIsATaskNotAnOverview() {
    assertThat(analyze("install zola on alpine").family()).isEqualTo(QueryFamily.FACT_LOOKUP);
    assertThat(analyze("reload config without restarting editor").family())
        .isEqualTo(QueryFamily.FACT_LOOKUP);
  }

  @Test
  void explicitTagBecomesARequiredTagConceptAndTheFirstTagQuery() {
    Strategy s = analyze("Which notes are tagged #search-engine?");

    assertThat(s.family()).isEqualTo(QueryFamily.ENTITY_TOPIC_OVERVIEW);
    Concept tag = concept(s, "search-engine");
    assertThat(tag.role()).isEqualTo(Role.TAG);
    assertThat(tag.required()).isTrue();
    assertThat(tag.terms()).contains("search engine");
    assertThat(s.tagQueries().get(0)).isEqualTo("search-engine");
    assertThat(s.topic()).isEqualTo("search-engine");
  }

  @Test
  void personWithAnEventWordIsAPersonEventLookupWithTheNameAlone() {
    Strategy s = analyze("What happened when Ada Lovelace died?");

    assertThat(s.family()).isEqualTo(QueryFamily.PERSON_EVENT_LOOKUP);
    assertThat(concept(s, "ada-lovelace").role()).isEqualTo(Role.ENTITY);
    assertThat(queries(s)).contains("ada lovelace");
  }

  @Test
  void whichModelShouldIUseIsAToolSelection() {
    Strategy s = analyze("Which embedding model should I use for search?");

    assertThat(s.family()).isEqualTo(QueryFamily.TOOL_MODEL_SELECTION);
    assertThat(concept(s, "embedding").terms()).contains("embeddings", "vector");
    assertThat(s.variants())
        .anySatisfy(v -> assertThat(v.reason()).contains("without the selection words"));
  }

  @Test
  void githubRepositoryIsASoftwareProjectLookup() {
    Strategy s = analyze("the apache/lucene github repo");

    assertThat(s.family()).isEqualTo(QueryFamily.SOFTWARE_PROJECT_LOOKUP);
    assertThat(s.sourceHints()).contains("github");
    assertThat(queries(s)).contains("apache/lucene github repository");
  }

  @Test
  void aProjectAskedForOnGitHubIsSearchedAsAProjectPageWithEachWordOnce() {
    Strategy s = analyze("Where is the tantivy repo on GitHub?");

    assertThat(s.family()).isEqualTo(QueryFamily.SOFTWARE_PROJECT_LOOKUP);
    assertThat(s.variants())
        .filteredOn(v -> v.reason().equals("as a software project"))
        .extracting(Variant::query)
        .containsExactly("tantivy github repository");
  }

  @Test
  void versusIsAComparisonSearchedSideBySide() {
    Strategy s = analyze("Rust vs Java for the indexer");

    assertThat(s.family()).isEqualTo(QueryFamily.COMPARISON);
    assertThat(s.variants())
        .filteredOn(v -> v.reason().startsWith("one side of the comparison"))
        .extracting(Variant::query)
        .containsExactly("rust", "java indexer");
  }

  @Test
  void whenQuestionIsATimelineWithATimeFreeVariant() {
    Strategy s = analyze("When was the first ARPANET message sent?");

    assertThat(s.family()).isEqualTo(QueryFamily.TIMELINE_HISTORY);
    assertThat(concept(s, "arpanet").role()).isEqualTo(Role.ENTITY);
    assertThat(concept(s, "first").required()).isFalse();
    assertThat(queries(s)).contains("arpanet message sent");
  }

  @Test
  void podcastQuestionIsATranscriptLookupHintingTheTranscriptType() {
    Strategy s = analyze("What did the podcast say about tempo runs?");

    assertThat(s.family()).isEqualTo(QueryFamily.TRANSCRIPT_OCR_LOOKUP);
    assertThat(s.sourceHints()).containsExactly("transcript");
    Concept podcast = concept(s, "podcast");
    assertThat(podcast.role()).isEqualTo(Role.SOURCE_HINT);
    assertThat(podcast.required()).isFalse();
    assertThat(podcast.terms()).contains("episode", "transcript");
    assertThat(queries(s)).contains("tempo runs");
  }

  @Test
  void quotedTitleIsAnExactTitleLookupWithThePhraseVariant() {
    Strategy s = analyze("Find the article called \"Reciprocal rank fusion explained\"");

    assertThat(s.family()).isEqualTo(QueryFamily.EXACT_TITLE_SOURCE_LOOKUP);
    assertThat(concept(s, "reciprocal-rank-fusion-explained").role()).isEqualTo(Role.ENTITY);
    assertThat(queries(s)).contains("\"Reciprocal rank fusion explained\"");
    assertThat(s.concepts()).noneMatch(c -> c.preferred().equals("called"));
  }

  @Test
  void recordKeyInTheQuestionIsAnExactSourceLookup() {
    Strategy s = analyze("what does src:ada2743d1b19 say about descaling");

    assertThat(s.family()).isEqualTo(QueryFamily.EXACT_TITLE_SOURCE_LOOKUP);
    assertThat(s.lookupKeys()).containsExactly("src:ada2743d1b19");
    assertThat(s.queryTerms()).doesNotContain("src", "ada2743d1b19");
  }

  @Test
  void correctiveFollowUpDropsTheNegatedWordsAndIgnoresPriorEvidence() {
    Strategy s =
        analyze(
            """
            Current question: No, I meant the grinder, not the espresso machine
            Recent user questions:
            - How often should I clean the espresso machine?
            Prior evidence titles for query focus:
            - Gaggia Classic Pro
            """);

    assertThat(s.family()).isEqualTo(QueryFamily.CORRECTIVE_FOLLOW_UP);
    assertThat(s.currentQuestion()).startsWith("No, I meant the grinder");
    assertThat(s.textQuery()).isEqualTo("grinder");
    assertThat(s.required()).extracting(Concept::key).containsExactly("grinder");
    assertThat(s.concepts())
        .extracting(Concept::key)
        .doesNotContain("espresso", "machine", "gaggia");
    assertThat(concept(s, "clean").role()).isEqualTo(Role.CONTEXT);
    assertThat(s.variants().get(0).reason()).contains("earlier evidence is not reused");
  }

  @Test
  void shortChatFollowUpBorrowsThePreviousQuestionAsOptionalContext() {
    Strategy s =
        analyze(
            """
            Current question: and what about descaling?
            Recent user questions:
            - How often should I backflush the espresso machine?
            """);

    assertThat(s.family()).isEqualTo(QueryFamily.FACT_LOOKUP);
    assertThat(s.textQuery()).isEqualTo("descaling");
    assertThat(concept(s, "backflush").required()).isFalse();
    assertThat(queries(s)).contains("descaling often backflush espresso machine");
  }

  @Test
  void specificQuestionIsAFactLookupWithRequiredAndOptionalConcepts() {
    Strategy s = analyze("How often should I backflush the espresso machine with detergent?");

    assertThat(s.family()).isEqualTo(QueryFamily.FACT_LOOKUP);
    assertThat(s.required())
        .extracting(Concept::key)
        .containsExactly("backflush", "espresso-machine", "detergent");
    assertThat(concept(s, "often").role()).isEqualTo(Role.MODIFIER);
    assertThat(concept(s, "espresso-machine").terms()).contains("coffee machine");
  }

  @Test
  void capitalizedRunsBecomeEntitiesAndTitlesKeepTheirInnerWords() {
    Strategy s =
        analyze(
            "What was the code name of the Data General computer in The Soul of a New Machine?");

    assertThat(concept(s, "data-general").role()).isEqualTo(Role.ENTITY);
    assertThat(concept(s, "soul-of-a-new-machine").preferred()).isEqualTo("soul of a new machine");
  }

  @Test
  void everyVariantHasAReasonAndThereAreAtMostEight() {
    Strategy s =
        analyze("Compare the BM25 and HNSW settings of the Lucene search engine in 2024 vs 2023");

    assertThat(s.variants()).hasSizeLessThanOrEqualTo(QueryPlan.MAX_VARIANTS);
    assertThat(s.variants()).allSatisfy(v -> assertThat(v.reason()).isNotBlank());
    assertThat(s.variants().get(0).weight()).isEqualTo(1.0);
  }

  @Test
  void questionAsAskedRunsOnTheSemanticLaneOnlyAndNotWithoutIt() {
    Strategy semantic = QueryAnalyzer.analyze("What causes blossom end rot?", true);
    Strategy lexical = QueryAnalyzer.analyze("What causes blossom end rot?", false);

    assertThat(semantic.variants())
        .anySatisfy(
            v -> {
              assertThat(v.query()).isEqualTo("What causes blossom end rot?");
              assertThat(v.lanes()).containsExactly(Lane.VECTOR);
            });
    assertThat(lexical.variants()).noneMatch(v -> v.lanes() != null);
  }

  @Test
  void singleLettersAreKeptAsOptionalWords() {
    Strategy s = analyze("Which k does reciprocal rank fusion use?");

    assertThat(concept(s, "k").required()).isFalse();
    assertThat(concept(s, "reciprocal-rank-fusion").terms()).contains("rrf");
  }

  @Test
  void questionWithoutSearchableWordsIsRejected() {
    assertThatThrownBy(() -> analyze("what do I know?"))
        .isInstanceOf(InvalidSearchException.class)
        .hasMessageContaining("no searchable words");
    assertThatThrownBy(() -> analyze("  "))
        .isInstanceOf(InvalidSearchException.class)
        .hasMessageContaining("question");
  }
}
