package dev.brain.models;

import ai.djl.huggingface.tokenizers.Encoding;
import ai.djl.huggingface.tokenizers.HuggingFaceTokenizer;
import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.FloatBuffer;
import java.nio.LongBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
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

  /** The system property that makes sessions load the model's optimized copy. */
  static final String OPTIMIZED_COPY = "brain.onnx.optimized-copy";

  /** Most passages tokenized and bucketed together. */
  static final int WINDOW = 1_024;

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
    byte[] onnx = onnxFile.isPresent() ? null : OnnxSetup.readResource(model, model.onnxResource());
    byte[] tokenizerJson = OnnxSetup.readResource(model, model.tokenizerResource());
    OnnxSetup.keepDjlOffline();
    HuggingFaceTokenizer tokenizer = null;
    OrtSession session = null;
    try {
      tokenizer = OnnxSetup.tokenizer(tokenizerJson, OnnxSetup.truncatingOptions(model));
      OrtEnvironment environment = OnnxNativeLibrary.environment();
      // No usage events; the launcher also sets ORT_DISABLE_TELEMETRY, which ONNX Runtime reads
      // before this point and which alone keeps its telemetry files from being created.
      environment.setTelemetry(false);
      session =
          onnxFile.isPresent()
              ? fileSession(environment, onnxFile.get(), options)
              : environment.createSession(onnx, OnnxSetup.sessionOptions(options));
      requireOutput(model, session);
      return new OnnxEmbedder(model, options, environment, session, tokenizer, tokenizerJson);
    } catch (OrtException | IOException | RuntimeException e) {
      OnnxSetup.closeQuietly(tokenizer);
      OnnxSetup.closeQuietly(session);
      throw new IllegalStateException(
          "Cannot load embedding model %s from %s: %s"
              .formatted(model.id(), model.onnxResource(), e.getMessage()),
          e);
    }
  }

  /**
   * A session for the model file: with the system property {@value #OPTIMIZED_COPY} set to {@code
   * true}, through its optimized copy ({@link OptimizedModel}) in the private model directory (or
   * straight from the file when there is no such directory or the copy cannot be written there);
   * without it, straight from the file.
   *
   * <p>The copy is for processes that load the model to embed a query or two and exit (the launcher
   * sets the property for {@code brain search}): their session costs about 80 ms less CPU and their
   * peak memory is about 15 MB lower. A long-running process (a server, an indexing run) creates
   * its session once, and the copy's weights file stays mapped beside the weights ONNX Runtime
   * repacks from it (about 30 MB more resident memory in {@code brain index}).
   */
  private static OrtSession fileSession(
      OrtEnvironment environment, Path model, EmbedderOptions options) throws OrtException {
    try {
      Optional<Path> dir =
          Boolean.getBoolean(OPTIMIZED_COPY) ? ModelFile.directory() : Optional.empty();
      if (dir.isPresent()) {
        return OptimizedModel.session(
            environment, model, dir.get(), () -> OnnxSetup.sessionOptions(options), System.err);
      }
    } catch (IOException e) {
      // No place for the optimized copy: optimize in memory, as without one.
    }
    return environment.createSession(model.toString(), OnnxSetup.sessionOptions(options));
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
        counter = OnnxSetup.tokenizer(tokenizerJson, OnnxSetup.countingOptions());
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
      OnnxSetup.closeQuietly(tokenizer);
      synchronized (this) {
        OnnxSetup.closeQuietly(counter);
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

  private static void requireOutput(EmbeddingModel model, OrtSession session) {
    if (!session.getOutputNames().contains(OUTPUT)) {
      throw new IllegalStateException(
          "Embedding model %s has no %s output (outputs: %s)"
              .formatted(model.id(), OUTPUT, session.getOutputNames()));
    }
  }
}
