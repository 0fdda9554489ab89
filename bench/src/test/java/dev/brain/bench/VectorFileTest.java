package dev.brain.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class VectorFileTest {

  @TempDir Path dir;

  @Test
  void vectorsSurviveARoundTripInOrder() throws IOException {
    var vectors = new LinkedHashMap<String, float[]>();
    vectors.put("what causes anemia?", new float[] {0.5f, -0.25f, 1e-7f});
    vectors.put("abc123", new float[] {Float.MIN_VALUE, 1, -1});
    Path file = dir.resolve("sub/vectors.bin");

    VectorFile.write(file, vectors);
    var read = VectorFile.read(file);

    assertThat(read.keySet()).containsExactly("what causes anemia?", "abc123");
    assertThat(read.get("what causes anemia?")).containsExactly(0.5f, -0.25f, 1e-7f);
    assertThat(read.get("abc123")).containsExactly(Float.MIN_VALUE, 1, -1);
    assertThat(dir.resolve("sub/vectors.bin.tmp")).doesNotExist();
  }

  @Test
  void aFileOfAnotherKindIsRefusedWithTheFix() throws IOException {
    Path file = Files.writeString(dir.resolve("other.bin"), "not vectors at all");

    assertThatThrownBy(() -> VectorFile.read(file)).hasMessageContaining("delete it");
  }
}
