package dev.brain.server.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brain.Brain;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A credential never reaches a saved trace: for each key shape, asked about in the question and
 * read from a note as evidence, a real research run over a real index on disk leaves it in none of
 * the trace's files ({@code run.json}, {@code run.md}, {@code synthesis-input.md}, ...) and in
 * neither form of {@code GET /api/research/traces/{id}}.
 */
class TraceRedactionTest {

  /**
   * A credential, the note that holds it, and a question that finds the note without naming it.
   *
   * @param file the note's file name
   * @param sentence the note's sentence holding the credential
   * @param question a question answered from that note
   */
  record Case(String name, String secret, String file, String sentence, String question) {
    @Override
    public String toString() {
      return name;
    }

    /** The secret and the pieces of it a trace could hold apart (query terms split at '/'...). */
    List<String> traces() {
      var out = new ArrayList<>(List.of(secret));
      for (String piece : secret.split("[^A-Za-z0-9]+")) {
        if (piece.length() >= 8 && !piece.matches("[A-Z]+|[a-z]+|.*(BEGIN|PRIVATE).*")) {
          out.add(piece);
        }
      }
      return out;
    }
  }

  private static final String PGP_LINE =
      "lQOYBGVkZXNvbWVrZXkBCADK9f3nQ8vL2pR7tY1wZ5xB9cD4eG6hJ0kM3nP8qS2u";

  static Stream<Case> cases() {
    return Stream.of(
        new Case(
            "GitLab token",
            "glpat-Xk3vB7qLm9TzR2wYp5Nd",
            "gitlab-mirror.md",
            "The mirror job pushes to the GitLab mirror with the token %s every night.",
            "Which token does the nightly GitLab mirror job push with?"),
        new Case(
            "npm token",
            "npm_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8",
            "npm-publish.md",
            "Publishing the tokenizer package to the npm registry uses %s from the release box.",
            "What does publishing the tokenizer package to the npm registry use?"),
        new Case(
            "Hugging Face token",
            "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",
            "hugging-face.md",
            "Downloading the gated llama weights from Hugging Face needs %s in the shell.",
            "What does downloading the gated llama weights from Hugging Face need?"),
        new Case(
            "PGP private key block",
            "-----BEGIN PGP PRIVATE KEY BLOCK-----\n\n"
                + PGP_LINE
                + "\n=Xk3v\n-----END PGP PRIVATE KEY BLOCK-----",
            "backup-signing.md",
            "The backup archives are signed with this signing key:\n\n%s\n\nKeep it offline.",
            "Which signing key are the backup archives signed with?"),
        new Case(
            "Azure AccountKey",
            "Kf3nQ8vL2pR7tY1wZ5xB9c/D4eG6hJ0kM3nP8qS2uV7wX1yA5+bC9dE4fG6hJ0kL3mN8pQ2rS7tU1vW5xY9zA==",
            "azure-storage.md",
            "The photo archive lives in Azure blob storage:"
                + " DefaultEndpointsProtocol=https;AccountName=photoarchive;AccountKey=%s;"
                + "EndpointSuffix=core.windows.net",
            "Where in Azure blob storage does the photo archive live?"),
        new Case(
            "Stripe live secret key",
            "sk_live_51Hx9QbRtY7uVwZ3aB4cD5eF6gH7iJ8kL",
            "stripe-shop.md",
            "The pottery shop charges cards through Stripe with %s on the server.",
            "How does the pottery shop charge cards through Stripe?"),
        new Case(
            "Stripe restricted key",
            "rk_live_51Hx9QbRtY7uVwZ3aB4cD5eF6gH7iJ8kM",
            "stripe-reports.md",
            "The monthly revenue export reads Stripe reports with %s only.",
            "What does the monthly revenue export read Stripe reports with?"),
        new Case(
            "AWS secret access key, unlabelled",
            "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
            "s3-sync.md",
            "The S3 sync of the scanned receipts runs as the backup user:\n\n%s\n",
            "How does the S3 sync of the scanned receipts run?"));
  }

  private static Path data;
  private static BrainServer server;
  private static URI base;

  @BeforeAll
  static void indexTheNotesAndServe(@org.junit.jupiter.api.io.TempDir Path tmp) throws Exception {
    data = tmp.resolve("data");
    Path vault = Files.createDirectories(tmp.resolve("vault"));
    for (Case c : cases().toList()) {
      String title = c.file().replace(".md", "").replace('-', ' ');
      Files.writeString(
          vault.resolve(c.file()), "# " + title + "\n\n" + c.sentence().formatted(c.secret()));
    }
    var config = SampleVaultData.onAnyPort(data);
    try (Brain brain = Brain.open(config)) {
      brain.index(vault);
    }
    server = BrainServer.start(config);
    base = server.url();
  }

  @AfterAll
  static void stop() {
    if (server != null) {
      server.close();
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void aCredentialInTheQuestionIsInNoTraceFileAndNotServed(Case c) throws Exception {
    assertNowhere(c, run("Why does this fail? " + c.sentence().formatted(c.secret())));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void aCredentialInANoteReadAsEvidenceIsInNoTraceFileAndNotServed(Case c) throws Exception {
    String runId = run(c.question());
    String runJson = Files.readString(traceDir(runId).resolve("run.json"));
    // The note was evidence: without it the absence below would prove nothing.
    assertThat(runJson).contains("note:vault/" + c.file());
    assertNowhere(c, runId);
  }

  /** Runs {@code question} through the server and returns the saved trace's id. */
  private static String run(String question) throws Exception {
    var stream =
        Sse.read(
            Sse.post(
                base.resolve("/api/research/run"),
                HttpJson.MAPPER.writeValueAsString(Map.of("question", question))));
    assertThat(stream.status()).as(stream.rawBody()).isEqualTo(200);
    String runId = stream.first("done").data().path("trace_id").asText();
    assertThat(runId).isNotBlank();
    return runId;
  }

  private static Path traceDir(String runId) throws Exception {
    try (var dirs = Files.list(data.resolve("research-runs"))) {
      return dirs.filter(d -> d.getFileName().toString().endsWith(runId)).findFirst().orElseThrow();
    }
  }

  private static void assertNowhere(Case c, String runId) throws Exception {
    var texts = new java.util.LinkedHashMap<String, String>();
    try (var files = Files.list(traceDir(runId))) {
      for (Path f : files.toList()) {
        texts.put(f.getFileName().toString(), Files.readString(f));
      }
    }
    assertThat(texts.keySet()).contains("run.json", "run.md", "synthesis-input.md");
    var json = Http.get(base, "/api/research/traces/" + runId);
    var markdown = Http.get(base, "/api/research/traces/" + runId + "?format=md");
    assertThat(json.status()).isEqualTo(200);
    assertThat(markdown.status()).isEqualTo(200);
    texts.put("GET /api/research/traces/{id}", json.body());
    texts.put("GET /api/research/traces/{id}?format=md", markdown.body());
    texts.forEach(
        (name, text) -> {
          for (String piece : c.traces()) {
            assertThat(text).as(name).doesNotContainIgnoringCase(piece);
          }
        });
  }
}
