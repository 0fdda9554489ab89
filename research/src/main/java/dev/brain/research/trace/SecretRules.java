package dev.brain.research.trace;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.toml.TomlMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * gitleaks' rule set as data: {@code gitleaks/gitleaks.toml} (MIT, copied unchanged; its source,
 * version and commit in {@code gitleaks/source.properties}) read once with Jackson's TOML reader.
 * Each rule's Go (RE2) regex is translated to Java's syntax; a rule whose regex still does not
 * compile, and a rule that only applies to some file paths, is skipped and counted. Finding follows
 * gitleaks: a rule runs only on text holding one of its keywords (lowercase); the secret is the
 * rule's {@code secretGroup}, else its first non-empty group, else the whole match; a secret at or
 * under the rule's entropy, or allowed by the global or the rule's allowlists (regexes and
 * stopwords), is no finding. Immutable and thread-safe.
 */
final class SecretRules {

  private static final String FOLDER = "gitleaks/";

  /** Reads of each character a rule's regex may make on a text (see {@link Budgeted}). */
  static final long READS_PER_CHAR = 200;

  /** Reads any text allows on top. */
  static final long READS_BASE = 1_000_000;

  /** Characters of the windows a runaway rule runs on again (see {@link #findInWindows}). */
  static final int WINDOW = 1024;

  /** The rules shipped with brain, read at first use. */
  static final SecretRules SHIPPED = load();

  /**
   * What a trace records of the rule set.
   *
   * @param name the rule set ({@code gitleaks})
   * @param version its version ({@code git describe} of its commit)
   * @param commit the commit its rule file was copied from
   * @param rules rules in use
   * @param skipped rules not used: a regex Java does not compile, or a rule for some paths only
   */
  record Source(String name, String version, String commit, int rules, int skipped) {}

  /** One gitleaks allowlist: what it looks at, and its regexes and stopwords. */
  private record Allowlist(String target, List<Pattern> regexes, List<String> stopwords) {
    boolean allows(String secret, String match, String line) {
      String on =
          switch (target) {
            case "match" -> match;
            case "line" -> line;
            default -> secret;
          };
      for (Pattern p : regexes) {
        if (p.matcher(on).find()) {
          return true;
        }
      }
      String lower = secret.toLowerCase(Locale.ROOT);
      for (String word : stopwords) {
        if (lower.contains(word)) {
          return true;
        }
      }
      return false;
    }
  }

  private record Rule(
      String id,
      Pattern regex,
      int secretGroup,
      double entropy,
      List<String> keywords,
      List<Allowlist> allowlists) {}

  private final List<Rule> rules;
  private final List<Allowlist> global;
  private final Source source;

  private SecretRules(List<Rule> rules, List<Allowlist> global, Source source) {
    this.rules = rules;
    this.global = global;
    this.source = source;
  }

  /** The rule set's name, version, commit and counts. */
  Source source() {
    return source;
  }

  /**
   * Adds the secret of every finding in {@code text} to {@code found}; returns how many pieces a
   * rule had to skip because its match ran away there (see {@link #findInWindows}).
   */
  int find(String text, Set<String> found) {
    String lower = text.toLowerCase(Locale.ROOT);
    int runaway = 0;
    for (Rule rule : rules) {
      if (!rule.keywords().isEmpty() && rule.keywords().stream().noneMatch(lower::contains)) {
        continue;
      }
      try {
        findAll(matcher(rule, text, 0, text.length()), rule, text, found);
      } catch (RunawayMatch e) {
        runaway += findInWindows(rule, text, found);
      }
    }
    return runaway;
  }

  /**
   * Java's backtracking can take quadratic time where RE2 takes linear (a rule with ".*" on a long
   * line of "curl curl ..."): a rule that runs away on the whole text runs again on overlapping
   * windows of {@value #WINDOW} characters, each with its own budget, so a secret after the runaway
   * point is still found (a match of up to {@value #WINDOW}/2 characters lies whole in some
   * window). Only a window that still runs away is skipped for that rule; the count returned is
   * recorded in the trace, so a skipped piece is visible. A window's budget lets "curl curl ..."
   * through (about 650 reads a character at this size, where the whole 10,000-character line needs
   * 6,400); the work stays linear in the text's length.
   */
  private int findInWindows(Rule rule, String text, Set<String> found) {
    int skipped = 0;
    int step = WINDOW / 2;
    for (int from = 0; from < text.length(); from += step) {
      int to = Math.min(text.length(), from + WINDOW);
      String window = text.substring(from, to).toLowerCase(Locale.ROOT);
      if (rule.keywords().isEmpty() || rule.keywords().stream().anyMatch(window::contains)) {
        try {
          findAll(matcher(rule, text, from, to), rule, text, found);
        } catch (RunawayMatch e) {
          skipped++;
        }
      }
      if (to == text.length()) {
        break;
      }
    }
    return skipped;
  }

  /**
   * The rule's matcher on {@code text[from, to)} with a read budget for that many characters; the
   * bounds are transparent, so a word boundary at a window's edge reads as in the whole text.
   */
  private static Matcher matcher(Rule rule, String text, int from, int to) {
    return rule.regex()
        .matcher(new Budgeted(text, to - from))
        .region(from, to)
        .useTransparentBounds(true)
        .useAnchoringBounds(false);
  }

  private void findAll(Matcher m, Rule rule, String text, Set<String> found) {
    while (m.find()) {
      String secret = secret(m, rule);
      if (secret.isEmpty() || (rule.entropy() > 0 && KeyShapes.entropy(secret) <= rule.entropy())) {
        continue;
      }
      String match = m.group();
      String line = line(text, m.start(), m.end());
      if (allowed(global, secret, match, line) || allowed(rule.allowlists(), secret, match, line)) {
        continue;
      }
      found.add(secret);
    }
  }

  /** Thrown when a regex reads a text more than its budget allows; no stack trace. */
  private static final class RunawayMatch extends RuntimeException {
    RunawayMatch() {
      super(null, null, false, false);
    }
  }

  private static final RunawayMatch RUNAWAY = new RunawayMatch();

  /**
   * A text (or the window of it being matched) whose characters a regex may read {@value
   * #READS_PER_CHAR} times each (plus {@value #READS_BASE}): on the sample vault's notes gitleaks'
   * generic rule reads each character at most about 45 times, every other rule under 5; a runaway
   * match far more.
   */
  private static final class Budgeted implements CharSequence {
    private final String text;
    private long left;

    Budgeted(String text, int length) {
      this.text = text;
      this.left = READS_BASE + READS_PER_CHAR * (long) length;
    }

    @Override
    public char charAt(int index) {
      if (--left < 0) {
        throw RUNAWAY;
      }
      return text.charAt(index);
    }

    @Override
    public int length() {
      return text.length();
    }

    @Override
    public CharSequence subSequence(int start, int end) {
      return text.subSequence(start, end);
    }

    @Override
    public String toString() {
      return text;
    }
  }

  /**
   * The rule's secret group, else its first non-empty group, else the whole match. Named groups
   * label a part of the match (the JSON Web Token rule names the header it starts with), so they
   * are never the secret.
   */
  private static String secret(Matcher m, Rule rule) {
    int group = rule.secretGroup();
    if (group > 0 && group <= m.groupCount()) {
      return strip(m.group(group));
    }
    var named = rule.regex().namedGroups().values();
    for (int g = 1; g <= m.groupCount(); g++) {
      if (!named.contains(g) && m.group(g) != null && !m.group(g).isEmpty()) {
        return strip(m.group(g));
      }
    }
    return strip(m.group());
  }

  private static String strip(String s) {
    return s == null ? "" : s.replaceAll("^\n+|\n+$", "");
  }

  private static String line(String text, int start, int end) {
    int from = text.lastIndexOf('\n', Math.max(0, start - 1)) + 1;
    int to = text.indexOf('\n', end);
    return text.substring(from, to < 0 ? text.length() : to);
  }

  private static boolean allowed(List<Allowlist> lists, String secret, String match, String line) {
    for (Allowlist a : lists) {
      if (a.allows(secret, match, line)) {
        return true;
      }
    }
    return false;
  }

  /** Reads the shipped rule file; a missing or unreadable one is a broken build. */
  static SecretRules load() {
    try (InputStream toml = resource("gitleaks.toml");
        InputStream props = resource("source.properties")) {
      var about = new Properties();
      about.load(props);
      return parse(
          new TomlMapper().readTree(toml),
          about.getProperty("name"),
          about.getProperty("version"),
          about.getProperty("commit"));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the shipped gitleaks rules", e);
    }
  }

  private static InputStream resource(String name) throws IOException {
    InputStream in = SecretRules.class.getResourceAsStream(FOLDER + name);
    if (in == null) {
      throw new IOException("resource " + FOLDER + name + " is missing");
    }
    return in;
  }

  /** The rules of a parsed gitleaks config. */
  static SecretRules parse(JsonNode config, String name, String version, String commit) {
    var rules = new ArrayList<Rule>();
    int skipped = 0;
    for (JsonNode r : config.path("rules")) {
      // A rule with a path applies to some files only (or is about the path): traces have none.
      if (!r.hasNonNull("regex") || r.hasNonNull("path")) {
        skipped++;
        continue;
      }
      try {
        rules.add(
            new Rule(
                r.path("id").asText(),
                Pattern.compile(Re2Syntax.toJava(r.path("regex").asText())),
                r.path("secretGroup").asInt(0),
                r.path("entropy").asDouble(0),
                strings(r.path("keywords"), true),
                allowlists(r.path("allowlists"))));
      } catch (PatternSyntaxException e) {
        skipped++;
      }
    }
    var global = new ArrayList<Allowlist>();
    JsonNode g = config.path("allowlist");
    if (g.isObject()) {
      global.addAll(allowlists(List.of(g)));
    }
    for (JsonNode a : config.path("allowlists")) {
      global.addAll(allowlists(List.of(a)));
    }
    return new SecretRules(
        List.copyOf(rules),
        List.copyOf(global),
        new Source(name, version, commit, rules.size(), skipped));
  }

  /**
   * The allowlists that can apply to text without a path or commit: an {@code AND} list that names
   * paths or commits never does; of the others, the regexes and stopwords count.
   */
  private static List<Allowlist> allowlists(Iterable<JsonNode> lists) {
    var out = new ArrayList<Allowlist>();
    for (JsonNode a : lists) {
      boolean and = "AND".equalsIgnoreCase(a.path("condition").asText(""));
      if (and && (a.has("paths") || a.has("commits"))) {
        continue;
      }
      var regexes = new ArrayList<Pattern>();
      for (String re : strings(a.path("regexes"), false)) {
        try {
          regexes.add(Pattern.compile(Re2Syntax.toJava(re)));
        } catch (PatternSyntaxException e) {
          // An allowlist entry Java cannot read allows nothing: redacting more is the safe side.
        }
      }
      var stopwords = strings(a.path("stopwords"), true);
      if (!regexes.isEmpty() || !stopwords.isEmpty()) {
        out.add(
            new Allowlist(a.path("regexTarget").asText("secret"), List.copyOf(regexes), stopwords));
      }
    }
    return out;
  }

  private static List<String> strings(JsonNode array, boolean lower) {
    var out = new ArrayList<String>();
    for (JsonNode n : array) {
      out.add(lower ? n.asText().toLowerCase(Locale.ROOT) : n.asText());
    }
    return List.copyOf(out);
  }
}
