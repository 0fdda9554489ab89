package dev.brain.research.note;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brain.index.BrainIndex;
import dev.brain.index.CollectionRoot;
import dev.brain.index.CollectionsFile;
import dev.brain.index.IndexConfig;
import dev.brain.research.Researcher;
import dev.brain.research.note.NoteResult.Source;
import dev.brain.research.note.TopicResearch.Findings;
import dev.brain.retrieval.Retriever;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What makes a research section worth keeping, on a copy of the week's vault of {@code
 * evals/vaults} (daily notes, projects, people, tags) with a papers folder as a second collection,
 * indexed for real: one bullet per source per topic, excerpts that are whole blocks of their note,
 * tags as topics only when the note speaks of them, no filler, wikilinks only into the note's own
 * collection, and the same section on a second run.
 */
class NoteResearchRulesTest {

  private static final Path FIXTURES = Path.of("../evals/vaults").toAbsolutePath().normalize();

  @TempDir static Path dir;
  static Path week;
  static List<CollectionRoot> collections;
  static BrainIndex index;
  static Researcher research;

  @BeforeAll
  static void setUp() throws IOException {
    week = dir.resolve("week");
    copy(FIXTURES.resolve("week"), week);
    copy(FIXTURES.resolve("papers"), dir.resolve("papers"));
    Path data = dir.resolve("data");
    collections =
        List.of(
            CollectionRoot.of("week", week), CollectionRoot.of("papers", dir.resolve("papers")));
    CollectionsFile.of(data).write(collections);
    index = BrainIndex.open(IndexConfig.defaults(data));
    index.syncCollections(collections, null);
    research = new Researcher(new Retriever(index));
  }

  @AfterAll
  static void tearDown() throws IOException {
    index.close();
  }

  private static void copy(Path from, Path to) throws IOException {
    try (Stream<Path> files = Files.walk(from)) {
      for (Path p : files.toList()) {
        Path target = to.resolve(from.relativize(p).toString());
        if (Files.isDirectory(p)) {
          Files.createDirectories(target);
        } else {
          Files.copy(p, target, StandardCopyOption.REPLACE_EXISTING);
        }
      }
    }
  }

  private static NoteResult dryRun(String note) throws Exception {
    return researcher()
        .research(NoteRequest.of(week.resolve(note)).withDryRun(true), collections, null);
  }

  private static NoteResearcher researcher() {
    return new NoteResearcher(
        q -> research.pack(q, dev.brain.research.pack.ResearchOptions.defaults()),
        (c, p) -> {
          index.syncCollections(List.of(c), null);
          return "done";
        },
        null,
        new NoteResearcher.Options(null, 4, Duration.ofSeconds(10), Duration.ofSeconds(30)));
  }

  /** The bullets of each {@code ###} subsection but the related notes. */
  private static List<List<String>> bulletsByTopic(String section) {
    var out = new ArrayList<List<String>>();
    List<String> current = null;
    for (String line : section.split("\n")) {
      if (line.startsWith("### ")) {
        current = line.equals("### Related notes") ? null : new ArrayList<>();
        if (current != null) {
          out.add(current);
        }
      } else if (current != null && line.startsWith("- ")) {
        current.add(line);
      }
    }
    return out;
  }

  @Test
  void eachSourceIsCitedOnceInTheSection() throws Exception {
    for (String note :
        List.of(
            "projects/Kafka migration.md", "Home.md", "Designing Data-Intensive Applications.md")) {
      NoteResult r = dryRun(note);
      var seen = new ArrayList<Source>();
      for (NoteResult.TopicReport t : r.research()) {
        for (Source s : t.sources()) {
          assertThat(TopicResearch.citedAlready(seen, s)).as(note + ": " + s).isFalse();
          seen.add(s);
        }
      }
      var cites = new HashSet<String>();
      for (List<String> bullets : bulletsByTopic(r.section())) {
        for (String b : bullets) {
          assertThat(cites.add(b.substring(0, b.indexOf(": ")))).as(b).isTrue();
        }
      }
      assertThat(cites).as(note).isNotEmpty();
    }
    // The four heading topics of the Kafka note share its title: its sources are not quoted under
    // each of them.
    NoteResult kafka = dryRun("projects/Kafka migration.md");
    assertThat(kafka.research().stream().filter(t -> t.topic().startsWith("Kafka migration:")))
        .filteredOn(t -> !t.sources().isEmpty())
        .hasSizeLessThan(4);
  }

  @Test
  void aSavedPageAndItsBookmarkWithTheSameUrlAreOneSource() {
    var page = new Source("corpus", "web:1", "RRF explained", "https://x.example/rrf", null, "a");
    var bookmark = new Source("corpus", "bm:2", "RRF", "https://x.example/rrf", null, "b");
    var other = new Source("corpus", "bm:3", "RRF", "https://x.example/other", null, "c");
    assertThat(TopicResearch.citedAlready(List.of(page), bookmark)).isTrue();
    assertThat(TopicResearch.citedAlready(List.of(page), other)).isFalse();
  }

  @Test
  void everyExcerptOfANoteIsOneWholeBlockOfItOrWholeSentencesOfOne() throws Exception {
    int checked = 0;
    for (String note : List.of("projects/Kafka migration.md", "Home.md", "Inbox.md")) {
      NoteResult r = dryRun(note);
      for (NoteResult.TopicReport t : r.research()) {
        for (Source s : t.sources()) {
          if (!"note".equals(s.kind())) {
            continue;
          }
          String path = s.key().substring(s.key().indexOf('/') + 1);
          Path root = s.key().startsWith("note:week/") ? week : dir.resolve("papers");
          List<String> blocks =
              NoteBlocks.of(Files.readString(root.resolve(path))).stream()
                  .map(b -> Sanitize.line(Sanitize.unlink(b), Integer.MAX_VALUE))
                  .toList();
          assertThat(blocks).as(s.key()).anyMatch(b -> b.contains(s.excerpt()));
          assertThat(s.excerpt()).as(s.key()).doesNotEndWith("…").doesNotContain(" #kafka ");
          checked++;
        }
      }
    }
    assertThat(checked).isGreaterThan(5);
  }

  @Test
  void aPassageNeverRunsIntoTheNextBulletAndALongOneEndsAtASentence() {
    List<String> blocks =
        NoteBlocks.of(
            "# Ideas\n\n- Kafka consumer lag viewer for the terminal #kafka\n"
                + "- Home dashboard on the Pi that also shows the bus times #homelab\n"
                + "- #kafka #homelab\n");
    assertThat(blocks)
        .containsExactly(
            "Kafka consumer lag viewer for the terminal #kafka",
            "Home dashboard on the Pi that also shows the bus times #homelab",
            "#kafka #homelab");
    assertThat(Passages.fromBlocks(blocks, "home dashboard", false, 300))
        .isEqualTo("Home dashboard on the Pi that also shows the bus times #homelab");
    // A line of tags says nothing to quote, though it holds the word.
    assertThat(Passages.fromBlocks(List.of("#kafka #homelab"), "kafka", false, 300)).isEmpty();
    String longBlock =
        "The cluster runs three brokers. "
            + "x".repeat(40)
            + " filler words here. Kafka keeps the log for seven days so consumers can replay. "
            + "Then "
            + "y".repeat(300)
            + ".";
    assertThat(Passages.fromBlocks(List.of(longBlock), "kafka log", false, 300))
        .isEqualTo("Kafka keeps the log for seven days so consumers can replay.");
    assertThat(NoteBlocks.of("| Panel | Source |\n|---|---|\n| NAS disk | node_exporter |\n"))
        .containsExactly("Panel | Source", "NAS disk | node_exporter");
  }

  @Test
  void aPersonsNoteIsQuotedUnderTheirNameThoughItsTextNeverRepeatsIt() throws Exception {
    NoteResult r = dryRun("daily/2026-11-26.md");
    assertThat(r.research())
        .flatExtracting(NoteResult.TopicReport::sources)
        .filteredOn(s -> "note:week/people/Anna Kowalska.md".equals(s.key()))
        .singleElement()
        .satisfies(s -> assertThat(s.excerpt()).startsWith("Friend from university"));
    assertThat(
            Passages.fromBlocks(
                List.of("Backend lead on billing.", "Birthday: 14 June."), "tomasz", true, 300))
        .isEqualTo("Backend lead on billing.");
    assertThat(Passages.fromBlocks(List.of("Backend lead here."), "tomasz", false, 300)).isEmpty();
  }

  @Test
  void aTopicWordMatchesAWordOrItsPluralNotThePrefixOfAnother() {
    assertThat(Passages.containsWord("latte art progress so far", "pro")).isFalse();
    assertThat(Passages.containsWord("the gaggia classic pro at home", "pro")).isTrue();
    assertThat(Passages.containsWord("two pros and cons", "pro")).isTrue();
    assertThat(Passages.containsWord("new partitions today", "partition")).isTrue();
    assertThat(
            Passages.fromBlocks(List.of("Latte art progress is slow."), "classic pro", false, 300))
        .isEmpty();
  }

  @Test
  void aTagIsATopicOnlyWhenTheNoteSpeaksOfIt() throws IOException {
    String text = Files.readString(week.resolve("projects/Kafka migration.md"));
    List<String> topics =
        TopicExtractor.extract(text, "Kafka migration").stream().map(Topic::topic).toList();
    assertThat(topics).contains("kafka", "work").doesNotContain("book", "project");
    String daily = Files.readString(week.resolve("daily/2026-11-23.md"));
    assertThat(TopicExtractor.extract(daily, "2026-11-23").stream().map(Topic::topic))
        .doesNotContain("daily", "homelab");
    assertThat(TopicExtractor.namesTopic("side project", "my side projects at home")).isTrue();
    assertThat(TopicExtractor.namesTopic("moc", "a map of content")).isFalse();
  }

  @Test
  void theBookTagOfAProjectNoteNoLongerQuotesTheDentist() throws Exception {
    NoteResult r = dryRun("projects/Kafka migration.md");
    assertThat(r.section()).doesNotContain("Dentist").doesNotContain("### book");
  }

  @Test
  void aTopicWithoutSourcesGetsNoHeadingAndNoFillerLine() throws Exception {
    var empty =
        new Findings(
            new Topic("Embed a canvas", "", "concept"), "embed canvas", List.of(), List.of(), 3, 0);
    var moved =
        new Findings(new Topic("Canvas", "", "concept"), "canvas", List.of(), List.of(), 0, 2);
    var cited =
        new Findings(
            new Topic("Cards", "", "concept"),
            "cards",
            List.of(
                new Source("note", "note:v/Cards.md", "Cards", null, "Cards", "Cards hold text.")),
            List.of(),
            0,
            0);
    String body = SectionSynthesis.extractive(List.of(empty, cited, moved), Set.of());
    assertThat(body).contains("### Cards").doesNotContain("Embed a canvas", "### Canvas", "_");
    for (String note : List.of("people/Tomasz Nowak.md", "daily/2026-11-28.md", "Home.md")) {
      String section = dryRun(note).section();
      // The line under the marker says who researched when; one more says when nothing at all
      // was found; no other line is italic filler.
      var italic = section.lines().skip(4).filter(l -> l.matches("_.*_")).toList();
      if (section.contains("### ")) {
        assertThat(italic).as(note).isEmpty();
      } else {
        assertThat(italic)
            .as(note)
            .containsExactly("_Nothing in the corpus (or on the web) matched this note's topics._");
      }
    }
  }

  @Test
  void aNoteOfAnotherCollectionIsCitedAsPlainTextNamingItsCollection() throws Exception {
    NoteResult r = dryRun("projects/Kafka migration.md");
    var foreign =
        r.research().stream()
            .flatMap(t -> t.sources().stream())
            .filter(s -> s.key() != null && s.key().startsWith("note:papers/"))
            .toList();
    assertThat(foreign).isNotEmpty().allMatch(s -> s.link() == null);
    assertThat(r.section())
        .contains("Kafka paper (collection papers)")
        .doesNotContain("[[Kafka paper")
        .doesNotContain("[[Raft paper")
        .doesNotContain("[[Dynamo paper");
    var own = NoteLinks.of(List.of(collections.getFirst()));
    var m = java.util.regex.Pattern.compile("\\[\\[([^\\]|#]+)").matcher(r.section());
    while (m.find()) {
      assertThat(own.exists(m.group(1))).as(m.group(1)).isTrue();
    }
  }

  @Test
  void aSecondRunOverTheSameCorpusWritesTheSameSection() throws Exception {
    for (String note : List.of("Designing Data-Intensive Applications.md", "Home.md")) {
      Path path = week.resolve(note);
      NoteResult first = researcher().research(NoteRequest.of(path), collections, null);
      NoteResult second = researcher().research(NoteRequest.of(path), collections, null);
      assertThat(first.written()).isTrue();
      assertThat(second.section()).as(note).isEqualTo(first.section());
    }
  }

  @Test
  void theResultCarriesTheTopicsResearchedAndAPreviewOfTheSection() throws Exception {
    NoteResult r = dryRun("projects/Kafka migration.md");
    assertThat(r.topicsResearched()).isEqualTo(r.topics().size()).isPositive();
    assertThat(r.section()).hasSizeGreaterThan(NoteResult.PREVIEW_CHARS);
    assertThat(r.preview())
        .hasSize(NoteResult.PREVIEW_CHARS)
        .isEqualTo(r.section().substring(0, NoteResult.PREVIEW_CHARS));
    assertThat(NoteResult.preview("## Research\nshort\n")).isEqualTo("## Research\nshort\n");
    String emoji = "x".repeat(NoteResult.PREVIEW_CHARS - 1) + "😀tail";
    assertThat(NoteResult.preview(emoji)).hasSize(NoteResult.PREVIEW_CHARS - 1);
  }
}
