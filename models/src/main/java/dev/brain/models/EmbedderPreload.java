package dev.brain.models;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The one background load {@link Embedder#preload} starts per process, with one tiny query run to
 * warm the graph, handed over to the first {@link Embedder#open} of the same model and options. A
 * load that failed is not handed over: the caller loads again and sees the error itself.
 */
final class EmbedderPreload {
  private static boolean started; // guarded by EmbedderPreload.class
  private static EmbeddingModel model;
  private static EmbedderOptions options;
  private static CompletableFuture<Embedder> pending;

  private EmbedderPreload() {}

  static synchronized void start(EmbeddingModel model, EmbedderOptions options) {
    if (started) {
      return;
    }
    started = true;
    EmbedderPreload.model = model;
    EmbedderPreload.options = options;
    var future = new CompletableFuture<Embedder>();
    pending = future;
    Thread.ofPlatform()
        .daemon()
        .name("brain-embedder-preload")
        .start(
            () -> {
              try {
                var embedder = OnnxEmbedder.load(model, options);
                // One tiny query warms the graph (ONNX Runtime prepares its kernels and buffers on
                // the first run), so the caller's own first query does not pay for it.
                try {
                  embedder.embedQuery("warm-up");
                } catch (RuntimeException e) {
                  embedder.close();
                  throw e;
                }
                future.complete(embedder);
              } catch (RuntimeException | Error e) {
                future.completeExceptionally(e);
              }
            });
  }

  /**
   * Waits at most {@code max} for the load to end when one is under way and was not taken over: a
   * process must not exit while ONNX Runtime creates a session or runs on another thread (its exit
   * handlers then crash the JVM with SIGSEGV in {@code libonnxruntime}).
   */
  static void await(Duration max) {
    CompletableFuture<Embedder> future;
    synchronized (EmbedderPreload.class) {
      future = pending;
    }
    if (future == null) {
      return;
    }
    try {
      future.get(max.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (ExecutionException | TimeoutException e) {
      // A failed load is over; one slower than max is left to the exit.
    }
  }

  /** Whether a load was started and has not ended yet. */
  static synchronized boolean loading() {
    return pending != null && !pending.isDone();
  }

  /** The preloaded embedder of {@code model} and {@code options} (waiting for it); else null. */
  static Embedder take(EmbeddingModel model, EmbedderOptions options) {
    CompletableFuture<Embedder> future;
    synchronized (EmbedderPreload.class) {
      if (pending == null
          || !model.equals(EmbedderPreload.model)
          || !options.equals(EmbedderPreload.options)) {
        return null;
      }
      future = pending;
      pending = null;
    }
    try {
      return future.join();
    } catch (CompletionException e) {
      return null;
    }
  }
}
