package dev.brain.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.brain.research.trace.Redactor;
import dev.brain.server.chat.ConversationStore;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * Every command that takes {@code --json} prints exactly one JSON document on stdout and nothing
 * else, whatever it says on stderr and whether it succeeds or fails a check; and no command with
 * {@code --json} is left out of this test.
 */
class JsonOutputTest {
  private static final ObjectMapper STRICT =
      new ObjectMapper().enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

  @TempDir static Path tmp;
  static String data;
  static Path vault;
  static Path beir;
  static String runId;

  record Run(int code, String out, String err) {}

  private static Run brain(String... args) {
    var out = new StringWriter();
    var err = new StringWriter();
    int code = BrainCommand.run(new PrintWriter(out, true), new PrintWriter(err, true), args);
    return new Run(code, out.toString(), err.toString());
  }

  @BeforeAll
  static void indexAVaultAndWriteABeirFolder() throws IOException {
    vault = Files.createDirectories(tmp.resolve("vault"));
    Files.writeString(
        vault.resolve("descaling.md"),
        "# Descaling\n\nDescale the espresso machine every eight weeks with citric acid.\n");
    Files.writeString(
        vault.resolve("tomatoes.md"),
        "---\ntags: [garden]\n---\n# Tomatoes\n\nSungold gave 4.2 kg per plant in 2024.\n");
    data = tmp.resolve("data").toString();
    assertThat(brain("--data", data, "add", vault.toString()).code()).isZero();
    Run research = brain("--data", data, "research", "--json", "descaling interval");
    runId = STRICT.readTree(research.out()).path("trace_id").asText();
    // A saved Chat conversation for brain chat show.
    new ConversationStore(Path.of(data), Redactor.of(Path.of(data), List.of()))
        .save(
            null,
            null,
            List.of(STRICT.createObjectNode().put("question", "How often do I descale?")));
    beir = Files.createDirectories(tmp.resolve("beir"));
    Files.writeString(
        beir.resolve("corpus.jsonl"),
        "{\"_id\":\"d1\",\"title\":\"Descaling\",\"text\":\"Descale every eight weeks.\"}\n"
            + "{\"_id\":\"d2\",\"title\":\"Tomatoes\",\"text\":\"Sungold gave 4.2 kg.\"}\n");
    Files.writeString(
        beir.resolve("queries.jsonl"),
        "{\"_id\":\"q1\",\"text\":\"how often to descale\",\"metadata\":{\"answer\":\"eight"
            + " weeks\"}}\n");
    Files.createDirectories(beir.resolve("qrels"));
    Files.writeString(beir.resolve("qrels/test.tsv"), "query-id\tcorpus-id\tscore\nq1\td1\t1\n");
  }

  /** Each command with {@code --json}, with the arguments that make it run here. */
  private static Map<String, List<String>> invocations() throws IOException {
    Path cases = tmp.resolve("cases.jsonl");
    Files.writeString(
        cases,
        "{\"schema_version\":\"research_eval_case.v1\",\"id\":\"descale\",\"question\":\"How"
            + " often do I descale?\",\"expected_keys\":[\"note:vault/descaling.md\"]}\n");
    String note = vault.resolve("tomatoes.md").toString();
    var map = new java.util.LinkedHashMap<String, List<String>>();
    map.put("brain status", List.of("status", "--json"));
    map.put("brain stats", List.of("stats", "--json"));
    map.put("brain config", List.of("config", "--json"));
    map.put("brain collections", List.of("collections", "--json"));
    map.put("brain index", List.of("index", "--json"));
    map.put("brain search", List.of("search", "--json", "descale"));
    map.put("brain get", List.of("get", "--json", "note:vault/descaling.md"));
    map.put("brain research", List.of("research", "--json", "--no-trace", "tomato harvest"));
    map.put("brain trace list", List.of("trace", "list", "--json"));
    map.put("brain trace show", List.of("trace", "show", "--json", runId));
    map.put("brain chat list", List.of("chat", "list", "--json"));
    map.put("brain chat show", List.of("chat", "show", "--json", "latest"));
    map.put("brain trace diff", List.of("trace", "diff", "--json", runId));
    map.put("brain eval beir", List.of("eval", "beir", "--json", beir.toString()));
    map.put("brain eval answers", List.of("eval", "answers", "--json", beir.toString()));
    map.put(
        "brain eval research",
        List.of("eval", "research", "--json", "--planner", "off", "--cases", cases.toString()));
    map.put(
        "brain eval note-research",
        List.of("eval", "note-research", "--json", "--max-notes", "1", vault.toString()));
    map.put("brain note research", List.of("note", "research", "--json", "--dry-run", note));
    map.put("brain agent", List.of("agent", "--demo", "--json"));
    return map;
  }

  @Test
  void everyJsonCommandPrintsOneJsonDocumentAndNothingElseOnStdout() throws IOException {
    for (var entry : invocations().entrySet()) {
      var args = new ArrayList<>(List.of("--data", data));
      args.addAll(entry.getValue());
      Run run = brain(args.toArray(String[]::new));
      assertThat(run.code()).as(entry.getKey() + ": " + run.err()).isIn(0, 1);
      assertThat(run.out()).as(entry.getKey() + " printed nothing").isNotBlank();
      try {
        STRICT.readTree(run.out());
      } catch (IOException e) {
        throw new AssertionError(
            entry.getKey() + " printed more than JSON on stdout:\n" + run.out(), e);
      }
    }
  }

  @Test
  void noCommandWithJsonIsLeftOut() throws IOException {
    var cli =
        BrainCommand.commandLine(
            new BrainCommand(),
            new PrintWriter(new StringWriter()),
            new PrintWriter(new StringWriter()));
    var withJson = new TreeSet<String>();
    collect(cli, withJson);
    assertThat(invocations().keySet()).containsAll(withJson);
  }

  private static void collect(CommandLine cli, java.util.Set<String> out) {
    if (cli.getCommandSpec().findOption("--json") != null) {
      out.add(cli.getCommandSpec().qualifiedName());
    }
    cli.getSubcommands().values().forEach(sub -> collect(sub, out));
  }
}
