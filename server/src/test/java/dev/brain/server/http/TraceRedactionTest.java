package dev.brain.server.http;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import dev.brain.Brain;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A credential never reaches a saved trace: for each key shape (the ones brain always knew, and
 * those a security probe found missing: gitleaks' shapes, a password, HTTP basic credentials and a
 * session cookie at a line's start, a bare hexadecimal private key), asked about in the question
 * and read from a note as evidence, a real research run over a real index on disk leaves it in none
 * of the trace's files ({@code run.json}, {@code run.md}, {@code synthesis-input.md}, ...) and in
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
            "How does the S3 sync of the scanned receipts run?"),
        shape(
            "Slack webhook",
            "https://hooks.slack.com/services/"
                + upper(10, 1)
                + "/"
                + upper(10, 2)
                + "/"
                + alnum(24, 3),
            "greenhouse-alerts.md",
            "Deploy alerts for the greenhouse sensors post to the Slack webhook %s when humidity drops.",
            "Where do the greenhouse sensor deploy alerts post when humidity drops?"),
        shape(
            "Slack app-level token",
            "xapp-1-" + upper(11, 4) + "-" + digits(13, 5) + "-" + hex(64, 6),
            "standup-bot.md",
            "The standup reminder bot connects over Socket Mode with the app-level token %s each morning.",
            "How does the standup reminder bot connect over Socket Mode?"),
        shape(
            "SendGrid API key",
            "SG." + alnum(22, 7) + "." + alnum(43, 8),
            "bakery-newsletter.md",
            "The bakery newsletter goes out through SendGrid using %s on Fridays.",
            "How does the bakery newsletter go out on Fridays?"),
        shape(
            "Twilio API key",
            "SK" + hex(32, 9),
            "dentist-reminders.md",
            "Dentist appointment text reminders are sent with the Twilio API key %s from the clinic server.",
            "How are dentist appointment text reminders sent?"),
        shape(
            "DigitalOcean personal access token",
            "dop_v1_" + hex(64, 10),
            "weather-droplet.md",
            "The weather station droplet is snapshotted nightly by a script holding %s in its config.",
            "How is the weather station droplet snapshotted nightly?"),
        shape(
            "Shopify access token",
            "shpat_" + hex(32, 11),
            "candle-shop.md",
            "The candle shop syncs inventory from Shopify with the admin token %s every hour.",
            "How does the candle shop sync its inventory every hour?"),
        shape(
            "PyPI upload token",
            "pypi-AgEIcHlwaS5vcmc" + alnum(70, 12),
            "chess-clock-release.md",
            "Releasing the chess-clock library to PyPI uploads with %s from the laptop.",
            "How is the chess-clock library released to PyPI?"),
        shape(
            "Vault service token",
            "hvs." + alnum(95, 13),
            "homelab-vault.md",
            "The homelab Vault login for the media server uses the service token %s today.",
            "Which login does the homelab Vault use for the media server?"),
        shape(
            "Google OAuth client secret",
            "GOCSPX-" + alnum(28, 14),
            "family-calendar.md",
            "The family calendar sync registers an OAuth client whose client secret is %s for the kitchen tablet.",
            "What does the family calendar sync register for the kitchen tablet?"),
        shape(
            "age secret key",
            "AGE-SECRET-KEY-1" + of("QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L", 58, 15),
            "tax-documents.md",
            "The tax documents are encrypted with age; the identity file holds %s on a USB stick.",
            "How are the tax documents encrypted?"),
        shape(
            "Telegram bot token",
            digits(10, 16) + ":AA" + alnum(33, 17),
            "plant-watering-bot.md",
            "The plant watering bot talks to Telegram with the bot token %s from the Raspberry Pi.",
            "How does the plant watering bot talk to Telegram from the Raspberry Pi?"),
        shape(
            "Discord bot token",
            "M" + alnum(23, 18) + "." + alnum(6, 19) + "." + alnum(27, 20),
            "board-game-guild.md",
            "The board game guild bot logs into Discord with %s on the community server.",
            "How does the board game guild bot log into Discord?"),
        shape(
            "Stripe webhook signing secret",
            "whsec_" + alnum(32, 21),
            "donation-webhooks.md",
            "Donation webhooks from Stripe are verified with the signing secret %s at the endpoint.",
            "How are donation webhooks from Stripe verified?"),
        shape(
            "Azure SAS signature",
            alnum(40, 22) + "%3D",
            "telescope-images.md",
            "The telescope images are shared with the astronomy club as"
                + " https://club.blob.core.windows.net/images/m31.fits?sv=2022-11-02&sp=r&se=2026-12-31&sig=%s for a week.",
            "How are the telescope images shared with the astronomy club?"),
        shape(
            "Mailgun API key",
            "key-" + hex(32, 23),
            "tutoring-invoices.md",
            "Invoice emails for the tutoring business are sent through Mailgun with %s from the billing script.",
            "How are the invoice emails of the tutoring business sent?"),
        shape(
            "Databricks token",
            "dapi" + hex(32, 24),
            "rainfall-notebook.md",
            "The rainfall analysis notebook on Databricks is triggered with the token %s by cron.",
            "How is the rainfall analysis notebook triggered?"),
        shape(
            "Grafana service account token",
            "glsa_" + alnum(32, 25) + "_" + hex(8, 26),
            "solar-dashboard.md",
            "The solar panel dashboard in Grafana is provisioned with %s by the setup script.",
            "How is the solar panel dashboard in Grafana provisioned?"),
        shape(
            "GitLab runner token",
            "glrt-" + alnum(20, 27),
            "garage-ci-runner.md",
            "The CI runner in the garage registers with GitLab using %s at boot.",
            "How does the CI runner in the garage register with GitLab?"),
        shape(
            "Doppler token",
            "dp.pt." + alnum(43, 28),
            "recipe-app-config.md",
            "The recipe app loads its environment from Doppler with %s at start.",
            "Where does the recipe app load its environment from?"),
        shape(
            "Postman API key",
            "PMAK-" + hex(24, 29) + "-" + hex(34, 30),
            "bike-rental-collection.md",
            "The bike rental API collection is synced to Postman with %s for the team.",
            "How is the bike rental API collection synced for the team?"),
        shape(
            "Atlassian API token",
            "ATATT3" + alnum(186, 31),
            "book-club-wiki.md",
            "The book club wiki is exported from Confluence with the API token %s monthly.",
            "How is the book club wiki exported from Confluence?"),
        shape(
            "password after password:",
            "Tr0ub4dor" + "&3xQ!9",
            "router-admin.md",
            "The home router admin page login is admin with password: %s since the reset.",
            "What is the login of the home router admin page?"),
        shape(
            "HTTP basic credentials at a line start",
            Base64.getEncoder().encodeToString(("deploy:" + alnum(12, 32)).getBytes(UTF_8)),
            "print-server.md",
            "The print server accepts jobs with this header:\n\nAuthorization: Basic %s\n\nOnly from the office network.",
            "Which header does the print server accept jobs with?"),
        shape(
            "session cookie at a line start",
            alnum(32, 33),
            "forum-scraper.md",
            "The forum scraper sends the saved login:\n\nCookie: sessionid=%s\n\nIt expires in May.",
            "What does the forum scraper send as its saved login?"),
        shape(
            "sessionid in a sentence",
            alnum(32, 34),
            "timesheet-export.md",
            "The timesheet export script reuses sessionid=%s from the browser.",
            "What does the timesheet export script reuse from the browser?"),
        shape(
            "64-digit hexadecimal private key",
            hex(64, 35),
            "hardware-wallet.md",
            "The hardware wallet recovery note lists the private key %s for the savings account.",
            "What does the hardware wallet recovery note list?"));
  }

  private static Case shape(
      String name, String secret, String file, String sentence, String question) {
    return new Case(name, secret, file, sentence, question);
  }

  // Fake credentials are made here from a seeded generator, so this file holds none a scanner
  // would take for a leak.

  private static String of(String alphabet, int length, int seed) {
    var random = new Random(seed);
    var out = new StringBuilder(length);
    for (int i = 0; i < length; i++) {
      out.append(alphabet.charAt(random.nextInt(alphabet.length())));
    }
    return out.toString();
  }

  private static String alnum(int length, int seed) {
    return of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789", length, seed);
  }

  private static String upper(int length, int seed) {
    return of("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789", length, seed);
  }

  private static String hex(int length, int seed) {
    return of("0123456789abcdef", length, seed);
  }

  private static String digits(int length, int seed) {
    return of("123456789", 1, seed) + of("0123456789", length - 1, seed + 100);
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
