package dev.brain.research.synthesis;

import dev.brain.research.pack.ConceptMatch;
import dev.brain.research.pack.ResearchPack;
import dev.brain.research.plan.Concept;
import dev.brain.research.plan.Incidental;
import dev.brain.research.plan.PartsOfSpeech;
import dev.brain.research.plan.Words;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The things a question names: what an answer must mention, and what, when the corpus mentions it
 * nowhere, makes the question one the corpus cannot answer, however many of its other words match
 * ("How do I parse flags with clap?" in a corpus without clap). A concept counts when the question
 * writes it as a name: capitalized inside the question ("WebAssembly", "Docker"), an acronym
 * ("YAML"), a possessive ("rayon's"), an identifier (with a digit, an underscore, a capital inside
 * it or three hyphenated words, or inside code: {@code env_logger}, {@code enableGlobalCache},
 * {@code declare-user-mode}), or the tool a "with" or "using" names ("with criterion", "with the
 * regex crate"). Two uses are not the question's subject and do not count: a name the question
 * compares with ("something like Swift's guard let") and, in a pasted error message, the message's
 * own words (error codes, file names in quotes), which the corpus explains in its own words.
 */
final class Names {
  private Names() {}

  /** A word the question compares with: "like X", "similar to X", "as in X", "equivalent of X". */
  private static final Pattern COMPARED =
      Pattern.compile(
          "(?:\\blike|\\bsimilar to|\\bas in|\\bequivalent (?:of|to)|\\bcounterpart (?:of|to))"
              + "(?:\\s+\\S+){0,2}\\s*$",
          Pattern.CASE_INSENSITIVE);

  /** A determiner right before a word: "the distro's", "my team's" are common nouns. */
  private static final Pattern DETERMINED =
      Pattern.compile(
          "\\b(?:the|a|an|my|your|our|their|his|her|its|this|that|each|every)\\s+$",
          Pattern.CASE_INSENSITIVE);

  /**
   * A place the question puts its own code or settings in: "from store.svelte.js", "in my
   * vite.config.js" name the user's file, not another tool's.
   */
  private static final Pattern PLACED =
      Pattern.compile(
          "\\b(?:in|from|inside|into|within)\\s+(?:the\\s+|my\\s+|our\\s+|a\\s+)?$",
          Pattern.CASE_INSENSITIVE);

  /** The tool a "with" or "using" names: "with criterion", "using the regex crate". */
  private static final Pattern INSTRUMENT =
      Pattern.compile(
          "\\b(?:with|using|via)\\s+(?:the\\s+|a\\s+|an\\s+)?$", Pattern.CASE_INSENSITIVE);

  /**
   * A command-line option right after a word: the word is a command ("dtach -A /tmp/sock", "screen
   * -r"), the name of a tool.
   */
  private static final Pattern OPTION_AFTER = Pattern.compile("^\\s+--?\\p{Alpha}");

  /** A lower-case letter followed by a capital inside a word: {@code enableGlobalCache}. */
  private static final Pattern CAMEL_CASE = Pattern.compile("\\p{Ll}\\p{Lu}");

  /**
   * Words that join an English compound ("end-to-end", "out-of-the-box", "step-by-step"): a
   * compound with one of them is a phrase, not a name.
   */
  private static final java.util.Set<String> JOINERS =
      java.util.Set.of("a", "and", "by", "for", "in", "is", "my", "of", "on", "or", "the", "to");

  /** Top evidence rows a declining question's other concepts are looked for in. */
  private static final int TOP_ROWS = 5;

  /**
   * The required concepts of {@code pack} absent from the corpus that the question names, leaving
   * out the {@link Incidental} ones.
   */
  static List<String> absent(ResearchPack pack) {
    var out = new ArrayList<String>();
    of(pack.question(), pack.queryPlan().requiredConcepts()).stream()
        .filter(c -> pack.coverage().absentConcepts().contains(c.key()))
        .forEach(c -> out.add(c.preferred()));
    absentFiles(pack).forEach(c -> out.add(c.preferred()));
    return out;
  }

  /**
   * The files the question names by a bare name ({@code rustfmt.toml}, no path) that the corpus
   * mentions nowhere, outside a pasted error message and not as the place of the user's own code
   * ("from store.svelte.js"): another tool's file, which the question asks about ("rustfmt.toml
   * max_width setting" of a formatter's docs that never mention rustfmt). A file the corpus
   * mentions, or a path, stays {@link Incidental}: the user's own.
   */
  static List<Concept> absentFiles(ResearchPack pack) {
    String question = pack.question();
    QuestionForm form = QuestionForm.of(question);
    var out = new ArrayList<Concept>();
    for (Concept c : pack.queryPlan().requiredConcepts()) {
      if (Incidental.isFileName(c) && pack.coverage().absentConcepts().contains(c.key())) {
        Matcher m = Words.find(question, c.preferred());
        if (m == null) {
          continue;
        }
        boolean pasted = form == QuestionForm.ERROR && inMessage(question, m.start());
        boolean placed = PLACED.matcher(question.substring(0, m.start())).find();
        if (!pasted && !placed) {
          out.add(c);
        }
      }
    }
    return out;
  }

  /**
   * A name and the number right after it: "Vite 9", "prettier 3.3", "the Rust 2027 edition". Not
   * one followed by a unit or a count ("port 2019", "10 requests").
   */
  private static final Pattern VERSIONED =
      Pattern.compile(
          "(?<![\\p{L}\\p{N}])([\\p{L}][\\p{L}\\p{N}+#-]*)\\s+(v?\\d+(?:\\.\\d+)*)"
              + "(?![\\p{L}\\p{N}%]|\\.\\d)");

  /** Words after a number that make it a release of what precedes it. */
  private static final Pattern RELEASE_WORD =
      Pattern.compile("^\\s+(?:edition|release|version|major)\\b", Pattern.CASE_INSENSITIVE);

  /**
   * The releases of a named thing the question asks about ("When will <em>Vite 9</em> be
   * released?", "what changed in <em>prettier 3.3</em>") that no quoted passage mentions, as the
   * question writes them: a number right after a name the question writes as one ({@link
   * Concept.Role#ENTITY}) or a noun that is the corpus's subject (a concept common across it), or
   * before "edition", "release" or "version"; not after a verb or a preposition ("published 10
   * minutes ago", "between 10 threads"). A number is the user's own token everywhere else ("port
   * 2019", "10,000 rows"); here it says which release, and an answer about another one covers part
   * of the question. A passage mentions it when it writes the number, with or without a leading "v"
   * ("Vite 8", "v8.0"), in its text, its headings or its document's title ("Upgrading from 3.x to
   * 4.x").
   */
  static List<String> releasesMissing(ResearchPack pack, List<Passage> passages) {
    var out = new ArrayList<String>();
    Matcher m = VERSIONED.matcher(pack.question());
    PartsOfSpeech.Tagged tagged = null;
    while (m.find()) {
      if (quoted(pack.question(), m.start())) {
        continue; // a title as written ('Aquaman 2: The Lost Kingdom'), not a release asked about
      }
      String number = m.group(2).replaceFirst("^[vV]", "");
      if (tagged == null) {
        tagged = PartsOfSpeech.of(pack.question());
      }
      boolean noun = tagged.nounAt(m.start(1), false);
      // Where the name starts: a name of several words ("the Niche Zero 2") is written whole.
      int start = m.start();
      boolean named = false;
      for (Concept c : pack.queryPlan().concepts()) {
        Matcher f = Words.find(pack.question(), c.preferred());
        if (f != null
            && f.end() == m.end(1)
            && (c.role() == Concept.Role.ENTITY
                || noun && pack.coverage().commonConcepts().contains(c.key()))) {
          named = true;
          start = Math.min(start, f.start());
        }
      }
      boolean release = named || RELEASE_WORD.matcher(pack.question().substring(m.end())).find();
      if (!release) {
        continue;
      }
      Pattern written =
          Pattern.compile("(?<![\\p{N}.])[vV]?" + Pattern.quote(number) + "(?![\\p{N}]|\\.\\d)");
      boolean mentioned =
          passages.stream()
              .anyMatch(
                  p ->
                      written.matcher(String.join("\n", p.parts())).find()
                          || written.matcher(String.join("\n", p.headingPath())).find()
                          || written.matcher(p.text().title()).find());
      if (!mentioned) {
        out.add(pack.question().substring(start, m.end()));
      }
    }
    return out;
  }

  /** A quoted span: opened by a quote mark no letter stands before, closed by the next one. */
  private static final Pattern QUOTED =
      Pattern.compile("(?<![\\p{L}\\p{N}])[\"“‘'`]([^\"“”‘’'`]+)[\"”’'`]");

  /** Whether offset {@code at} of {@code text} lies inside a quoted span. */
  private static boolean quoted(String text, int at) {
    Matcher q = QUOTED.matcher(text);
    while (q.find()) {
      if (q.start(1) <= at && at < q.end(1)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Whether the question is one the corpus cannot answer because of what it names: a name the
   * corpus never mentions, and no top evidence row that matches every other thing the question
   * names (its nouns and names; every other required concept when it names none). When one does
   * (the best row is about the rest of the question), the question is answered from it in part and
   * the answer names what is missing (see {@link AnswerStatus#PARTIAL}): one literal token the
   * corpus lacks, often the user's own identifier, does not decline a question whose subject is
   * there.
   */
  static boolean declines(ResearchPack pack) {
    List<String> absent = absent(pack);
    if (absent.isEmpty()) {
      return false;
    }
    List<Concept> rest =
        pack.queryPlan().requiredConcepts().stream()
            .filter(c -> !absent.contains(c.preferred()) && !Incidental.is(c))
            .filter(c -> !pack.coverage().absentConcepts().contains(c.key()))
            .toList();
    if (rest.isEmpty()) {
      return true;
    }
    // The rest of the question is what it names: a row about the "visual studio installer" is about
    // "link.exe not found, what do i pick in the visual studio installer" without saying "found".
    List<Concept> things = things(pack.question(), rest);
    List<Concept> needed = things.isEmpty() ? rest : things;
    return pack.evidence().stream()
        .filter(r -> !r.isRelated() && !ConceptMatch.isPartial(r))
        .limit(TOP_ROWS)
        .noneMatch(r -> ConceptMatch.matched(r, needed).size() == needed.size());
  }

  /** The concepts among {@code concepts} that {@code question} writes as names it asks about. */
  static List<Concept> of(String question, List<Concept> concepts) {
    return of(question, concepts, true, null);
  }

  /**
   * The concepts among {@code concepts} that {@code question} names as things: {@link #of} and the
   * rare words it uses as nouns ({@link PartsOfSpeech}, and {@code pieces}, the embedding model's
   * tokenizer, cuts them into more than one piece: "with lerna", "in nushell", "for tokio") or runs
   * with a command-line option ("dtach -A …"), with the same exceptions. One the corpus never
   * mentions makes an answer partial, never declines it on its own. A common noun ("exercises",
   * "teammates", "site") is as often the user's word for what the corpus calls otherwise, and
   * counts for nothing.
   */
  static List<Concept> asked(
      String question, List<Concept> concepts, java.util.function.ToIntFunction<String> pieces) {
    return of(question, concepts, true, pieces);
  }

  /**
   * The concepts among {@code concepts} that {@code question} names as things: {@link #of} and
   * every word it uses as a noun, rare or not ("a cloudflare <em>visitor</em>", "minimum
   * <em>ram</em>") or runs with a command-line option, with the same exceptions; not a verb,
   * adjective or adverb otherwise ("which one wins", "tiny responses").
   */
  static List<Concept> things(String question, List<Concept> concepts) {
    return of(question, concepts, true, EVERY_WORD);
  }

  /** Stands for a tokenizer that cuts every word into pieces: {@link #things} counts every noun. */
  private static final java.util.function.ToIntFunction<String> EVERY_WORD = word -> 2;

  /**
   * The concepts among {@code concepts} that {@code question} writes as names by their form
   * (capitalized, an acronym, a possessive, an identifier, code), leaving out a tool a "with" names
   * only by its place ("descale with medium-hard water"): what an answer must mention to be full.
   */
  static List<Concept> written(String question, List<Concept> concepts) {
    return of(question, concepts, false, null);
  }

  private static List<Concept> of(
      String question,
      List<Concept> concepts,
      boolean instrument,
      java.util.function.ToIntFunction<String> pieces) {
    concepts = concepts.stream().filter(c -> !Incidental.is(c)).toList();
    QuestionForm form = QuestionForm.of(question);
    // Words pasted after the question ("…machine? see /home/x api_key=…") are context, not asked.
    int mark = question.lastIndexOf('?');
    if (mark > 0 && !question.substring(mark + 1).isBlank()) {
      question = question.substring(0, mark + 1);
    }
    PartsOfSpeech.Tagged tagged = pieces != null ? PartsOfSpeech.of(question) : null;
    var out = new ArrayList<Concept>();
    for (Concept c : concepts) {
      Matcher m = Words.find(question, c.preferred());
      if (m != null && named(question, m, form, instrument, tagged, pieces)) {
        out.add(c);
      }
    }
    return out;
  }

  /** How {@code question} writes {@code concept} ("enableGlobalCache"), else its preferred form. */
  static String asWritten(String question, Concept concept) {
    Matcher m = Words.find(question, concept.preferred());
    return m == null ? concept.preferred() : m.group();
  }

  /**
   * Whether the occurrence {@code m} is written as a name the question asks about, or, when {@code
   * tagged} is given, is a rare word (more than one of the tokenizer's {@code pieces}) used as a
   * noun or run with a command-line option; a rare word the tagger puts in a closed class ("add
   * <em>disqus</em> comments" as an auxiliary) is one it does not know, read as a name.
   */
  private static boolean named(
      String question,
      Matcher m,
      QuestionForm form,
      boolean instrument,
      PartsOfSpeech.Tagged tagged,
      java.util.function.ToIntFunction<String> pieces) {
    String word = m.group();
    String before = question.substring(0, m.start());
    String after = question.substring(m.end());
    if (COMPARED.matcher(before).find()) {
      return false;
    }
    if (form == QuestionForm.ERROR && inMessage(question, m.start())) {
      return false;
    }
    // A single letter ("after X ms") stands for a value, never a name the answer must mention.
    boolean capitalized =
        word.length() > 1 && Character.isUpperCase(word.codePointAt(0)) && !before.isBlank();
    boolean acronym = word.length() >= 2 && word.equals(word.toUpperCase(Locale.ROOT));
    // "npm's cache" names a tool; "the distro's package" a common noun, as the determiner says.
    boolean possessive =
        (after.startsWith("'s") || after.startsWith("’s")) && !DETERMINED.matcher(before).find();
    boolean identifier =
        word.chars().anyMatch(ch -> Character.isDigit(ch) || ch == '_' || ch == '.')
            || CAMEL_CASE.matcher(word).find()
            || compoundName(word);
    boolean code = before.chars().filter(ch -> ch == '`').count() % 2 == 1;
    boolean rare = tagged != null && pieces.applyAsInt(word) > 1;
    // A rare word run with options is a command, whatever the tagger makes of it ("dtach -A …").
    boolean command = rare && OPTION_AFTER.matcher(after).find();
    return capitalized
        || command
        || rare && tagged.nounAt(m.start(), pieces != EVERY_WORD)
        || acronym && word.chars().anyMatch(Character::isLetter)
        || possessive
        || identifier
        || code
        || instrument && INSTRUMENT.matcher(before).find();
  }

  /**
   * Whether {@code word} is a name made of three or more hyphenated words, as commands, options and
   * packages are named ({@code declare-user-mode}, {@code cache-max-size}); "in-app" or
   * "end-to-end" is English.
   */
  private static boolean compoundName(String word) {
    String[] parts = word.toLowerCase(Locale.ROOT).split("-", -1);
    if (parts.length < 3) {
      return false;
    }
    for (String part : parts) {
      if (part.isEmpty() || JOINERS.contains(part)) {
        return false;
      }
    }
    return true;
  }

  /**
   * Whether offset {@code at} lies in the pasted message of an error question: before a " -- " that
   * separates it from the user's own words, or inside quotes or code anywhere.
   */
  private static boolean inMessage(String question, int at) {
    int dash = question.indexOf(" -- ");
    if (dash < 0 || at < dash) {
      return true;
    }
    String before = question.substring(0, at);
    long quotes = before.chars().filter(ch -> ch == '"' || ch == '`').count();
    return quotes % 2 == 1;
  }
}
