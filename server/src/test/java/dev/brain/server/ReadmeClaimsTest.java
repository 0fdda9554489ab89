package dev.brain.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brain.ServerSettings;
import dev.brain.index.BrainIndex;
import dev.brain.index.IndexConfig;
import dev.brain.server.http.SampleVaultData;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The numbers the README states that a test can hold: the sample vault's chunk count and the
 * default port of the links it shows. (Timings and test counts carry the command and machine they
 * came from instead.)
 */
class ReadmeClaimsTest {

  private static String read(String... path) throws IOException {
    return Files.readString(Path.of("..", path));
  }

  private static int number(String text, String regex) {
    var m = Pattern.compile(regex).matcher(text);
    assertThat(m.find()).as("the page says %s", regex).isTrue();
    return Integer.parseInt(m.group(1).replace(",", ""));
  }

  @Test
  void theSampleVaultHasAsManyChunksAsTheReadmeSays() throws IOException {
    int said = number(read("README.md"), "vault's (\\d+) chunks");
    try (var index =
        BrainIndex.openReadOnly(IndexConfig.defaults(SampleVaultData.dataDir()), null)) {
      assertThat(index.stats().chunks()).isEqualTo(said);
    }
  }

  @Test
  void theReadmesLinksUseTheDefaultPort() throws IOException {
    var ports = Pattern.compile("http://127\\.0\\.0\\.1:(\\d+)/").matcher(read("README.md"));
    int links = 0;
    while (ports.find()) {
      links++;
      assertThat(Integer.parseInt(ports.group(1))).isEqualTo(ServerSettings.DEFAULT_PORT);
    }
    assertThat(links).isPositive();
  }
}
