package dev.brain.index.importer;

import static java.util.stream.Collectors.counting;
import static java.util.stream.Collectors.groupingBy;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.brain.index.CorpusRecord;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The sample corpus in {@code samples/vault} imports completely and links up. */
class SampleVaultTest {

  private static Path vault;
  private static final List<CorpusRecord> records = new ArrayList<>();
  private static final List<String> problems = new ArrayList<>();

  @BeforeAll
  static void importVault() throws Exception {
    vault = findVault();
    Importers importers = Importers.defaults();
    for (Path file : importers.walk(vault)) {
      try {
        ImportResult result = importers.read(file, vault);
        records.addAll(result.records());
        problems.addAll(result.warnings());
      } catch (ImportException e) {
        problems.add(vault.relativize(file) + ": " + e.getMessage());
      }
    }
  }

  @Test
  void everyFileImportsWithoutProblems() {
    assertThat(problems).isEmpty();
  }

  @Test
  void yieldsTheExpectedRecordsPerSourceType() {
    Map<String, Long> bySourceType =
        records.stream().collect(groupingBy(CorpusRecord::sourceType, counting()));

    assertThat(bySourceType)
        .containsExactlyInAnyOrderEntriesOf(
            Map.of(
                "note", 49L,
                "bookmark", 11L,
                "feed_entry", 5L,
                "web", 1L,
                "pdf", 1L,
                "transcript", 1L));
  }

  @Test
  void keysAreUnique() {
    Set<String> keys = new HashSet<>();
    assertThat(records).allSatisfy(r -> assertThat(keys.add(r.key())).as(r.key()).isTrue());
  }

  @Test
  void everyNoteLinkPointsAtAnImportedRecord() {
    Set<String> keys = new HashSet<>();
    records.forEach(r -> keys.add(r.key()));

    for (CorpusRecord record : records) {
      for (String link : record.links()) {
        if (link.startsWith("note:")) {
          assertThat(keys).as("link from " + record.key()).contains(link);
        }
      }
    }
  }

  @Test
  void theSavedPageTheBookmarkAndTheNoteMeetOnOneSourceKey() {
    CorpusRecord page = byType("web").get(0);
    CorpusRecord note = byKey("note:vault/search-engine/Reciprocal rank fusion.md");
    CorpusRecord bookmark =
        byType("bookmark").stream()
            .filter(b -> b.title().startsWith("Reciprocal Rank Fusion"))
            .findFirst()
            .orElseThrow();

    assertThat(page.key())
        .isEqualTo(Keys.source("https://searchdeepdive.example/posts/rrf-explained"));
    assertThat(note.links()).contains(page.key());
    assertThat(bookmark.links()).containsExactly(page.key());
  }

  @Test
  void notesCarryAliasesTagsAndWikilinksToSources() {
    CorpusRecord niche = byKey("note:vault/coffee/Niche Zero.md");
    assertThat(niche.aliases()).containsExactly("grinder", "the Niche");
    assertThat(niche.tags()).containsExactly("coffee", "grinder", "gear", "home-espresso");

    CorpusRecord tempo = byKey("note:vault/running/Tempo runs.md");
    assertThat(tempo.links()).contains(byType("transcript").get(0).key());
  }

  @Test
  void everyProbeQuestionExpectsKeysThatExist() throws Exception {
    Set<String> keys = new HashSet<>();
    records.forEach(r -> keys.add(r.key()));

    List<JsonNode> probes = probes();
    assertThat(probes).hasSizeGreaterThanOrEqualTo(10);
    for (JsonNode probe : probes) {
      for (JsonNode key : probe.get("expected_keys")) {
        assertThat(keys).as(probe.get("id").asText()).contains(key.asText());
      }
    }
  }

  @Test
  void meaningProbesShareNoContentWordWithTheirNote() throws Exception {
    List<JsonNode> meaning =
        probes().stream().filter(p -> p.get("kind").asText().equals("meaning")).toList();
    assertThat(meaning).isNotEmpty();

    for (JsonNode probe : meaning) {
      String text =
          byKey(probe.get("expected_keys").get(0).asText()).text().toLowerCase(Locale.ROOT);
      for (String word :
          probe.get("question").asText().toLowerCase(Locale.ROOT).split("[^a-z']+")) {
        if (word.length() > 2 && !QUESTION_WORDS.contains(word)) {
          assertThat(text).as(probe.get("id").asText()).doesNotContain(word);
        }
      }
    }
  }

  private static final Set<String> QUESTION_WORDS =
      Set.of("why", "how", "what", "did", "does", "can't", "the", "and", "with", "for", "you");

  private static List<JsonNode> probes() throws Exception {
    var json = new ObjectMapper();
    var out = new ArrayList<JsonNode>();
    for (String line : Files.readAllLines(vault.resolveSibling("probes.jsonl"))) {
      if (!line.isBlank()) {
        out.add(json.readTree(line));
      }
    }
    return out;
  }

  private static List<CorpusRecord> byType(String sourceType) {
    return records.stream().filter(r -> r.sourceType().equals(sourceType)).toList();
  }

  private static CorpusRecord byKey(String key) {
    return records.stream().filter(r -> r.key().equals(key)).findFirst().orElseThrow();
  }

  /** {@code samples/vault} at the repository root, found from the module's working directory. */
  static Path findVault() {
    for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
      Path candidate = dir.resolve("samples/vault");
      if (Files.isDirectory(candidate)) {
        return candidate;
      }
    }
    throw new IllegalStateException(
        "samples/vault not found above " + Path.of("").toAbsolutePath());
  }
}
