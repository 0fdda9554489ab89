package dev.brain.research.plan;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A question taken apart before its words are: a chat-shaped prompt ({@code Current question:},
 * {@code Recent user questions:}, prior evidence and pinned keys under their own headings) is
 * reduced to the current question plus the earlier questions; prior evidence titles and pinned keys
 * never reach the search, so a follow-up cannot turn old evidence into new facts. Then "what do I
 * know about ..."-style openings are stripped and a correction ("no, I meant ...") is recognized.
 *
 * @param current the current question, as written
 * @param core the current question without its asking prefix and correction opening
 * @param priorQuestions earlier user questions of a chat, oldest first (empty outside a chat)
 * @param overviewPrefix whether the question opened like "what do I know about" / "tell me about"
 * @param corrective whether the question corrects the previous one
 * @param negated words the correction rules out ("not the espresso machine")
 */
record QuestionText(
    String current,
    String core,
    List<String> priorQuestions,
    boolean overviewPrefix,
    boolean corrective,
    List<String> negated) {

  private static final Pattern HEADING =
      Pattern.compile(
          "(?im)^\\s*(current question|recent user questions|prior evidence titles(?: for query"
              + " focus)?|pinned evidence keys|prior evidence|previous answer)\\s*:\\s*");

  private static final Pattern OVERVIEW =
      Pattern.compile(
          "^(?:(?:can|could|would) you |please |so |and |ok,? |okay,? )*"
              + "(?:what (?:do|did) i (?:know|have|remember|think)(?: saved| written| noted)?"
              + " (?:about|on|regarding)"
              + "|what have i (?:saved|written|noted|got|read|learned|learnt)"
              + "(?: about| on| regarding)?"
              + "|what(?:'s| is) in my (?:notes|vault|brain|corpus) (?:about|on)"
              + "|do i have (?:anything|something|notes|any notes) (?:about|on|regarding)"
              + "|(?:tell|show|give) me (?:everything |all |what i know |what i have )?"
              + "(?:about|on|regarding)"
              + "|give me an? (?:overview|summary) of(?: what i know about)?"
              + "|(?:summari[sz]e|overview of|an overview of)(?: what i know about| my notes on)?"
              + "|everything (?:i know )?about)\\b\\s*",
          Pattern.CASE_INSENSITIVE);

  private static final Pattern ASKING =
      Pattern.compile(
          "^(?:(?:can|could|would) you |please |so |and |ok,? |okay,? )*"
              + "(?:search (?:for|my notes for)|look up|find(?: me)?|show me|list(?: all)?"
              + "|remind me(?: of| about| what)?)\\b\\s*",
          Pattern.CASE_INSENSITIVE);

  private static final Pattern CORRECTION =
      Pattern.compile(
          "^(?:no|nope|wrong|not quite|actually|sorry|that's not (?:it|what i (?:meant|asked))"
              + "|that is not (?:it|what i (?:meant|asked))|not that)\\b[,.!:;]?\\s*"
              + "(?:i (?:meant|mean|was asking about|asked about)\\s*)?"
              + "|^i (?:meant|mean|was asking about)\\s+",
          Pattern.CASE_INSENSITIVE);

  private static final Pattern NEGATION =
      Pattern.compile(
          "(?:,|;|\\band\\b)?\\s*\\b(?:not|rather than|instead of)\\s+(?:the\\s+|a\\s+|an\\s+|my\\s+)?"
              + "([^,.;?!]+)",
          Pattern.CASE_INSENSITIVE);

  QuestionText {
    priorQuestions = List.copyOf(priorQuestions);
    negated = List.copyOf(negated);
  }

  /** Takes a question (plain or chat-shaped) apart. */
  static QuestionText parse(String input) {
    String current = input.strip();
    List<String> prior = List.of();
    Matcher m = HEADING.matcher(input);
    if (m.find()) {
      var sections = sections(input);
      current = sections.current.isBlank() ? current : sections.current;
      prior = sections.prior;
    }
    return fromCurrent(current, prior);
  }

  private static QuestionText fromCurrent(String current, List<String> prior) {
    String core = current.strip();
    boolean corrective = false;
    Matcher c = CORRECTION.matcher(core);
    if (c.find() && c.end() > 0) {
      corrective = true;
      core = core.substring(c.end());
    }
    var negated = new ArrayList<String>();
    if (corrective) {
      Matcher n = NEGATION.matcher(core);
      var kept = new StringBuilder();
      int last = 0;
      while (n.find()) {
        negated.add(n.group(1).strip());
        kept.append(core, last, n.start());
        last = n.end();
      }
      kept.append(core.substring(last));
      core = kept.toString().strip();
    }
    boolean overview = false;
    Matcher o = OVERVIEW.matcher(core);
    if (o.find()) {
      overview = true;
      core = core.substring(o.end());
    } else {
      Matcher a = ASKING.matcher(core);
      if (a.find()) {
        core = core.substring(a.end());
      }
    }
    core = core.replaceAll("^[\\s,.:;!?-]+|[\\s?!.]+$", "");
    return new QuestionText(current, core, prior, overview, corrective, negated);
  }

  /** Whether this is a follow-up in a chat (there are earlier questions). */
  boolean inChat() {
    return !priorQuestions.isEmpty();
  }

  /** The most recent earlier question, or {@code null}. */
  String previousQuestion() {
    return priorQuestions.isEmpty() ? null : priorQuestions.get(priorQuestions.size() - 1);
  }

  private record Sections(String current, List<String> prior) {}

  private static Sections sections(String input) {
    Matcher m = HEADING.matcher(input);
    var names = new ArrayList<String>();
    var starts = new ArrayList<int[]>();
    while (m.find()) {
      names.add(m.group(1).toLowerCase(Locale.ROOT));
      starts.add(new int[] {m.start(), m.end()});
    }
    String current = "";
    var prior = new ArrayList<String>();
    for (int i = 0; i < names.size(); i++) {
      int end = i + 1 < starts.size() ? starts.get(i + 1)[0] : input.length();
      String body = input.substring(starts.get(i)[1], end).strip();
      if (names.get(i).equals("current question")) {
        current = body;
      } else if (names.get(i).equals("recent user questions")) {
        for (String line : body.split("\\R")) {
          String q = line.replaceFirst("^\\s*(?:[-*•]|\\d+[.)])\\s*", "").strip();
          if (!q.isEmpty()) {
            prior.add(q);
          }
        }
      }
      // Prior evidence titles, pinned keys and previous answers are deliberately ignored.
    }
    // Text before the first heading is the current question when no heading names it.
    if (current.isBlank() && !starts.isEmpty()) {
      current = input.substring(0, starts.get(0)[0]).strip();
    }
    if (!prior.isEmpty() && prior.get(prior.size() - 1).equalsIgnoreCase(current)) {
      prior.remove(prior.size() - 1);
    }
    return new Sections(current, prior);
  }
}
