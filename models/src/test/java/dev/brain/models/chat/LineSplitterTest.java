package dev.brain.models.chat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class LineSplitterTest {
  private static final String TEXT = "Zürich\r\n日本語 🧠\n\nlast line without newline";
  private static final List<String> LINES =
      List.of("Zürich", "日本語 🧠", "", "last line without newline");

  @Test
  void yieldsTheSameLinesForEverySplitPointIncludingInsideMultiByteCharacters()
      throws ChatException {
    byte[] bytes = TEXT.getBytes(StandardCharsets.UTF_8);
    for (int first = 0; first <= bytes.length; first++) {
      for (int second = first; second <= bytes.length; second++) {
        List<String> lines = new ArrayList<>();
        LineSplitter splitter = new LineSplitter(1 << 10, "test");
        splitter.feed(ByteBuffer.wrap(Arrays.copyOfRange(bytes, 0, first)), sink(lines));
        splitter.feed(ByteBuffer.wrap(Arrays.copyOfRange(bytes, first, second)), sink(lines));
        splitter.feed(
            ByteBuffer.wrap(Arrays.copyOfRange(bytes, second, bytes.length)), sink(lines));
        splitter.finish(sink(lines));

        assertThat(lines).as("split at %d and %d", first, second).isEqualTo(LINES);
      }
    }
  }

  @Test
  void stopsFeedingOnceTheSinkSawTheTerminator() throws ChatException {
    List<String> lines = new ArrayList<>();
    LineSplitter splitter = new LineSplitter(1 << 10, "test");

    boolean done =
        splitter.feed(
            ByteBuffer.wrap("a\nEND\nafter\n".getBytes(StandardCharsets.UTF_8)),
            line -> lines.add(line) && line.equals("END"));

    assertThat(done).isTrue();
    assertThat(lines).containsExactly("a", "END");
  }

  @Test
  void refusesALineLongerThanTheLimit() {
    LineSplitter splitter = new LineSplitter(8, "fake at http://127.0.0.1:1");

    assertThatExceptionOfType(ChatException.class)
        .isThrownBy(
            () ->
                splitter.feed(
                    ByteBuffer.wrap("0123456789".getBytes(StandardCharsets.UTF_8)), line -> false))
        .satisfies(e -> assertThat(e.kind()).isEqualTo(ChatException.Kind.PROTOCOL))
        .withMessageContaining("longer than 8 bytes");
  }

  private static LineSplitter.LineSink sink(List<String> lines) {
    return line -> {
      lines.add(line);
      return false;
    };
  }
}
