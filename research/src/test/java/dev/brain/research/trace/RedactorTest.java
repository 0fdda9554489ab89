package dev.brain.research.trace;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

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

  /** Credentials known by their shape alone, each as a sentence would hold it. */
  static Stream<Arguments> keyShapes() {
    return Stream.of(
        Arguments.of("GitLab", "glpat-Xk3vB7qLm9TzR2wYp5Nd"),
        Arguments.of("npm", "npm_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"),
        Arguments.of("Hugging Face", "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"),
        Arguments.of("Stripe secret", "sk_live_51Hx9QbRtY7uVwZ3aB4cD5eF6gH7iJ8kL"),
        Arguments.of("Stripe restricted", "rk_live_51Hx9QbRtY7uVwZ3aB4cD5eF6gH7iJ8kM"),
        Arguments.of("AWS secret, unlabelled", "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"),
        Arguments.of("AWS secret, no slash", "Zq8Jm2Lw9Rt4Xy6Vb1Nc3Kd5Hf7Gs0Pa2Ue4Io6W"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("keyShapes")
  void removesAKeyKnownByItsShapeInTextAndInJson(String name, String key) throws Exception {
    assertThat(redactor.redact("the key " + key + " expired"))
        .isEqualTo("the key [redacted] expired");
    // Serialized, after an escaped line break: the JSON escape is no part of the key.
    String json = new ObjectMapper().writeValueAsString(Map.of("text", "keys:\n" + key + "\n"));
    String out = redactor.redact(json);
    assertThat(out).doesNotContain(key);
    assertThat(new ObjectMapper().readTree(out).path("text").asText()).contains("[redacted]");
  }

  @Test
  void removesAnAzureAccountKeyFromAConnectionString() {
    String key =
        "Kf3nQ8vL2pR7tY1wZ5xB9c/D4eG6hJ0kM3nP8qS2uV7wX1yA5+bC9dE4fG6hJ0kL3mN8pQ2rS7tU1vW5xY9zA==";
    String out =
        redactor.redact(
            "DefaultEndpointsProtocol=https;AccountName=brainstore;AccountKey="
                + key
                + ";EndpointSuffix=core.windows.net and later "
                + "d4eg6hj0km3np8qs2uv7wx1ya5");
    // The later occurrence is a piece of the key as a query term holds it (lower case).
    assertThat(out)
        .contains("AccountName=brainstore;AccountKey=[redacted];EndpointSuffix")
        .doesNotContainIgnoringCase("D4eG6hJ0kM3nP8qS2uV7wX1yA5");
  }

  @Test
  void removesAPgpPrivateKeyBlockWithItsLinesElsewhere() throws Exception {
    String line = "lQOYBGVkZXNvbWVrZXkBCADK9f3nQ8vL2pR7tY1wZ5xB9cD4eG6hJ0kM3nP8qS2u";
    String block =
        "-----BEGIN PGP PRIVATE KEY BLOCK-----\nVersion: GnuPG v2\n\n"
            + line
            + "\n=Xk3v\n-----END PGP PRIVATE KEY BLOCK-----";
    for (String text :
        List.of(
            block + " and the version of " + line,
            new ObjectMapper()
                .writeValueAsString(Map.of("q", block + " and the version of " + line)))) {
      assertThat(redactor.redact(text))
          .contains("-----BEGIN PGP PRIVATE KEY BLOCK-----[redacted]", "the version of")
          .doesNotContain(line)
          .doesNotContain("END PGP");
    }
  }

  /** 40-character runs of the base64 alphabet that are no secret. */
  static Stream<String> notSecrets() {
    return Stream.of(
        "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b", // a git commit
        "9F86D081884C7D659A2FEAA0C55AD015A3BF4F1B",
        "coffee/Espresso2024/recipes/DialInLog031", // a relative path
        "/Espresso2024/recipes/DialInLog031/notes", // an absolute one
        "Represent/this/sentence/for/searching/12",
        "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa");
  }

  @ParameterizedTest
  @MethodSource("notSecrets")
  void leavesFortyCharacterRunsThatAreNoSecretAlone(String text) {
    assertThat(redactor.redact("see " + text + " here")).isEqualTo("see " + text + " here");
  }

  /** Text near key-like words, hashes and identifiers that holds no secret. */
  static Stream<String> prose() {
    return Stream.of(
        "The key to a good espresso shot is the grind: 18 g in, 36 g out in 28 seconds.",
        "Fixed in commit 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b, see the api changelog.",
        "The note 123e4567-e89b-12d3-a456-426614174000 links to the packing list.",
        "Call TokenBucketRateLimiter.tryAcquirePermit() in AuthenticationFilterChain first.",
        "The api_version is v2, token_count is 4096 and the secret_name is db-password-2024.",
        "Session 12 of the marathon plan: 3 x 2 km at tempo, key workout of the week.",
        "Use the sessionStorage key user_preferences_v3 for the theme toggle.");
  }

  @ParameterizedTest
  @MethodSource("prose")
  void leavesProseCommitHashesUuidsAndCodeIdentifiersAlone(String text) {
    assertThat(redactor.redact(text)).isEqualTo(text);
  }

  @Test
  void removesARandomTokenRightAfterAKeyLikeWord() {
    String sig = "Kf3nQ8vL2pR7tY1wZ5xB9cD4eG6hJ0kM" + "%2B3nP8qS%3D";
    String hexKey = "4c0883a69102937d6231471b5dbb6204" + "fe5129617082792ae468d01a3f362318";
    assertThat(redactor.redact("share it as https://a.test/f.txt?sp=r&sig=" + sig + " today"))
        .isEqualTo("share it as https://a.test/f.txt?sp=r&sig=[redacted] today");
    assertThat(redactor.redact("the private key " + hexKey + " of the wallet"))
        .isEqualTo("the private key [redacted] of the wallet");
  }

  @Test
  void removesHttpBasicCredentialsButNotABasicWord() {
    String basic = java.util.Base64.getEncoder().encodeToString("deploy:Zx9kP2qL7mW4".getBytes());
    assertThat(redactor.redact("curl sent Basic " + basic + " twice"))
        .isEqualTo("curl sent Basic [redacted] twice");
    assertThat(redactor.redact("a basic understanding of basicAuthentication"))
        .isEqualTo("a basic understanding of basicAuthentication");
  }

  @Test
  void aSecretFoundInOneTextIsRemovedFromEveryTextRedactedWithIt() {
    String value = "Zq8Jm2Lw9Rt4Xy6Vb1Nc";
    var out =
        redactor.redactAll(List.of("api_key=" + value, "terms: zq8jm2lw9rt4xy6vb1nc"), List.of());
    assertThat(out).containsExactly("api_key=[redacted]", "terms: [redacted]");
  }

  @Test
  void namesTheRuleSetItRedactsWith() {
    assertThat(redactor.rules().name()).isEqualTo("gitleaks");
    assertThat(redactor.rules().rules()).isPositive();
  }

  @ParameterizedTest
  @MethodSource("longLinesOfCurlBeforeCredentials")
  void curlCredentialsAfterALongLineOfCurlAreRedacted(String between) {
    // gitleaks' curl-auth-user rule backtracks quadratically on the long line; more than five
    // lines after it no match can start there, and the rule used to be dropped for the whole text.
    String password = "Xk9mQ2" + "vL8p";
    String evidence = "curl ".repeat(2000) + between + "curl -u admin:" + password + " https://h";

    String out = assertTimeoutPreemptively(Duration.ofSeconds(60), () -> redactor.redact(evidence));

    assertThat(out).doesNotContain(password).endsWith("curl -u [redacted] https://h");
  }

  static Stream<String> longLinesOfCurlBeforeCredentials() {
    return Stream.of("", "\n" + "a line of evidence\n".repeat(6));
  }
}
