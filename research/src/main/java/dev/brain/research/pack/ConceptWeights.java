package dev.brain.research.pack;

import dev.brain.research.plan.Concept;
import dev.brain.research.plan.Words;
import dev.brain.retrieval.Retriever;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * How specific each concept is in this corpus: its document frequency (chunks whose text, heading
 * or aliases hold it, as the BM25 lane matches it, read from the index's term statistics) turned
 * into a BM25-style inverse document frequency. A row that matches "backflush" and "detergent"
 * covers more of a question than one that matches "espresso", and a concept with no match anywhere
 * is reported as absent from the corpus.
 *
 * <p>A concept of several words counts its rarest word (a phrase occurs at most as often as its
 * rarest word); a synonym family counts its most frequent form.
 */
final class ConceptWeights {

  private final Map<String, Long> frequency;
  private final long chunks;

  private ConceptWeights(Map<String, Long> frequency, long chunks) {
    this.frequency = frequency;
    this.chunks = chunks;
  }

  /**
   * Counts every concept of the strategy from the index's term statistics: one document frequency
   * per distinct word, asked of the session in one go.
   */
  static ConceptWeights measure(Retriever.Session session, List<Concept> concepts)
      throws IOException {
    var words = new ArrayList<String>();
    for (Concept c : concepts) {
      for (String term : c.terms()) {
        words.addAll(words(term));
        whole(term).ifPresent(words::add);
      }
    }
    Map<String, Long> perWord = session.chunkFrequencies(words);
    var frequency = new LinkedHashMap<String, Long>();
    for (Concept c : concepts) {
      long best = 0;
      for (String term : c.terms()) {
        long min = Long.MAX_VALUE;
        for (String w : words(term)) {
          min = Math.min(min, perWord.get(w));
        }
        best = Math.max(best, min == Long.MAX_VALUE ? 0 : min);
        // The index keeps order_events one word: count it as written too, so a snake_case
        // name whose parts never stand alone is found where the text writes it.
        long asWritten = whole(term).map(perWord::get).orElse(0L);
        best = Math.max(best, asWritten);
      }
      frequency.put(c.key(), best);
    }
    return new ConceptWeights(frequency, Math.max(1, session.chunkCount()));
  }

  /**
   * A one-word term joined by underscores or hyphens ({@code order_events}, {@code
   * maintenance_work_mem}) as written, lower-cased: the index's tokenizer keeps an underscored name
   * one word, so its parts alone may occur nowhere.
   */
  private static java.util.Optional<String> whole(String term) {
    String w = Words.lower(term.strip());
    return w.indexOf('_') > 0 && !w.contains(" ")
        ? java.util.Optional.of(w)
        : java.util.Optional.empty();
  }

  /** The words of a term that count: lower-cased; stop words only when the term is one word. */
  private static List<String> words(String term) {
    var out = new ArrayList<String>();
    for (String word : term.split("[\\s\\-/_]+")) {
      String w = Words.lower(word);
      if (w.isEmpty() || Words.isStop(w) && term.contains(" ")) {
        continue;
      }
      out.add(w);
    }
    return out;
  }

  /** Chunks matching the concept (0 when it occurs nowhere). */
  long frequency(Concept concept) {
    return frequency.getOrDefault(concept.key(), 0L);
  }

  /** BM25 inverse document frequency of the concept: high for rare concepts, near 0 for common. */
  double weight(Concept concept) {
    double df = Math.min(frequency(concept), chunks);
    return Math.log(1 + (chunks - df + 0.5) / (df + 0.5));
  }

  /** The share of the corpus's chunks that match the concept. */
  double share(Concept concept) {
    return Math.min(1.0, (double) frequency(concept) / chunks);
  }

  /** Whether the concept occurs nowhere in the corpus. */
  boolean absent(Concept concept) {
    return frequency(concept) == 0;
  }
}
