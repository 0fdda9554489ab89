package dev.brain.research.synthesis;

import dev.brain.retrieval.Retriever;
import java.io.IOException;
import java.util.List;
import java.util.Optional;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.ToIntFunction;

/**
 * What synthesis reads beyond the pack: a record's stored text by key, how close in meaning texts
 * are to the question, and how many pieces the model's tokenizer cuts a word into. Any may be
 * missing: then passages come from the rows' excerpts, are ranked without meaning, and no word is
 * taken for a rare one.
 */
interface EvidenceReader {

  /** The stored text of the record {@code key}, or empty when it cannot be read. */
  Optional<String> text(String key);

  /**
   * How close in meaning each text is to {@code question}: one cosine per text, in input order (all
   * 0 where no embedding model is at hand).
   */
  double[] closeness(String question, List<String> texts);

  /**
   * How many pieces the embedding model's tokenizer cuts {@code word} into: 1 for a word its
   * vocabulary holds whole, more for a rare word or a name; 0 where no model is at hand.
   */
  int pieces(String word);

  /** Only the pack: excerpts, no meaning. */
  EvidenceReader EXCERPTS = of(key -> Optional.empty());

  /** The stored texts {@code rawText} gives, no meaning. */
  static EvidenceReader of(Function<String, Optional<String>> rawText) {
    return of(rawText, (question, texts) -> new double[texts.size()]);
  }

  /** The stored texts {@code rawText} gives, closeness from {@code meaning}. */
  static EvidenceReader of(
      Function<String, Optional<String>> rawText,
      BiFunction<String, List<String>, double[]> meaning) {
    return of(rawText, meaning, word -> 0);
  }

  /**
   * The stored texts {@code rawText} gives, closeness from {@code meaning}, a word's pieces from
   * {@code pieces}.
   */
  static EvidenceReader of(
      Function<String, Optional<String>> rawText,
      BiFunction<String, List<String>, double[]> meaning,
      ToIntFunction<String> pieces) {
    return new EvidenceReader() {
      @Override
      public Optional<String> text(String key) {
        return rawText.apply(key);
      }

      @Override
      public double[] closeness(String question, List<String> texts) {
        return meaning.apply(question, texts);
      }

      @Override
      public int pieces(String word) {
        return pieces.applyAsInt(word);
      }
    };
  }

  /**
   * The index's stored texts, embedding model and tokenizer through {@code retriever}; a text that
   * cannot be read, or a model that cannot load, is treated as missing.
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
        },
        word -> {
          try {
            return retriever.wordPieces(word);
          } catch (RuntimeException e) {
            return 0;
          }
        });
  }
}
