package dev.brain.research.synthesis;

import java.io.IOException;
import java.io.InputStream;
import java.util.Set;
import opennlp.tools.postag.POSModel;
import opennlp.tools.postag.POSTaggerME;
import opennlp.tools.tokenize.SimpleTokenizer;
import opennlp.tools.util.Span;

/**
 * Which words of a question are nouns: Apache OpenNLP's English part-of-speech tagger (the
 * Universal Dependencies model trained on the English Web Treebank, {@code opennlp-models-pos-en}),
 * loaded once. A noun or proper noun names a thing the question asks about ("a pytest
 * <em>fixture</em>", "the price in <em>euros</em>"); a verb, adjective or adverb is how the user
 * says it ("it is <em>stuck</em>", "which one <em>wins</em>") and a passage may say it otherwise.
 * When the model cannot be read, no word is a noun (the answer then decides as without it).
 */
final class PartsOfSpeech {
  private PartsOfSpeech() {}

  /** The model's resource, at the root of its jar. */
  static final String MODEL_FILE = "opennlp-en-ud-ewt-pos-1.3-2.5.4.bin";

  private static final Set<String> NOUNS = Set.of("NOUN", "PROPN");

  /**
   * Tags of closed classes (and "other"): every word of them is in the model's training text, so a
   * word the model does not know that it tags so is a guess ("add <em>disqus</em> comments" tagged
   * as an auxiliary), most often a name.
   */
  private static final Set<String> CLOSED =
      Set.of("AUX", "DET", "PRON", "ADP", "CCONJ", "SCONJ", "PART", "INTJ", "X");

  private static final class Holder {
    static final POSModel MODEL = load();

    private static POSModel load() {
      try (InputStream in = PartsOfSpeech.class.getClassLoader().getResourceAsStream(MODEL_FILE)) {
        return in == null ? null : new POSModel(in);
      } catch (IOException | RuntimeException e) {
        return null;
      }
    }
  }

  /** The words of a text and their tags. */
  record Tagged(Span[] spans, String[] tags) {
    /**
     * Whether the word covering offset {@code at} is tagged as a noun (or a proper noun), or, being
     * {@code rare} (a word the model may not know), as a word of a closed class: a rare word is
     * none of those.
     */
    boolean nounAt(int at, boolean rare) {
      String tag = tagAt(at);
      return NOUNS.contains(tag) || rare && CLOSED.contains(tag);
    }

    private String tagAt(int at) {
      for (int i = 0; i < spans.length; i++) {
        if (spans[i].getStart() <= at && at < spans[i].getEnd()) {
          return tags[i];
        }
      }
      return "";
    }
  }

  /** {@code text} tagged; no word is a noun when the model cannot be read. */
  static Tagged of(String text) {
    POSModel model = Holder.MODEL;
    if (model == null) {
      return new Tagged(new Span[0], new String[0]);
    }
    Span[] spans = SimpleTokenizer.INSTANCE.tokenizePos(text);
    return new Tagged(spans, new POSTaggerME(model).tag(Span.spansToStrings(spans, text)));
  }
}
