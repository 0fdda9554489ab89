package dev.brain.research.synthesis;

import dev.brain.retrieval.Retriever;
import java.io.IOException;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * What synthesis reads beyond the pack: a record's stored text by key, and how close in meaning
 * texts are to the question. Either may be missing: then passages come from the rows' excerpts, and
 * are ranked without meaning.
 */
interface EvidenceReader {

  /** The stored text of the record {@code key}, or empty when it cannot be read. */
  Optional<String> text(String key);

  /**
   * How close in meaning each text is to {@code question}: one cosine per text, in input order (all
   * 0 where no embedding model is at hand).
   */
  double[] closeness(String question, List<String> texts);

  /** Only the pack: excerpts, no meaning. */
  EvidenceReader EXCERPTS = of(key -> Optional.empty());

  /** The stored texts {@code rawText} gives, no meaning. */
  static EvidenceReader of(Function<String, Optional<String>> rawText) {
    return of(rawText, (question, texts) -> new double[texts.size()]);
  }

  /** The stored texts {@code rawText} gives, closeness from {@code meaning}. */
  static EvidenceReader of(
      Function<String, Optional<String>> rawText,
      java.util.function.BiFunction<String, List<String>, double[]> meaning) {
    return new EvidenceReader() {
      @Override
      public Optional<String> text(String key) {
        return rawText.apply(key);
      }

      @Override
      public double[] closeness(String question, List<String> texts) {
        return meaning.apply(question, texts);
      }
    };
  }

  /**
   * The index's stored texts and embedding model through {@code retriever}; a text that cannot be
   * read, or a model that cannot load, is treated as missing.
   */
  static EvidenceReader of(Retriever retriever) {
    return of(
        key -> {
          try {
            return retriever.get(key).map(d -> d.record().text());
          } catch (IOException | RuntimeException e) {
            return Optional.empty();
          }
        },
        (question, texts) -> {
          try {
            return retriever.similarities(question, texts);
          } catch (RuntimeException e) {
            return new double[texts.size()];
          }
        });
  }
}
