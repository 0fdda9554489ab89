package dev.brain;

import dev.brain.models.chat.ChatModels;
import java.net.URI;

/**
 * The checks of {@code brain.yaml} values that are more than a number or a word: each returns the
 * value as brain keeps it or throws {@link IllegalArgumentException} saying what it is not, which
 * {@link ConfigReader} turns into an error naming the key and the allowed values.
 */
final class ConfigValues {
  private ConfigValues() {}

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
