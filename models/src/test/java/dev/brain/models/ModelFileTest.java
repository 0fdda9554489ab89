package dev.brain.models;

import static org.assertj.core.api.Assertions.assertThat;

import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtSession;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ModelFileTest {

  @Test
  void extractsTheBundledGraphOnceWithTheResourcesBytes() throws Exception {
    var model = EmbeddingModel.ALL_MINILM_L6_V2;
    Path file = ModelFile.of(model).orElseThrow();

    byte[] resource;
    try (InputStream in = ModelFile.class.getResourceAsStream(model.onnxResource())) {
      resource = in.readAllBytes();
    }
    assertThat(Files.readAllBytes(file)).isEqualTo(resource);
    assertThat(file.getFileName().toString()).endsWith(".onnx");
    // A second call reuses the copy.
    assertThat(ModelFile.of(model)).contains(file);
  }

  @Test
  void aModelWithoutItsResourceFallsBackToTheResourceError() {
    var missing =
        new EmbeddingModel(
            "missing",
            384,
            512,
            EmbeddingModel.Pooling.CLS,
            "",
            "/no-such-model.onnx",
            "/no-such-tokenizer.json");
    assertThat(ModelFile.of(missing)).isEmpty();
  }

  @Test
  void aSessionFromTheFileComputesExactlyWhatOneFromTheBytesDoes() throws Exception {
    var model = EmbeddingModel.BGE_SMALL_EN_V15;
    Path file = ModelFile.of(model).orElseThrow();
    byte[] bytes;
    try (InputStream in = ModelFile.class.getResourceAsStream(model.onnxResource())) {
      bytes = in.readAllBytes();
    }
    var env = OnnxNativeLibrary.environment();
    try (var fromFile = env.createSession(file.toString());
        var fromBytes = env.createSession(bytes)) {
      assertThat(hidden(env, fromFile)).containsExactly(hidden(env, fromBytes));
    }
  }

  /** The model's output for "[CLS] espresso [SEP]" (BERT ids), flattened. */
  private static float[] hidden(OrtEnvironment env, OrtSession session) throws Exception {
    long[][] ids = {{101, 26408, 102}};
    long[][] mask = {{1, 1, 1}};
    long[][] types = {{0, 0, 0}};
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
