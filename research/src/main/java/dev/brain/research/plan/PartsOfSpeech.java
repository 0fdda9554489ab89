package dev.brain.research.plan;

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
 *
 * <p>Research-internal: public only for the other research packages; not API.
 */
public final class PartsOfSpeech {
  private PartsOfSpeech() {}

  /** The model's resource, at the root of its jar. */
  static final String MODEL_FILE = "opennlp-en-ud-ewt-pos-1.3-2.5.4.bin";

  private static final Set<String> NOUNS = Set.of("NOUN", "PROPN");

  /** Tags of words that act on the words after them: a verb and an adverb. */
  private static final Set<String> ACTING = Set.of("VERB", "ADV");

  /** Tags of the words a name modifies when it stands before them ("tailwind css classes"). */
  private static final Set<String> MODIFIED = Set.of("NOUN", "PROPN", "ADJ");

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
  public static final class Tagged {
    private final Span[] spans;
    private final String[] tags;

    private Tagged(Span[] spans, String[] tags) {
      this.spans = spans;
      this.tags = tags;
    }

    /** Whether its first word is tagged as a verb: an instruction ("install zola on alpine"). */
    public boolean opensWithVerb() {
      return tags.length > 0 && "VERB".equals(tags[0]);
    }

    /**
     * Whether the word covering offset {@code at} is tagged as a noun (or a proper noun), or, being
     * {@code rare} (a word the model may not know, whose tag is a guess), is not read as a verb or
     * adverb acting on what follows it. The tagger guesses an unknown name as anything: "add
     * <em>disqus</em> comments" an auxiliary, "sort <em>tailwind</em> css classes" a verb, "in
     * <em>zed</em> editor" an adjective, "what does <em>enableGlobalCache</em> do" punctuation; a
     * rare word tagged as a verb stays one when no noun or adjective follows it ("<em>prettify</em>
     * my Caddyfile", "how to <em>unhide</em>").
     */
    public boolean nounAt(int at, boolean rare) {
      int i = indexAt(at);
      if (i < 0) {
        return false;
      }
      String tag = tags[i];
      if (NOUNS.contains(tag)) {
        return true;
      }
      if (!rare) {
        return false;
      }
      if (ACTING.contains(tag)) {
        return i + 1 < tags.length && MODIFIED.contains(tags[i + 1]);
      }
      return true;
    }

    private int indexAt(int at) {
      for (int i = 0; i < spans.length; i++) {
        if (spans[i].getStart() <= at && at < spans[i].getEnd()) {
          return i;
        }
      }
      return -1;
    }
  }

  /**
   * Those of {@code words} that {@code text} uses (each at its first occurrence, as whole words,
   * ignoring case) to say how something is ("very <em>slow</em>", "<em>smaller</em> install"), what
   * it does or how ("got <em>stuck</em>"): tagged an adjective, a verb or an adverb, not a noun or
   * a name. The text is tagged once, and only when one of the words is in it; none when the model
   * cannot be read.
   */
  public static Set<String> describing(String text, java.util.Collection<String> words) {
    var out = new java.util.HashSet<String>();
    Tagged tagged = null;
    for (String word : words) {
      java.util.regex.Matcher m = Words.find(text, word);
      if (m == null) {
        continue;
      }
      if (tagged == null) {
        tagged = of(text);
      }
      int i = tagged.indexAt(m.start());
      if (i >= 0 && DESCRIBING.contains(tagged.tags[i])) {
        out.add(word);
      }
    }
    return out;
  }

  /** Tags of words that say how something is or what it does. */
  private static final Set<String> DESCRIBING = Set.of("ADJ", "VERB", "ADV");

  /** {@code text} tagged; no word is a noun when the model cannot be read. */
  public static Tagged of(String text) {
    POSModel model = Holder.MODEL;
    if (model == null) {
      return new Tagged(new Span[0], new String[0]);
    }
    Span[] spans = SimpleTokenizer.INSTANCE.tokenizePos(text);
    return new Tagged(spans, new POSTaggerME(model).tag(Span.spansToStrings(spans, text)));
  }
}
