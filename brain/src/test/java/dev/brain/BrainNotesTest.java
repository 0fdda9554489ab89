package dev.brain;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brain.index.CollectionRoot;
import dev.brain.index.CollectionsFile;
import dev.brain.research.note.NoteRequest;
import dev.brain.research.note.NoteResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link Brain#researchNote}: the one write path through the front door. */
class BrainNotesTest {
  @TempDir Path dir;

  @Test
  void researchingANoteWritesItsSectionReindexesItAndSavesATrace() throws Exception {
    Path vault = Files.createDirectories(dir.resolve("vault"));
    Files.writeString(
        vault.resolve("Grinder.md"),
        "# Grinder\n\nThe [[Espresso]] grind is 15 on the burr grinder.\n\n## Burrs\n\nConical.\n");
    Files.writeString(
        vault.resolve("Espresso.md"),
        "# Espresso\n\n18 g in, 36 g out. Grind 15 on the burr grinder with conical burrs.\n");
    Path data = dir.resolve("data");
    var collections = List.of(CollectionRoot.of("vault", vault));
    CollectionsFile.of(data).write(collections);
    try (Brain brain = Brain.open(data)) {
      brain.sync(collections, null);
      NoteResult r = brain.researchNote(NoteRequest.of(vault.resolve("Grinder.md")));
      assertThat(r.written()).isTrue();
      assertThat(r.reindex()).isEqualTo("done");
      assertThat(brain.traces().find(r.traceId())).isPresent();
      assertThat(brain.get(r.key()).orElseThrow().record().text()).contains("## Research");
    }
  }
}
