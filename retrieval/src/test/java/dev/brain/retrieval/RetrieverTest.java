package dev.brain.retrieval;

import static dev.brain.retrieval.TestVault.*;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.brain.index.BrainIndex;
import dev.brain.index.IndexConfig;
import dev.brain.index.IndexInternals;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The retriever over a real index of {@link TestVault}, embedded with the real model. */
class RetrieverTest {

  @TempDir static Path dir;
  static BrainIndex index;
  static Retriever retriever;

  @BeforeAll
  static void buildIndex() throws IOException {
    index = TestVault.build(dir);
    retriever = new Retriever(index);
  }

  @AfterAll
  static void close() throws IOException {
    index.close();
  }

  private static SearchResult search(String query, SearchOptions.Builder options)
      throws IOException {
    return retriever.search(query, options.build());
  }

  private static SearchOptions.Builder lanes(Lane... lanes) {
    return SearchOptions.builder().lanes(lanes);
  }

  private static EvidenceRow row(SearchResult result, String key) {
    return result.rows().stream()
        .filter(r -> r.sourceKey().equals(key))
        .findFirst()
        .orElseThrow(() -> new AssertionError(key + " not in " + keys(result)));
  }

  private static List<String> keys(SearchResult result) {
    return result.rows().stream().map(EvidenceRow::sourceKey).toList();
  }

  private static List<Lane> lanesOf(EvidenceRow row) {
    return row.retrieval().lanes().stream().map(LaneScore::lane).toList();
  }

  // ---- lanes alone ----

  @Test
  void aRetrieverForOneRunReadsEachRecordOnceAndTheSharedOneReadsItEachTime() throws IOException {
    String key = search("espresso", lanes(Lane.BM25)).rows().getFirst().sourceKey();
    Retriever run = retriever.forOneRun();

    var first = run.get(key);
    assertThat(first).isPresent();
    assertThat(run.get(key)).isSameAs(first);
    assertThat(run.get("note:no/such/record.md")).isEmpty();
    assertThat(retriever.get(key)).isNotSameAs(retriever.get(key));
    assertThat(retriever.forOneRun().get(key)).isNotSameAs(first);
  }

  @Test
  void similaritiesRankATextByHowCloseItIsInMeaningToTheQuery() {
    double[] cosines =
        retriever.similarities(
            "How often should I backflush the espresso machine?",
            List.of(
                "Backflush the espresso machine with detergent every 200 shots.",
                "Tomatoes were sown on 20 March, seven weeks before the last frost."));

    assertThat(cosines).hasSize(2);
    assertThat(cosines[0]).isGreaterThan(cosines[1]).isLessThanOrEqualTo(1.0001);
    assertThat(retriever.similarities("anything", List.of())).isEmpty();
  }

  @Test
  void bm25LaneAloneRanksByWordsAndTitle() throws IOException {
    SearchResult result = search("burr grinders", lanes(Lane.BM25));

    EvidenceRow first = result.rows().get(0);
    assertThat(first.sourceKey()).isEqualTo(GRINDERS);
    assertThat(lanesOf(first)).containsExactly(Lane.BM25);
    assertThat(first.signals()).contains("title_match");
    assertThat(first.matchedTerms()).containsExactly("burr", "grinders");
    assertThat(result.status(Lane.BM25)).isEqualTo(LaneStatus.USED);
    assertThat(result.status(Lane.VECTOR)).isEqualTo(LaneStatus.DISABLED);
    assertThat(result.rows()).allSatisfy(r -> assertThat(lanesOf(r)).containsExactly(Lane.BM25));
  }

  @Test
  void vectorLaneAloneRanksByMeaning() throws IOException {
    SearchResult result = search("how do I fall asleep faster", lanes(Lane.VECTOR));

    EvidenceRow first = result.rows().get(0);
    assertThat(first.sourceKey()).isEqualTo(SLEEP);
    LaneScore score = first.retrieval().lane(Lane.VECTOR);
    assertThat(score.rank()).isEqualTo(1);
    assertThat(score.rawScore()).isBetween(0.3, 1.0);
    assertThat(result.lane(Lane.VECTOR).detail()).startsWith("exact scan of");
    assertThat(result.rows()).allSatisfy(r -> assertThat(lanesOf(r)).containsExactly(Lane.VECTOR));
  }

  @Test
  void exactTagLaneFindsTheHyphenatedAliasOfTheQuery() throws IOException {
    SearchResult result = search("Mark Carney", lanes(Lane.EXACT_TAG));

    assertThat(result.tagAliases()).contains("mark-carney");
    assertThat(keys(result)).containsExactly(CARNEY);
    EvidenceRow row = result.rows().get(0);
    assertThat(row.evidenceRole()).isEqualTo("exact_tag");
    assertThat(row.signals()).contains("exact_tag:mark-carney");
    assertThat(row.retrieval().lanes())
        .containsExactly(new LaneScore(Lane.EXACT_TAG, 1, 2, 1.0 / 61));
    assertThat(row.chunk()).isNotNull();
    assertThat(row.excerpt()).contains("Bank of Canada");
  }

  @Test
  void exactTagMatchesAreFusedWithTheOtherLanes() throws IOException {
    SearchResult result = search("mark carney speeches", SearchOptions.builder());

    EvidenceRow first = result.rows().get(0);
    assertThat(first.sourceKey()).isEqualTo(CARNEY);
    assertThat(lanesOf(first)).contains(Lane.EXACT_TAG, Lane.BM25);
    assertThat(first.evidenceRole()).isEqualTo("raw");
  }

  @Test
  void theTitleRanksCandidatesThatTheTextFinds() throws IOException {
    // Both abstracts say "espresso crema"; only one title adds "revisited".
    SearchResult both = search("espresso crema revisited", lanes(Lane.BM25));

    List<String> keys = keys(both);
    assertThat(keys).contains(NEW_DOC, OLD_DOC);
    assertThat(keys.indexOf(NEW_DOC)).isLessThan(keys.indexOf(OLD_DOC));
    EvidenceRow revisited = both.rows().get(keys.indexOf(NEW_DOC));
    assertThat(revisited.signals()).contains("title_match");
    assertThat(revisited.matchedTerms()).contains("revisited");

    // A word found only in a title finds its record by BM25 too, and only that record.
    SearchResult titleOnly = search("revisited", lanes(Lane.BM25));
    assertThat(keys(titleOnly)).containsExactly(NEW_DOC);
    assertThat(titleOnly.rows().get(0).signals()).contains("title_match");
  }

  @Test
  void aliasesAreSearchedLikeTitles() throws IOException {
    SearchResult result = search("BoC", lanes(Lane.BM25));

    assertThat(keys(result)).containsExactly(CARNEY);
    assertThat(result.rows().get(0).signals()).contains("alias_match");
    assertThat(result.rows().get(0).matchedTerms()).containsExactly("boc");
  }

  // ---- provenance ----

  @Test
  void aRowFoundByBothLanesShowsBothRanksAndTheirRrfContributions() throws IOException {
    SearchResult result = search("espresso grind", SearchOptions.builder());

    EvidenceRow row = row(result, ESPRESSO);
    LaneScore bm25 = row.retrieval().lane(Lane.BM25);
    LaneScore vector = row.retrieval().lane(Lane.VECTOR);
    assertThat(bm25).isNotNull();
    assertThat(vector).isNotNull();
    assertThat(bm25.contribution()).isCloseTo(1.0 / (60 + bm25.rank()), within(1e-12));
    assertThat(vector.contribution()).isCloseTo(1.0 / (60 + vector.rank()), within(1e-12));
    double sum = row.retrieval().lanes().stream().mapToDouble(LaneScore::contribution).sum();
    assertThat(row.retrieval().fusedScore()).isCloseTo(sum, within(1e-12));
    assertThat(row.signals()).contains("lexical_and_semantic");
  }

  @Test
  void rowsAreOrderedByFusedScoreAndRankedFromOne() throws IOException {
    SearchResult result = search("coffee beans", SearchOptions.builder());

    assertThat(result.rows()).extracting(EvidenceRow::rank).startsWith(1, 2, 3);
    for (int i = 1; i < result.rows().size(); i++) {
      assertThat(result.rows().get(i).retrieval().fusedScore())
          .isLessThanOrEqualTo(result.rows().get(i - 1).retrieval().fusedScore());
    }
    assertThat(result.candidates()).isGreaterThanOrEqualTo(result.rows().size());
    assertThat(result.timingsMs())
        .containsKeys("bm25", "vector", "exact_tag", "fusion", "rows", "total");
  }

  @Test
  void aNoteWhoseWordsAreAbsentIsFoundThroughTheVectorLaneOnly() throws IOException {
    SearchResult result = search("improving slumber quality", SearchOptions.builder());

    assertThat(result.lane(Lane.BM25).hits()).isZero();
    EvidenceRow first = result.rows().get(0);
    assertThat(first.sourceKey()).isEqualTo(SLEEP);
    assertThat(lanesOf(first)).containsExactly(Lane.VECTOR);
    assertThat(first.signals()).contains("vector_only");
    assertThat(first.matchedTerms()).isEmpty();
    assertThat(first.missingTerms()).containsExactly("improving", "slumber", "quality");
  }

  @Test
  void normalizedFusionSumsWeightedMinMaxScores() throws IOException {
    SearchResult result =
        search(
            "espresso grind",
            SearchOptions.builder().fusion(FusionMode.NORMALIZED).weight(Lane.VECTOR, 2.0));

    for (EvidenceRow row : result.rows()) {
      for (LaneScore s : row.retrieval().lanes()) {
        double weight = s.lane() == Lane.VECTOR ? 2.0 : 1.0;
        assertThat(s.contribution()).isBetween(0.0, weight);
      }
      double sum = row.retrieval().lanes().stream().mapToDouble(LaneScore::contribution).sum();
      assertThat(row.retrieval().fusedScore()).isCloseTo(sum, within(1e-12));
    }
    // The best vector record scores exactly its weight.
    assertThat(result.rows())
        .anySatisfy(
            r -> {
              LaneScore v = r.retrieval().lane(Lane.VECTOR);
              assertThat(v).isNotNull();
              assertThat(v.rank()).isEqualTo(1);
              assertThat(v.contribution()).isCloseTo(2.0, within(1e-12));
            });
  }

  // ---- filters, in both lanes ----

  @Test
  void sourceTypeFilterAppliesToEachLane() throws IOException {
    var docs = SearchFilters.NONE.withSourceTypes(List.of("doc"));
    for (Lane lane : List.of(Lane.BM25, Lane.VECTOR)) {
      SearchResult result = search("coffee", lanes(lane).filters(docs));

      assertThat(result.rows()).allSatisfy(r -> assertThat(r.sourceType()).isEqualTo("doc"));
      if (lane == Lane.VECTOR) {
        // Pre-filtered: both documents come back although notes are nearer to the query.
        assertThat(keys(result)).containsExactlyInAnyOrder(OLD_DOC, NEW_DOC);
      }
    }
  }

  @Test
  void tagFilterAppliesToEachLane() throws IOException {
    var coffee = SearchFilters.NONE.withTags(List.of("Coffee"));
    for (Lane lane : List.of(Lane.BM25, Lane.VECTOR)) {
      SearchResult result = search("beans and grinders", lanes(lane).filters(coffee));

      assertThat(result.rows()).isNotEmpty();
      assertThat(result.rows()).allSatisfy(r -> assertThat(r.userTags()).contains("coffee"));
    }
  }

  @Test
  void publishedDateRangeAppliesToEachLane() throws IOException {
    var recent =
        SearchFilters.NONE.withDateRange(
            DateRange.published(Instant.parse("2022-01-01T00:00:00Z"), null));
    for (Lane lane : List.of(Lane.BM25, Lane.VECTOR)) {
      SearchResult result = search("espresso crema", lanes(lane).filters(recent));

      assertThat(keys(result)).containsExactly(NEW_DOC);
    }
  }

  @Test
  void createdDateRangeKeepsRecordsCreatedInsideIt() throws IOException {
    var in2024 =
        SearchFilters.NONE.withDateRange(
            DateRange.created(
                Instant.parse("2024-01-01T00:00:00Z"), Instant.parse("2024-12-31T23:59:59Z")));

    SearchResult result = search("coffee", SearchOptions.builder().filters(in2024));

    assertThat(keys(result)).contains(ESPRESSO, GRINDERS, COFFEE_LOG);
    assertThat(result.rows()).allSatisfy(r -> assertThat(r.createdAt()).startsWith("2024-"));
  }

  // ---- related ----

  @Test
  void relatedRowsAreMarkedWithTheRowTheyRelateTo() throws IOException {
    SearchResult result = search("dialing in espresso", lanes(Lane.BM25, Lane.RELATED).limit(1));

    assertThat(result.rows().get(0).sourceKey()).isEqualTo(ESPRESSO);
    assertThat(result.rows().get(0).relatedTo()).isNull();
    EvidenceRow grinders = row(result, GRINDERS);
    assertThat(grinders.relatedTo()).isEqualTo(ESPRESSO);
    assertThat(grinders.relationship()).isEqualTo("links_to");
    assertThat(grinders.evidenceRole()).isEqualTo("related");
    assertThat(lanesOf(grinders)).containsExactly(Lane.RELATED);
    EvidenceRow log = row(result, COFFEE_LOG);
    assertThat(log.relationship()).isEqualTo("linked_from");
    assertThat(log.signals()).contains("related:linked_from");
    assertThat(result.lane(Lane.RELATED).hits()).isEqualTo(2);
    assertThat(result.rows()).extracting(EvidenceRow::rank).containsExactly(1, 2, 3);
  }

  // ---- consolidation and excerpts ----

  @Test
  void aRecordKeepsAtMostThreeChunksWithAdjacentOnesMerged() throws IOException {
    SearchResult result = search("sourdough starter rye flour", lanes(Lane.BM25, Lane.VECTOR));

    EvidenceRow row = result.rows().get(0);
    assertThat(row.sourceKey()).isEqualTo(SOURDOUGH);
    assertThat(keys(result)).doesNotHaveDuplicates();
    ChunkRef chunk = row.chunk();
    assertThat(chunk.chunkIds()).hasSizeBetween(2, 3);
    int covered =
        chunk.spans().stream().mapToInt(s -> s.lastOrdinal() - s.firstOrdinal() + 1).sum();
    assertThat(covered).isEqualTo(chunk.chunkIds().size());
    assertThat(chunk.startChar()).isLessThan(chunk.endChar());
  }

  @Test
  void maxChunksPerRecordIsHonoured() throws IOException {
    SearchResult result =
        search("sourdough starter rye flour", lanes(Lane.BM25).maxChunksPerRecord(1));

    assertThat(result.rows().get(0).chunk().chunkIds()).hasSize(1);
  }

  @Test
  void excerptIsCentredOnTheMatchedTermAndBounded() throws IOException {
    SearchResult result = search("zeolite", lanes(Lane.BM25).maxExcerptChars(160));

    EvidenceRow row = result.rows().get(0);
    assertThat(row.sourceKey()).isEqualTo(GEOLOGY);
    assertThat(row.excerpt()).hasSizeLessThanOrEqualTo(160).startsWith("…").endsWith("…");
    assertThat(row.excerpt()).contains("zeolite");
    String raw = index.get(GEOLOGY).orElseThrow().record().text();
    String body = row.excerpt().substring(1, row.excerpt().length() - 1);
    String firstWord = body.split(" ")[0];
    String lastWord = body.substring(body.lastIndexOf(' ') + 1);
    assertThat(raw).containsPattern("\\s" + java.util.regex.Pattern.quote(firstWord) + "\\s");
    assertThat(raw).containsPattern("\\s" + java.util.regex.Pattern.quote(lastWord) + "\\s");
    int at = body.indexOf("zeolite");
    assertThat(at).isBetween(body.length() / 4, body.length() * 3 / 4);
  }

  // ---- invalid requests and lane statuses ----

  @Test
  void blankQueryIsInvalid() {
    assertThatThrownBy(() -> retriever.search("  ", SearchOptions.defaults()))
        .isInstanceOfSatisfying(
            InvalidSearchException.class, e -> assertThat(e.field()).isEqualTo("query"));
  }

  @Test
  void aPastedPageOfTextIsSearchedByItsFirstWords() throws IOException {
    String page = "espresso grinder burr shot crema beans roast water pressure ".repeat(300);

    SearchResult result = search(page, SearchOptions.builder());

    assertThat(result.queryTerms()).hasSizeLessThanOrEqualTo(QueryText.MAX_TERMS);
    assertThat(result.rows()).isNotEmpty();
  }

  @Test
  void unknownSourceTypeListsTheKnownAndIndexedTypes() {
    var filters = SearchFilters.NONE.withSourceTypes(List.of("podcast"));

    assertThatThrownBy(() -> retriever.search("coffee", lanes(Lane.BM25).filters(filters).build()))
        .isInstanceOfSatisfying(
            InvalidSearchException.class,
            e -> {
              assertThat(e.field()).isEqualTo("source_types");
              assertThat(e.allowedValues()).contains("note", "doc", "pdf");
            })
        .hasMessageContaining("'podcast'");
  }

  @Test
  void vectorLaneSwitchedOffReportsDisabled() throws IOException {
    SearchResult result = search("espresso", SearchOptions.builder().withoutVector());

    assertThat(result.status(Lane.VECTOR)).isEqualTo(LaneStatus.DISABLED);
    assertThat(result.status(Lane.BM25)).isEqualTo(LaneStatus.USED);
    assertThat(result.status(Lane.RELATED)).isEqualTo(LaneStatus.DISABLED);
    assertThat(result.rows()).isNotEmpty();
    assertThat(result.rows()).noneMatch(r -> r.signals().contains("bm25_only"));
  }

  @Test
  void anIndexWithoutEmbeddingsReportsNotIndexed(@TempDir Path empty) throws IOException {
    try (BrainIndex none = BrainIndex.open(IndexConfig.defaults(empty))) {
      SearchResult result = new Retriever(none).search("espresso", SearchOptions.defaults());

      assertThat(result.status(Lane.VECTOR)).isEqualTo(LaneStatus.NOT_INDEXED);
      assertThat(result.status(Lane.BM25)).isEqualTo(LaneStatus.USED);
      assertThat(result.rows()).isEmpty();
    }
  }

  @Test
  void aModelThatFailsToLoadReportsModelUnavailable() throws IOException {
    var lane =
        new VectorLane(
            () -> {
              throw new IllegalStateException("bge-small-en-v1.5 resources not on the classpath");
            });
    try (Backend.View view = Backend.embedded(index).view()) {
      LaneHits hits =
          lane.search(
              view,
              QueryText.parse("espresso", IndexInternals.analyzer(index)),
              SearchFilters.NONE,
              10,
              VectorSearch.AUTO);

      assertThat(hits.status()).isEqualTo(LaneStatus.MODEL_UNAVAILABLE);
      assertThat(hits.detail()).contains("resources not on the classpath");
    }
  }

  @Test
  void exactAndApproximateVectorSearchAgreeOnASmallIndex() throws IOException {
    List<String> exact =
        keys(search("coffee", lanes(Lane.VECTOR).vectorSearch(VectorSearch.EXACT).limit(5)));
    SearchResult approx =
        search("coffee", lanes(Lane.VECTOR).vectorSearch(VectorSearch.APPROXIMATE).limit(5));

    assertThat(keys(approx)).isEqualTo(exact);
    assertThat(approx.lane(Lane.VECTOR).detail()).startsWith("hnsw");
  }

  // ---- wire shape ----

  @Test
  void resultsSerializeWithSnakeCaseNames() throws IOException {
    SearchResult result = search("espresso grind", SearchOptions.builder());

    JsonNode json = new ObjectMapper().valueToTree(result);

    JsonNode row = json.get("rows").get(0);
    assertThat(row.has("source_key")).isTrue();
    assertThat(row.has("evidence_role")).isTrue();
    assertThat(row.has("matched_terms")).isTrue();
    assertThat(row.has("missing_terms")).isTrue();
    assertThat(row.has("related")).isFalse();
    assertThat(row.get("chunk").has("chunk_ids")).isTrue();
    assertThat(row.get("retrieval").has("fused_score")).isTrue();
    JsonNode lane = row.get("retrieval").get("lanes").get(0);
    assertThat(lane.get("name").asText()).isIn("bm25", "vector", "exact_tag");
    assertThat(lane.has("raw_score")).isTrue();
    assertThat(json.get("lanes").get(0).get("status").asText()).isEqualTo("used");
    assertThat(json.has("timings_ms")).isTrue();
  }
}
