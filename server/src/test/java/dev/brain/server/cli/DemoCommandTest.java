package dev.brain.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DemoCommandTest {
  @TempDir Path tmp;

  record Run(int code, String out, String err) {}

  private Run brain(String... args) {
    var out = new StringWriter();
    var err = new StringWriter();
    int code = BrainCommand.run(new PrintWriter(out, true), new PrintWriter(err, true), args);
    return new Run(code, out.toString(), err.toString());
  }

  @Test
  void indexesIntoTheDemoFolderOfTheDataDirectoryIncrementally() throws Exception {
    var vault = Files.createDirectories(tmp.resolve("vault"));
    Files.writeString(vault.resolve("a.md"), "# Espresso\n\nEighteen grams in.\n");
    var data = tmp.resolve("data").toString();

    var first =
        brain("--data", data, "demo", "--vault", vault.toString(), "--index-only", "--no-progress");
    assertThat(first.code()).as(first.err()).isZero();
    assertThat(first.out()).contains("1 added");
    assertThat(tmp.resolve("data/demo/index")).isDirectory();
    assertThat(tmp.resolve("data/index")).doesNotExist();

    var second =
        brain("--data", data, "demo", "--vault", vault.toString(), "--index-only", "--no-progress");
    assertThat(second.out()).contains("0 added", "1 unchanged");
  }

  @Test
  void aMissingVaultIsAUsageError() {
    var run = brain("--data", tmp.toString(), "demo", "--vault", tmp.resolve("nope").toString());
    assertThat(run.code()).isEqualTo(2);
    assertThat(run.err()).contains("no such folder");
  }

  @Test
  void findsTheBundledSampleVaultFromTheCheckout() {
    Path vault = DemoCommand.findSampleVault();
    assertThat(vault).isDirectory().endsWith(Path.of("samples", "vault"));
    assertThat(vault.resolve("Home.md")).isRegularFile();
  }
}
