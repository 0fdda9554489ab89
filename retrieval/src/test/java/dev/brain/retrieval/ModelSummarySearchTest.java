package dev.brain.retrieval;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brain.index.BrainIndex;
import dev.brain.index.IndexConfig;
import dev.brain.index.SummaryModel;
import dev.brain.models.chat.FakeOpenAiServer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A long note's model-written summary ({@code index.summary-model}) is searched in both lanes in
 * place of its extractive one: a phrase only the model wrote finds the note through a row whose
 * role is {@code summary} and whose excerpt is the model's text.
 */
class ModelSummarySearchTest {

  private static final String MODEL_TEXT =
      "The glimmerwick tidal archive of the island records every spring tide since the lighthouse"
          + " was built.";

  @TempDir Path dir;

  @Test
  void aLongNoteIsFoundThroughItsModelSummaryInBothLanes() throws IOException {
    Path vault = Files.createDirectories(dir.resolve("vault"));
    var note = new StringBuilder("# Island weekend\n\nTwo days on the island in spring.\n\n");
    for (String day : List.of("Saturday", "Sunday", "Monday")) {
      note.append("## ").append(day).append("\n\nWe cycled past the salt lakes to the fort. ");
      note.append("The ferry horn sounded twice while the wind turned west. ".repeat(4));
      note.append("\n\nIn the evening we ate at the bakery by the jetty.\n\n");
    }
    Files.writeString(vault.resolve("island.md"), note);
    Files.writeString(vault.resolve("other.md"), "# Other\n\nA short note about tea.\n");
    try (FakeOpenAiServer openAi = FakeOpenAiServer.start()) {
      openAi.enqueue(FakeOpenAiServer.answer("fake", List.of(MODEL_TEXT), 90, 20));
      var config =
          IndexConfig.defaults(dir.resolve("data"))
              .withSummaryModel(SummaryModel.of("openai/fake", openAi.config()));
      try (BrainIndex index = BrainIndex.open(config)) {
        index.sync(List.of(vault));
        var retriever = new Retriever(index);
        for (Lane lane : List.of(Lane.BM25, Lane.VECTOR)) {
          var options = SearchOptions.builder().lanes(lane).limit(1).build();
          EvidenceRow top =
              retriever.search("glimmerwick tidal archive", options).rows().getFirst();
          assertThat(top.sourceKey()).as(lane.toString()).isEqualTo("note:vault/island.md");
          assertThat(top.evidenceRole()).as(lane.toString()).isEqualTo("summary");
          assertThat(top.excerpt()).as(lane.toString()).contains("glimmerwick tidal archive");
          assertThat(top.summary()).as(lane.toString()).isEqualTo(MODEL_TEXT);
        }
      }
    }
  }
}
