package dev.brain.models.chat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.net.URI;
import org.junit.jupiter.api.Test;

class ChatModelsTest {
  private static final ChatConfig CONFIG = ChatConfig.defaults();

  @Test
  void opensOllamaAndOpenAiSpecsKeepingSlashesAndTagsInTheModelName() {
    try (ChatModel ollama = ChatModels.open("ollama/hf.co/org/repo:Q4_K_M", CONFIG);
        ChatModel openAi = ChatModels.open(" OpenAI/gpt-4o-mini ", CONFIG)) {
      assertThat(ollama.id()).isEqualTo("ollama/hf.co/org/repo:Q4_K_M");
      assertThat(((HttpChatModel) ollama).model()).isEqualTo("hf.co/org/repo:Q4_K_M");
      assertThat(ollama.toString()).contains("http://127.0.0.1:11434");
      assertThat(openAi.id()).isEqualTo("openai/gpt-4o-mini");
      assertThat(openAi.toString()).contains("http://127.0.0.1:8080/v1");
    }
  }

  @Test
  void extractiveIsTheBuiltInSynthesizerNotAChatModel() {
    assertThat(ChatModels.isExtractive("extractive")).isTrue();
    assertThat(ChatModels.isExtractive(" Extractive ")).isTrue();
    assertThat(ChatModels.isExtractive("ollama/llama3.2")).isFalse();
    assertThat(ChatModels.isExtractive(null)).isFalse();
    assertThatIllegalArgumentException()
        .isThrownBy(() -> ChatModels.open("extractive", CONFIG))
        .withMessageContaining("built-in synthesizer")
        .withMessageContaining("isExtractive");
  }

  @Test
  void rejectsUnknownProvidersAndMissingModelNames() {
    for (String spec : new String[] {"llama3.2", "ollama/", "ollama/  ", "anthropic/claude", ""}) {
      assertThatIllegalArgumentException()
          .as(spec)
          .isThrownBy(() -> ChatModels.open(spec, CONFIG))
          .withMessageContaining("'" + spec + "'")
          .withMessageContaining("ollama/<model>");
    }
  }

  @Test
  void onlyLoopbackHostsAreLocal() {
    for (String local :
        new String[] {
          "http://127.0.0.1:11434",
          "http://127.8.9.10",
          "http://localhost:8080/v1",
          "http://LOCALHOST",
          "http://[::1]:11434"
        }) {
      assertThat(ChatModels.isHosted(URI.create(local))).as(local).isFalse();
    }
    for (String hosted :
        new String[] {
          "https://api.openai.com/v1", "http://203.0.113.1:11434", "http://192.168.1.20:11434",
          "http://0.0.0.0:11434", "http://[2001:db8::1]/v1", "http://localhost.example.com",
          "http://127.0.0.1.nip.io"
        }) {
      assertThat(ChatModels.isHosted(URI.create(hosted))).as(hosted).isTrue();
    }
  }

  @Test
  void theHostedGuardLetsAHostedUrlPassOnlyWithOptIn() throws ChatException {
    URI hosted = URI.create("https://203.0.113.1/v1");

    Endpoints.requireAllowed("openai/m", hosted, true);
    Endpoints.requireAllowed("openai/m", URI.create("http://127.0.0.1:8080/v1"), false);
    try {
      Endpoints.requireAllowed("openai/m", hosted, false);
      throw new AssertionError("a hosted URL passed without opt-in");
    } catch (ChatException e) {
      assertThat(e.kind()).isEqualTo(ChatException.Kind.REFUSED);
    }
  }

  @Test
  void aClosedModelRefusesFurtherChats() {
    ChatModel model = ChatModels.open("ollama/llama3.2", CONFIG);
    model.close();
    model.close();

    org.assertj.core.api.Assertions.assertThatIllegalStateException()
        .isThrownBy(() -> model.chat(ChatTesting.request(), ChatListener.NONE))
        .withMessageContaining("ollama/llama3.2 is closed");
  }
}
