package dev.brain;

import dev.brain.models.chat.ChatModels;
import java.net.URI;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * How a configuration value is parsed and shown: each parser returns the value as brain keeps it or
 * throws {@link IllegalArgumentException} saying what the text is not, which {@link ConfigReader}
 * turns into an error naming the source, the key and the allowed values.
 */
final class ConfigValues {
  private static final Pattern DURATION = Pattern.compile("(\\d+)\\s*(ms|s|m|h|d)");

  private ConfigValues() {}

  /** A comma-separated list of words, blanks dropped. */
  static List<String> list(String value) {
    return Arrays.stream(value.split(",")).map(String::strip).filter(w -> !w.isEmpty()).toList();
  }

  /** A whole number from {@code min} to {@code max}. */
  static int wholeNumber(String value, int min, int max) {
    int n;
    try {
      n = Integer.parseInt(value.strip());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("not a whole number");
    }
    if (n < min || n > max) {
      throw new IllegalArgumentException("out of range");
    }
    return n;
  }

  /** A number from {@code min} to {@code max}. */
  static double number(String value, double min, double max) {
    double n;
    try {
      n = Double.parseDouble(value.strip());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("not a number");
    }
    if (!(n >= min && n <= max)) {
      throw new IllegalArgumentException("out of range");
    }
    return n;
  }

  /** {@code true} or {@code false}, in any case. */
  static boolean bool(String value) {
    String s = value.strip().toLowerCase(Locale.ROOT);
    if (!s.equals("true") && !s.equals("false")) {
      throw new IllegalArgumentException("not a boolean");
    }
    return s.equals("true");
  }

  /**
   * The longest duration any setting takes (ten years): far below what overflows a {@code long} of
   * nanoseconds (292 years), which deadlines and timeouts are computed in.
   */
  static final Duration MAX_DURATION = Duration.ofDays(3650);

  /** The longest deadline or timeout of one run or one call: a day. */
  static final Duration MAX_RUN = Duration.ofHours(24);

  /**
   * A duration from {@code min} to {@code max}, written like {@code 500ms}, {@code 20s}, {@code
   * 3m}, {@code 2h} or {@code 180d}.
   */
  static Duration duration(String value, Duration min, Duration max) {
    var m = DURATION.matcher(value.strip().toLowerCase(Locale.ROOT));
    if (!m.matches()) {
      throw new IllegalArgumentException("not a duration");
    }
    Duration d;
    try {
      long n = Long.parseLong(m.group(1));
      d =
          switch (m.group(2)) {
            case "ms" -> Duration.ofMillis(n);
            case "s" -> Duration.ofSeconds(n);
            case "m" -> Duration.ofMinutes(n);
            case "h" -> Duration.ofHours(n);
            default -> Duration.ofDays(n);
          };
    } catch (ArithmeticException | NumberFormatException e) {
      throw new IllegalArgumentException("too long");
    }
    if (d.compareTo(min) < 0) {
      throw new IllegalArgumentException("too short");
    }
    if (d.compareTo(max) > 0) {
      throw new IllegalArgumentException("too long");
    }
    return d;
  }

  /** A duration the way {@link #duration} reads it, in its largest whole unit. */
  static String show(Duration d) {
    if (d == null) {
      return "(none)";
    }
    long ms = d.toMillis();
    if (ms % 86_400_000 == 0) {
      return ms / 86_400_000 + "d";
    }
    if (ms % 3_600_000 == 0) {
      return ms / 3_600_000 + "h";
    }
    if (ms % 60_000 == 0) {
      return ms / 60_000 + "m";
    }
    if (ms % 1000 == 0) {
      return ms / 1000 + "s";
    }
    return ms + "ms";
  }

  /** A chat model spec: {@code extractive}, {@code ollama/<model>} or {@code openai/<model>}. */
  static String chatModel(String value) {
    String v = value.strip();
    if (ChatModels.isExtractive(v)) {
      return ChatModels.EXTRACTIVE;
    }
    int slash = v.indexOf('/');
    String provider = slash < 0 ? "" : v.substring(0, slash);
    if ((!provider.equals("ollama") && !provider.equals("openai")) || slash == v.length() - 1) {
      throw new IllegalArgumentException("not a chat model");
    }
    return v;
  }

  /** An absolute {@code http} or {@code https} URL with a host. */
  static String httpUrl(String value) {
    URI uri;
    try {
      uri = URI.create(value.strip());
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("not a URL");
    }
    if (!"http".equals(uri.getScheme()) && !"https".equals(uri.getScheme())
        || uri.getHost() == null) {
      throw new IllegalArgumentException("not an http(s) URL");
    }
    return uri.toString();
  }
}
