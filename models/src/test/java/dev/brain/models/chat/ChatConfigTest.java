package dev.brain.models.chat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.net.URI;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class ChatConfigTest {

  @Test
  void defaultsAreLocalWithoutKeyAndWithoutHostedUse() {
    ChatConfig config = ChatConfig.defaults();

    assertThat(config.ollamaUrl()).isEqualTo(URI.create("http://127.0.0.1:11434"));
    assertThat(config.openAiUrl()).isEqualTo(URI.create("http://127.0.0.1:8080/v1"));
    assertThat(config.hasApiKey()).isFalse();
    assertThat(config.allowHosted()).isFalse();
    assertThat(config.connectTimeout()).isEqualTo(Duration.ofSeconds(5));
    assertThat(config.requestTimeout()).isEqualTo(Duration.ofMinutes(5));
  }

  @Test
  void dropsATrailingSlashAndTreatsABlankKeyAsNone() {
    ChatConfig config =
        ChatConfig.defaults().withOllamaUrl(URI.create("http://localhost:11435/")).withApiKey(" ");

    assertThat(config.ollamaUrl()).isEqualTo(URI.create("http://localhost:11435"));
    assertThat(config.hasApiKey()).isFalse();
    assertThat(ChatConfig.defaults().withApiKey(" sk-brain ").apiKey()).isEqualTo("sk-brain");
  }

  @Test
  void aUrlWithoutHttpSchemeOrHostNamesTheField() {
    assertThatIllegalArgumentException()
        .isThrownBy(() -> ChatConfig.defaults().withOllamaUrl(URI.create("localhost:11434")))
        .withMessageContaining("ollamaUrl");
    assertThatIllegalArgumentException()
        .isThrownBy(() -> ChatConfig.defaults().withOpenAiUrl(URI.create("ftp://x/v1")))
        .withMessageContaining("openAiUrl");
  }

  @Test
  void toStringRedactsTheKeyAndUrlCredentials() {
    ChatConfig config =
        ChatConfig.defaults()
            .withApiKey("sk-secret-value")
            .withOpenAiUrl(URI.create("https://user:hunter2@llm.example.com/v1?token=abc"));

    assertThat(config.toString())
        .doesNotContain("sk-secret-value", "hunter2", "token=abc")
        .contains("apiKey=(redacted)", "https://llm.example.com/v1");
    assertThat(ChatConfig.defaults().toString()).contains("apiKey=none");
  }

  @Test
  void rejectsNonPositiveTimeouts() {
    assertThatIllegalArgumentException()
        .isThrownBy(() -> ChatConfig.defaults().withTimeouts(Duration.ZERO, Duration.ofSeconds(1)))
        .withMessageContaining("connectTimeout");
  }
}
