package dev.brain.models.chat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.net.URI;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ChatConfigTest {

  @Test
  void defaultsAreLocalWithoutKeyAndWithoutHostedUse() {
    ChatConfig config = ChatConfig.fromEnvironment(Map.of());

    assertThat(config).isEqualTo(ChatConfig.defaults());
    assertThat(config.ollamaUrl()).isEqualTo(URI.create("http://127.0.0.1:11434"));
    assertThat(config.openAiUrl()).isEqualTo(URI.create("http://127.0.0.1:8080/v1"));
    assertThat(config.hasApiKey()).isFalse();
    assertThat(config.allowHosted()).isFalse();
    assertThat(config.connectTimeout()).isEqualTo(Duration.ofSeconds(5));
    assertThat(config.requestTimeout()).isEqualTo(Duration.ofMinutes(5));
  }

  @Test
  void readsTheDocumentedEnvironmentVariables() {
    ChatConfig config =
        ChatConfig.fromEnvironment(
            Map.of(
                "BRAIN_OLLAMA_URL", "http://localhost:11435/",
                "BRAIN_OPENAI_URL", " https://api.openai.com/v1 ",
                "BRAIN_OPENAI_API_KEY", "sk-brain",
                "OPENAI_API_KEY", "sk-generic",
                "BRAIN_ALLOW_HOSTED", "TRUE"));

    assertThat(config.ollamaUrl()).isEqualTo(URI.create("http://localhost:11435"));
    assertThat(config.openAiUrl()).isEqualTo(URI.create("https://api.openai.com/v1"));
    assertThat(config.apiKey()).isEqualTo("sk-brain");
    assertThat(config.allowHosted()).isTrue();
  }

  @Test
  void fallsBackToOpenAiApiKeyAndTreatsBlankValuesAsUnset() {
    ChatConfig config =
        ChatConfig.fromEnvironment(
            Map.of(
                "BRAIN_OPENAI_API_KEY",
                " ",
                "OPENAI_API_KEY",
                "sk-generic",
                "BRAIN_OLLAMA_URL",
                ""));

    assertThat(config.apiKey()).isEqualTo("sk-generic");
    assertThat(config.ollamaUrl()).isEqualTo(URI.create(ChatConfig.DEFAULT_OLLAMA_URL));
  }

  @Test
  void badValuesNameTheVariable() {
    assertThatIllegalArgumentException()
        .isThrownBy(() -> ChatConfig.fromEnvironment(Map.of("BRAIN_ALLOW_HOSTED", "maybe")))
        .withMessageContaining("BRAIN_ALLOW_HOSTED")
        .withMessageContaining("maybe");
    assertThatIllegalArgumentException()
        .isThrownBy(() -> ChatConfig.fromEnvironment(Map.of("BRAIN_OLLAMA_URL", "127.0.0.1:11434")))
        .withMessageContaining("BRAIN_OLLAMA_URL");
    assertThatIllegalArgumentException()
        .isThrownBy(() -> ChatConfig.fromEnvironment(Map.of("BRAIN_OPENAI_URL", "ftp://x/v1")))
        .withMessageContaining("BRAIN_OPENAI_URL");
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
