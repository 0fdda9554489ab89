package dev.brain.research;

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
 * environment), auth headers, bearer tokens, well-known API key shapes ({@code sk-...}, GitHub,
 * Slack, AWS, Google), {@code key=value} credentials, and absolute paths outside the data root
 * (home directories, temp files, the vault's location). Paths inside the data root stay. Works on
 * text, including serialized JSON (replacements never contain quotes or backslashes, so the JSON
 * stays valid). Immutable and thread-safe.
 */
public final class Redactor {

  /** What a secret, token or credential value becomes. */
  public static final String REDACTED = "[redacted]";

  /** What a path outside the data root becomes. */
  public static final String PATH = "[path]";

  /** Shortest configured secret that is redacted verbatim (shorter ones would hit plain words). */
  static final int MIN_SECRET_CHARS = 6;

  private static final Pattern AUTH_HEADER =
      Pattern.compile(
          "(?i)\\b((?:proxy-)?authorization|x-api-key|api-key|cookie|set-cookie)(\"?\\s*[:=]\\s*)"
              + "(\"?)[^\\r\\n\"\\\\]+");
  private static final Pattern BEARER =
      Pattern.compile("(?i)\\b(bearer)\\s+[A-Za-z0-9._~+/=-]{6,}");
  private static final Pattern KEY_VALUE =
      Pattern.compile(
          "(?i)\\b(api[_-]?key|access[_-]?token|refresh[_-]?token|auth[_-]?token|client[_-]?secret"
              + "|secret[_-]?key|secret|password|passwd|token)(\"?\\s*[:=]\\s*)(\"?)"
              + "[^\\s\"\\\\,;&]{6,}");
  private static final List<Pattern> KEY_SHAPES =
      List.of(
          Pattern.compile("\\bsk-[A-Za-z0-9_-]{16,}"),
          Pattern.compile("\\bgh[pousr]_[A-Za-z0-9]{20,}"),
          Pattern.compile("\\bgithub_pat_[A-Za-z0-9_]{20,}"),
          Pattern.compile("\\bxox[abposr]-[A-Za-z0-9-]{10,}"),
          Pattern.compile("\\bAKIA[0-9A-Z]{16}\\b"),
          Pattern.compile("\\bAIza[0-9A-Za-z_-]{35}"));
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
  static Redactor of(Path dataRoot, Collection<String> secrets) {
    return new Redactor(dataRoot, secrets);
  }

  /** This redactor also removing {@code secret} verbatim. */
  public Redactor withSecret(String secret) {
    var all = new ArrayList<>(secrets);
    all.add(secret);
    return new Redactor(Path.of(dataRoot), all);
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

  /** {@code text} with every secret, credential and outside path replaced. */
  public String redact(String text) {
    if (text == null || text.isEmpty()) {
      return text;
    }
    String t = text;
    for (String secret : secrets) {
      t = t.replace(secret, REDACTED);
    }
    t = AUTH_HEADER.matcher(t).replaceAll("$1$2$3" + Matcher.quoteReplacement(REDACTED));
    t = BEARER.matcher(t).replaceAll("$1 " + Matcher.quoteReplacement(REDACTED));
    for (Pattern shape : KEY_SHAPES) {
      t = shape.matcher(t).replaceAll(Matcher.quoteReplacement(REDACTED));
    }
    t = KEY_VALUE.matcher(t).replaceAll("$1$2$3" + Matcher.quoteReplacement(REDACTED));
    return redactPaths(t);
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
