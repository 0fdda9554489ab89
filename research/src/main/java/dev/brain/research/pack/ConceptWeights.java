package dev.brain.research.pack;

import dev.brain.research.plan.Concept;
import dev.brain.research.plan.Words;
import dev.brain.retrieval.Lane;
import dev.brain.retrieval.Retriever;
import dev.brain.retrieval.SearchOptions;
import java.io.IOException;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * How specific each concept is in this corpus: its document frequency (chunks matching it in the
 * BM25 lane) turned into a BM25-style inverse document frequency. A row that matches "backflush"
 * and "detergent" covers more of a question than one that matches "espresso", and a concept with no
 * match anywhere is reported as absent from the corpus.
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

  /** Counts every concept of the strategy with one cheap BM25-only search per distinct word. */
  static ConceptWeights measure(Retriever retriever, List<Concept> concepts, long chunks)
      throws IOException {
    var perWord = new HashMap<String, Long>();
    var frequency = new LinkedHashMap<String, Long>();
    SearchOptions bm25Only =
        SearchOptions.builder().lanes(Lane.BM25).limit(1).depth(1).maxExcerptChars(40).build();
    for (Concept c : concepts) {
      long best = 0;
      for (String term : c.terms()) {
        best = Math.max(best, phraseFrequency(retriever, term, bm25Only, perWord));
      }
      frequency.put(c.key(), best);
    }
    return new ConceptWeights(frequency, Math.max(1, chunks));
  }

  private static long phraseFrequency(
      Retriever retriever, String term, SearchOptions options, Map<String, Long> perWord)
      throws IOException {
    long min = Long.MAX_VALUE;
    for (String word : term.split("[\\s\\-/_]+")) {
      String w = Words.lower(word);
      if (w.isEmpty() || Words.isStop(w) && term.contains(" ")) {
        continue;
      }
      Long df = perWord.get(w);
      if (df == null) {
        df = retriever.search(w, options).lane(Lane.BM25).totalMatches();
        perWord.put(w, df);
      }
      min = Math.min(min, df);
    }
    return min == Long.MAX_VALUE ? 0 : min;
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

  /** Whether the concept occurs nowhere in the corpus. */
  boolean absent(Concept concept) {
    return frequency(concept) == 0;
  }
}
