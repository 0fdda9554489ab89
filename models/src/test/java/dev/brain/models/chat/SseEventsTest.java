package dev.brain.models.chat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class SseEventsTest {

  @Test
  void joinsDataLinesAndEndsEventsAtBlankLines() throws ChatException {
    List<String> events =
        feed(
            ": comment",
            "event: message",
            "id: 7",
            "data: first",
            "data:second",
            "",
            "retry: 10",
            "",
            "data: [DONE]",
            "");

    assertThat(events).containsExactly("first\nsecond", "[DONE]");
  }

  @Test
  void keepsAnEventWithoutItsBlankLineForTheEndOfTheStream() throws ChatException {
    SseEvents sse = new SseEvents("test");

    assertThat(sse.onLine("data: [DONE]")).isNull();
    assertThat(sse.flush()).isEqualTo("[DONE]");
    assertThat(sse.flush()).isNull();
  }

  @Test
  void aLineThatIsNoSseFieldMeansTheBodyIsNotAnEventStream() {
    SseEvents sse = new SseEvents("openai/m at http://127.0.0.1:8080/v1");

    assertThatExceptionOfType(ChatException.class)
        .isThrownBy(() -> sse.onLine("{\"choices\": []}"))
        .satisfies(e -> assertThat(e.kind()).isEqualTo(ChatException.Kind.PROTOCOL))
        .withMessageStartingWith("openai/m at http://127.0.0.1:8080/v1 did not send");
  }

  private static List<String> feed(String... lines) throws ChatException {
    SseEvents sse = new SseEvents("test");
    List<String> events = new ArrayList<>();
    for (String line : lines) {
      String event = sse.onLine(line);
      if (event != null) {
        events.add(event);
      }
    }
    return events;
  }
}
