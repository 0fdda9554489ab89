package dev.brain.research.pack;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brain.chunking.BrainWritten;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

/** What a row's window is read from: the user's text, never the section brain wrote into it. */
class InspectorWindowTest {

  private static String section(String body) throws Exception {
    String hash =
        HexFormat.of()
            .formatHex(
                MessageDigest.getInstance("SHA-256").digest(body.getBytes(StandardCharsets.UTF_8)));
    return "## Research\n"
        + BrainWritten.MARKER_PREFIX
        + hash
        + " -->\n"
        + body
        + BrainWritten.END_MARKER
        + "\n";
  }

  @Test
  void brainsSectionIsBlankedInPlaceSoWindowOffsetsStillPointIntoTheNote() throws Exception {
    String mine = "# Kopi grinder\n\nIt sits next to the kettle.\n\n";
    String after = "## Later\n\nMine again.\n";
    String note = mine + section("\n- [[Burr seasoning]]: four kilograms of beans.\n\n") + after;

    String read = Inspector.withoutBrainWritten(note, "note");

    assertThat(read).hasSameSizeAs(note).startsWith(mine).endsWith(after);
    assertThat(read).doesNotContain("four kilograms").doesNotContain("brain:research");
    assertThat(Inspector.withoutBrainWritten(note, "web")).isEqualTo(note);
    String edited = note.replace("four kilograms", "five kilograms");
    assertThat(Inspector.withoutBrainWritten(edited, "note")).isEqualTo(edited);
  }
}
