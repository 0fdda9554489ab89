package dev.brain;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The defaults {@code docs/configuration.md} states are the ones brain runs with: every row of its
 * table that names one key and one default is checked against {@code brain config}'s values on an
 * empty data directory.
 */
class DocumentedDefaultsTest {

  @TempDir Path data;

  private static final Pattern ROW =
      Pattern.compile("^\\| `([a-z0-9.-]+)` \\| (?:`([^`|]*)`|none) \\|", Pattern.MULTILINE);

  @Test
  void everyDefaultTheConfigurationPageStatesIsTheOneBrainRunsWith() throws IOException {
    String page = Files.readString(Path.of("..", "docs", "configuration.md"));
    Map<String, String> documented = new LinkedHashMap<>();
    var m = ROW.matcher(page);
    while (m.find()) {
      documented.put(m.group(1), m.group(2));
    }
    Map<String, String> actual = new LinkedHashMap<>();
    BrainConfig.defaults(data).settings().forEach(s -> actual.put(s.key(), s.value()));

    assertThat(documented).hasSizeGreaterThan(40);
    var wrong = new LinkedHashMap<String, String>();
    documented.forEach(
        (key, value) -> {
          if (key.equals("collections")) {
            return; // a section: brain config lists each collection as collections.<name>
          }
          if (!actual.containsKey(key)) {
            wrong.put(key, "documented, but brain has no such setting");
          } else if (value != null && !value.equals(actual.get(key))) {
            wrong.put(key, "documented " + value + ", brain runs with " + actual.get(key));
          }
        });
    assertThat(wrong).isEmpty();
  }
}
