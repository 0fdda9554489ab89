package dev.brain.research;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brain.index.BrainIndex;
import dev.brain.index.IndexConfig;
import dev.brain.research.pack.ResearchOptions;
import dev.brain.research.pack.TopicBrief;
import dev.brain.retrieval.Retriever;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A topic brief says what its long seed records are about in their summaries' own words. */
class TopicBriefSummaryTest {

  @TempDir Path dir;

  @Test
  void aTopicBriefQuotesTheOpeningOfItsSeedsSummaries() throws IOException {
    Path vault = Files.createDirectories(dir.resolve("vault"));
    var note = new StringBuilder("---\ntags: [island]\n---\n# Island weekend\n\n");
    note.append("Two days on the island in spring.\n\n");
    for (String day : List.of("Saturday", "Sunday", "Monday")) {
      note.append("## ").append(day).append("\n\nWe cycled around the island again.\n\n");
      note.append("The ferry horn sounded twice.\n\n");
    }
    Files.writeString(vault.resolve("weekend.md"), note);
    Files.writeString(
        vault.resolve("ferry.md"), "---\ntags: [island]\n---\n# Ferry\n\nThe island ferry.\n");
    try (BrainIndex index = BrainIndex.open(IndexConfig.defaults(dir.resolve("data")))) {
      index.sync(List.of(vault));
      var researcher = new Researcher(new Retriever(index));
      TopicBrief brief =
          researcher
              .research("What do I know about island?", ResearchOptions.defaults())
              .pack()
              .topicBrief();
      assertThat(brief).isNotNull();
      assertThat(brief.summary())
          .startsWith("Topic \"island\"")
          .contains("In their summaries: Island weekend: Two days on the island in spring.");
    }
  }
}
