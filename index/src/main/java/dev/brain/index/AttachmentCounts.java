package dev.brain.index;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import dev.brain.index.importer.Attachments;
import java.nio.file.Path;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The attachments a sync counted and did not read ({@link Attachments}: images, audio, video,
 * archives, fonts, office files), per extension. Counted, not listed: a vault holds thousands, and
 * each is no failure. In JSON: {@code {"total": 312, "by_extension": {"png": 290, "mp4": 22}}}.
 *
 * @param byExtension count per lower-case extension (no dot), the largest count first, then by
 *     extension
 */
@JsonPropertyOrder({"total", "by_extension"})
public record AttachmentCounts(Map<String, Integer> byExtension) {

  /** No attachments. */
  public static final AttachmentCounts NONE = new AttachmentCounts(Map.of());

  public AttachmentCounts {
    var sorted = new LinkedHashMap<String, Integer>();
    byExtension.entrySet().stream()
        .filter(e -> e.getValue() > 0)
        .sorted(
            Map.Entry.<String, Integer>comparingByValue(Comparator.reverseOrder())
                .thenComparing(Map.Entry.comparingByKey()))
        .forEach(e -> sorted.put(e.getKey(), e.getValue()));
    byExtension = Collections.unmodifiableMap(sorted);
  }

  /** All attachments counted. */
  @JsonProperty("total")
  public int total() {
    return byExtension.values().stream().mapToInt(Integer::intValue).sum();
  }

  /** Both counts added up. */
  AttachmentCounts plus(AttachmentCounts other) {
    var sum = new HashMap<>(byExtension);
    other.byExtension.forEach((ext, n) -> sum.merge(ext, n, Integer::sum));
    return new AttachmentCounts(sum);
  }

  /** Counts attachment files one at a time. Not thread-safe. */
  static final class Tally {
    private final Map<String, Integer> counts = new HashMap<>();

    /** Counts {@code file} if it is an attachment by type; returns whether it was. */
    boolean add(Path file) {
      String type = Attachments.type(file);
      if (type == null) {
        return false;
      }
      counts.merge(type, 1, Integer::sum);
      return true;
    }

    AttachmentCounts counts() {
      return new AttachmentCounts(counts);
    }
  }
}
