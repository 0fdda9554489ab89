package dev.brain.research.note;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brain.chunking.Chunk;
import dev.brain.chunking.ChunkRole;
import dev.brain.index.BrainIndex;
import dev.brain.index.CollectionRoot;
import dev.brain.index.CollectionsFile;
import dev.brain.index.IndexConfig;
import dev.brain.research.Researcher;
import dev.brain.research.pack.ResearchOptions;
import dev.brain.research.synthesis.ResearchResult;
import dev.brain.research.trace.TraceStore;
import dev.brain.retrieval.EvidenceRow;
import dev.brain.retrieval.Retriever;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Derived text is never the user's notes: the {@code ## Research} section {@code brain note
 * research} wrote into a note, and a long record's derived summary, with a real index over a copy
 * of the sample vault and real extractive research runs.
 */
class DerivedTextEvidenceTest {

  private static final Path SAMPLES = Path.of("../samples/vault").toAbsolutePath().normalize();

  /** Note B's fact, which brain's section in note A quotes. */
  private static final String FACT =
      "The new burrs of the Kopi grinder needed four kilograms of cheap beans before the grind"
          + " settled.";

  private static final String QUESTION = "How many kilograms of beans did the Kopi burrs need?";

  @TempDir static Path dir;
  static Path vault;
  static BrainIndex index;
  static Researcher research;
  static List<CollectionRoot> collections;
  static Path noteA;
  static String keyA;
  static String keyB;

  @BeforeAll
  static void setUp() throws Exception {
    vault = dir.resolve("vault");
    copy(SAMPLES, vault);
    Files.writeString(
        vault.resolve("Burr seasoning.md"),
        "# Burr seasoning\n\n" + FACT + " I used old supermarket beans for it.\n");
    Files.writeString(vault.resolve("Tamper log.md"), longNote());
    noteA = vault.resolve("Kopi grinder.md");
    Files.writeString(
        noteA,
        "# Kopi grinder\n\nBought the Kopi grinder in May; it sits next to the kettle.\n\n"
            + "## Burr seasoning\n\nSee [[Burr seasoning]].\n");
    Path data = dir.resolve("data");
    collections = List.of(CollectionRoot.of("vault", vault));
    CollectionsFile.of(data).write(collections);
    index = BrainIndex.open(IndexConfig.defaults(data));
    index.syncCollections(collections, null);
    research = new Researcher(new Retriever(index));
    keyA = "note:vault/Kopi grinder.md";
    keyB = "note:vault/Burr seasoning.md";
    // brain note research writes its marked section into A, quoting B; then A is re-indexed
    var notes =
        new NoteResearcher(
            q -> research.pack(q, ResearchOptions.defaults()),
            (c, p) -> "done",
            new TraceStore(data),
            new NoteResearcher.Options(null, 2, Duration.ofSeconds(10), Duration.ofSeconds(30)));
    NoteResult written = notes.research(NoteRequest.of(noteA), collections, null);
    assertThat(written.written()).isTrue();
    assertThat(written.section()).contains("[[Burr seasoning]]").contains("four kilograms");
    index.syncCollections(collections, null);
  }

  @AfterAll
  static void tearDown() throws IOException {
    index.close();
  }

  /**
   * A long note whose summary (its own, from front matter; an extractive one is chunked and found
   * the same way) holds the question's words densest, so the search finds the note through it.
   */
  private static String longNote() {
    String[][] sections = {
      {"Pressure", "Tamper pressure: I press the Kopi tamper at about fifteen kilograms."},
      {"Levelling", "Tamper levelling: the Kopi tamper sits level on the basket rim."},
      {"Cleaning", "Tamper cleaning: I wipe the Kopi tamper after each session."},
      {"History", "Tamper history: the Kopi tamper replaced a plastic one in spring."}
    };
    String[] filler = {
      "Mornings start slowly in the kitchen while the machine heats up and the radio plays.",
      "The window faces east, so the light on the counter changes with the seasons of the year.",
      "A neighbour sometimes drops by with bread from the bakery at the corner of the street.",
      "Weekends are for long walks along the river before the town wakes up and gets busy.",
      "The cat watches everything from the top of the fridge and complains about the noise."
    };
    var out =
        new StringBuilder(
            "---\nsummary: \"Tamper pressure: what tamper pressure I use on the Kopi tamper.\"\n"
                + "---\n# Tamper log\n\nNotes on the Kopi tamper and its pressure.\n");
    for (String[] section : sections) {
      out.append("\n## ").append(section[0]).append("\n\n").append(section[1]).append('\n');
      for (int p = 0; p < 3; p++) {
        out.append('\n');
        for (String f : filler) {
          out.append(f).append(' ');
        }
        out.append('\n');
      }
    }
    return out.toString();
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

  /** The answer's passage headers ("From …[key]:"), in order. */
  private static List<String> headers(String answer) {
    return answer.lines().filter(l -> l.startsWith("From ") && l.endsWith("]:")).toList();
  }

  /** The passages the answer quotes from {@code key}: the text under each of its headers. */
  private static List<String> passagesOf(String answer, String key) {
    var out = new java.util.ArrayList<String>();
    String[] parts = answer.split("(?m)^(?=From .*\\]:$)");
    for (String part : parts) {
      if (part.lines().findFirst().orElse("").contains("[" + key + "]")) {
        out.add(part);
      }
    }
    return out;
  }

  private static void assertNeverQuotesBrainsSection(ResearchResult r) {
    String answer = r.synthesis().answer();
    assertThat(r.synthesis().citations()).extracting(c -> c.sourceKey()).contains(keyB);
    assertThat(passagesOf(answer, keyA)).noneMatch(p -> p.contains("four kilograms"));
    assertThat(answer).doesNotContain("Researched by brain");
    assertThat(r.pack().evidence())
        .extracting(EvidenceRow::evidenceRole)
        .doesNotContain(ChunkRole.BRAIN_WRITTEN.wireName());
    // nor does the evidence A shows (its excerpt, what a chat model would read) hold brain's text
    assertThat(r.pack().evidence())
        .filteredOn(e -> e.sourceKey().equals(keyA))
        .noneMatch(e -> e.excerpt().contains("four kilograms"));
  }

  @Test
  void theIndexFindsExactlyTheSectionThatResearchSectionCallsBrains() {
    String section = ResearchSection.compose("### Kopi\n\n- [[Burr seasoning]]: " + FACT);
    List<String> notes =
        List.of(
            "# A\n\nMine.\n\n" + section + "\n## Later\n\nMine too.\n",
            ("# A\n\nMine.\n\n" + section).replace("\n", "\r\n"),
            "---\ntags: [x]\n---\n" + section,
            "# A\n\n" + section.replace("four kilograms", "five kilograms"),
            "# A\n\n```\n" + section + "```\n",
            "# A\n\n> " + section.replace("\n", "\n> "),
            "# A\n\n## Research\n\nwritten by hand\n");
    for (String note : notes) {
      assertThat(dev.brain.chunking.BrainWritten.span(note))
          .as(note)
          .isEqualTo(ResearchSection.brainWrittenSpan(note));
    }
    assertThat(dev.brain.chunking.BrainWritten.span(notes.get(0))).isNotNull();
    assertThat(dev.brain.chunking.BrainWritten.span(notes.get(3))).isNull();
  }

  @Test
  void aQuestionAnsweredByNoteBCitesBAndNeverQuotesTheSectionBrainWroteIntoA() throws Exception {
    ResearchResult r = research.research(QUESTION, ResearchOptions.defaults());
    assertThat(headers(r.synthesis().answer()).getFirst()).contains("[" + keyB + "]");
    assertThat(headers(r.synthesis().answer())).noneMatch(h -> h.contains("[" + keyA + "]"));
    assertNeverQuotesBrainsSection(r);
  }

  @Test
  void noteAsOwnTextIsEvidenceWithoutTheSectionBrainWroteIntoIt() throws Exception {
    ResearchResult r =
        research.research(
            "Kopi grinder burrs: kilograms of beans, and where does it sit?",
            ResearchOptions.defaults());
    assertThat(r.pack().evidence()).extracting(EvidenceRow::sourceKey).contains(keyA);
    assertNeverQuotesBrainsSection(r);
  }

  @Test
  void withTheSettingOnBrainsSectionMayBeEvidenceButIsLabelledWrittenByBrain() throws Exception {
    ResearchResult r =
        research.research(QUESTION, ResearchOptions.defaults().withIncludeBrainWritten(true));
    List<EvidenceRow> rowsOfA =
        r.pack().evidence().stream().filter(e -> e.sourceKey().equals(keyA)).toList();
    assertThat(rowsOfA)
        .extracting(EvidenceRow::evidenceRole)
        .containsOnly(ChunkRole.BRAIN_WRITTEN.wireName());
    assertThat(headers(r.synthesis().answer()))
        .filteredOn(h -> h.contains("[" + keyA + "]"))
        .allMatch(h -> h.startsWith("From text written by brain"), "labelled as brain's");
    assertThat(headers(r.synthesis().answer()))
        .noneMatch(h -> h.startsWith("From your notes") && h.contains("[" + keyA + "]"));
  }

  @Test
  void aHandWrittenResearchSectionStaysTheUsersEvidence() throws Exception {
    Path hand = vault.resolve("Kettle.md");
    Files.writeString(
        hand,
        "# Kettle\n\nA gooseneck kettle.\n\n## Research\n\nThe Zwilling kettle holds 0.9 litres"
            + " and pours a steady thin stream.\n");
    try {
      index.syncCollections(collections, null);
      ResearchResult r =
          research.research("How much does the Zwilling kettle hold?", ResearchOptions.defaults());
      assertThat(headers(r.synthesis().answer()).getFirst())
          .startsWith("From your notes")
          .contains("[note:vault/Kettle.md]");
    } finally {
      Files.delete(hand);
      index.syncCollections(collections, null);
    }
  }

  @Test
  void aDerivedSummaryLeadsTheSearchToARecordButNeverOpensTheAnswer() throws Exception {
    ResearchResult r =
        research.research("what tamper pressure do I use?", ResearchOptions.defaults());
    String answer = r.synthesis().answer();
    // the precondition: the record was found through its derived summary
    assertThat(r.pack().evidence().getFirst().sourceKey()).isEqualTo("note:vault/Tamper log.md");
    assertThat(r.pack().evidence().getFirst().evidenceRole()).isEqualTo("summary");
    assertThat(answer).doesNotStartWith("From a derived summary").doesNotContain("what tamper");
    assertThat(headers(answer)).isNotEmpty().noneMatch(h -> h.contains("derived summary"));
    // the answer opens with the record's own text, under the user's notes, not its summary
    String key = "note:vault/Tamper log.md";
    assertThat(headers(answer).getFirst()).startsWith("From your notes").contains("[" + key + "]");
    String first = answer.split("\n\n")[1].strip();
    assertThat(index.get(key).orElseThrow().record().text()).contains(first);
    assertThat(first).contains("fifteen kilograms");
  }

  @Test
  void brainsSectionStaysDerivedAfterAReindexAndAnEditElsewhereInTheNote() throws Exception {
    String before = Files.readString(noteA);
    try {
      Files.writeString(
          noteA,
          before.replace(
              "it sits next to the kettle.", "it sits next to the kettle and the scale."));
      index.syncCollections(collections, null);
      List<Chunk> chunks = index.get(keyA).orElseThrow().chunks();
      String text = index.get(keyA).orElseThrow().record().text();
      assertThat(chunks)
          .filteredOn(c -> c.role() == ChunkRole.BRAIN_WRITTEN)
          .isNotEmpty()
          .allMatch(c -> text.substring(c.startChar(), c.endChar()).equals(c.text()))
          .anyMatch(c -> c.text().contains("four kilograms"));
      assertThat(chunks)
          .filteredOn(c -> c.role() == ChunkRole.RAW)
          .noneMatch(c -> c.text().contains("four kilograms"))
          .anyMatch(c -> c.text().contains("and the scale"));
      assertNeverQuotesBrainsSection(research.research(QUESTION, ResearchOptions.defaults()));
    } finally {
      Files.writeString(noteA, before);
      index.syncCollections(collections, null);
    }
  }
}
