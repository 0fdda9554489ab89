package dev.brain.server.cli;

import dev.brain.index.CollectionRoot;
import dev.brain.index.IndexStatus;
import java.io.IOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code obsidian://open?vault=...&file=...} links for notes of collections whose root is an
 * Obsidian vault (holds {@code .obsidian/}), as the web page offers them: a search row of such a
 * note gets a line with the link, which a terminal can open.
 *
 * @param vaults collection name to the vault name Obsidian knows
 */
record ObsidianLinks(Map<String, String> vaults) {

  /** No vaults: no links. */
  static final ObsidianLinks NONE = new ObsidianLinks(Map.of());

  private static final String NOTE_PREFIX = "note:";

  ObsidianLinks {
    vaults = Map.copyOf(vaults);
  }

  /** The vaults among the collections of {@code brain}'s {@code brain.yaml}. */
  static ObsidianLinks of(BrainCommand brain) {
    List<CollectionRoot> collections;
    try {
      collections = CollectionSteps.read(brain);
    } catch (IOException | IllegalArgumentException e) {
      return NONE; // links are a convenience; brain.yaml's problems are reported elsewhere
    }
    var vaults = new HashMap<String, String>();
    for (CollectionRoot c : collections) {
      String vault = IndexStatus.obsidianVault(c.root());
      if (vault != null) {
        vaults.put(c.name(), vault);
      }
    }
    return new ObsidianLinks(vaults);
  }

  /** The link of a note ({@code note:<collection>/<path>}) in a vault; empty for anything else. */
  Optional<String> link(String key, String notePath) {
    if (key == null || notePath == null || !key.startsWith(NOTE_PREFIX)) {
      return Optional.empty();
    }
    int slash = key.indexOf('/', NOTE_PREFIX.length());
    if (slash < 0) {
      return Optional.empty();
    }
    String vault = vaults.get(key.substring(NOTE_PREFIX.length(), slash));
    if (vault == null) {
      return Optional.empty();
    }
    return Optional.of("obsidian://open?vault=" + encode(vault) + "&file=" + encode(notePath));
  }

  /** Percent-encoding as JavaScript's {@code encodeURIComponent} does it (space as %20). */
  private static String encode(String s) {
    return URLEncoder.encode(s, StandardCharsets.UTF_8)
        .replace("+", "%20")
        .replace("%21", "!")
        .replace("%27", "'")
        .replace("%28", "(")
        .replace("%29", ")")
        .replace("%7E", "~");
  }
}
