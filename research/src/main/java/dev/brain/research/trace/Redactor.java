package dev.brain.research.trace;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Removes what a trace must never hold: configured secrets (an API key, credentials found in the
 * environment), auth headers, bearer tokens, credentials known by their shape ({@link KeyShapes}:
 * gitleaks' rule set ({@link SecretRules}), provider keys and tokens, JSON Web Tokens, PEM and PGP
 * private key blocks, AWS secret keys, random tokens after key-like words), credentials in URLs
 * ({@code https://user:pass@host}), {@code key=value} credentials (Azure's {@code AccountKey=} too)
 * and "password is ..." phrases, terminal control characters, and absolute paths outside the data
 * root (home directories, temp files, the vault's location). Paths inside the data root stay. Meant
 * for text before it is serialized (the trace writer redacts {@code run.json}'s string values): in
 * serialized JSON an escaped line break ({@code \n}) can hide a credential at a line's start; the
 * replacements never contain quotes or backslashes, so JSON given anyway stays valid. Immutable and
 * thread-safe.
 */
public final class Redactor {

  /** What a secret, token or credential value becomes. */
  public static final String REDACTED = "[redacted]";

  /** What a path outside the data root becomes. */
  public static final String PATH = "[path]";

  /** Shortest configured secret that is redacted verbatim (shorter ones would hit plain words). */
  static final int MIN_SECRET_CHARS = 6;

  private static final String HEADERS =
      "(?:proxy-)?authorization|x-api-key|api-key|cookie|set-cookie";
  private static final String CREDENTIALS =
      "api[_-]?key|access[_-]?token|refresh[_-]?token|auth[_-]?token|client[_-]?secret"
          + "|secret[_-]?key|secret|password|passwd|token"
          // Azure connection strings: AccountKey=...; SharedAccessKey=...
          + "|account[_-]?key|shared[_-]?access[_-]?key"
          // Session cookies: sessionid=...
          + "|session[_-]?(?:id|token|key)";
  // Plain text ("Authorization: Bearer x") up to the end of the line or string.
  private static final Pattern HEADER_TEXT =
      Pattern.compile("(?i)\\b(" + HEADERS + ")(\\s*[:=]\\s*)[^\\r\\n\"\\\\]+");
  // A JSON member ("authorization": "Bearer x"): only a string value is redacted.
  private static final Pattern HEADER_JSON =
      Pattern.compile("(?i)\\b(" + HEADERS + ")(\"\\s*:\\s*\")[^\"\\\\]+");
  private static final Pattern BEARER =
      Pattern.compile("(?i)\\b(bearer)\\s+([A-Za-z0-9._~+/=-]{6,})");
  private static final Pattern KEY_VALUE_TEXT =
      Pattern.compile("(?i)\\b(" + CREDENTIALS + ")(\\s*[:=]\\s*)([^\\s\"\\\\,;&]{6,})");
  private static final Pattern KEY_VALUE_JSON =
      Pattern.compile("(?i)\\b(" + CREDENTIALS + ")(\"\\s*:\\s*\")([^\"\\\\]{6,})");
  // user:password@ in a URL.
  private static final Pattern URL_CREDENTIALS =
      Pattern.compile("(?i)\\b([a-z][a-z0-9+.-]{1,15}://)([^\\s/@:\"\\\\]+):([^\\s/@\"\\\\]+)@");
  // "my password is hunter22", "the passphrase was: x"
  private static final Pattern PASSWORD_PHRASE =
      Pattern.compile(
          "(?i)\\b(password|passwd|passphrase|passcode)"
              + "(\\s+(?:is|was)\\s*:?\\s+|\\s*[:=]\\s*)([^\\s\"\\\\,;]+)");
  // Terminal control characters, raw and as JSON escapes (tab, line feed, return stay).
  private static final Pattern CONTROL_RAW =
      Pattern.compile("[\\x00-\\x08\\x0B\\x0C\\x0E-\\x1F\\x7F\\x{80}-\\x{9F}]");
  private static final Pattern CONTROL_ESCAPED =
      Pattern.compile(
          "(?<!\\\\)((?:\\\\\\\\)*)\\\\u00(?:0[0-8bBcCeEfF]|1[0-9a-fA-F]|7[fF]|[89][0-9a-fA-F])");
  private static final Pattern SECRET_NAME =
      Pattern.compile("(?i).*(key|token|secret|password|passwd|credential|auth).*");

  /** Top-level directories whose absolute paths are redacted (plus the data root's own). */
  private static final Set<String> ROOTS =
      Set.of(
          "home",
          "Users",
          "tmp",
          "var",
          "etc",
          "opt",
          "usr",
          "root",
          "mnt",
          "media",
          "private",
          "srv",
          "Volumes",
          "run",
          "proc",
          "dev",
          "sys",
          "snap",
          "nix",
          "Library",
          "Applications",
          "System",
          "lib",
          "lib64",
          "bin",
          "sbin",
          "boot",
          "workspace",
          "work",
          "data");

  private final String dataRoot;
  private final List<String> secrets;
  private final Pattern paths;

  private Redactor(Path dataRoot, Collection<String> secrets) {
    this.dataRoot = dataRoot.toAbsolutePath().normalize().toString();
    var clean = new LinkedHashSet<String>();
    for (String s : secrets) {
      if (s != null && s.strip().length() >= MIN_SECRET_CHARS) {
        clean.add(s.strip());
      }
    }
    var sorted = new ArrayList<>(clean);
    sorted.sort(Comparator.comparingInt(String::length).reversed());
    this.secrets = List.copyOf(sorted);
    var roots = new LinkedHashSet<>(ROOTS);
    Path first =
        dataRoot.toAbsolutePath().normalize().getRoot() == null
            ? null
            : dataRoot.toAbsolutePath().normalize().getNameCount() > 0
                ? dataRoot.toAbsolutePath().normalize().getName(0)
                : null;
    if (first != null) {
      roots.add(first.toString());
    }
    var alternatives = roots.stream().map(Pattern::quote).toList();
    this.paths =
        Pattern.compile(
            "(?:(?<=file://)|(?<![\\w.~:/\\\\-]))/(?:"
                + String.join("|", alternatives)
                + ")(?:/[^\\s\"'<>\\\\|:;,()\\[\\]{}/]+)+");
  }

  /**
   * A redactor for traces under {@code dataRoot} that also removes the given secrets verbatim (e.g.
   * the configured API key) and the values of credential-like environment variables of this
   * process.
   */
  public static Redactor forDataRoot(Path dataRoot, Collection<String> secrets) {
    var all = new ArrayList<>(secrets);
    all.addAll(environmentSecrets(System.getenv()));
    return new Redactor(dataRoot, all);
  }

  /** A redactor for traces under {@code dataRoot} with exactly these verbatim secrets. */
  public static Redactor of(Path dataRoot, Collection<String> secrets) {
    return new Redactor(dataRoot, secrets);
  }

  /**
   * Values of environment variables whose names look like credentials ({@code *KEY*}, {@code
   * *TOKEN*}, {@code *SECRET*}, {@code *PASSWORD*}, {@code *AUTH*}, ...).
   */
  static List<String> environmentSecrets(Map<String, String> env) {
    var out = new ArrayList<String>();
    env.forEach(
        (name, value) -> {
          if (value != null
              && SECRET_NAME.matcher(name).matches()
              && value.strip().length() >= 8
              && !value.strip().equalsIgnoreCase("true")
              && !value.strip().equalsIgnoreCase("false")) {
            out.add(value.strip());
          }
        });
    return out;
  }

  /**
   * {@code text} with every secret, credential and outside path replaced. A token or key found in
   * the text (after {@code Bearer}, as {@code api_key=...}, or by its shape) is also removed
   * wherever else it occurs, in any letter case and in slug form ({@code tok-abc-123} of {@code
   * tok_ABC_123}), as query terms and concept keys derive from the question's words.
   */
  public String redact(String text) {
    if (text == null || text.isEmpty()) {
      return text;
    }
    return redactAll(List.of(text), List.of()).get(0);
  }

  /**
   * Redacts every string value and member name of {@code tree} in place, as one document, as the
   * trace writer redacts {@code run.json}: a secret found in one value goes from all of them. For
   * other files brain writes from run output (a saved Chat conversation and its exports).
   */
  public void redactTree(JsonNode tree) {
    var texts = new RedactedTexts();
    texts.addTree(tree);
    texts.redact(this);
  }

  /** The data root whose absolute paths are kept (its absolute, normalized form). */
  public String dataRoot() {
    return dataRoot;
  }

  /**
   * {@code texts} redacted as one document: a secret found in any of them, or in one of the {@code
   * context} texts (read, not returned: e.g. a JSON member as {@code name: value}), is removed from
   * all of them.
   */
  List<String> redactAll(List<String> texts, Collection<String> context) {
    return redactCounting(texts, context).texts();
  }

  /**
   * Texts redacted by {@link #redactAll}, and how many pieces of them a gitleaks rule skipped as a
   * runaway match ({@link SecretRules#find}): the other patterns still ran there.
   */
  record Redacted(List<String> texts, int runaway) {}

  /** {@link #redactAll}, counting the pieces a gitleaks rule skipped. */
  Redacted redactCounting(List<String> texts, Collection<String> context) {
    var found = new LinkedHashSet<>(secrets);
    var shaped = new LinkedHashSet<String>();
    int runaway = 0;
    for (String text : texts) {
      runaway += find(text, found, shaped);
    }
    for (String text : context) {
      runaway += find(text, found, shaped);
    }
    found.addAll(shaped);
    Pattern verbatim = verbatim(found, shaped);
    var out = new ArrayList<String>(texts.size());
    for (String text : texts) {
      out.add(text == null || text.isEmpty() ? text : replace(text, verbatim));
    }
    return new Redacted(out, runaway);
  }

  /** What the trace records of this redactor's rule set (gitleaks' version and rule count). */
  SecretRules.Source rules() {
    return SecretRules.SHIPPED.source();
  }

  private static int find(String text, Set<String> found, Set<String> shaped) {
    if (text == null || text.isEmpty()) {
      return 0;
    }
    collect(found, BEARER.matcher(text), 2);
    collect(found, KEY_VALUE_TEXT.matcher(text), 3);
    collect(found, KEY_VALUE_JSON.matcher(text), 3);
    int runaway = KeyShapes.find(text, shaped);
    collect(found, URL_CREDENTIALS.matcher(text), 3);
    // Only a value that looks made up is removed everywhere ("password is required" is prose).
    Matcher phrase = PASSWORD_PHRASE.matcher(text);
    while (phrase.find()) {
      String value = phrase.group(3);
      if (value.length() >= MIN_SECRET_CHARS && !value.matches("\\p{L}+")) {
        found.add(value);
      }
    }
    return runaway;
  }

  private String replace(String text, Pattern verbatim) {
    String t = withoutControlCharacters(text);
    t = KeyShapes.replace(t, REDACTED);
    t = URL_CREDENTIALS.matcher(t).replaceAll("$1" + Matcher.quoteReplacement(REDACTED) + "@");
    if (verbatim != null) {
      t = verbatim.matcher(t).replaceAll(Matcher.quoteReplacement(REDACTED));
    }
    t = HEADER_JSON.matcher(t).replaceAll("$1$2" + Matcher.quoteReplacement(REDACTED));
    t = HEADER_TEXT.matcher(t).replaceAll("$1$2" + Matcher.quoteReplacement(REDACTED));
    t = BEARER.matcher(t).replaceAll("$1 " + Matcher.quoteReplacement(REDACTED));
    t = KEY_VALUE_JSON.matcher(t).replaceAll("$1$2" + Matcher.quoteReplacement(REDACTED));
    t = KEY_VALUE_TEXT.matcher(t).replaceAll("$1$2" + Matcher.quoteReplacement(REDACTED));
    t = PASSWORD_PHRASE.matcher(t).replaceAll("$1$2" + Matcher.quoteReplacement(REDACTED));
    return redactPaths(t);
  }

  /**
   * One pattern for every form of every found secret, longest first (so a secret goes whole before
   * its pieces), in any letter case; {@code null} when nothing was found.
   */
  private static Pattern verbatim(Set<String> found, Set<String> shaped) {
    var forms = new LinkedHashSet<String>();
    for (String secret : found) {
      forms.addAll(forms(secret, shaped.contains(secret)));
    }
    if (forms.isEmpty()) {
      return null;
    }
    var alternatives = byLength(forms).stream().map(Pattern::quote).toList();
    return Pattern.compile(String.join("|", alternatives), Pattern.CASE_INSENSITIVE);
  }

  /**
   * {@code text} without terminal control characters (escape sequences could rewrite a terminal
   * that prints a trace), raw or as JSON {@code \\u001b}-style escapes; tab and line breaks stay.
   */
  public static String withoutControlCharacters(String text) {
    if (text == null) {
      return null;
    }
    String t = CONTROL_RAW.matcher(text).replaceAll("");
    return CONTROL_ESCAPED.matcher(t).replaceAll("$1");
  }

  private static void collect(Set<String> found, Matcher m, int group) {
    while (m.find()) {
      String value = m.group(group);
      if (value.length() >= MIN_SECRET_CHARS && !value.equals(REDACTED)) {
        found.add(value);
      }
    }
  }

  private static List<String> byLength(Set<String> values) {
    var out = new ArrayList<>(values);
    out.sort(Comparator.comparingInt(String::length).reversed());
    return out;
  }

  /** A secret as written, and as the question's words turn it into terms and concept keys. */
  private static Set<String> forms(String secret, boolean keyShaped) {
    var out = new LinkedHashSet<String>();
    out.add(secret);
    out.add(secret.replace('_', '-'));
    String slug = secret.replaceAll("[^\\p{L}\\p{N}]+", "-").replaceAll("^-|-$", "");
    if (slug.length() >= MIN_SECRET_CHARS) {
      out.add(slug);
    }
    // Query terms split a token at its punctuation: its long letters-and-digits parts go too.
    // Of a token found by its shape (Slack, JWT, PEM, an AWS secret), shorter such parts and long
    // parts of digits only or letters only go too: a Slack token's parts are such.
    for (String part : secret.split("[^\\p{L}\\p{N}]+")) {
      boolean mixed =
          part.chars().anyMatch(Character::isDigit) && part.chars().anyMatch(Character::isLetter);
      boolean kept =
          keyShaped
              ? part.length() >= MIN_SECRET_CHARS
                  && (mixed || (part.length() >= 10 && random(part)))
              : part.length() >= 8 && mixed;
      if (kept) {
        out.add(part);
      }
    }
    return out;
  }

  /** Digits only, or letters in both cases: a token's piece, not a word ("authorization"). */
  private static boolean random(String part) {
    return part.chars().allMatch(Character::isDigit)
        || (part.chars().anyMatch(Character::isUpperCase)
            && part.chars().anyMatch(Character::isLowerCase));
  }

  private String redactPaths(String text) {
    Matcher m = paths.matcher(text);
    var out = new StringBuilder();
    while (m.find()) {
      String path = m.group();
      boolean inside = path.equals(dataRoot) || path.startsWith(dataRoot + "/");
      m.appendReplacement(out, Matcher.quoteReplacement(inside ? path : PATH));
    }
    m.appendTail(out);
    return out.toString();
  }

  @Override
  public String toString() {
    return "Redactor[secrets=" + secrets.size() + "]";
  }
}
