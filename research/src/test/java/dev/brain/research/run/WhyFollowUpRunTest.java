package dev.brain.research.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.brain.index.BrainIndex;
import dev.brain.index.IndexConfig;
import dev.brain.research.plan.ChatContinuity;
import dev.brain.research.plan.ConversationTurn;
import dev.brain.research.plan.FollowUp;
import dev.brain.research.synthesis.AnswerStatus;
import dev.brain.research.trace.Redactor;
import dev.brain.research.trace.RetentionPolicy;
import dev.brain.research.trace.TraceStore;
import dev.brain.retrieval.EvidenceRow;
import dev.brain.retrieval.InvalidSearchException;
import dev.brain.retrieval.Retriever;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A bare "why?" after a turn asks for the reason behind the earlier answer: it quotes the thread's
 * sentence that gives one, or says in one line that the notes give none, never the earlier answer
 * again as if it were the reason.
 */
class WhyFollowUpRunTest {

  private static final String BREW = "What temperature do I brew espresso at?";
  private static final String WATER = "When do I water the tomatoes?";
  private static final String ESPRESSO_KEY = "note:vault/Espresso temperature.md";
  private static final String REASON =
      "I keep it that hot because lighter roasts taste sour with cooler water.";
  private static final String WATERING = "I water the tomatoes every morning at seven.";

  @TempDir static Path dir;
  private static BrainIndex index;

  @BeforeAll
  static void indexASmallVault() throws Exception {
    Path vault = Files.createDirectories(dir.resolve("vault"));
    Files.writeString(
        vault.resolve("Espresso temperature.md"),
        "# Espresso temperature\n\nI brew espresso at 93 °C on the machine.\n\n"
            + "## Notes\n\n"
            + REASON
            + "\n");
    Files.writeString(
        vault.resolve("Tomato watering.md"),
        "# Tomato watering\n\n" + WATERING + " The hose is in the shed.\n");
    Files.writeString(
        vault.resolve("Bread.md"), "# Bread\n\nSourdough loaf: 500 g flour, 350 g water.\n");
    index = BrainIndex.open(IndexConfig.defaults(dir.resolve("index")));
    index.sync(List.of(vault));
  }

  @AfterAll
  static void close() throws Exception {
    index.close();
  }

  private static ResearchRunner runner() {
    Path data = dir.resolve("data");
    var traces = new TraceStore(data, Redactor.of(data, List.of()), RetentionPolicy.defaults());
    return new ResearchRunner(new Retriever(index), traces);
  }

  /** The earlier turn, as a surface sends it, and the "why?" asked after it. */
  private static RunResult whyAfter(String question, String why) throws Exception {
    RunResult first = runner().run(RunRequest.of(question), null);
    var turn =
        new ConversationTurn(
            question,
            first.synthesis().citations().stream().map(c -> c.sourceKey()).toList(),
            first.pack().evidence().stream().map(EvidenceRow::sourceKey).toList());
    return runner().run(RunRequest.of(why).withContinuity(ChatContinuity.of(List.of(turn))), null);
  }

  @Test
  void whyAfterATurnQuotesTheSentenceGivingTheReasonFirst() throws Exception {
    RunResult why = whyAfter(BREW, "why?");

    FollowUp followUp = why.pack().queryPlan().followUp();
    assertThat(followUp).isNotNull();
    assertThat(followUp.previousQuestion()).isEqualTo(BREW);
    assertThat(followUp.resolvedQuestion()).startsWith("Why ").containsIgnoringCase("espresso");
    assertThat(followUp.inheritedConcepts()).anyMatch(k -> k.contains("espresso"));
    String answer = why.synthesis().answer();
    String firstQuote = answer.lines().filter(l -> !l.isBlank()).skip(1).findFirst().orElseThrow();
    assertThat(firstQuote).contains(REASON);
    assertThat(why.synthesis().citations()).anyMatch(c -> c.sourceKey().equals(ESPRESSO_KEY));
    assertThat(why.synthesis().answerStatus()).isNotEqualTo(AnswerStatus.PARTIAL);
  }

  @Test
  void whyAfterATurnWhoseNotesGiveNoReasonSaysSoInOneLine() throws Exception {
    RunResult earlier = runner().run(RunRequest.of(WATER), null);
    assertThat(earlier.synthesis().answer()).contains(WATERING);

    for (String why : List.of("why?", "Why is that?", "how come?")) {
      RunResult answer = whyAfter(WATER, why);

      String text = answer.synthesis().answer();
      assertThat(text).as(why).startsWith("Your notes say what, not why:").doesNotContain("\n");
      assertThat(text).as(why).contains(WATER.replace("?", "")).doesNotContain("every morning");
      assertThat(answer.synthesis().answerStatus()).as(why).isEqualTo(AnswerStatus.PARTIAL);
      assertThat(answer.synthesis().citations()).as(why).isNotEmpty();
    }
  }

  @Test
  void whyAsTheFirstTurnIsAQuestionWithoutSearchableWordsAsBefore() {
    assertThatThrownBy(() -> runner().run(RunRequest.of("why?"), null))
        .isInstanceOf(InvalidSearchException.class)
        .hasMessageContaining("no searchable words");
  }
}
