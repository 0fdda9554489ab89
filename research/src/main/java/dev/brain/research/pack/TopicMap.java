package dev.brain.research.pack;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;

/**
 * The collection's topics and how they connect, from its user tags, the links between its records
 * and their section headings: the most used tags, each with the tags that co-occur on its records,
 * its most linked-to records, its commonest headings and the records it links to; and the
 * connections between the listed tags (shared records, links from one tag's records to the
 * other's). Bounded: at most {@link CorpusMaps#MAX_TOPICS} tags, and at most {@link
 * CorpusMaps#READS_PER_TAG} records read per tag for links and headings. A map of the corpus, not
 * evidence: cite the records it names.
 *
 * @param records records in the collection
 * @param distinctTags distinct user tags in the collection
 * @param recordsRead records read for links and headings
 * @param topics the most used tags, most used first
 * @param connections pairs of listed tags that share records or link to each other, strongest first
 *     (at most {@link CorpusMaps#MAX_CONNECTIONS})
 * @param note what the map leaves out
 */
public record TopicMap(
    long records,
    @JsonProperty("distinct_tags") int distinctTags,
    @JsonProperty("records_read") int recordsRead,
    List<Topic> topics,
    List<Connection> connections,
    String note) {

  public TopicMap {
    topics = List.copyOf(topics);
    connections = List.copyOf(connections);
  }

  /**
   * One tag of the map.
   *
   * @param tag the user tag
   * @param records records carrying it
   * @param coTags tags found on the same records, with how many of them carry both
   * @param topRecords its records most linked to (by backlinks), then by key
   * @param headings the commonest section headings of its records
   * @param linksTo the records its records link to most, with how many link there
   */
  public record Topic(
      String tag,
      long records,
      @JsonProperty("co_tags") List<TagLink> coTags,
      @JsonProperty("top_records") List<RecordRef> topRecords,
      List<String> headings,
      @JsonProperty("links_to") List<RecordLink> linksTo) {
    public Topic {
      coTags = List.copyOf(coTags);
      topRecords = List.copyOf(topRecords);
      headings = List.copyOf(headings);
      linksTo = List.copyOf(linksTo);
    }
  }

  /**
   * A tag that co-occurs with a topic.
   *
   * @param tag the other tag
   * @param records records carrying both
   */
  public record TagLink(String tag, int records) {}

  /**
   * A record named by the map.
   *
   * @param key its key (what a citation names)
   * @param title its title, or {@code null}
   * @param sourceType its source type, or {@code null} when it is not in the index
   */
  public record RecordRef(
      String key, String title, @JsonProperty("source_type") String sourceType) {}

  /**
   * A record a topic's records link to.
   *
   * @param key the linked record's key
   * @param title its title, or {@code null} when it is not in the index
   * @param from how many of the topic's records link to it
   */
  public record RecordLink(String key, String title, int from) {}

  /**
   * How two listed tags connect.
   *
   * @param from one tag
   * @param to the other
   * @param sharedRecords records carrying both
   * @param links links from records of either tag to records of the other
   */
  public record Connection(
      String from, String to, @JsonProperty("shared_records") int sharedRecords, int links) {}
}
