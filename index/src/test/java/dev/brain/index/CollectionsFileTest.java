package dev.brain.index;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The collections section of brain.yaml is read and rewritten without touching the rest. */
class CollectionsFileTest {

  @TempDir Path data;

  @Test
  void aMissingFileHasNoCollectionsAndWritingCreatesIt() throws Exception {
    var file = CollectionsFile.of(data);
    assertThat(file.read()).isEmpty();

    file.write(List.of(CollectionRoot.of("notes", data.resolve("notes"))));

    assertThat(file.read()).containsExactly(CollectionRoot.of("notes", data.resolve("notes")));
  }

  @Test
  void rewritesOnlyTheCollectionsSectionKeepingEveryOtherByte() throws Exception {
    String before =
        """
        # my brain
        server:
          port: 8742   # keep this comment

        collections:
          - name: old
            root: /tmp/old

        research:
          synthesis: extractive
        """;
    Files.writeString(data.resolve("brain.yaml"), before);
    var file = CollectionsFile.of(data);
    assertThat(file.read()).extracting(CollectionRoot::name).containsExactly("old");

    var notes =
        new CollectionRoot(
            "My Notes", data.resolve("n \"q\""), List.of("drafts/", "*.tmp.md"), 1 << 20);
    file.write(List.of(notes));

    String after = Files.readString(data.resolve("brain.yaml"));
    assertThat(after)
        .startsWith("# my brain\nserver:\n  port: 8742   # keep this comment\n\ncollections:\n")
        .endsWith("\nresearch:\n  synthesis: extractive\n")
        .doesNotContain("old");
    assertThat(file.read()).containsExactly(notes);

    file.write(List.of());
    assertThat(Files.readString(data.resolve("brain.yaml")))
        .isEqualTo(
            before.replace(
                "collections:\n  - name: old\n    root: /tmp/old\n", "collections: []\n"));
  }

  @Test
  void appendsTheSectionToAFileWithoutOne() throws Exception {
    Files.writeString(data.resolve("brain.yaml"), "server:\n  port: 9000");

    CollectionsFile.of(data).write(List.of(CollectionRoot.of("a", data)));

    assertThat(Files.readString(data.resolve("brain.yaml")))
        .startsWith("server:\n  port: 9000\ncollections:\n  - name: \"a\"\n");
  }

  @Test
  void aMalformedEntryIsReportedWithTheFileAndPosition() throws Exception {
    Files.writeString(data.resolve("brain.yaml"), "collections:\n  - name: x\n");

    assertThatThrownBy(() -> CollectionsFile.of(data).read())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("brain.yaml: collection 1 needs a 'name' and a 'root'");
  }

  @Test
  void newCollectionsAreCheckedForMissingFoldersFilesNamesAndNesting() throws Exception {
    Path notes = Files.createDirectories(data.resolve("notes"));
    Path file = Files.writeString(data.resolve("a.md"), "x");
    var existing = List.of(CollectionRoot.of("notes", notes));

    assertThatThrownBy(
            () -> CollectionCheck.checkNew(CollectionRoot.of(data.resolve("nope")), existing))
        .isInstanceOf(CollectionException.class)
        .hasMessageContaining("no such folder");
    assertThatThrownBy(() -> CollectionCheck.checkNew(CollectionRoot.of("f", file), existing))
        .hasMessageContaining("is a file, not a folder");
    assertThatThrownBy(() -> CollectionCheck.checkNew(CollectionRoot.of("notes", data), existing))
        .hasMessageContaining("a collection named 'notes' already exists");
    Path inner = Files.createDirectories(notes.resolve("inner"));
    assertThatThrownBy(() -> CollectionCheck.checkNew(CollectionRoot.of(inner), existing))
        .hasMessageContaining("lies inside the collection 'notes'");
    assertThatThrownBy(() -> CollectionCheck.checkNew(CollectionRoot.of("all", data), existing))
        .hasMessageContaining("holds the collection 'notes'");
  }
}
