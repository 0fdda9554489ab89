package dev.brain.index;

import java.nio.file.Path;

/** How a path is shown to a user when Java cannot name it exactly. */
final class DisplayPath {
  private DisplayPath() {}

  /**
   * A path whose name holds bytes that are not UTF-8 as it is on disk, its bytes that are not ASCII
   * as {@code %XX} ({@link Path#toUri()} keeps the bytes), so two such names stay apart; any other
   * path as it is.
   */
  static String of(Path path) {
    String text = path.toString();
    if (text.indexOf('\uFFFD') < 0) {
      return text;
    }
    String raw = path.toUri().getRawPath();
    var out = new StringBuilder();
    for (int i = 0; i < raw.length(); i++) {
      char c = raw.charAt(i);
      if (c == '%' && i + 2 < raw.length()) {
        int b = Integer.parseInt(raw.substring(i + 1, i + 3), 16);
        if (b < 0x80) {
          out.append((char) b);
          i += 2;
          continue;
        }
      }
      out.append(c);
    }
    return out.toString();
  }
}
