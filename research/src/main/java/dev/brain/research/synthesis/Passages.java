package dev.brain.research.synthesis;

import dev.brain.chunking.MarkdownBlocks.Block;
import dev.brain.chunking.MarkdownBlocks.Kind;
import dev.brain.chunking.MarkdownBlocks.Unit;
import dev.brain.research.pack.ConceptMatch;
import dev.brain.research.plan.Concept;
import dev.brain.research.plan.Words;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Builds the passage around a chosen sentence, the way the reader sees it in its section: the whole
 * paragraph when it is short (else the sentence with its neighbours), the lead-in and the list or
 * table for an item or a row (the items around it when the list is long), the block a lead-in
 * ending with a colon introduces (a code block, a list, a table, a callout, a paragraph), kept
 * whole (of a long list or table, the items around the one the question names), and a short code
 * example right under a paragraph. Lines that only point elsewhere are left out.
 */
final class Passages {
  private Passages() {}

  /** Longest paragraph shown whole; a longer one shows the sentence and its neighbours. */
  static final int PARAGRAPH_CHARS = 700;

  /** Most prose characters of a passage built around several sentences of one section. */
  static final int PASSAGE_CHARS = 1200;

  /**
   * The passage around {@code picks}, sentences of one section of one row, best first: the piece
   * around the first, then the pieces around the others that fit in {@value #PASSAGE_CHARS}
   * characters, shown in text order.
   */
  static Passage around(List<Candidate> picks, Asked asked) {
    return around(picks, asked, false);
  }

  /**
   * {@link #around(List, Asked)}, for the answer's first passage when {@code first}: then the
   * paragraphs of its section that name any required concept join it while they fit, and it opens
   * with the piece around its best sentence (the answer first), the rest in text order.
   */
  static Passage around(List<Candidate> picks, Asked asked, boolean first) {
    return around(picks, asked, first, PASSAGE_CHARS);
  }

  /**
   * {@link #around(List, Asked, boolean)} with {@code room} prose characters instead of {@value
   * #PASSAGE_CHARS}: a section that long is shown whole; else the passage within {@value
   * #PASSAGE_CHARS} characters is built first and the room beyond them only adds paragraphs of the
   * section naming required concepts, so that a wider passage shows all the narrower one does.
   */
  static Passage around(List<Candidate> picks, Asked asked, boolean first, int room) {
    Candidate lead = picks.getFirst();
    RowText t = lead.text();
    var pieces = new java.util.TreeMap<Integer, PassagePiece>();
    PassagePiece section = wholeSection(t, lead, asked, Math.max(room, SECTION_CHARS));
    if (section != null) {
      pieces.put(section.first(), section);
    }
    int used = section == null ? 0 : PASSAGE_CHARS;
    PassagePiece leading = section;
    for (Candidate c : picks) {
      PassagePiece piece = piece(c, asked);
      PassagePiece same = pieces.get(piece.first());
      if (same != null || pieces.values().stream().anyMatch(p -> p.overlaps(piece))) {
        continue;
      }
      if (!pieces.isEmpty() && used + piece.chars() > PASSAGE_CHARS) {
        continue;
      }
      pieces.put(piece.first(), piece);
      used += piece.chars();
      leading = leading == null ? piece : leading;
    }
    if (section == null) {
      fill(t, lead.block(), pieces, used, asked, first ? FIRST_SHARE : FILL_SHARE, room);
    }
    // The answer first: the answer's first passage opens with the piece around its best sentence,
    // the section's other paragraphs after it in text order; other passages keep text order.
    var parts = new ArrayList<String>();
    if (first) {
      // A section shown whole opens with the blocks the best sentence's own piece shows.
      PassagePiece own = leading == section ? piece(lead, asked) : leading;
      parts.addAll(leading.partsFrom(own.first(), own.last()));
    }
    for (PassagePiece p : pieces.values()) {
      if (!first || p != leading) {
        parts.addAll(p.parts());
      }
    }
    var said = new StringBuilder();
    parts.forEach(p -> said.append(Sentences.plain(p)).append('\n'));
    List<String> path = t.headingPath(lead.block());
    return new Passage(
        t,
        pieces.firstKey(),
        pieces.lastEntry().getValue().last(),
        path,
        parts,
        covered(t, said, path, asked.concepts()),
        lead);
  }

  /**
   * Share of the question's required concepts a paragraph of a passage's section must cover to join
   * it (when it fits), for every passage but the first.
   */
  static final double FILL_SHARE = 0.3;

  /**
   * The same share for the first passage: the best section is read whole, so any paragraph of it
   * naming a required concept may join ("multiple edges might point to the same node" is followed
   * by the paragraph that names {@code Rc<T>}).
   */
  static final double FIRST_SHARE = 0.0;

  /**
   * Adds to {@code pieces} the paragraphs of block {@code b}'s section that cover the most of the
   * question's required concepts (their words, inline code and the block they lead into), while
   * they fit in {@code room} characters: a section often says what answers in a paragraph next to
   * the one whose sentence scored best: those that fit in {@value #PASSAGE_CHARS} first, then those
   * that fit in the rest of the room.
   */
  private static void fill(
      RowText t,
      int b,
      java.util.TreeMap<Integer, PassagePiece> pieces,
      int used,
      Asked asked,
      double minShare,
      int room) {
    List<Concept> required = asked.required();
    if (required.isEmpty()) {
      return;
    }
    var found = new ArrayList<PassagePiece>();
    var counts = new java.util.HashMap<PassagePiece, Integer>();
    for (int i = t.sectionStart(b); i < t.sectionEnd(b); i++) {
      if (t.blocks.get(i).kind() != Kind.PARAGRAPH || !t.retrieved(i)) {
        continue;
      }
      List<String> shown = shownSentences(t, i, 0);
      String text = String.join(" ", shown);
      if (text.isBlank() || text.length() > PARAGRAPH_CHARS) {
        continue;
      }
      var parts = new ArrayList<String>();
      parts.add(text);
      var stems = new HashSet<>(Words.stems(Sentences.plain(text)));
      int last = i;
      if (i + 1 < t.blocks.size()) {
        String introduced =
            endsBlock(t, i, shown.getLast())
                ? introducedAfter(t, i, asked)
                : exampleAfter(t, i, parts);
        if (introduced != null) {
          parts.add(introduced);
          stems.addAll(Words.stems(Sentences.plain(introduced))); // what is shown of it
          last = i + 1;
        }
      }
      long n = matching(required, stems);
      if (n > 0 && n >= minShare * required.size()) {
        PassagePiece piece = new PassagePiece(i, last, parts);
        found.add(piece);
        counts.put(piece, (int) n);
      }
    }
    found.sort(
        java.util.Comparator.comparingInt((PassagePiece p) -> counts.get(p))
            .reversed()
            .thenComparingInt(PassagePiece::first));
    // Within PASSAGE_CHARS first, then the room beyond: a wider passage shows all a narrower does.
    int[] limits = room > PASSAGE_CHARS ? new int[] {PASSAGE_CHARS, room} : new int[] {room};
    for (int limit : limits) {
      for (PassagePiece piece : found) {
        if (pieces.values().stream().anyMatch(p -> p.overlaps(piece))
            || used + piece.chars() > limit) {
          continue;
        }
        pieces.put(piece.first(), piece);
        used += piece.chars();
      }
    }
  }

  /** Longest section (its prose, lists and tables) shown whole, unless a passage has more room. */
  static final int SECTION_CHARS = 1200;

  /**
   * The whole section of {@code lead}'s block when it is short: every paragraph (without pointer
   * sentences), list, table and callout (a long list the items around the lead's, or around the one
   * naming most required concepts), and each code block a lead-in introduces; null when its text is
   * longer than {@code max} characters.
   */
  private static PassagePiece wholeSection(RowText t, Candidate lead, Asked asked, int max) {
    int b = lead.block();
    int start = t.sectionStart(b);
    int end = t.sectionEnd(b);
    var parts = new ArrayList<String>();
    var blocks = new ArrayList<Integer>();
    int chars = 0;
    int first = -1;
    int last = -1;
    for (int i = start; i < end; i++) {
      Block block = t.blocks.get(i);
      String part =
          switch (block.kind()) {
            case HEADING -> null;
            case PARAGRAPH -> String.join(" ", shownSentences(t, i, 0));
            case CODE ->
                i > start && leadIn(t, i - 1) != null
                    ? BlockLines.introduced(block)
                    : BlockLines.example(block);
            case LIST, TABLE ->
                BlockLines.units(block, i == b ? lead.unit() : bestUnit(block, asked.required()));
            // A callout is read from its start: its opening paragraph frames the notes after it.
            case QUOTE -> BlockLines.units(block, 0);
          };
      if (part == null || part.isBlank()) {
        continue;
      }
      if (block.kind() != Kind.CODE) {
        chars += part.length();
      }
      if (chars > max) {
        return null;
      }
      parts.add(part);
      blocks.add(i);
      first = first < 0 ? i : first;
      last = i;
    }
    return parts.isEmpty() ? null : new PassagePiece(first, last, parts, blocks);
  }

  /** The piece around one sentence. */
  private static PassagePiece piece(Candidate c, Asked asked) {
    RowText t = c.text();
    Block block = t.blocks.get(c.block());
    var parts = new ArrayList<String>();
    int first = c.block();
    int last = c.block();
    boolean leadsIn;
    if (block.kind() == Kind.PARAGRAPH) {
      List<String> shown = paragraph(t, c);
      parts.add(String.join(" ", shown));
      leadsIn = !shown.isEmpty() && endsBlock(t, c.block(), shown.getLast());
    } else {
      Block before = c.block() > 0 ? t.blocks.get(c.block() - 1) : null;
      if (before != null && before.kind() == Kind.PARAGRAPH && leadIn(t, c.block() - 1) != null) {
        parts.add(leadIn(t, c.block() - 1));
        first = c.block() - 1;
      }
      String units = BlockLines.units(block, c.unit());
      if (!units.isEmpty()) {
        parts.add(units);
      }
      leadsIn = false;
    }
    String example = block.kind() == Kind.PARAGRAPH ? exampleAfter(t, c.block(), parts) : null;
    if (leadsIn) {
      last = addIntroduced(t, c.block(), parts, asked);
    } else if (example != null) {
      parts.add(example);
      last = c.block() + 1;
    } else if (block.kind() == Kind.PARAGRAPH && !c.offers()) {
      String answer = answeringNext(t, c.block(), asked);
      if (answer != null) {
        parts.add(answer);
        last = c.block() + 1;
        List<String> shown = shownSentences(t, last, 0);
        if (!shown.isEmpty() && endsBlock(t, last, shown.getLast())) {
          // "... Take a look at the following example:" shows the example it leads into.
          last = addIntroduced(t, last, parts, asked);
        }
      }
    }
    return new PassagePiece(first, last, parts);
  }

  /**
   * Adds what paragraph {@code b}'s lead-in introduces to {@code parts} ({@link #introducedAfter});
   * returns the last block shown.
   */
  private static int addIntroduced(RowText t, int b, List<String> parts, Asked asked) {
    String introduced = introducedAfter(t, b, asked);
    if (introduced != null) {
      parts.add(introduced);
      return b + 1;
    }
    return b;
  }

  /**
   * What paragraph {@code b}'s lead-in introduces: the next block whole when it can be shown whole;
   * for a list or table too long for that, the items around the one naming most of the question's
   * required concepts (the first when none does); else null. A lead-in above a long list or table
   * does not end a passage with its colon alone ("Most commands accept the following options:"
   * above forty options shows the one asked about).
   */
  private static String introducedAfter(RowText t, int b, Asked asked) {
    if (b + 1 >= t.blocks.size()) {
      return null;
    }
    Block next = t.blocks.get(b + 1);
    String whole = BlockLines.introduced(next);
    if (whole != null || next.kind() != Kind.LIST && next.kind() != Kind.TABLE) {
      return whole;
    }
    return BlockLines.emptyAsNull(BlockLines.units(next, bestUnit(next, asked.required())));
  }

  /** How many of {@code required} the words {@code stems} match. */
  private static long matching(List<Concept> required, Set<String> stems) {
    return required.stream().filter(c -> ConceptMatch.matches(c, stems, List.of())).count();
  }

  /** The unit of {@code block} whose words match most of {@code required}; the first on ties. */
  static int bestUnit(Block block, List<Concept> required) {
    int best = 0;
    long most = 0;
    for (int u = 0; u < block.units().size(); u++) {
      long n = matching(required, new HashSet<>(Words.stems(block.units().get(u).text())));
      if (n > most) {
        most = n;
        best = u;
      }
    }
    return best;
  }

  /**
   * The sentences of {@code c}'s paragraph shown with it: all of a short paragraph, else {@code c}
   * with the sentence before (when {@code c} opens with a pronoun) and those after it that fit;
   * when {@code c} ends the paragraph, those before it that fit.
   */
  private static List<String> paragraph(RowText t, Candidate c) {
    List<String> all = shownSentences(t, c.block(), c.unit());
    int total = all.stream().mapToInt(String::length).sum();
    int at = Math.max(0, all.indexOf(c.shown()));
    if (total <= PARAGRAPH_CHARS || all.isEmpty()) {
      return all;
    }
    int from = at > 0 && Sentences.opensWithPronoun(Sentences.plain(c.shown())) ? at - 1 : at;
    int to = at + 1;
    int used = all.subList(from, to).stream().mapToInt(String::length).sum();
    while (to < all.size() && used + all.get(to).length() <= PARAGRAPH_CHARS) {
      used += all.get(to).length();
      to++;
    }
    // A sentence ending the paragraph is shown with those before it that fit: it often sums up
    // ("Therefore, ...") what they say.
    while (at == all.size() - 1
        && from > 0
        && used + all.get(from - 1).length() <= PARAGRAPH_CHARS) {
      from--;
      used += all.get(from).length();
    }
    return all.subList(from, to);
  }

  /** The sentences of a unit that may be shown: not cut by an excerpt's edge, not pointers. */
  private static List<String> shownSentences(RowText t, int b, int u) {
    Unit unit = t.blocks.get(b).units().get(u);
    List<String> sentences = t.sentences(b, u);
    var out = new ArrayList<String>();
    for (int s = 0; s < sentences.size(); s++) {
      String plain = Sentences.plain(sentences.get(s));
      if (!t.cut(b, u, s) && !Sentences.pointsElsewhere(plain, unit.links())) {
        out.add(sentences.get(s));
      }
    }
    return out;
  }

  /**
   * The paragraph after paragraph {@code b} in its section when it offers what the question asks
   * for, or null: a paragraph that restates the problem ("multiple edges might point to the same
   * node") is often followed by the one that solves it ("enable multiple ownership by using {@code
   * Rc<T>}").
   */
  private static String answeringNext(RowText t, int b, Asked asked) {
    int next = b + 1;
    if (next >= t.sectionEnd(b) || t.blocks.get(next).kind() != Kind.PARAGRAPH) {
      return null;
    }
    List<String> shown = shownSentences(t, next, 0);
    boolean offers = shown.stream().anyMatch(s -> asked.offers(t, next, s, false));
    String text = String.join(" ", shown);
    return offers && !text.isEmpty() && text.length() <= PARAGRAPH_CHARS ? text : null;
  }

  /**
   * The short code example right after paragraph {@code b} in its section, when {@code parts} end
   * with the paragraph's last sentence, else null: docs state a setting or a command in a sentence
   * and show it in the code under it ("Extend other themes by setting the {@code inherits}
   * property" above {@code inherits = "boo_berry"}) without a colon leading in.
   */
  private static String exampleAfter(RowText t, int b, List<String> parts) {
    int next = b + 1;
    if (next >= t.sectionEnd(b) || parts.isEmpty()) {
      return null;
    }
    List<String> all = t.sentences(b, 0);
    if (all.isEmpty() || !parts.getLast().endsWith(all.getLast())) {
      return null;
    }
    return BlockLines.example(t.blocks.get(next));
  }

  /** Whether {@code sentence}, the last shown of block {@code b}, leads into the next block. */
  private static boolean endsBlock(RowText t, int b, String sentence) {
    List<String> all = t.sentences(b, 0);
    return !all.isEmpty() && all.getLast().equals(sentence) && Sentences.leadsIn(sentence);
  }

  /** The last sentence of paragraph {@code b} when it leads into what follows, else null. */
  private static String leadIn(RowText t, int b) {
    // Only a paragraph leads in: a callout may be a title alone ("> [!NOTE] Heads up"), no unit.
    if (t.blocks.get(b).kind() != Kind.PARAGRAPH) {
      return null;
    }
    List<String> all = shownSentences(t, b, 0);
    if (all.isEmpty() || !Sentences.leadsIn(Sentences.plain(all.getLast()))) {
      return null;
    }
    return all.getLast();
  }

  /** The concepts a passage covers: its shown words, its headings and title, the row's tags. */
  private static Set<Concept> covered(
      RowText t, CharSequence said, List<String> path, List<Concept> concepts) {
    var stems = new HashSet<>(Words.stems(said.toString()));
    path.forEach(h -> stems.addAll(Words.stems(h)));
    stems.addAll(Words.stems(t.title()));
    var out = new LinkedHashSet<Concept>();
    for (Concept c : concepts) {
      if (ConceptMatch.matches(c, stems, t.row.userTags())
          || t.row.userTags().contains(c.preferred())) {
        out.add(c);
      }
    }
    return out;
  }
}
