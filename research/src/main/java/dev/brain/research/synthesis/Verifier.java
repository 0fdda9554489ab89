package dev.brain.research.synthesis;

import dev.brain.research.pack.ResearchPack;
import java.util.ArrayList;
import java.util.List;

/**
 * The hard gates of {@link Verification}, checked on a synthesis against its pack, and the soft
 * gates' warnings.
 *
 * <p>Research-internal: public only for the other research packages; not API.
 */
public final class Verifier {
  private Verifier() {}

  /**
   * The record keys an answer cites in brackets, in order of first citation, without duplicates
   * (the agent loop checks them against the keys its tools returned).
   */
  public static List<String> citedKeys(String answer) {
    return Citations.keys(answer);
  }

  public static Verification verify(ResearchPack pack, SynthesisResult synthesis) {
    var reasons = new ArrayList<String>();
    AnswerStatus status = synthesis.answerStatus();
    if (!pack.hasEvidence() && status.isAnswer()) {
      reasons.add(
          "the research pack holds no evidence, yet the answer is marked "
              + status.wireName()
              + "; a pack without evidence never yields a normal answer");
    }
    String answer = synthesis.answer() == null ? "" : synthesis.answer();
    List<String> cited = Citations.keys(answer);
    for (String key : cited) {
      if (pack.find(key).isEmpty()) {
        reasons.add(unknownKey(pack, key));
      }
    }
    for (String text : Citations.nonKeys(answer)) {
      pack.find(withPrefix(pack, text))
          .ifPresent(
              row ->
                  reasons.add(
                      "cites ["
                          + text
                          + "] without its key prefix; the key is ["
                          + row.sourceKey()
                          + "]"));
    }
    if (pack.hasEvidence() && status.isAnswer() && cited.isEmpty()) {
      reasons.add("the answer draws on evidence but cites no record key");
    }
    if (status.isAnswer()
        && synthesis.truncation() != null
        && synthesis.truncation().truncated()
        && (status != AnswerStatus.OK_TRUNCATED && status != AnswerStatus.PARTIAL
            || !synthesis.answerWarnings().contains(AnswerWarning.EVIDENCE_TRUNCATED))) {
      reasons.add(
          "the evidence was truncated but the answer is not marked ok_truncated with an"
              + " evidence_truncated warning");
    }
    // Soft gates only read an answer: a no-evidence statement or an error is not one.
    List<SoftWarning> warnings = status.isAnswer() ? SoftGates.check(answer) : List.of();
    return new Verification(reasons.isEmpty(), reasons, warnings);
  }

  private static String unknownKey(ResearchPack pack, String key) {
    String hint = "";
    int hash = key.lastIndexOf('#');
    if (hash > 0 && pack.find(key.substring(0, hash)).isPresent()) {
      hint = " (cite the record key [" + key.substring(0, hash) + "], not a chunk id)";
    } else {
      for (var row : pack.evidence()) {
        if (row.sourceKey().equalsIgnoreCase(key)) {
          hint = " (the key in the pack is [" + row.sourceKey() + "])";
        }
      }
    }
    return "cites [" + key + "], which is not a record of the research pack" + hint;
  }

  /** The pack key that ends with {@code ":" + text}, or {@code text} itself. */
  private static String withPrefix(ResearchPack pack, String text) {
    for (var row : pack.evidence()) {
      if (row.sourceKey().endsWith(":" + text)) {
        return row.sourceKey();
      }
    }
    for (var row : pack.exactTagEvidence()) {
      if (row.sourceKey().endsWith(":" + text)) {
        return row.sourceKey();
      }
    }
    return "\u0000"; // matches no key
  }
}
