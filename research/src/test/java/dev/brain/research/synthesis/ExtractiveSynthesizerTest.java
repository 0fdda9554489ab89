package dev.brain.research.synthesis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brain.models.Embedder;
import dev.brain.models.EmbeddingModel;
import dev.brain.research.pack.ResearchPack;
import dev.brain.retrieval.EvidenceRow;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Passage answers of the built-in synthesizer, on hand-made packs. */
class ExtractiveSynthesizerTest {

  private static SynthesisResult answer(ResearchPack pack) {
    return ExtractiveSynthesizer.answer(SynthesisInput.prepare(pack, SynthesisOptions.defaults()));
  }

  /** An answer that reads each row's whole stored text, which in {@code pack} is its excerpt. */
  private static SynthesisResult answerFromWholeRows(ResearchPack pack) {
    Map<String, String> raw =
        pack.evidence().stream()
            .collect(Collectors.toMap(EvidenceRow::sourceKey, EvidenceRow::excerpt));
    EvidenceReader reader = EvidenceReader.of(key -> Optional.ofNullable(raw.get(key)));
    return ExtractiveSynthesizer.answer(
        SynthesisInput.prepare(pack, SynthesisOptions.defaults(), reader), reader);
  }

  /** The answer from one note, {@code page} at {@code path}, read whole. */
  private static SynthesisResult answerFromPage(String question, String path, String page) {
    return answerFromWholeRows(Packs.pack(question, List.of(note(1, path, page))));
  }

  private static Embedder model;

  @BeforeAll
  static void openModel() {
    model = Embedder.open(EmbeddingModel.BGE_SMALL_EN_V15);
  }

  @AfterAll
  static void closeModel() {
    model.close();
  }

  /** {@link #answerFromWholeRows} with the bundled model's tokenizer telling rare words apart. */
  private static SynthesisResult answerWithTheModelsTokenizer(ResearchPack pack) {
    Map<String, String> raw =
        pack.evidence().stream()
            .collect(Collectors.toMap(EvidenceRow::sourceKey, EvidenceRow::excerpt));
    EvidenceReader reader =
        EvidenceReader.of(
            key -> Optional.ofNullable(raw.get(key)),
            (question, texts) -> new double[texts.size()],
            model::countTokens);
    return ExtractiveSynthesizer.answer(
        SynthesisInput.prepare(pack, SynthesisOptions.defaults(), reader), reader);
  }

  /** A note row whose stored text is {@code raw}, all of it retrieved. */
  private static EvidenceRow note(int rank, String path, String raw) {
    return Packs.stored(Packs.note(rank, path, raw), raw, raw);
  }

  @Test
  void quotesTheSectionWithTheCodeBlockItsLeadInIntroducesAndNamesItsHeadings() {
    String raw =
        """
        # Installation

        The first step is to install the toolchain with `rustup`.

        ## Updating and Uninstalling

        Once Rust is installed via `rustup`, updating to a newly released version is easy. From
        your shell, run the following update script:

        ```console
        $ rustup update
        ```

        To uninstall Rust and `rustup`, run the following uninstall script from your shell:

        ```console
        $ rustup self uninstall
        ```
        """;
    var pack =
        Packs.pack(
            "How do I update my Rust toolchain?", List.of(note(1, "book/installation.md", raw)));

    String answer = answerFromWholeRows(pack).answer();

    assertThat(answer)
        .startsWith(
            "From your notes, “Installation › Updating and Uninstalling”"
                + " [note:book/installation.md]:")
        .contains("Once Rust is installed via `rustup`, updating to a newly released version")
        .contains("run the following update script:\n\n```console\n$ rustup update\n```");
  }

  @Test
  void aCodeBlockAfterACalloutWithOnlyATitleIsQuotedWithItsSection() {
    String raw =
        """
        # Stores

        ## Using stores

        A store is an object that lets you subscribe to changes of a value over time.

        > [!NOTE] Runes replace stores in most cases

        ```js
        import { writable } from 'svelte/store';
        const count = writable(0);
        ```

        Subscribe to a store to read its value whenever the value changes.
        """;
    var pack =
        Packs.pack("how do i subscribe to a store?", List.of(note(1, "docs/stores.md", raw)));

    SynthesisResult result = answerFromWholeRows(pack);

    assertThat(result.answerStatus()).isNotEqualTo(AnswerStatus.NO_EVIDENCE);
    assertThat(result.answer())
        .contains("Subscribe to a store to read its value")
        .contains("[note:docs/stores.md]");
  }

  @Test
  void theParagraphThatAnswersAfterAPickShowsTheCodeBlockItsLeadInIntroduces() {
    String quiet = Packs.filler(420) + ".";
    String raw =
        """
        # Running Tests

        ## Running Tests in Parallel or Consecutively

        Tests run in parallel by default, so two tests that write the same file on disk interfere
        with each other, and a test fails although its code is correct.

        To change that, pass the `--test-threads` flag and a number of threads to the test binary.
        Take a look at the following example:

        ```console
        $ cargo test -- --test-threads=1
        ```

        %s

        %s

        %s
        """
            .formatted(quiet, quiet, quiet);
    var pack =
        Packs.pack(
            "My tests interfere with each other because they write the same file on disk. How do I"
                + " fix that?",
            List.of(note(1, "book/tests.md", raw)));

    String answer = answerFromWholeRows(pack).answer();

    assertThat(answer)
        .contains("two tests that write the same file on disk interfere")
        .contains(
            "Take a look at the following example:\n\n```console\n"
                + "$ cargo test -- --test-threads=1\n```");
  }

  @Test
  void aShortCodeExampleUnderTheSentenceThatStatesItIsShownWithoutALeadIn() {
    String quiet = Packs.filler(420) + ".";
    String raw =
        """
        # Themes

        ## Inheritance

        %s

        A theme can extend another one: set the parent's name in your theme file.

        Extend other themes by setting the `inherits` property to an existing theme.

        ```toml
        inherits = "night_owl"
        "keyword" = { fg = "gold" }
        ```

        %s

        %s
        """
            .formatted(quiet, quiet, quiet);
    var pack =
        Packs.pack(
            "How do I make my own theme that extends an existing theme?",
            List.of(note(1, "book/themes.md", raw)));

    String answer = answerFromWholeRows(pack).answer();

    assertThat(answer)
        .contains(
            "Extend other themes by setting the `inherits` property to an existing theme.\n\n"
                + "```toml\ninherits = \"night_owl\"");
  }

  @Test
  void aShortSectionShowsItsCodeExamplesAndNeverAnIncludeDirectiveOrALongListing() {
    String longListing =
        IntStream.rangeClosed(1, 20)
            .mapToObj(i -> "let line_%d = %d;".formatted(i, i))
            .collect(Collectors.joining("\n"));
    String raw =
        """
        # Uninstalling

        ## Removing the package store

        ```sh
        rm -rf "$(tool store path)"
        ```

        If you used the tool on several disks, run the command above on every disk.

        ```rust
        {{#include ../listings/store/src/main.rs}}
        ```

        The store keeps one copy of every package version.

        ```rust
        %s
        ```
        """
            .formatted(longListing);
    var pack =
        Packs.pack(
            "How do I remove the package store when uninstalling the tool?",
            List.of(note(1, "docs/uninstall.md", raw)));

    String answer = answerFromWholeRows(pack).answer();

    assertThat(answer)
        .contains("```sh\nrm -rf \"$(tool store path)\"\n```")
        .contains("run the command above on every disk")
        .doesNotContain("{{#include")
        .doesNotContain("line_20");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "[[Plantar fasciitis]]",
        "[[Plantar fasciitis|PF]]",
        "[[Plantar fasciitis#Treatment|PF]]",
        "[PF](Plantar%20fasciitis.md)"
      })
  void theNoteTheBestSentenceLinksToIsQuotedNextWhenItCoversARequiredConcept(String link) {
    String daily =
        """
        # 2024-04-14

        Allotment day: turned the compost and spread it on the tomato bed.

        No running this week: the physio says rest for the heel (LINK). Doing
        the calf raises instead.
        """
            .replace("LINK", link);
    String injury =
        """
        # Plantar fasciitis

        Sharp pain in the left heel with the first steps in the morning. The physio prescribed:

        - Heavy slow calf raises on a step, 3 × 12, every other day
        - Rolling the foot on a frozen water bottle after runs
        """;
    String unrelated =
        """
        # Running shoes

        The physio liked the cushioning of the trail shoes.
        """;
    var pack =
        Packs.pack(
            "What did the physio tell me to do for my heel?",
            List.of(
                note(1, "daily/2024-04-14.md", daily),
                note(2, "Plantar fasciitis.md", injury),
                note(3, "Running shoes.md", unrelated)));

    String answer = answerFromWholeRows(pack).answer();

    assertThat(answer)
        .startsWith("From your notes, “2024-04-14”")
        .contains("[note:Plantar fasciitis.md]")
        .contains("- Heavy slow calf raises on a step, 3 × 12, every other day")
        .doesNotContain("trail shoes");
  }

  @Test
  void aPassageWhoseOnlyTieToTheQuestionIsOneConceptOfItsHeadingIsNotQuoted() {
    String heel = "# Heel\n\nThe heel hurt after the long run in the Brooks Ghost shoes.\n";
    String guide = "# Machine care\n\n## Parts that wear\n\nReplace the group gasket every year.\n";
    var pack =
        Packs.pack(
            "What shoes was I wearing when my heel started hurting?",
            List.of(
                note(1, "Heel.md", heel),
                note(2, "Log.md", "# Log\n\nEasy 10 km, the heel was fine.\n"),
                note(3, "Espresso guide.md", guide)));

    String answer = answerFromWholeRows(pack).answer();

    assertThat(answer).contains("Brooks Ghost").doesNotContain("gasket");
  }

  @Test
  void theLinkedNoteIsQuotedWhenItAddsAConceptThoughItScoresUnderTheFloorOfAddingPassages() {
    String daily =
        "# 2024-04-14\n\nNo running: the physio says rest for the heel pain ([[Plantar fasciitis|PF]]).\n";
    String log = "# Log\n\nEasy 10 km, the heel was fine.\n";
    // Its file is named by the link, its title is not; it only adds "prescribe".
    String injury = "# PF\n\n## Prescribed\n\nCalf raises every other day.\n";
    var pack =
        Packs.pack(
            "What did the physio prescribe for my heel pain?",
            List.of(
                note(1, "daily/2024-04-14.md", daily),
                note(2, "Log.md", log),
                note(3, "running/Plantar fasciitis.md", injury)));

    String answer = answerFromWholeRows(pack).answer();

    assertThat(answer)
        .startsWith("From your notes, “2024-04-14”")
        .contains("Calf raises every other day.");
  }

  @Test
  void aLinkPointsToTheNoteItNamesWhateverItShows() {
    assertThat(PassageChoice.noteName("Plantar fasciitis")).isEqualTo("plantar fasciitis");
    assertThat(PassageChoice.noteName("health/Plantar%20fasciitis.md#Treatment"))
        .isEqualTo("plantar fasciitis");
    assertThat(PassageChoice.noteName("C++ notes.md")).isEqualTo("c++ notes");
    assertThat(PassageChoice.noteName("100%.md")).isEqualTo("100%");
    assertThat(PassageChoice.noteName("https://example.com/heel.md")).isEmpty();
    assertThat(PassageChoice.noteName("Heel.md?plain=1")).isEqualTo("heel");
    assertThat(PassageChoice.noteName("guides/Heel.mdx")).isEqualTo("heel");
    assertThat(PassageChoice.noteName("Heel.markdown")).isEqualTo("heel");
  }

  @Test
  void aCloseSecondFromAnotherDocumentKeepsItsPlaceWhenTheBestSectionIsReadFurther() {
    String quiet = Packs.filler(400) + ".";
    String best =
        """
        # Globals

        ## Static variables

        Static variables hold values of the static lifetime at a fixed address.

        %s

        %s

        %s

        %s
        """
            .formatted(quiet, quiet, quiet, quiet);
    String second =
        """
        # Lifetimes

        ## The static lifetime

        The static lifetime lasts for the entire duration of the program.

        %s
        """
            .formatted(Packs.filler(1000) + ".");
    var pack =
        Packs.pack(
            "What is the static lifetime?",
            List.of(note(1, "book/globals.md", best), note(2, "book/lifetimes.md", second)));

    String answer = answerFromWholeRows(pack).answer();

    assertThat(answer)
        .startsWith("From your notes, “Globals › Static variables”")
        .contains("lasts for the entire duration of the program");
  }

  @Test
  void aRowFoundByItsDerivedSummaryIsQuotedFromItsOwnTextNeverTheSummary() {
    String summary =
        """
        By Priya Raman.
        Outline:
        - The formula: RRF adds up 1 / (k + rank) over all lists.
        - What k does: A small k makes the top ranks dominate.
        - Pitfalls: Cut each list at the same depth.""";
    EvidenceRow page = Packs.row(1, "src:rrf", "source", "web", "summary", "", List.of(), null);
    var chunk =
        new dev.brain.retrieval.ChunkRef(
            List.of("src:rrf#s"),
            List.of(0),
            "summary",
            List.of(),
            0,
            summary.length(),
            List.of(new dev.brain.retrieval.ChunkRef.Span(0, 0, 0, summary.length())));
    EvidenceRow row =
        new EvidenceRow(
            page.rank(),
            page.sourceKey(),
            page.kind(),
            page.sourceType(),
            "Reciprocal Rank Fusion explained",
            page.url(),
            page.notePath(),
            page.userTags(),
            page.createdAt(),
            page.publishedAt(),
            summary,
            String.join(" ", summary.lines().toList()),
            "summary",
            chunk,
            page.retrieval(),
            page.signals(),
            page.matchedTerms(),
            page.missingTerms(),
            null,
            null);
    var pack = Packs.pack("What does a small k do in RRF?", List.of(row));
    String own =
        """
        # What k does

        In RRF, a small k makes the top ranks of each list dominate the fused score; a large k
        flattens the ranks.
        """;
    EvidenceReader reader = EvidenceReader.of(key -> Optional.of(own));

    String answer =
        ExtractiveSynthesizer.answer(
                SynthesisInput.prepare(pack, SynthesisOptions.defaults(), reader), reader)
            .answer();

    // the summary led the search to the page; the answer quotes the page's own words
    assertThat(answer)
        .startsWith("From a saved web page")
        .contains("In RRF, a small k makes the top ranks of each list dominate")
        .doesNotContain("Outline:")
        .doesNotContain("derived summary");
    // without the page's own text, nothing of the summary is quoted
    assertThat(answer(pack).answer()).doesNotContain("Outline:").doesNotContain("RRF adds up");
  }

  @Test
  void theFirstPassageOfALongSectionTakesTheParagraphNamingARequiredConceptToo() {
    String quiet = Packs.filler(420) + ".";
    String raw =
        """
        # Shared Ownership

        In graph data structures, multiple edges might point to the same node, and that node is
        conceptually owned by all of the edges that point to it.

        A graph walk visits each node once.

        Each edge of a graph names two nodes.

        An owner drops what it owns at the end of its scope.

        %s

        %s

        You have to enable multiple ownership explicitly by using reference counting, which keeps
        track of the number of references to a value.

        %s

        %s
        """
            .formatted(quiet, quiet, quiet, quiet);
    var pack =
        Packs.pack(
            "In my graph, several edges point to the same node. How can one value have more than"
                + " one owner?",
            List.of(note(1, "book/rc.md", raw)));

    String answer = answerFromWholeRows(pack).answer();

    assertThat(answer)
        .contains("multiple edges might point to the same node")
        .contains("by using reference counting")
        .doesNotContain("lorem");
  }

  @Test
  void aCloseSecondSectionOfTheBestDocumentComesBeforeALowerScoringPassageAddingAConcept() {
    String best =
        """
        # Widgets

        ## Assembly

        The widget gearbox is oiled once a year by its owner.

        ## Care

        The widget gearbox is oiled with the maker's oil only.
        """;
    String other =
        """
        # Parts

        A sprocket turns freely on its shaft.
        """;
    var pack =
        Packs.pack(
            "How is the widget gearbox oiled, and what about the sprocket?",
            List.of(note(1, "shop/widgets.md", best), note(2, "shop/parts.md", other)));

    String answer = answerFromWholeRows(pack).answer();

    // Both sections of the best document score above the sentence naming the sprocket: they are
    // quoted first, the passage adding the concept after them.
    assertThat(answer)
        .contains("once a year by its owner")
        .contains("with the maker's oil only")
        .contains("A sprocket turns freely");
    assertThat(answer.indexOf("with the maker's oil only"))
        .isLessThan(answer.indexOf("A sprocket turns freely"));
  }

  @Test
  void withoutAPassageAddingAConceptTheBestSectionIsReadFurtherThanItsUsualRoom() {
    String raw =
        """
        # Widgets

        ## Gearbox Care

        The widget gearbox is filled with oil by its owner.

        The widget gearbox case %s.

        The widget gearbox stand %s.

        The widget gearbox crate %s.

        Only the maker's own blend suits it.

        ## Storage

        The widget gearbox is drained of its oil before storage.
        """
            .formatted(
                Packs.filler(380),
                "dolor sit amet ".repeat(25).strip(),
                "consectetur adipiscing ".repeat(16).strip());
    var pack =
        Packs.pack(
            "What oil goes into the widget gearbox?", List.of(note(1, "shop/widgets.md", raw)));

    String answer = answerFromWholeRows(pack).answer();

    // The section is longer than a passage's 1,200 characters, and its paragraph saying which oil
    // names none of the question's words; the other section only scores close to the best, adding
    // no concept, so the best section takes its room and is shown whole.
    assertThat(answer)
        .startsWith("From your notes, “Widgets › Gearbox Care”")
        .contains("The widget gearbox is filled with oil by its owner.")
        .contains("Only the maker's own blend suits it.");
  }

  @Test
  void aPastedErrorMessageReadsTheSectionExplainingItFurtherThanACloseSecond() {
    String best =
        """
        # Widgets

        ## Gearbox Errors

        The error `gearbox jammed: OverloadError` means the widget gearbox took more than its load.

        The widget gearbox case %s.

        The widget gearbox stand %s.

        The widget gearbox crate %s.

        Lighten the load and it runs again.

        ## Storage

        The widget gearbox is jammed with grease before storage.
        """
            .formatted(
                Packs.filler(380),
                "dolor sit amet ".repeat(25).strip(),
                "consectetur adipiscing ".repeat(16).strip());
    String other =
        """
        # Parts

        A sprocket turns freely on its shaft.
        """;
    var pack =
        Packs.pack(
            "error: gearbox jammed: OverloadError -- my widget stopped beside the sprocket",
            List.of(note(1, "shop/widgets.md", best), note(2, "shop/parts.md", other)));

    String answer = answerFromWholeRows(pack).answer();

    // A passage naming the sprocket adds a concept, yet the section explaining the pasted message
    // is
    // read beyond a passage's 1,200 characters: shown whole, with the fix that names none of the
    // question's words.
    assertThat(answer)
        .startsWith("From your notes, “Widgets › Gearbox Errors”")
        .contains("Lighten the load and it runs again.")
        .contains("A sprocket turns freely on its shaft.");
  }

  @Test
  void theAnswerOpensWithTheSentenceThatAnswersAndItsSectionFollows() {
    String raw =
        """
        # Widgets

        ## Gearbox Care

        Gearboxes come in two sizes, small and large.

        The widget gearbox is filled with the maker's blended oil by its owner.

        A full gearbox weighs four kilograms.
        """;
    var pack =
        Packs.pack(
            "What oil goes into the widget gearbox?", List.of(note(1, "shop/widgets.md", raw)));

    String answer = answerFromWholeRows(pack).answer();

    // The section is shown whole, but its best sentence first, the rest of it in text order.
    assertThat(answer)
        .startsWith(
            "From your notes, “Widgets › Gearbox Care” [note:shop/widgets.md]:\n\n"
                + "The widget gearbox is filled with the maker's blended oil by its owner.")
        .contains(
            "Gearboxes come in two sizes, small and large.\n\nA full gearbox weighs four"
                + " kilograms.");
  }

  @Test
  void aSentenceEndingALongParagraphIsShownWithTheSentencesBeforeIt() {
    String quiet = Packs.filler(320) + ".";
    String raw =
        """
        # Gearboxes

        %s %s Its shaft never turns backwards. Therefore, the widget gearbox must be oiled before
        use.

        %s

        %s
        """
            .formatted(quiet, quiet, quiet, quiet);
    var pack =
        Packs.pack("Must the widget gearbox be oiled?", List.of(note(1, "shop/gearbox.md", raw)));

    String answer = answerFromWholeRows(pack).answer();

    // Nothing follows the best sentence in its paragraph of more than 700 characters: the
    // sentences before it that fit are shown instead.
    assertThat(answer)
        .contains("Its shaft never turns backwards. Therefore, the widget gearbox must be oiled");
  }

  @Test
  void aLeadInOverAnIncludedListingIsQuotedWithoutTheIncludeLine() {
    String raw =
        """
        # References

        ## Borrowing

        Here is how you would define and use a `calculate_length` function that borrows its
        argument instead of taking ownership of the value:

        ```rust
        {{#rustdoc_include ../listings/ch04/no-listing-07-reference/src/main.rs:all}}
        ```

        The `&s1` syntax lets us create a reference that refers to the value of `s1`.
        """;
    var pack =
        Packs.pack(
            "how do I pass a value to a function without taking ownership",
            List.of(note(1, "book/references.md", raw)));

    String answer = answerFromWholeRows(pack).answer();

    assertThat(answer).contains("calculate_length").doesNotContain("{{#").doesNotContain("```");
  }

  @Test
  void aListingsCaptionIsQuotedAsTheBookShowsIt() {
    String raw =
        """
        # Returning Closures

        Each closure is its own type, so two functions returning closures give two opaque types.
        We can use a trait object, as in Listing 20-34.

        <Listing number="20-34" caption="Creating a `Vec<T>` of closures returned as `Box<dyn Fn>`">

        ```rust
        {{#rustdoc_include ../listings/listing-20-34/src/main.rs:here}}
        ```

        </Listing>
        """;
    var pack =
        Packs.pack(
            "How do I keep closures from two functions in one Vec?",
            List.of(note(1, "book/closures.md", raw)));

    String answer = answerFromWholeRows(pack).answer();

    assertThat(answer)
        .contains("Listing 20-34: Creating a `Vec<T>` of closures returned as `Box<dyn Fn>`");
  }

  @Test
  void keepsAListWholeWithTheSentenceThatIntroducesIt() {
    String raw =
        """
        # Niche Zero

        ## Grind settings I settled on

        After the March dial-in sessions I settled on:

        - **Espresso, medium roast: 15** on the dial.
        - Espresso, light roast: 11 to 12.
        - V60: 42.

        ## Habits

        Purge 2 g after changing the setting by more than five numbers.
        """;
    var pack =
        Packs.pack(
            "What grind size did I settle on for espresso?",
            List.of(note(1, "coffee/Niche Zero.md", raw)));

    String answer = answerFromWholeRows(pack).answer();

    assertThat(answer)
        .contains("“Niche Zero › Grind settings I settled on”")
        .contains(
            "After the March dial-in sessions I settled on:\n\n"
                + "- Espresso, medium roast: 15 on the dial.\n"
                + "- Espresso, light roast: 11 to 12.\n"
                + "- V60: 42.")
        .doesNotContain("**");
  }

  @Test
  void aLeadInAboveAListTooLongToShowWholeShowsTheItemAskedAbout() {
    var options = new StringBuilder();
    for (String name :
        List.of(
            "help",
            "version",
            "verbose",
            "quiet",
            "color",
            "log-format",
            "offline",
            "jobs",
            "cores",
            "timeout",
            "retries",
            "dry-run",
            "profile",
            "include",
            "option",
            "repair")) {
      options.append("- `--").append(name).append("` Sets the ").append(name).append(".\n");
    }
    String raw =
        """
        # Common options

        Every command of the tool accepts the following options:

        %s- `--keep-failed` Specifies that in case of a build failure, the temporary directory \
        in which the build takes place should not be deleted.
        - `--fallback` Builds from source when a download fails.
        """
            .formatted(options);
    var pack =
        Packs.pack(
            "build failed and the temporary directory is gone, how do i keep it",
            List.of(note(1, "tool/common-options.md", raw)));

    String answer = answerFromWholeRows(pack).answer();

    assertThat(answer)
        .contains("Every command of the tool accepts the following options:\n\n…")
        .contains("`--keep-failed` Specifies that in case of a build failure")
        .doesNotContain("`--help`");
  }

  @Test
  void aReleaseEntryLeadsAnAnswerOnlyToAQuestionAboutReleases() {
    String changelog =
        """
        # Changelog

        ## Tool 1.88 (2025-06-26)

        ### Added

        - Stabilize automatic cleaning: unused downloaded files leave the global cache after 3 \
        months.
        """;
    String page =
        """
        # Global cache

        ## Cleaning

        Downloaded files nobody used for three months are removed from the global cache \
        automatically.
        """;
    var rows =
        List.of(note(1, "tool/CHANGELOG.md", changelog), note(2, "tool/global-cache.md", page));

    String howLong =
        answerFromWholeRows(
                Packs.pack("how long until unused downloaded files leave the global cache?", rows))
            .answer();
    String since =
        answerFromWholeRows(
                Packs.pack("since which release does the global cache clean unused files?", rows))
            .answer();

    assertThat(howLong).startsWith("From your notes, “Global cache › Cleaning”");
    assertThat(since).startsWith("From your notes, “Changelog › Tool 1.88 (2025-06-26) › Added”");
  }

  @Test
  void aLinkedNameStillCountsWhereTheSentenceWritesItAgainOutsideTheLink() {
    String locking =
        """
        # Mutability

        The standard library's `Mutex` lets you lock your managed state before you change it.
        """;
    String sharing =
        """
        # Sharing across threads

        Rust code often pairs an [`Arc`](https://doc.rust-lang.org/std/sync/struct.Arc.html) \
        with a [`Mutex`](https://doc.rust-lang.org/std/sync/struct.Mutex.html) in the form of \
        `Arc<Mutex<T>>`, but managed state needs no `Arc<Mutex<T>>` of yours: the runtime keeps it \
        behind one already.
        """;
    var rows =
        List.of(note(1, "app/mutability.md", locking), note(2, "app/sharing-state.md", sharing));

    String answer =
        answerFromWholeRows(Packs.pack("does managed state need an Arc<Mutex<T>>?", rows)).answer();

    assertThat(answer).startsWith("From your notes, “Sharing across threads”");
  }

  @Test
  void aSectionOfNothingButCodeIsQuotedForItsHeading() {
    String page =
        """
        # MCP server

        The tool ships with an MCP server, giving external agents read access to your history.

        ## Starting the server

        The server runs over stdio, so your MCP client starts it for you.

        ### Claude Code

        ```shell
        claude mcp add tool -- tool mcp
        ```

        ### Cursor

        ```json
        { "mcpServers": { "tool": { "command": "tool", "args": ["mcp"] } } }
        ```
        """;
    String answer =
        answerFromPage("set up the mcp server in claude code", "docs/mcp.md", page).answer();

    assertThat(answer)
        .startsWith("From your notes, “MCP server › Starting the server › Claude Code”")
        .contains("claude mcp add tool -- tool mcp");
  }

  @Test
  void anExampleRepeatingAPastedErrorIsNoAnswerToIt() {
    String page =
        """
        # store delete

        ## Description

        The delete operation removes a path only when no garbage collector root still reaches it;
        a path something still uses is alive and stays, unless you pass `--ignore-liveness`.

        ## Example

        ```console
        $ store delete /store/abc-mesa
        error: cannot delete path '/store/abc-mesa' since it is still alive
        ```
        """;
    String answer =
        answerFromPage(
                "error: cannot delete path since it is still alive", "docs/store-delete.md", page)
            .answer();

    assertThat(answer).startsWith("From your notes, “store delete › Description”");
  }

  @Test
  void aFigureInTheListUnderTheLeadSentenceAnswersHowMany() {
    String raw =
        "# Request settings\n\n## fetchRetries\n\nHow many times to retry if the tool fails to"
            + " fetch from the registry.\n\n- Default: 2\n- Type: Number\n";
    var result =
        answerFromPage(
            "how many times does it retry a failed registry fetch", "settings/network.md", raw);

    assertThat(result.answerStatus()).isEqualTo(AnswerStatus.OK);
    assertThat(result.answer()).contains("Default: 2").doesNotContain("no figure");
  }

  @Test
  void aLinksTextIsTakenOutOnlyAsTheLinkWritesIt() {
    assertThat(Candidates.withoutLinks("a mutex guards it; see Mutex", List.of("Mutex")))
        .contains("a mutex guards it")
        .doesNotContain("Mutex");
  }

  @Test
  void theWordsOfACodeOnlySectionsCodeAreItsContextNotItsStatement() {
    String page =
        """
        # Packaging

        ## Extracting from a package

        ```
        arch=('x86_64' 'aarch64')
        source_x86_64=("app-x86_64.deb")
        source_aarch64=("app-aarch64.deb")
        ```

        ## Cross builds

        A package for ARM can only be built on ARM devices or emulators, never on an Intel runner.
        """;
    String answer =
        answerFromPage("build an aarch64 package on an x86_64 runner", "docs/packaging.md", page)
            .answer();

    assertThat(answer).startsWith("From your notes, “Packaging › Cross builds”");
  }

  @Test
  void inlineCodeStaysVerbatimAndEndsNoSentence() {
    assertThat(Sentences.split("The `?` operator returns early. Use `println!` to print."))
        .containsExactly("The `?` operator returns early.", "Use `println!` to print.");
    assertThat(Sentences.plain("Call `fs::read_to_string` here."))
        .isEqualTo("Call fs::read_to_string here.");
  }

  @Test
  void aPeriodInsideParenthesesEndsNoSentence() {
    assertThat(
            Sentences.split(
                "Sharp pain since April. Physio (Dr. Lenz) diagnosis: plantar fasciitis. Rest"
                    + " (two weeks) first. A smiley :( ends nothing. Then calf raises."))
        .containsExactly(
            "Sharp pain since April.",
            "Physio (Dr. Lenz) diagnosis: plantar fasciitis.",
            "Rest (two weeks) first.",
            "A smiley :( ends nothing.",
            "Then calf raises.");
  }

  @Test
  void aHowToQuestionPrefersTheSentenceNamingTheCommand() {
    String raw =
        """
        # Panics

        By default a panic prints a message, unwinds and quits.

        When a panic happens you can set the `RUST_BACKTRACE` environment variable to get a
        backtrace of what happened.
        """;
    var pack =
        Packs.pack("How do I get a backtrace when a panic happens?", List.of(note(1, "p.md", raw)));

    assertThat(QuestionForm.of("How do I get a backtrace when a panic happens?"))
        .isEqualTo(QuestionForm.HOW_TO);
    assertThat(answerFromWholeRows(pack).answer()).contains("`RUST_BACKTRACE`");
  }

  @Test
  void readsTheFormOfAQuestionFromItsWording() {
    assertThat(QuestionForm.of("what is a lifetime")).isEqualTo(QuestionForm.WHAT_IS);
    assertThat(QuestionForm.of("Why is println! a macro?")).isEqualTo(QuestionForm.WHY);
    assertThat(QuestionForm.of("error[E0382]: borrow of moved value"))
        .isEqualTo(QuestionForm.ERROR);
    assertThat(QuestionForm.of("thread 'main' panicked at 'already borrowed'"))
        .isEqualTo(QuestionForm.ERROR);
    assertThat(QuestionForm.of("expected opaque type, found another -- I put two in a Vec"))
        .isEqualTo(QuestionForm.ERROR);
    assertThat(QuestionForm.of("Can a package hold several binaries?"))
        .isEqualTo(QuestionForm.YES_NO);
    assertThat(QuestionForm.of("What's the difference between Send and Sync?"))
        .isEqualTo(QuestionForm.COMPARISON);
    assertThat(QuestionForm.of("What happens in a build made with --release?"))
        .isEqualTo(QuestionForm.FACT);
  }

  @Test
  void aWhyQuestionIsOfferedTheSentenceThatDrawsTheConclusionAsWellAsTheOneGivingTheReason() {
    String why = "why does Rust not have null?";

    assertThat(
            QuestionForm.WHY.offers(
                why, "As such, Rust does not have nulls, but it has an enum.", Set.of(), false))
        .isTrue();
    assertThat(QuestionForm.WHY.offers(why, "Therefore the compiler rejects it.", Set.of(), false))
        .isTrue();
    assertThat(QuestionForm.WHY.offers(why, "It fails because the value is null.", Set.of(), false))
        .isTrue();
    assertThat(QuestionForm.WHY.offers(why, "So we add a field.", Set.of(), false)).isFalse();
    assertThat(QuestionForm.WHY.offers(why, "It is not a library as such.", Set.of(), false))
        .isFalse();
    assertThat(QuestionForm.WHY.offers(why, "Thus far it has held up.", Set.of(), false)).isFalse();
    assertThat(QuestionForm.WHY.offers(why, "Rust has no null value.", Set.of(), false)).isFalse();
  }

  @Test
  void leavesOutSentencesThatOnlyPointElsewhere() {
    String raw =
        """
        # Embeds

        To embed a note, put an exclamation mark before its link. For more information, refer to
        Embed a canvas in a note. Please see [[Sync your notes]] for devices.

        - Gear: [[Running shoes]]
        - Embeds update when the note changes.
        """;
    var pack = Packs.pack("How do I embed a note?", List.of(note(1, "help/Embeds.md", raw)));

    String answer = answerFromWholeRows(pack).answer();

    assertThat(answer)
        .contains("To embed a note, put an exclamation mark before its link.")
        .doesNotContain("For more information", "Please see", "Gear:");
    assertThat(Sentences.pointsElsewhere("Gear: Running shoes", List.of("Running shoes"))).isTrue();
    // A link labelling a value is a statement: the grinder's setting for the V60 recipe.
    assertThat(Sentences.pointsElsewhere("V60 recipe: 42.", List.of("V60 recipe"))).isFalse();
    assertThat(Sentences.pointer("See the documentation for details.")).isTrue();
    assertThat(Sentences.pointer("For more complex types, use a struct.")).isFalse();
  }

  @Test
  void aQuestionNamingSomethingTheCorpusNeverMentionsIsDeclined() {
    String raw = "# Crates\n\nAdd a dependency to Cargo.toml and run cargo build.\n";
    var pack =
        Packs.absent(
            Packs.pack(
                "How do I parse command-line flags with clap?",
                List.of(note(1, "book/crates.md", raw))),
            "clap");

    SynthesisResult result = answerFromWholeRows(pack);

    assertThat(result.answerStatus()).isEqualTo(AnswerStatus.NO_EVIDENCE);
    assertThat(result.answer()).startsWith("No evidence: nothing in your corpus mentions “clap”");
    assertThat(result.citations()).isEmpty();
  }

  @Test
  void aNameTheQuestionComparesWithOrAPastedErrorCodeIsNoReasonToDecline() {
    String raw = "# Let else\n\nTo leave a function early when a pattern fails, use let-else.\n";
    var swift =
        Packs.absent(
            Packs.pack(
                "Is there something like Swift's guard in Rust to leave a function early?",
                List.of(note(1, "book/let.md", raw))),
            "swift's");
    var code =
        Packs.absent(
            Packs.pack(
                "error[E0382]: borrow of moved value -- why can't I use it?",
                List.of(note(1, "book/let.md", raw))),
            "e0382");

    assertThat(Names.absent(swift)).isEmpty();
    assertThat(Names.absent(code)).isEmpty();
    // "Rust", the corpus's own subject (common across it), need not be repeated by the passage.
    assertThat(answerFromWholeRows(Packs.common(swift, "rust")).answerStatus())
        .isEqualTo(AnswerStatus.OK);
  }

  @Test
  void aNameOfTheQuestionNoPassageMentionsMakesTheAnswerPartialAndSaysWhatIsMissing() {
    String raw =
        "# Server options\n\n## server.cors\n\nThe server.cors option sets CORS for the dev"
            + " server; its timeout for preflight requests defaults to 30000 ms.\n";
    var pack =
        Packs.absent(
            Packs.pack(
                "What is the default timeout of server.proxy requests?",
                List.of(note(1, "docs/server-options.md", raw))),
            "server-proxy");

    SynthesisResult result = answerFromWholeRows(pack);

    assertThat(result.answerStatus()).isEqualTo(AnswerStatus.PARTIAL);
    assertThat(result.answer())
        .contains("[note:docs/server-options.md]")
        .endsWith("but nothing about “server.proxy”.");
  }

  @Test
  void aToolTheCorpusNeverMentionsMakesAnAnswerFromTheRestPartial() {
    String raw = "# Benchmarks\n\nTo compare two benchmark runs, save a baseline first.\n";
    var pack =
        Packs.absent(
            Packs.pack(
                "How do I compare two benchmark runs with criterion?",
                List.of(note(1, "book/bench.md", raw))),
            "criterion");

    SynthesisResult result = answerFromWholeRows(pack);

    assertThat(result.answerStatus()).isEqualTo(AnswerStatus.PARTIAL);
    assertThat(result.answer()).endsWith("but nothing about “criterion”.");
  }

  @Test
  void aRareThingTheQuestionNamesThatTheCorpusNeverMentionsMakesTheAnswerPartial() {
    String raw =
        "# Completion\n\nRun `pnpm completion bash` to print the completion script for your"
            + " shell, then source it from your shell's startup file.\n";
    var pack =
        Packs.absent(
            Packs.pack(
                "How do I get pnpm tab completion for nushell?",
                List.of(note(1, "docs/completion.md", raw))),
            "nushell");

    SynthesisResult result = answerWithTheModelsTokenizer(pack);

    assertThat(result.answerStatus()).isEqualTo(AnswerStatus.PARTIAL);
    assertThat(result.answer())
        .contains("[note:docs/completion.md]")
        .endsWith("but nothing about “nushell”.");
  }

  @Test
  void aRareNameTheTaggerMistakesForAClosedClassWordIsStillAThingTheAnswerLacks() {
    String raw =
        "# Blog\n\nEach blog post is a Markdown file in `content/blog`; the section's template"
            + " lists the posts with their dates and summaries.\n";
    var pack =
        Packs.absent(
            Packs.pack(
                "add disqus comments to my blog posts", List.of(note(1, "docs/blog.md", raw))),
            "disqus");

    SynthesisResult result = answerWithTheModelsTokenizer(pack);

    assertThat(result.answerStatus()).isEqualTo(AnswerStatus.PARTIAL);
    assertThat(result.answer()).endsWith("but nothing about “disqus”.");
  }

  @Test
  void aCamelCaseOrHyphenatedOptionTheCorpusNeverMentionsMakesTheAnswerPartial() {
    String raw =
        "# Cache\n\nThe cache keeps every downloaded package under the cache folder; `cache clean`"
            + " empties it. Add yarn with `pnpm add yarn@yarnpkg/berry`.\n";
    var camel =
        Packs.pack(
            "what does enableGlobalCache do in .yarnrc.yml for yarn berry",
            List.of(note(1, "docs/cache.md", raw)));
    var hyphens =
        Packs.pack("cache clean keep-recent-packages", List.of(note(1, "docs/cache.md", raw)));
    var camelResult = answerWithTheModelsTokenizer(Packs.absent(camel, "enableglobalcache"));
    var hyphensResult = answerWithTheModelsTokenizer(Packs.absent(hyphens, "keep-recent-packages"));

    assertThat(camelResult.answerStatus()).isEqualTo(AnswerStatus.PARTIAL);
    assertThat(camelResult.answer()).endsWith("but nothing about “enableGlobalCache”.");
    assertThat(hyphensResult.answerStatus()).isEqualTo(AnswerStatus.PARTIAL);
    assertThat(hyphensResult.answer()).endsWith("but nothing about “keep-recent-packages”.");
  }

  @Test
  void aRareNameTheTaggerReadsAsAnAdjectiveIsStillAThingTheAnswerLacks() {
    String raw =
        "# Plugins\n\nPlugins add languages to the formatter: install the plugin's package and"
            + " list it under `plugins` in the configuration file.\n";
    var pack =
        Packs.absent(
            Packs.pack(
                "formatter plugin to sort tailwind css classes",
                List.of(note(1, "docs/plugins.md", raw))),
            "tailwind");

    SynthesisResult result = answerWithTheModelsTokenizer(pack);

    assertThat(result.answerStatus()).isEqualTo(AnswerStatus.PARTIAL);
    assertThat(result.answer()).endsWith("but nothing about “tailwind”.");
  }

  @Test
  void aRareWordRunWithOptionsIsACommandTheAnswerLacks() {
    String raw =
        "# Sessions\n\nAttach to a running session with `attach`, or create it when it does not"
            + " exist yet with `attach --create`.\n";
    var pack =
        Packs.absent(
            Packs.pack(
                "dtach -A /tmp/mysock to create or attach a socket session",
                List.of(note(1, "docs/sessions.md", raw))),
            "dtach");

    SynthesisResult result = answerWithTheModelsTokenizer(pack);

    assertThat(result.answerStatus()).isEqualTo(AnswerStatus.PARTIAL);
    assertThat(result.answer()).contains("nothing about “dtach”");
  }

  @Test
  void anotherToolsFileTheCorpusNeverMentionsMakesTheAnswerPartialButAPastedErrorsFileDoesNot() {
    String raw =
        "# Options\n\n## Print width\n\nThe printWidth setting is the line length the printer"
            + " wraps on; it defaults to 80.\n";
    var asked =
        Packs.absent(
            Packs.pack(
                "rustfmt.toml print width setting", List.of(note(1, "docs/options.md", raw))),
            "rustfmt-toml");
    var pasted =
        Packs.absent(
            Packs.pack(
                "Error: cannot read options from 'rustfmt.toml' -- how do I set the print width?",
                List.of(note(1, "docs/options.md", raw))),
            "rustfmt-toml");

    SynthesisResult askedResult = answerFromWholeRows(asked);
    SynthesisResult pastedResult = answerFromWholeRows(pasted);

    assertThat(askedResult.answerStatus()).isEqualTo(AnswerStatus.PARTIAL);
    assertThat(askedResult.answer()).endsWith("but nothing about “rustfmt.toml”.");
    assertThat(pastedResult.answerStatus()).isEqualTo(AnswerStatus.OK);
    assertThat(pastedResult.answer()).contains("defaults to 80").doesNotContain("nothing about");
  }

  @Test
  void aReleaseOfANamedThingNoPassageMentionsMakesTheAnswerPartial() {
    String raw =
        "# Announcing Vite 3\n\nVite 3.0 is out! It was released on July 23, 2022, with a new"
            + " dev server and faster cold starts.\n\n## Vite 4\n\nVite 4 moves to Rollup 3.\n";
    var future =
        Packs.pack("When will Vite 9 be released?", List.of(note(1, "blog/announcing.md", raw)));
    var known =
        Packs.pack("When was Vite 3 released?", List.of(note(1, "blog/announcing.md", raw)));
    var counted =
        Packs.pack(
            "vite released a dev server 10 minutes ago, when?",
            List.of(note(1, "blog/announcing.md", raw)));

    SynthesisResult futureResult = answerFromWholeRows(future);
    SynthesisResult knownResult = answerFromWholeRows(known);

    assertThat(futureResult.answerStatus()).isEqualTo(AnswerStatus.PARTIAL);
    assertThat(futureResult.answer()).contains("nothing about “Vite 9”");
    assertThat(knownResult.answerStatus()).isEqualTo(AnswerStatus.OK);
    assertThat(knownResult.answer()).contains("July 23, 2022").doesNotContain("nothing about");
    assertThat(answerFromWholeRows(counted).answer()).doesNotContain("released 10");
    var titled =
        Packs.pack(
            "when was 'Vite 9: the next one' announced?",
            List.of(note(1, "blog/announcing.md", raw)));
    assertThat(answerFromWholeRows(titled).answer()).doesNotContain("“Vite 9”");
    var named =
        Packs.pack(
            "When will the Vite Press 2 be released?", List.of(note(1, "blog/announcing.md", raw)));
    assertThat(answerFromWholeRows(named).answer()).contains("“Vite Press 2”");
  }

  @Test
  void aFileTheQuestionPlacesItsCodeInIsTheUsersOwnNotAThingAskedAbout() {
    String raw =
        "# Options\n\n## Print width\n\nThe printWidth setting is the line length the printer"
            + " wraps on; it defaults to 80.\n";
    var pack =
        Packs.absent(
            Packs.pack(
                "the print width setting from my options.config.js is ignored",
                List.of(note(1, "docs/options.md", raw))),
            "options-config-js");

    SynthesisResult result = answerFromWholeRows(pack);

    assertThat(result.answerStatus()).isEqualTo(AnswerStatus.OK);
    assertThat(result.answer()).contains("defaults to 80").doesNotContain("nothing about");
  }

  @Test
  void aCommonNounTheCorpusLacksIsTheUsersWordForWhatItSaysOtherwise() {
    String raw =
        "# Plantar fasciitis\n\nThe physio gave me calf raises, 3 x 15 a day, and a towel"
            + " stretch before getting up.\n";
    var pack =
        Packs.absent(
            Packs.pack(
                "What exercises did the physio give me for my heel?",
                List.of(note(1, "health/plantar-fasciitis.md", raw))),
            "exercises");

    SynthesisResult result = answerWithTheModelsTokenizer(pack);

    assertThat(result.answerStatus()).isEqualTo(AnswerStatus.OK);
    assertThat(result.answer()).contains("calf raises").doesNotContain("nothing about");
  }

  @Test
  void aWordTheQuestionUsesAsAVerbIsTheUsersWayOfSayingItNotAMissingThing() {
    String raw =
        "# Cache\n\n`uv cache clean` waits for other uv processes to release the cache lock;"
            + " it gives up after 5 minutes.\n";
    var pack =
        Packs.absent(
            Packs.pack(
                "uv cache clean is stuck waiting for other uv processes, how long does it wait?",
                List.of(note(1, "docs/cache.md", raw))),
            "stuck");

    SynthesisResult result = answerWithTheModelsTokenizer(pack);

    assertThat(result.answerStatus()).isEqualTo(AnswerStatus.OK);
    assertThat(result.answer()).contains("5 minutes").doesNotContain("nothing about");
  }

  @Test
  void aFigureOfANamedThingIsGivenOnlyByASentenceNamingIt() {
    String raw =
        "# Jumps\n\nThe jumplist records where you were before a jump. Press Ctrl-o to go back"
            + " and Ctrl-i to go forward; a shell command that returns 0 keeps the selection.\n";
    var count =
        answerFromWholeRows(
            Packs.pack(
                "how many entries does the jumplist keep before old jumps get dropped",
                List.of(note(1, "docs/jumplist.md", raw))));
    var port =
        answerFromWholeRows(
            Packs.pack(
                "which port does the preview server use by default",
                List.of(
                    note(
                        1,
                        "docs/preview.md",
                        "# Preview\n\nThe preview server runs the built site after 2 seconds of"
                            + " warm-up.\n"))));
    var named =
        answerFromWholeRows(
            Packs.pack(
                "what is the maximum file size I can upload?",
                List.of(
                    note(
                        1,
                        "docs/limits.md",
                        "# Limits\n\nUploads are checked when they arrive. The maximum file size"
                            + " is 200 MB per file.\n"))));

    assertThat(AnswerShape.measured("max number of background jobs it allows at once"))
        .containsExactly("background", "jobs");
    assertThat(AnswerShape.measured("how many times does it retry")).isEmpty();
    assertThat(AnswerShape.measured("isn't it like max-len?")).isEmpty();
    assertThat(AnswerShape.valuesAsked("The country with the largest automobile export volume?"))
        .isEmpty();
    assertThat(count.answerStatus()).isEqualTo(AnswerStatus.PARTIAL);
    assertThat(count.answer()).endsWith("but no figure.");
    assertThat(port.answerStatus()).isEqualTo(AnswerStatus.PARTIAL);
    assertThat(named.answerStatus()).isEqualTo(AnswerStatus.OK);
    assertThat(named.answer()).contains("200 MB");
  }

  @Test
  void aQuestionAskingForADateThatNoQuotedSentenceGivesIsAnsweredInPart() {
    String raw =
        "# Releases\n\nThe tool follows semantic versioning. A new minor release goes out"
            + " regularly, and each release is announced on the blog.\n";
    var pack =
        Packs.pack(
            "When will version 1.0 of the tool be released?",
            List.of(note(1, "docs/releases.md", raw)));

    SynthesisResult result = answerFromWholeRows(pack);

    assertThat(result.answerStatus()).isEqualTo(AnswerStatus.PARTIAL);
    assertThat(result.answer())
        .contains("semantic versioning")
        .endsWith("Your notes give “Releases” but no date.");
  }

  @Test
  void aVersionNumberOrTheVerbMayIsNoDate() {
    String raw =
        "# First releases\n\nThe first release of a package publishes version 1100.0.0; older"
            + " packages may also be published again.\n";
    var pack =
        Packs.pack(
            "What year was the first release published?",
            List.of(note(1, "docs/versioning.md", raw)));

    SynthesisResult result = answerFromWholeRows(pack);

    assertThat(result.answerStatus()).isEqualTo(AnswerStatus.PARTIAL);
    assertThat(result.answer()).endsWith("but no date.");
  }

  @Test
  void aPortNumberIsNoYear() {
    String raw =
        "# Local server\n\nThe first release of the site is served at http://127.0.0.1:1111"
            + " while you write.\n";
    var pack =
        Packs.pack(
            "When was the first release of the site published?",
            List.of(note(1, "docs/serve.md", raw)));

    SynthesisResult result = answerFromWholeRows(pack);

    assertThat(result.answerStatus()).isEqualTo(AnswerStatus.PARTIAL);
    assertThat(result.answer()).endsWith("but no date.");
  }

  @Test
  void aYearTheLeadingSentenceGivesAnswersWhatYear() {
    String raw =
        "# History\n\nThe first release of the package manager was published in 2016, after a"
            + " year of work.\n";
    var pack =
        Packs.pack(
            "What year was the first release published?", List.of(note(1, "docs/history.md", raw)));

    SynthesisResult result = answerFromWholeRows(pack);

    assertThat(result.answerStatus()).isEqualTo(AnswerStatus.OK);
    assertThat(result.answer()).contains("2016").doesNotContain("no date");
  }

  @Test
  void aQuestionAskingForAFigureThatTheLeadingSentenceGivesIsAFullAnswer() {
    String raw =
        "# Downloads\n\nA failed download is retried 3 times before the install stops with an"
            + " error.\n";
    var pack =
        Packs.pack(
            "How many times is a failed download retried?",
            List.of(note(1, "docs/downloads.md", raw)));

    SynthesisResult result = answerFromWholeRows(pack);

    assertThat(result.answerStatus()).isEqualTo(AnswerStatus.OK);
    assertThat(result.answer()).contains("retried 3 times").doesNotContain("no figure");
  }

  @Test
  void aWhenThatSetsAConditionAsksForNoDate() {
    String raw =
        "# Panics\n\nA library should panic only when continuing would be unsafe; otherwise it"
            + " returns an error the caller can handle.\n";
    var pack =
        Packs.pack(
            "When is it OK for a library to panic instead of returning an error?",
            List.of(note(1, "docs/panics.md", raw)));

    SynthesisResult result = answerFromWholeRows(pack);

    assertThat(result.answerStatus()).isEqualTo(AnswerStatus.OK);
    assertThat(result.answer()).doesNotContain("no date");
  }

  @Test
  void numbersAndFilesOfTheQuestionNeitherDeclineNorMakeItPartial() {
    String raw = "# Tables\n\nA table with many rows renders slowly; use a virtual list.\n";
    var pack =
        Packs.absent(
            Packs.pack(
                "a table with 10,000 rows in src/Table.vue renders slowly, why?",
                List.of(note(1, "docs/tables.md", raw))),
            "10-000",
            "src-table-vue");

    SynthesisResult result = answerFromWholeRows(pack);

    assertThat(result.answerStatus()).isEqualTo(AnswerStatus.OK);
    assertThat(result.answer()).contains("virtual list").doesNotContain("nothing about");
  }

  @Test
  void aVersionOrALetterStandingForAValueMakesNoAnswerPartial() {
    String raw =
        "# Autosave\n\nSince the second major release, the editor saves a file after a delay;"
            + " set `auto-save.timeout` to the delay in milliseconds.\n";
    var pack =
        Packs.absent(
            Packs.pack(
                "after upgrading to v2 the editor autosave waits X ms, how do I change the delay?",
                List.of(note(1, "docs/autosave.md", raw))),
            "v2",
            "x");

    SynthesisResult result = answerWithTheModelsTokenizer(pack);

    assertThat(result.answerStatus()).isEqualTo(AnswerStatus.OK);
    assertThat(result.answer()).contains("auto-save.timeout").doesNotContain("nothing about");
  }

  @Test
  void rowsWithNothingCoveringTheQuestionAreNoEvidenceNotAnAnswer() {
    var pack =
        Packs.pack(
            "How long do tomato seeds ferment?",
            List.of(Packs.note(1, "garden/Other.md", "Compost needs brown and green material.")));

    SynthesisResult result = answer(pack);

    assertThat(result.answerStatus()).isEqualTo(AnswerStatus.NO_EVIDENCE);
    assertThat(result.answer()).startsWith("No evidence:").contains("“garden/Other”");
    assertThat(result.citations()).isEmpty();
  }

  @Test
  void aPackWithoutEvidenceGetsNoAnswerButWhatWasSearched() {
    var pack = Packs.pack("How do I bake sourdough?", List.of());

    SynthesisResult result = answer(pack);

    assertThat(result.answerStatus()).isEqualTo(AnswerStatus.NO_EVIDENCE);
    assertThat(result.answer()).contains("Searched for:").doesNotContain("[note:");
  }

  @Test
  void aSavedSourceIsNamedForWhatItIs() {
    String raw =
        "Detergent backflush: every 200 shots or every two weeks. Use 3 g of detergent in the"
            + " blind basket.";
    var pack =
        Packs.pack(
            "How often should I backflush with detergent?",
            List.of(Packs.stored(Packs.pdf(1, "aaaa11112222", raw), raw, raw)));

    assertThat(answerFromWholeRows(pack).answer())
        .startsWith("From a saved PDF, “aaaa11112222” [src:aaaa11112222]:")
        .contains("every 200 shots or every two weeks");
  }

  @Test
  void aDatedSentenceLeadsAWhenQuestionAndKindsAreReadFromWording() {
    String raw =
        "Les McCann was a soul jazz pianist from Kentucky. McCann recorded Swiss Movement live at"
            + " Montreux.\n\nLes McCann died in Los Angeles on December 29, 2023.";
    var pack =
        Packs.pack(
            "When did Les McCann pass away?",
            List.of(Packs.stored(Packs.pdf(1, "cccc11112222", raw), raw, raw)));

    assertThat(answerFromWholeRows(pack).answer())
        .contains("Les McCann died in Los Angeles on December 29, 2023.");
    assertThat(AnswerShape.of("When did Les McCann pass away?")).isEqualTo(AnswerShape.Kind.DATE);
    assertThat(AnswerShape.of("When do I retire running shoes?")).isEqualTo(AnswerShape.Kind.ANY);
    assertThat(AnswerShape.kinds("When did I run the marathon and what was my finish time?"))
        .containsExactlyInAnyOrder(AnswerShape.Kind.DATE, AnswerShape.Kind.NUMBER);
  }
}
