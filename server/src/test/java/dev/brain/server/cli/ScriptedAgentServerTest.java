package dev.brain.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The scripted worker of {@code brain agent --demo} summarizes whole sentences only. */
class ScriptedAgentServerTest {

  @Test
  void theSentencesASearchExcerptCutAtEitherEndAreLeftOut() {
    assertThat(
            ScriptedAgentServer.wholeSentences(
                "…thin. Grind two steps finer for the light roast. It ran 28 s. The grinder…"))
        .containsExactly("Grind two steps finer for the light roast.", "It ran 28 s.");
  }

  @Test
  void aTextWithoutEllipsesKeepsEverySentence() {
    assertThat(ScriptedAgentServer.wholeSentences("One. Two? Three!"))
        .containsExactly("One.", "Two?", "Three!");
  }

  @Test
  void anExcerptCutInsideItsOnlySentenceIsKeptAsItIs() {
    assertThat(ScriptedAgentServer.wholeSentences("…the burrs were…"))
        .containsExactly("…the burrs were…");
  }
}
