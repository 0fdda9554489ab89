package dev.brain.research.trace;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Credentials recognized by their shape alone, wherever they stand: provider API keys and tokens
 * (OpenAI {@code sk-}, GitHub, Slack, AWS key ids, Google, GitLab {@code glpat-}, npm {@code npm_},
 * Hugging Face {@code hf_}, Stripe {@code sk_live_}/{@code rk_live_}), JSON Web Tokens, PEM and PGP
 * private key blocks, unlabelled AWS secret access keys, HTTP basic credentials, random tokens
 * after key-like words, and every rule of gitleaks' rule set ({@link SecretRules}). Found in plain
 * text and in serialized JSON alike: a key right after an escaped line break ({@code \n} in JSON)
 * counts as standing alone.
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
          Pattern.compile("\\beyJ[A-Za-z0-9_-]{4,}\\.[A-Za-z0-9_-]{4,}\\.[A-Za-z0-9_-]{4,}"),
          // Shapes gitleaks' rules miss or find only next to the provider's name: a Google OAuth
          // client secret, a Stripe webhook secret, a Mailgun key, a Discord bot token (the
          // user id in base64, a timestamp, an HMAC) and a Telegram bot token (bot id, secret).
          Pattern.compile("\\bGOCSPX-[A-Za-z0-9_-]{20,}"),
          Pattern.compile("\\bwhsec_[A-Za-z0-9+/=]{20,}"),
          Pattern.compile("\\bkey-[0-9A-Za-z]{32}\\b"),
          Pattern.compile(
              "\\b[MNO][A-Za-z0-9_-]{23,27}\\.[A-Za-z0-9_-]{6}\\.[A-Za-z0-9_-]{27,40}\\b"),
          Pattern.compile("\\b\\d{8,10}:AA[A-Za-z0-9_-]{33}\\b"));

  /**
   * HTTP basic credentials: {@code Basic} and base64 that decodes to {@code user:password} (so "a
   * basic understanding" stays).
   */
  private static final Pattern BASIC = Pattern.compile("(?i)\\bbasic\\s+([A-Za-z0-9+/]{8,}={0,2})");

  /**
   * A long token right after a key-like word ({@code api_key: ...}, {@code sig=...}, {@code
   * sessionid=...}, {@code private key 4c08...}): kept only if it looks random ({@link
   * #looksRandom}), so a word or a path after "token" stays.
   */
  private static final Pattern NEAR_KEY_WORD =
      Pattern.compile(
          "(?i)(?:key|token|secret|password|passwd|pwd|auth|credential|api|sig|session|cookie"
              + "|private|signature)[\\w.-]{0,20}?[\"']?\\s*(?:[:=]>?|\\s)\\s*[\"'`]?"
              + "([A-Za-z0-9+/_.%=-]{20,})");

  /**
   * Entropy (bits per character) above which a token after a key-like word counts as random: what
   * gitleaks' generic API key rule takes; a 20-character random token scores about 4, a 64-digit
   * hexadecimal key about 3.9.
   */
  static final double NEAR_KEY_WORD_MIN_ENTROPY = 3.5;

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

  /**
   * Adds every shaped credential of {@code text}, and the base64 lines of key blocks, to found;
   * returns the pieces a gitleaks rule skipped as runaway ({@link SecretRules#find}).
   */
  static int find(String text, Set<String> found) {
    String view = JSON_ESCAPE.matcher(text).replaceAll("  ");
    for (Pattern token : TOKENS) {
      Matcher m = token.matcher(view);
      while (m.find()) {
        found.add(m.group());
      }
    }
    int runaway = SecretRules.SHIPPED.find(view, found);
    Matcher basic = BASIC.matcher(view);
    while (basic.find()) {
      if (isUserAndPassword(basic.group(1))) {
        found.add(basic.group(1));
      }
    }
    Matcher near = NEAR_KEY_WORD.matcher(view);
    while (near.find()) {
      if (looksRandom(near.group(1))) {
        found.add(near.group(1));
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
    return runaway;
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

  /** Whether base64 decodes to printable {@code user:password}. */
  private static boolean isUserAndPassword(String base64) {
    try {
      String plain = new String(Base64.getDecoder().decode(base64), StandardCharsets.UTF_8);
      return plain.indexOf(':') > 0 && plain.chars().allMatch(c -> c >= 0x20 && c < 0x7f);
    } catch (IllegalArgumentException e) {
      return false;
    }
  }

  /**
   * Whether a token after a key-like word looks made up: letters and digits, letters in both cases
   * or four digits or more, no path ({@code /x}, {@code x//y}), and entropy above {@link
   * #NEAR_KEY_WORD_MIN_ENTROPY}.
   */
  static boolean looksRandom(String s) {
    long digits = s.chars().filter(Character::isDigit).count();
    boolean mixedCase =
        s.chars().anyMatch(Character::isUpperCase) && s.chars().anyMatch(Character::isLowerCase);
    return digits > 0
        && s.chars().anyMatch(Character::isLetter)
        && (mixedCase || digits >= 4)
        && !s.startsWith("/")
        && !s.contains("//")
        && entropy(s) > NEAR_KEY_WORD_MIN_ENTROPY;
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
