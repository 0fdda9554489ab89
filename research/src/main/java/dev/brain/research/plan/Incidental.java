package dev.brain.research.plan;

import java.util.regex.Pattern;

/**
 * Whether a concept is incidental to the question: a number ({@code 10,000}, {@code 431}) or a
 * version ({@code v2}), a month ("Dec", which a passage writes its own way), or a file, path or
 * address ({@code vite.config.js}, {@code src/App.vue}, {@code file:///…}, {@code www.mysite.com}):
 * the user's own tokens, pasted from an error or their setup. Such a token raises a passage that
 * contains it but never declines a question, and an answer need not mention it; when the corpus
 * lacks it, it tells no row apart.
 *
 * <p>Research-internal: public only for the other research packages; not API.
 */
public final class Incidental {
  private Incidental() {}

  /** Common file extensions: a name ending in one is a file of the user's, not a concept. */
  private static final Pattern FILE =
      Pattern.compile(
          ".+\\.(?:[cm]?[jt]sx?|json5?|md|mdx|html?|css|scss|sass|less|vue|svelte|ya?ml|toml"
              + "|xml|txt|csv|log|ini|conf|cfg|env|lock|py|rb|rs|go|java|kt|c|h|cc|cpp|hpp|cs"
              + "|php|sh|bat|ps1|sql|png|jpe?g|gif|svg|webp|pdf|docx?|xlsx?|zip|gz|tar|wasm"
              + "|glsl|map|exe|dll|so|dylib|msi|dmg|deb|rpm|apk|jar|whl|iso)$",
          Pattern.CASE_INSENSITIVE);

  /**
   * A host name: labels joined by dots, ending in a common top-level domain ({@code
   * www.mysite.com}, {@code api.myshop.io}). The user's own address, like a URL; a dotted option
   * name ({@code server.proxy}) is not one.
   */
  private static final Pattern HOST =
      Pattern.compile(
          "(?:[\\p{L}\\p{N}-]+\\.)+(?:com|org|net|edu|gov|io|dev|app|co|me|info|biz|xyz|site"
              + "|online|tech|cloud|ai|us|uk|de|fr|nl|eu|ca|au|jp|local|localhost|lan|internal"
              + "|test|example|invalid|home|arpa)",
          Pattern.CASE_INSENSITIVE);

  /** A version: {@code v2}, {@code v1.4.2}; like a number, the user's way of naming a release. */
  private static final Pattern VERSION =
      Pattern.compile("v\\d+(?:\\.\\d+)*", Pattern.CASE_INSENSITIVE);

  /**
   * Whether {@code concept} is a file's bare name ({@code rustfmt.toml}, {@code mkdocs.yml}), no
   * path: the name of another tool's file when the corpus mentions it nowhere.
   */
  public static boolean isFileName(Concept concept) {
    String term = concept.preferred();
    return FILE.matcher(term).matches() && term.indexOf('/') < 0 && term.indexOf('\\') < 0;
  }

  /** Whether {@code concept} is incidental to the question. */
  public static boolean is(Concept concept) {
    String term = concept.preferred();
    if (term.chars().noneMatch(Character::isLetter) || Words.MONTHS.contains(term)) {
      return true;
    }
    return term.indexOf('/') >= 0
        || term.indexOf('\\') >= 0
        || term.contains("://")
        || FILE.matcher(term).matches()
        || VERSION.matcher(term).matches()
        || HOST.matcher(term).matches();
  }
}
