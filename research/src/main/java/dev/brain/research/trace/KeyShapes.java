package dev.brain.research.trace;

import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Credentials recognized by their shape alone, wherever they stand: provider API keys and tokens
 * (OpenAI {@code sk-}, GitHub, Slack, AWS key ids, Google, GitLab {@code glpat-}, npm {@code npm_},
 * Hugging Face {@code hf_}, Stripe {@code sk_live_}/{@code rk_live_}), JSON Web Tokens, PEM and PGP
 * private key blocks, and unlabelled AWS secret access keys. The patterns follow gitleaks' rules
 * where it has one. Found in plain text and in serialized JSON alike: a key right after an escaped
 * line break ({@code \n} in JSON) counts as standing alone.
 */
final class KeyShapes {

  private static final List<Pattern> TOKENS =
      List.of(
          Pattern.compile("\\bsk-[A-Za-z0-9_-]{16,}"),
          Pattern.compile("\\bgh[pousr]_[A-Za-z0-9]{20,}"),
          Pattern.compile("\\bgithub_pat_[A-Za-z0-9_]{20,}"),
          Pattern.compile("\\bxox[abposr]-[A-Za-z0-9-]{10,}"),
          Pattern.compile("\\bAKIA[0-9A-Z]{16}\\b"),
          Pattern.compile("\\bAIza[0-9A-Za-z_-]{35}"),
          Pattern.compile("\\bglpat-[0-9A-Za-z_-]{20,}"),
          Pattern.compile("\\bnpm_[A-Za-z0-9]{36}\\b"),
          Pattern.compile("\\b(?:hf|api_org)_[A-Za-z]{34}\\b"),
          Pattern.compile("\\b[sr]k_(?:live|test|prod)_[A-Za-z0-9]{10,99}\\b"),
          // A JSON Web Token: base64url header and payload (both JSON, so "eyJ"), signature.
          Pattern.compile("\\beyJ[A-Za-z0-9_-]{4,}\\.[A-Za-z0-9_-]{4,}\\.[A-Za-z0-9_-]{4,}"));

  /**
   * A PEM or PGP private key block (its END line, or else the base64 that follows); in serialized
   * JSON its line breaks are the two characters {@code \n}.
   */
  private static final Pattern PRIVATE_KEY =
      Pattern.compile(
          "-----BEGIN ([A-Z0-9 ]*)PRIVATE KEY( BLOCK)?-----"
              + "(?:.*?-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----|[A-Za-z0-9+/=\\s\\\\]*)",
          Pattern.DOTALL);

  /** A base64 line of a key block: long, and not a word or a header ("Version: ..."). */
  private static final Pattern KEY_LINE = Pattern.compile("[A-Za-z0-9+/=]{12,}");

  /**
   * 40 characters of the base64 alphabet standing alone: the shape of an AWS secret access key (as
   * detect-secrets and gitleaks take it). Most such runs are no secret (a git SHA, a path), so a
   * run counts only when {@link #isAwsSecret} says it looks random.
   */
  private static final Pattern BASE64_40 =
      Pattern.compile("(?<![A-Za-z0-9/+=])[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+=])");

  /**
   * Entropy (bits per character) a random 40-character base64 string reaches but words and paths of
   * that length do not: 99.97% of random ones score above it (their mean is about 4.9), a
   * camel-case identifier or a path of words about 3.8 to 4.3.
   */
  static final double AWS_SECRET_MIN_ENTROPY = 4.3;

  /** JSON's two-character escapes, blanked (same length) so a key after {@code \n} stands alone. */
  private static final Pattern JSON_ESCAPE = Pattern.compile("\\\\[nrt\"/\\\\]");

  private KeyShapes() {}

  /** Adds every shaped credential of {@code text}, and the base64 lines of key blocks, to found. */
  static void find(String text, Set<String> found) {
    String view = JSON_ESCAPE.matcher(text).replaceAll("  ");
    for (Pattern token : TOKENS) {
      Matcher m = token.matcher(view);
      while (m.find()) {
        found.add(m.group());
      }
    }
    Matcher aws = BASE64_40.matcher(view);
    while (aws.find()) {
      if (isAwsSecret(aws.group())) {
        found.add(aws.group());
      }
    }
    Matcher block = PRIVATE_KEY.matcher(text);
    while (block.find()) {
      for (String piece : block.group().split("(?:\\\\n|\\s|-----[A-Z0-9 ]+-----)+")) {
        if (KEY_LINE.matcher(piece).matches() && random(piece)) {
          found.add(piece);
        }
      }
    }
  }

  /** {@code text} with every key block cut after its BEGIN line and every shaped token replaced. */
  static String replace(String text, String replacement) {
    String quoted = Matcher.quoteReplacement(replacement);
    String t = PRIVATE_KEY.matcher(text).replaceAll("-----BEGIN $1PRIVATE KEY$2-----" + quoted);
    for (Pattern token : TOKENS) {
      t = token.matcher(t).replaceAll(quoted);
    }
    return t;
  }

  /**
   * Whether 40 base64 characters look like an AWS secret access key rather than a git SHA, a path
   * or an identifier: upper- and lower-case letters and a digit, not hexadecimal, not a path (no
   * leading, trailing or doubled slash), and random enough ({@link #AWS_SECRET_MIN_ENTROPY}).
   */
  static boolean isAwsSecret(String s) {
    return s.chars().anyMatch(Character::isUpperCase)
        && s.chars().anyMatch(Character::isLowerCase)
        && s.chars().anyMatch(Character::isDigit)
        && !s.matches("[0-9A-Fa-f]+")
        && !s.startsWith("/")
        && !s.endsWith("/")
        && !s.contains("//")
        && entropy(s) >= AWS_SECRET_MIN_ENTROPY;
  }

  /** Shannon entropy of the characters of {@code s}, in bits per character. */
  static double entropy(String s) {
    int[] counts = new int[128];
    for (int i = 0; i < s.length(); i++) {
      counts[s.charAt(i) & 127]++;
    }
    double bits = 0;
    for (int count : counts) {
      if (count > 0) {
        double p = (double) count / s.length();
        bits -= p * Math.log(p) / Math.log(2);
      }
    }
    return bits;
  }

  /** Digits, or letters in both cases: a key's piece, not a word. */
  static boolean random(String part) {
    return part.chars().anyMatch(Character::isDigit)
        || (part.chars().anyMatch(Character::isUpperCase)
            && part.chars().anyMatch(Character::isLowerCase));
  }
}
