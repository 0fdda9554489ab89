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

  @Test
  void removesJsonWebTokens() {
    String jwt =
        "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhbGljZSIsImlhdCI6MTcwMDAwMDAwMH0.c2lnbmF0dXJlMTIzNDU2Nzg";
    assertThat(redactor.redact("token " + jwt + " here")).isEqualTo("token [redacted] here");
  }

  @Test
  void removesPemPrivateKeysWithTheirPiecesElsewhere() {
    String body = "MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7";
    String pem = "-----BEGIN RSA PRIVATE KEY-----\n" + body + "\n-----END RSA PRIVATE KEY-----";
    String out = redactor.redact("key: " + pem + " terms: " + body.toLowerCase());
    assertThat(out).doesNotContain(body).doesNotContainIgnoringCase(body).contains("[redacted]");
    // As serialized JSON, where the line breaks are the two characters backslash and n.
    String json = redactor.redact("{\"q\": \"" + pem.replace("\n", "\\n") + "\"}");
    assertThat(json).doesNotContain(body).contains("PRIVATE KEY-----[redacted]");
  }

  @Test
  void removesCredentialsInUrls() {
    assertThat(redactor.redact("clone https://alice:s3cretpass@git.example.org/repo.git"))
        .isEqualTo("clone https://[redacted]@git.example.org/repo.git");
  }

  @Test
  void removesPasswordPhrasesAndTheValueElsewhere() {
    String out = redactor.redact("my password is Tr0ub4dor&3 and later tr0ub4dor&3 again");
    assertThat(out).doesNotContainIgnoringCase("tr0ub4dor").contains("password is [redacted]");
    assertThat(redactor.redact("a password is required")).isEqualTo("a password is [redacted]");
  }

  @Test
  void removesSlackTokenPiecesFromMatchedTerms() {
    String token = "xoxb-123456789012-987654321098-AbCdEfGhIjKlMnOpQrStUvWx";
    String trace =
        "{\"question\":\"why does "
            + token
            + " fail\",\"matched_terms\":[\"123456789012\",\"abcdefghijklmnopqrstuvwx\"],"
            + "\"missing_terms\":[\"987654321098\"]}";
    String out = redactor.redact(trace);
    assertThat(out)
        .doesNotContain("123456789012")
        .doesNotContain("987654321098")
        .doesNotContainIgnoringCase("abcdefghijklmnopqrstuvwx");
  }

  @Test
  void stripsTerminalControlCharactersRawAndEscaped() {
    assertThat(redactor.redact("a\u001b[2Jb\u0007c\td\ne")).isEqualTo("a[2Jbc\td\ne");
    assertThat(redactor.redact("{\"q\":\"a\\u001b[31mred\\u009b\\n\"}"))
        .isEqualTo("{\"q\":\"a[31mred\\n\"}");
    // An escaped backslash followed by the letters u001b is text, not a control character.
    assertThat(redactor.redact("{\"q\":\"\\\\u001b\"}")).isEqualTo("{\"q\":\"\\\\u001b\"}");
  }
}
