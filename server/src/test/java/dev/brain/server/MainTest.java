package dev.brain.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MainTest {

  @TempDir Path tmp;

  @Test
  void argsFileExpandsToItsNulSeparatedArgumentsAndIsDeleted() throws IOException {
    var file = tmp.resolve("args");
    var longQuery = "espresso grind ".repeat(500) + "with\nnewline and \"quotes\"";
    Files.writeString(file, "search\0" + longQuery + "\0--limit\0" + "1\0");

    var args = Main.expandArgsFile(new String[] {"--args-file", file.toString()});

    assertThat(args).containsExactly("search", longQuery, "--limit", "1");
    assertThat(file).doesNotExist();
  }

  @Test
  void ordinaryArgumentsPassThrough() throws IOException {
    var args = new String[] {"search", "--args-file"};
    assertThat(Main.expandArgsFile(args)).isSameAs(args);
  }

  @Test
  void emptyArgsFileMeansNoArguments() throws IOException {
    var file = Files.writeString(tmp.resolve("empty"), "");
    assertThat(Main.expandArgsFile(new String[] {"--args-file", file.toString()})).isEmpty();
  }
}
