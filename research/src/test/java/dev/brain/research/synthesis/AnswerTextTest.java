package dev.brain.research.synthesis;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.List;
import org.junit.jupiter.api.Test;

/** How the parts of an answer's passages are shown. */
class AnswerTextTest {

  @Test
  void aSentenceAlreadyShownIsNotShownAgain() {
    var said = new HashSet<String>();

    String first =
        AnswerText.shown(List.of("The gearbox is oiled once a year. Use the maker's oil."), said);
    String second =
        AnswerText.shown(
            List.of(
                "The  gearbox is OILED once a year. A sprocket turns freely.",
                "Use the maker's oil."),
            said);

    assertThat(first).isEqualTo("The gearbox is oiled once a year. Use the maker's oil.");
    assertThat(second).isEqualTo("A sprocket turns freely.");
  }

  @Test
  void aLeadInAndTheBlockItIntroducesStayWhenSaidBefore() {
    var said = new HashSet<String>();
    AnswerText.shown(List.of("For example:", "```sh\n$ make\n```"), said);

    String again = AnswerText.shown(List.of("For example:", "```sh\n$ make test\n```"), said);

    assertThat(again).isEqualTo("For example:\n\n```sh\n$ make test\n```");
  }

  @Test
  void aListShownBeforeIsNotShownAgain() {
    var said = new HashSet<String>();
    AnswerText.shown(List.of("- flour\n- water"), said);

    assertThat(AnswerText.shown(List.of("- flour\n- water"), said)).isEmpty();
  }

  @Test
  void twoCodeSpansWrittenSideBySideAreShownApart() {
    String shown =
        AnswerText.shown(
            List.of("Register it with `onActivated``activated` when the page is shown again."),
            new HashSet<>());

    assertThat(shown)
        .isEqualTo("Register it with `onActivated` / `activated` when the page is shown again.");
  }

  @Test
  void aSpanBeforeACodeSpanOfDoubleBackticksIsNotReadAsGlued() {
    String text =
        "The reason: `` the trait `Send` is not implemented for `Rc<Mutex<i32>>` ``. We’ll talk"
            + " about `Send` next.";

    assertThat(AnswerText.shown(List.of(text), new HashSet<>())).isEqualTo(text);
  }

  @Test
  void aCodeSpanOfDoubleBackticksIsLeftAsItIs() {
    String text = "Write ``a`b`` for a span holding a backtick.";

    assertThat(AnswerText.shown(List.of(text), new HashSet<>())).isEqualTo(text);
  }
}
