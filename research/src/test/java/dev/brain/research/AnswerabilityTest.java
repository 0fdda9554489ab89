package dev.brain.research;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brain.index.BrainIndex;
import dev.brain.index.IndexConfig;
import dev.brain.research.pack.ResearchOptions;
import dev.brain.research.run.ResearchRunner;
import dev.brain.research.run.RunRequest;
import dev.brain.research.run.RunResult;
import dev.brain.research.synthesis.ResearchResult;
import dev.brain.research.synthesis.ResearchResult.Outcome;
import dev.brain.retrieval.Retriever;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Whether a question is answered, answered in part or declined, over a real index of a few notes:
 * identifiers written the way code writes them are found and answered, and a question about
 * something next to what the notes hold is answered {@code partial}, naming what is missing.
 */
class AnswerabilityTest {

  private static final ResearchOptions OPTIONS = ResearchOptions.defaults();

  @TempDir static Path dir;
  static BrainIndex index;
  static Researcher researcher;

  @BeforeAll
  static void indexNotes() throws IOException {
    Path vault = dir.resolve("vault");
    Files.createDirectories(vault);
    Files.writeString(
        vault.resolve("Postgres tuning.md"),
        """
        # Postgres tuning

        The order_events table is partitioned by month so that old partitions can be dropped
        cheaply. Before a large index build, raise maintenance_work_mem to 1GB for the session.
        """);
    Files.writeString(
        vault.resolve("Server settings.md"),
        """
        # Server settings

        ## server.cors

        The server.cors option configures CORS for the dev server. Its default timeout for
        preflight requests is 30000 ms.

        ## server.port

        The dev server listens on port 5173 unless server.port says otherwise.
        """);
    Files.writeString(
        vault.resolve("Trips.md"),
        """
        # Lisbon trip

        Outbound flight to Lisbon on 17 Oct, departing at 06:40 from gate B12.
        The hotel is near the river, booked for four nights.
        """);
    Files.writeString(
        vault.resolve("Web server.md"),
        """
        # Web server

        ## Redirects

        To send visitors from the www host to the bare domain, redirect with
        `redir https://example.com{uri} permanent` in the site block of the www address.
        """);
    Files.writeString(
        vault.resolve("Deploy.md"),
        """
        # Deploy

        The production configuration lives in deploy/settings.toml; each environment overrides it
        with a file of its own.

        To deploy to an airgapped machine, copy the release bundle over on a USB stick first.
        """);
    index = BrainIndex.open(IndexConfig.defaults(dir.resolve("index")));
    index.sync(List.of(vault));
    researcher = new Researcher(new Retriever(index));
  }

  @AfterAll
  static void close() throws IOException {
    index.close();
  }

  @Test
  void snakeCaseNamesAreFoundAndAnswered() throws IOException {
    for (String question :
        List.of(
            "How is order_events partitioned?", "What should maintenance_work_mem be set to?")) {
      ResearchResult result = researcher.research(question, OPTIONS);

      assertThat(result.status()).as(question).isIn(Outcome.OK, Outcome.OK_TRUNCATED);
      assertThat(result.pack().coverage().absentConcepts()).as(question).isEmpty();
      assertThat(result.synthesis().answer()).contains("[note:");
    }
  }

  @Test
  void numbersFilesAndTheUsersOwnNamesNeverDeclineAQuestionWhoseSubjectIsThere()
      throws IOException {
    for (String question :
        List.of(
            "my order_events table has 10,000,000 rows, how is it partitioned?",
            "in src/db/setup.sql, how is the order_events table partitioned?",
            "why is orderEventsRepo.reload slow when order_events is partitioned by month?")) {
      ResearchResult result = researcher.research(question, OPTIONS);

      assertThat(result.status()).as(question).isNotEqualTo(Outcome.NO_EVIDENCE);
      assertThat(result.synthesis().answer()).as(question).contains("partitioned by month");
    }
  }

  @Test
  void anAbbreviationFindsTheWordTheTextWritesInFull() throws IOException {
    ResearchResult result = researcher.research("where does the prod config live?", OPTIONS);

    assertThat(result.status()).isNotEqualTo(Outcome.NO_EVIDENCE);
    assertThat(result.synthesis().answer()).contains("deploy/settings.toml");
  }

  @Test
  void aHyphenatedWordFindsTheCompoundTheTextWritesAsOne() throws IOException {
    ResearchResult result = researcher.research("deploy to an air-gapped machine", OPTIONS);

    assertThat(result.pack().coverage().absentConcepts()).doesNotContain("air-gapped");
    assertThat(result.status()).isNotEqualTo(Outcome.NO_EVIDENCE);
    assertThat(result.synthesis().answer()).contains("copy the release bundle over on a USB stick");
  }

  @Test
  void wordsSayingHowSomethingIsThatTheCorpusNeverUsesNeverDeclineAQuestion() throws IOException {
    ResearchResult result =
        researcher.research(
            "dev server got sluggish and unresponsive, which port does it listen on?", OPTIONS);

    assertThat(result.pack().coverage().absentConcepts()).contains("sluggish", "unresponsive");
    assertThat(result.status()).isNotEqualTo(Outcome.NO_EVIDENCE);
    assertThat(result.synthesis().answer()).contains("listens on port 5173");
  }

  @Test
  void hostNamesAreTheUsersOwnAddressesAndNeverDeclineAQuestion() throws IOException {
    ResearchResult result = researcher.research("redirect www.mysite.com to mysite.com", OPTIONS);

    assertThat(result.status()).isNotEqualTo(Outcome.NO_EVIDENCE);
    assertThat(result.synthesis().answer()).contains("redir https://example.com{uri} permanent");
  }

  @Test
  void aNearMissIsPartialAndNamesWhatIsMissing() throws IOException {
    ResearchResult result =
        researcher.research("What is the default timeout for server.proxy requests?", OPTIONS);

    assertThat(result.status()).isEqualTo(Outcome.PARTIAL);
    assertThat(result.synthesis().answer()).contains("but nothing about “server.proxy”");
  }

  @Test
  void aThingNoRowMatchesAfterTheSearchMakesTheRunsAnswerPartialAndNamesIt() throws IOException {
    RunResult run =
        new ResearchRunner(new Retriever(index), null)
            .run(
                RunRequest.of("Which seat and gate do I have on my return flight from Lisbon?")
                    .withTrace(false),
                null);

    assertThat(run.status()).isEqualTo(Outcome.PARTIAL);
    assertThat(run.synthesis().answer())
        .contains("gate B12")
        .endsWith("Your notes give “Lisbon trip” but nothing about “seat” or “return”.");
  }

  @Test
  void aQuestionAboutSomethingTheCorpusNeverMentionsIsStillDeclined() throws IOException {
    ResearchResult result = researcher.research("How do I deploy to Heroku?", OPTIONS);

    assertThat(result.status()).isEqualTo(Outcome.NO_EVIDENCE);
  }
}
