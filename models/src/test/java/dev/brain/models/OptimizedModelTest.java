package dev.brain.models;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtSession;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class OptimizedModelTest {

  @TempDir Path temp;

  private final OrtEnvironment env = OnnxNativeLibrary.environment();
  private final ByteArrayOutputStream errBytes = new ByteArrayOutputStream();
  private final PrintStream err = new PrintStream(errBytes, true, UTF_8);

  @Test
  void theFirstSessionSavesTheOptimizedCopyAndLaterOnesLoadItWithTheModelsOutput()
      throws Exception {
    Path model = model();
    Path dir = Files.createDirectory(temp.resolve("cache"));

    float[] fresh;
    try (var first = session(model, dir)) {
      fresh = hidden(first);
    }
    List<Path> copies = files(dir);
    assertThat(copies).hasSize(1);
    Path copy = copies.getFirst();
    assertThat(copy.getFileName().toString())
        .isEqualTo(OptimizedModel.name(model, env.getVersion()))
        .endsWith(OptimizedModel.SUFFIX);
    assertThat(files(copy))
        .containsExactly(copy.resolve(OptimizedModel.GRAPH), copy.resolve(OptimizedModel.WEIGHTS));
    // The weights are in their own file, which ONNX Runtime maps instead of reading.
    assertThat(Files.size(copy.resolve(OptimizedModel.WEIGHTS)))
        .isGreaterThan(Files.size(copy.resolve(OptimizedModel.GRAPH)) * 10);
    FileTime saved = Files.getLastModifiedTime(copy.resolve(OptimizedModel.GRAPH));

    float[] fromCopy;
    try (var second = session(model, dir)) {
      fromCopy = hidden(second);
    }
    // Loaded, not saved again; nothing else left in the directory.
    assertThat(files(dir)).containsExactly(copy);
    assertThat(Files.getLastModifiedTime(copy.resolve(OptimizedModel.GRAPH))).isEqualTo(saved);
    assertThat(errBytes.toString(UTF_8)).isEmpty();
    assertThat(fromCopy).containsExactly(fresh, within(1e-4f));
    try (var plain = env.createSession(model.toString(), new OrtSession.SessionOptions())) {
      assertThat(fromCopy).containsExactly(hidden(plain), within(1e-4f));
    }
  }

  @Test
  void aChangedModelGetsAFreshCopyAndTheOldOneGoes() throws Exception {
    Path model = model();
    Path dir = Files.createDirectory(temp.resolve("cache"));
    session(model, dir).close();
    Path old = files(dir).getFirst();

    Files.setLastModifiedTime(model, FileTime.from(Instant.parse("2026-01-02T03:04:05Z")));
    session(model, dir).close();

    List<Path> copies = files(dir);
    assertThat(copies).hasSize(1).doesNotContain(old);
    assertThat(copies.getFirst().getFileName().toString())
        .isEqualTo(OptimizedModel.name(model, env.getVersion()));
  }

  @Test
  void aCopyThatCannotBeLoadedIsReportedOnStderrAndMadeAgainFromTheModel() throws Exception {
    Path model = model();
    Path dir = Files.createDirectory(temp.resolve("cache"));
    Path copy = Files.createDirectory(dir.resolve(OptimizedModel.name(model, env.getVersion())));
    Files.writeString(copy.resolve(OptimizedModel.GRAPH), "not a model");

    assertRemadeAfterAWarning(model, dir, copy);
  }

  @Test
  void aCopyWhoseWeightsAreGoneIsReportedOnStderrAndMadeAgainFromTheModel() throws Exception {
    Path model = model();
    Path dir = Files.createDirectory(temp.resolve("cache"));
    session(model, dir).close();
    Path copy = files(dir).getFirst();
    Files.delete(copy.resolve(OptimizedModel.WEIGHTS));

    assertRemadeAfterAWarning(model, dir, copy);
  }

  private void assertRemadeAfterAWarning(Path model, Path dir, Path copy) throws Exception {
    float[] out;
    try (var session = session(model, dir)) {
      out = hidden(session);
    }

    String warning = errBytes.toString(UTF_8);
    assertThat(warning)
        .startsWith("warning: the optimized copy of the embedding model at " + copy)
        .contains("could not be loaded")
        .doesNotContain("Error code")
        .endsWith("it is made again from " + model + System.lineSeparator())
        .doesNotContain("ai.onnxruntime", "Exception");
    assertThat(files(dir)).containsExactly(copy);
    assertThat(Files.size(copy.resolve(OptimizedModel.WEIGHTS))).isGreaterThan(1_000_000);
    try (var plain = env.createSession(model.toString(), new OrtSession.SessionOptions())) {
      assertThat(out).containsExactly(hidden(plain), within(1e-4f));
    }
    errBytes.reset();
    try (var reloaded = session(model, dir)) {
      assertThat(hidden(reloaded)).containsExactly(out, within(1e-4f));
    }
    assertThat(errBytes.toString(UTF_8)).isEmpty();
  }

  @Test
  void theWarningGivesOnnxRuntimesReasonWithoutItsErrorCode() {
    assertThat(
            OptimizedModel.firstLine(
                "Error code - ORT_INVALID_PROTOBUF - message: Load model from m.onnx failed:"
                    + "Protobuf parsing failed.\nmore"))
        .isEqualTo("Load model from m.onnx failed:Protobuf parsing failed.");
    assertThat(OptimizedModel.firstLine("no such file")).isEqualTo("no such file");
  }

  @Test
  void theCopysNameHoldsTheModelsSizeAndTimeAndTheRuntimeVersion() throws Exception {
    Path model = Files.writeString(temp.resolve("m.onnx"), "12345");
    Files.setLastModifiedTime(model, FileTime.fromMillis(1_000));

    assertThat(OptimizedModel.name(model, "1.29.0")).isEqualTo("m.5-1000.ort-1.29.0.optimized");
  }

  /** A copy of the bundled model in the temp directory, which the tests may touch. */
  private Path model() throws Exception {
    Path bundled = ModelFile.of(EmbeddingModel.BGE_SMALL_EN_V15).orElseThrow();
    return Files.copy(bundled, temp.resolve("bge.onnx"));
  }

  private OrtSession session(Path model, Path dir) throws Exception {
    return OptimizedModel.session(
        env, model, dir, () -> OnnxSetup.sessionOptions(EmbedderOptions.defaults()), err);
  }

  private static List<Path> files(Path dir) throws Exception {
    try (Stream<Path> files = Files.list(dir)) {
      return files.sorted().toList();
    }
  }

  /** The model's output for "[CLS] espresso grind [SEP]" (BERT ids), flattened. */
  private float[] hidden(OrtSession session) throws Exception {
    long[][] ids = {{101, 26408, 25661, 102}};
    long[][] mask = {{1, 1, 1, 1}};
    long[][] types = {{0, 0, 0, 0}};
    try (var i = OnnxTensor.createTensor(env, ids);
        var m = OnnxTensor.createTensor(env, mask);
        var t = OnnxTensor.createTensor(env, types);
        var result =
            session.run(Map.of("input_ids", i, "attention_mask", m, "token_type_ids", t))) {
      float[][][] out = (float[][][]) result.get(0).getValue();
      var flat = new float[out[0].length * out[0][0].length];
      for (int k = 0; k < out[0].length; k++) {
        System.arraycopy(out[0][k], 0, flat, k * out[0][k].length, out[0][k].length);
      }
      return flat;
    }
  }
}
