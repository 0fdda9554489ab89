package dev.brain.research.synthesis;

import dev.brain.chunking.MarkdownBlocks.Block;
import dev.brain.chunking.MarkdownBlocks.Kind;
import dev.brain.chunking.MarkdownBlocks.Unit;
import dev.brain.research.pack.ConceptMatch;
import dev.brain.research.plan.Concept;
import dev.brain.research.plan.Words;
import dev.brain.retrieval.EvidenceRow;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The sentences of the retrieved blocks that a passage may be built around, each with the concepts
 * it covers. A sentence covers what its words match (the words of a link's text, which name another
 * note's subject, and the section's headings count as context, {@link Candidate#inherited}); the
 * first statement under a heading (or a callout's title) also what the heading names ("Updating and
 * Uninstalling / From your shell, run the following update script:"); a sentence leading into a
 * code block also what the code names; one opening with a pronoun also what the sentence before it
 * covers; every sentence of a row the user tagged with a concept covers it. Headings, a title
 * repeated as a line, bare links, a bookmark's folder line, questions, sentences cut by an
 * excerpt's edge and lines that only point elsewhere are left out; but a section holding only a
 * short code block is one statement, its heading (the code's words its context).
 */
final class Candidates {
  private Candidates() {}

  /** The candidates of {@code rows}, in row and text order. */
  static List<Candidate> of(List<RowText> rows, Asked asked) {
    var out = new ArrayList<Candidate>();
    for (RowText t : rows) {
      out.addAll(of(t, asked));
    }
    return out;
  }

  private static List<Candidate> of(RowText t, Asked asked) {
    var out = new ArrayList<Candidate>();
    Set<String> headings = headings(t);
    boolean first = true;
    String opens = "";
    for (int b = 0; b < t.blocks.size(); b++) {
      Block block = t.blocks.get(b);
      if (block.kind() == Kind.HEADING) {
        opens = block.units().getFirst().text();
        continue;
      }
      if (block.kind() == Kind.CODE) {
        // Not for a pasted error message: an example's output repeats it without explaining it.
        if (!opens.isEmpty()
            && asked.form() != QuestionForm.ERROR
            && codeOnly(t, b)
            && t.retrieved(b)) {
          out.add(codeUnderHeading(t, b, opens, asked));
          first = false;
          opens = "";
        }
        continue;
      }
      if (!block.title().isEmpty()) {
        opens = block.title();
      }
      Set<String> context = Asked.context(t, b);
      for (int u = 0; u < block.units().size(); u++) {
        Unit unit = block.units().get(u);
        Set<Concept> before = Set.of();
        List<String> sentences = t.sentences(b, u);
        for (int s = 0; s < sentences.size(); s++) {
          String shown = sentences.get(s);
          String plain = Sentences.plain(shown);
          if (!states(t, b, u, s, plain, unit, headings)) {
            continue;
          }
          boolean lead = first && !t.isNote();
          first = false;
          if (!t.retrieved(b)) {
            continue;
          }
          String said = withoutSpeaker(t.row, plain);
          // A link names another note's subject: the words of its text count as context only.
          var stems = new HashSet<>(Words.stems(withoutLinks(said, unit.links())));
          var linked = new HashSet<>(context);
          unit.links().stream().filter(said::contains).forEach(l -> linked.addAll(Words.stems(l)));
          // The first statement under a heading is about what the heading names.
          stems.addAll(Words.stems(opens));
          opens = "";
          boolean introduces =
              Sentences.leadsIn(plain) && s == sentences.size() - 1 && introducesBlock(t, b);
          if (introduces) {
            stems.addAll(Words.stems(t.blocks.get(b + 1).text()));
          }
          var covered = new LinkedHashSet<Concept>();
          var inherited = new LinkedHashSet<Concept>();
          cover(asked, t, stems, linked, covered, inherited);
          if (s > 0 && Sentences.opensWithPronoun(plain)) {
            covered.addAll(before);
            inherited.removeAll(before);
          }
          before = covered;
          covered.addAll(inherited);
          boolean offers = asked.offers(t, b, shown, introduces);
          out.add(new Candidate(t, b, u, s, shown, said, covered, inherited, offers, lead, 0));
        }
      }
    }
    // A record with one statement has nothing its first line stands out from.
    if (out.size() == 1 && out.get(0).lead()) {
      out.set(0, notLead(out.get(0)));
    }
    return out;
  }

  /**
   * Adds the concepts a sentence covers to {@code covered}: those its own words match ({@code
   * stems}) or the row's user tags name; and to {@code inherited} those only its context ({@code
   * linked}: link texts and headings) matches.
   */
  private static void cover(
      Asked asked,
      RowText t,
      Set<String> stems,
      Set<String> linked,
      Set<Concept> covered,
      Set<Concept> inherited) {
    for (Concept c : asked.concepts()) {
      if (ConceptMatch.matches(c, stems, List.of()) || t.row.userTags().contains(c.preferred())) {
        covered.add(c);
      } else if (ConceptMatch.matches(c, linked, List.of())) {
        inherited.add(c);
      }
    }
  }

  /**
   * Whether code block {@code b} is all its section holds, right under the heading ("### Claude
   * Code" over the one command that sets it up), short enough to show whole and not cut by an
   * excerpt's end: then the heading is what the code says.
   */
  private static boolean codeOnly(RowText t, int b) {
    Block block = t.blocks.get(b);
    boolean alone =
        b > 0
            && t.blocks.get(b - 1).kind() == Kind.HEADING
            && (b + 1 == t.blocks.size() || t.blocks.get(b + 1).kind() == Kind.HEADING);
    return alone
        && !block.text().isBlank()
        && BlockLines.introduced(block) != null
        && !t.cutAfter(b);
  }

  /**
   * The candidate of a section that holds only code: its heading says what the code does, so the
   * heading's words count as the statement's own and the code's as its context (a long block names
   * many things it does not explain), and the passage around it shows the code.
   */
  private static Candidate codeUnderHeading(RowText t, int b, String heading, Asked asked) {
    String code = t.blocks.get(b).text();
    String said = heading + "\n" + code;
    // The heading is the statement; the code's words, like a heading's, say where it is.
    var linked = new HashSet<>(Asked.context(t, b));
    linked.addAll(Words.stems(code));
    var covered = new LinkedHashSet<Concept>();
    var inherited = new LinkedHashSet<Concept>();
    cover(asked, t, Words.stems(heading), linked, covered, inherited);
    covered.addAll(inherited);
    boolean offers = asked.offers(t, b, heading, true);
    return new Candidate(t, b, 0, 0, heading, said, covered, inherited, offers, false, 0);
  }

  /** {@code c} as an ordinary sentence, not a lead line. */
  private static Candidate notLead(Candidate c) {
    return new Candidate(
        c.text(),
        c.block(),
        c.unit(),
        c.sentence(),
        c.shown(),
        c.said(),
        c.concepts(),
        c.inherited(),
        c.offers(),
        false,
        0);
  }

  /**
   * Whether sentence {@code s} states something: quotable, not cut, not pointing elsewhere, not a
   * title or heading repeated as a line, not a bare link, not a bookmark's folder line, not a line
   * of tags.
   */
  private static boolean states(
      RowText t, int b, int u, int s, String plain, Unit unit, Set<String> headings) {
    EvidenceRow row = t.row;
    boolean link = plain.equals(row.url()) || !plain.contains(" ") && plain.contains("://");
    boolean folder = "bookmark".equals(row.sourceType()) && plain.startsWith("Folder: ");
    boolean tags = plain.strip().matches("(#[\\p{L}\\p{N}_/-]+\\s*)+");
    return Sentences.quotable(plain)
        && !t.cut(b, u, s)
        && !Sentences.pointsElsewhere(plain, unit.links())
        && !headings.contains(plain.toLowerCase(java.util.Locale.ROOT))
        && !link
        && !folder
        && !tags;
  }

  /**
   * {@code text} with the visible text of its links taken out: each link text once, where it first
   * stands as whole words, written as the link writes it. Its other mentions are the sentence's own
   * words: "a [`Mutex`] in the form of `Arc<Mutex<T>>`" still says {@code Arc<Mutex<T>>}.
   */
  static String withoutLinks(String text, List<String> links) {
    String out = text;
    // Each text once: two links with one text in a sentence are rare, and one mention is enough
    // to leave it a name the sentence points to.
    for (String link : new LinkedHashSet<>(links)) {
      Matcher m = out.contains(link) ? Words.find(out, link, false) : null;
      if (m != null) {
        out = out.substring(0, m.start()) + " " + out.substring(m.end());
      }
    }
    return out;
  }

  /** The title and every heading of a row, lower-case: text that opens sections, states nothing. */
  private static Set<String> headings(RowText t) {
    var out = new HashSet<String>();
    if (!t.title().isEmpty()) {
      out.add(t.title().toLowerCase(java.util.Locale.ROOT));
    }
    for (Block b : t.blocks) {
      if (b.kind() == Kind.HEADING) {
        out.add(b.units().getFirst().text().toLowerCase(java.util.Locale.ROOT));
      }
    }
    if (t.row.chunk() != null) {
      t.row.chunk().headingPath().forEach(h -> out.add(h.toLowerCase(java.util.Locale.ROOT)));
    }
    return out;
  }

  /**
   * Whether the block after {@code b} is one a lead-in introduces (code, a list, a table) and short
   * enough to be shown whole with it: a lead-in speaks for the words of a block the answer can show
   * under it, not for forty options the reader would not see ("Most commands accept the following
   * options:" is not about every option; the option asked about is a sentence of its own).
   */
  private static boolean introducesBlock(RowText t, int b) {
    if (b + 1 >= t.blocks.size()) {
      return false;
    }
    Block next = t.blocks.get(b + 1);
    Kind kind = next.kind();
    return (kind == Kind.CODE || kind == Kind.LIST || kind == Kind.TABLE)
        && BlockLines.introduced(next) != null;
  }

  /** A transcript line's speaker label: up to four capitalised words and a colon. */
  private static final Pattern SPEAKER =
      Pattern.compile("^\\p{Lu}[\\p{L}.'-]*(?: \\p{Lu}[\\p{L}.'-]*){0,3}: ");

  /**
   * What a transcript line says, without its speaker label: "Ines Duarte: Not at all." names who
   * speaks, not what the line is about, so the label neither covers a concept nor counts for
   * meaning (the quote keeps it).
   */
  static String withoutSpeaker(EvidenceRow row, String text) {
    boolean transcript =
        "transcript".equals(row.sourceType()) || "transcript".equals(row.evidenceRole());
    return transcript ? SPEAKER.matcher(text).replaceFirst("") : text;
  }
}
