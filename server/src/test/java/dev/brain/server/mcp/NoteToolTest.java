package dev.brain.server.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brain.Brain;
import dev.brain.BrainConfig;
import dev.brain.McpSettings;
import dev.brain.index.CollectionRoot;
import dev.brain.index.CollectionsFile;
import io.modelcontextprotocol.spec.McpSchema;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code brain_research_note}: off by default, annotated as writing, and refusing clearly. */
class NoteToolTest {

  @TempDir static Path dir;
  static Path vault;
  static Path data;

  @BeforeAll
  static void index() throws Exception {
    vault = Files.createDirectories(dir.resolve("vault"));
    Files.writeString(vault.resolve("Grinder.md"), "# Grinder\n\nConical burrs, see [[Burrs]].\n");
    Files.writeString(vault.resolve("Burrs.md"), "# Burrs\n\nConical burrs keep retention low.\n");
    data = dir.resolve("data");
    CollectionsFile.of(data).write(List.of(CollectionRoot.of("vault", vault)));
    try (Brain brain = Brain.open(data)) {
      brain.index(List.of(vault), null);
    }
  }

  private static List<String> names(BrainConfig config) throws Exception {
    try (Brain brain = Brain.openReadOnly(config)) {
      return BrainMcp.toolSpecifications(new BrainTools(brain)).stream()
          .map(s -> s.tool().name())
          .toList();
    }
  }

  @Test
  void theWritingToolIsOffUnlessAllowed() throws Exception {
    BrainConfig config = BrainConfig.load(data);
    assertThat(config.mcp().allowWrites()).isFalse();
    assertThat(names(config)).contains("brain_search").doesNotContain("brain_research_note");
    assertThat(names(config.withMcp(new McpSettings(true)))).contains("brain_research_note");
  }

  @Test
  void isAnnotatedAsWritingAndTheOthersAsReadOnly() {
    var tools = ToolCatalog.tools(true);
    McpSchema.Tool note =
        tools.stream()
            .filter(t -> t.name().equals("brain_research_note"))
            .findFirst()
            .orElseThrow();
    assertThat(note.annotations().readOnlyHint()).isFalse();
    assertThat(note.annotations().destructiveHint()).isTrue();
    assertThat(tools.stream().filter(t -> !t.name().equals("brain_research_note")))
        .allMatch(t -> t.annotations().readOnlyHint());
    assertThat(ToolCatalog.tools()).noneMatch(t -> t.name().equals("brain_research_note"));
  }

  @Test
  void dryRunAnswersTheSectionAndRefusalsAreToolErrors() throws Exception {
    BrainConfig config = BrainConfig.load(data).withMcp(new McpSettings(true));
    try (Brain brain = Brain.openReadOnly(config)) {
      var tools = new BrainTools(brain);
      var ok =
          BrainMcp.call(
              "brain_research_note",
              tools::researchNote,
              Map.of("path", "note:vault/Grinder.md", "dry_run", true));
      assertThat(ok.isError()).isFalse();
      assertThat(ok.structuredContent().toString()).contains("## Research");
      @SuppressWarnings("unchecked")
      var structured = (Map<String, Object>) ok.structuredContent();
      assertThat(structured.get("topics_researched"))
          .isEqualTo(((List<?>) structured.get("topics")).size());
      assertThat((String) structured.get("preview"))
          .startsWith("## Research")
          .isEqualTo(
              ((String) structured.get("section"))
                  .substring(0, Math.min(500, ((String) structured.get("section")).length())));
      Path outside = Files.writeString(dir.resolve("outside.md"), "# x\n");
      var refused =
          BrainMcp.call(
              "brain_research_note", tools::researchNote, Map.of("path", outside.toString()));
      assertThat(refused.isError()).isTrue();
      assertThat(refused.content().toString()).contains("not inside a configured collection");
      String mine = "# Conical\n\nBurrs.\n\n## Research\n\nMy reading.\n";
      Path note = Files.writeString(vault.resolve("Conical.md"), mine);
      var kept =
          BrainMcp.call(
              "brain_research_note", tools::researchNote, Map.of("path", note.toString()));
      assertThat(kept.isError()).isTrue();
      assertThat(kept.content().toString()).contains("brain did not write", "replace");
      assertThat(Files.readString(note)).isEqualTo(mine);
      var replaced =
          BrainMcp.call(
              "brain_research_note",
              tools::researchNote,
              Map.of("path", note.toString(), "replace", true));
      assertThat(replaced.isError()).as(replaced.content().toString()).isFalse();
      assertThat(Files.readString(note)).doesNotContain("My reading.");
    }
    try (Brain brain = Brain.openReadOnly(BrainConfig.load(data))) {
      var off =
          BrainMcp.call(
              "brain_research_note",
              new BrainTools(brain)::researchNote,
              Map.of("path", "note:vault/Grinder.md"));
      assertThat(off.isError()).isTrue();
      assertThat(off.content().toString()).contains("mcp.allow-writes");
    }
  }
}
