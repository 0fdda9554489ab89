package dev.brain.research.pack;

import dev.brain.index.CorpusRecord;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The named things a record's metadata names: its author (a person), its URL's domain (a site), a
 * GitHub owner and repository (an organisation and a project), and, for a note with aliases, the
 * note's own subject. Shared by the topic brief and the collection's entity map, so both name
 * things alike.
 */
final class RecordEntities {
  private RecordEntities() {}

  /**
   * A named thing and how the record relates to it.
   *
   * @param name its name
   * @param type {@code person}, {@code site}, {@code org}, {@code project} or {@code subject}
   * @param aliases other names (a note's aliases)
   * @param relation {@code authored_by}, {@code hosted_on}, {@code owned_by} or {@code about}
   */
  record Named(String name, String type, List<String> aliases, String relation) {}

  /** What {@code record} names, in a fixed order: author, site, organisation, project, subject. */
  static List<Named> of(CorpusRecord record) {
    var out = new ArrayList<Named>();
    if (record.author() != null && !record.author().isBlank()) {
      out.add(new Named(record.author().strip(), "person", List.of(), "authored_by"));
    }
    addUrl(out, record.url());
    if (!record.aliases().isEmpty() && record.title() != null) {
      out.add(new Named(record.title(), "subject", record.aliases(), "about"));
    }
    return out;
  }

  private static void addUrl(List<Named> out, String url) {
    if (url == null || url.isBlank()) {
      return;
    }
    URI uri;
    try {
      uri = URI.create(url.strip());
    } catch (IllegalArgumentException e) {
      return; // an odd URL names nothing
    }
    String host = uri.getHost();
    if (host == null) {
      return;
    }
    host = host.toLowerCase(Locale.ROOT).replaceFirst("^www\\.", "");
    out.add(new Named(host, "site", List.of(), "hosted_on"));
    String path = uri.getPath() == null ? "" : uri.getPath();
    String[] parts = path.replaceFirst("^/", "").split("/");
    if (host.equals("github.com") && parts.length >= 1 && !parts[0].isBlank()) {
      out.add(new Named(parts[0], "org", List.of(), "owned_by"));
      if (parts.length >= 2 && !parts[1].isBlank()) {
        out.add(new Named(parts[0] + "/" + parts[1], "project", List.of(), "about"));
      }
    }
  }
}
