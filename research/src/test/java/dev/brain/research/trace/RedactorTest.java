package dev.brain.research.trace;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What the redactor removes from trace text, and what it leaves alone. */
class RedactorTest {

  private static final Path DATA = Path.of("/home/bob/.brain");
  private final Redactor redactor = Redactor.of(DATA, List.of("hunter2-configured"));

  @Test
  void removesConfiguredSecretsVerbatim() {
    assertThat(redactor.redact("key hunter2-configured here")).isEqualTo("key [redacted] here");
  }

  @Test
  void removesAuthHeadersAndBearerTokens() {
    assertThat(redactor.redact("Authorization: Bearer abc.def-123456"))
        .isEqualTo("Authorization: [redacted]");
    assertThat(redactor.redact("sent bearer abcdefghijkl to the server"))
        .isEqualTo("sent bearer [redacted] to the server");
    assertThat(redactor.redact("x-api-key: 0123456789")).isEqualTo("x-api-key: [redacted]");
  }

  @Test
  void removesWellKnownKeyShapesAndKeyValueCredentials() {
    assertThat(redactor.redact("use sk-abcdefghijklmnop1234 now")).isEqualTo("use [redacted] now");
    assertThat(redactor.redact("token ghp_abcdefghijklmnopqrstuvwxyz0123"))
        .isEqualTo("token [redacted]");
    assertThat(redactor.redact("https://x.test/?api_key=abcdef123&q=1"))
        .isEqualTo("https://x.test/?api_key=[redacted]&q=1");
    assertThat(redactor.redact("password: correcthorse")).isEqualTo("password: [redacted]");
  }

  @Test
  void removesAbsolutePathsOutsideTheDataRootAndKeepsThoseInside() {
    assertThat(redactor.redact("read /home/alice/notes/x.md and /tmp/brain-1234/part"))
        .isEqualTo("read [path] and [path]");
    assertThat(redactor.redact("trace at /home/bob/.brain/research-runs/x"))
        .isEqualTo("trace at /home/bob/.brain/research-runs/x");
    assertThat(redactor.redact("file:///Users/carol/doc.pdf")).isEqualTo("file://[path]");
  }

  @Test
  void leavesUrlsRelativePathsKeysAndPlainWordsAlone() {
    String text =
        "See https://example.com/home/user/page, [note:coffee/Niche Zero.md], 10-15 s/km,"
            + " a basic understanding, tokens of the tokenizer, and/or coffee/V60 recipe.md";
    assertThat(redactor.redact(text)).isEqualTo(text);
  }

  @Test
  void keepsJsonValid() throws Exception {
    String json =
        new ObjectMapper()
            .writeValueAsString(
                Map.of(
                    "error", "Authorization: Bearer abcdefghij\" and \"quoted\" /home/x/y",
                    "key", "password=abcdefgh"));

    String redacted = redactor.redact(json);

    var node = new ObjectMapper().readTree(redacted);
    assertThat(node.path("error").asText()).doesNotContain("abcdefghij").contains("[path]");
    assertThat(node.path("key").asText()).isEqualTo("password=[redacted]");
  }

  @Test
  void findsCredentialLikeEnvironmentValues() {
    var secrets =
        Redactor.environmentSecrets(
            Map.of(
                "BRAIN_OPENAI_API_KEY", "sk-env-value-1234",
                "GITHUB_TOKEN", "gho_value_5678",
                "HOME", "/home/bob",
                "BRAIN_ALLOW_HOSTED", "true",
                "SHORT_KEY", "abc"));

    assertThat(secrets).containsExactlyInAnyOrder("sk-env-value-1234", "gho_value_5678");
  }
}
