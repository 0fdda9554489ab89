package dev.brain.research.pack;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;

/**
 * An overview of a broad topic built from the local graph: the top evidence records, their user
 * tags, their links and backlinks, and the entities derived from their metadata (authors, URL
 * domains, GitHub owners and repositories, note aliases). It describes how the evidence hangs
 * together; it is not evidence itself.
 *
 * @param topic the topic
 * @param sourceTypes the source types the evidence was restricted to (empty: all)
 * @param seedLimit most evidence records used as seeds
 * @param relatedLimit most links followed per seed
 * @param summary a few deterministic sentences describing the graph
 * @param pivots the most connected tags, entities and linked records: good next searches
 * @param entities people, organisations, projects, sites and named subjects found on the seeds
 * @param nodes the graph's nodes (at most {@value #MAX_NODES})
 * @param edges the graph's edges (at most {@value #MAX_EDGES})
 */
public record TopicBrief(
    String topic,
    @JsonProperty("source_types") List<String> sourceTypes,
    @JsonProperty("seed_limit") int seedLimit,
    @JsonProperty("related_limit") int relatedLimit,
    String summary,
    List<Pivot> pivots,
    List<Entity> entities,
    List<Node> nodes,
    List<Edge> edges) {

  /** Most nodes in a brief. */
  public static final int MAX_NODES = 80;

  /** Most edges in a brief. */
  public static final int MAX_EDGES = 160;

  public TopicBrief {
    sourceTypes = List.copyOf(sourceTypes);
    pivots = List.copyOf(pivots);
    entities = List.copyOf(entities);
    nodes = List.copyOf(nodes);
    edges = List.copyOf(edges);
  }

  /**
   * A node of the topic graph.
   *
   * @param id {@code <record key>} for records, {@code tag:<tag>}, or {@code <type>:<name>} for
   *     entities ({@code person:Ines Duarte}, {@code site:github.com})
   * @param type {@code record}, {@code tag}, {@code person}, {@code org}, {@code project}, {@code
   *     site} or {@code subject}
   * @param label display text
   * @param seed whether the node is one of the evidence records the brief started from
   */
  public record Node(String id, String type, String label, boolean seed) {}

  /**
   * A directed edge of the topic graph.
   *
   * @param from source node id
   * @param to target node id
   * @param relation {@code tagged}, {@code links_to}, {@code linked_from}, {@code authored_by},
   *     {@code hosted_on}, {@code owned_by}, {@code about} or {@code also_called}
   */
  public record Edge(String from, String to, String relation) {}

  /**
   * A named thing derived from record metadata.
   *
   * @param name its name
   * @param type {@code person} (authors), {@code site} (URL domains), {@code org} (GitHub owners),
   *     {@code project} (GitHub repositories) or {@code subject} (a note with aliases)
   * @param aliases other names (a note's front-matter aliases)
   * @param sourceKeys the seed records it was found on
   */
  public record Entity(
      String name,
      String type,
      List<String> aliases,
      @JsonProperty("source_keys") List<String> sourceKeys) {
    public Entity {
      aliases = List.copyOf(aliases);
      sourceKeys = List.copyOf(sourceKeys);
    }
  }

  /**
   * A well-connected node worth searching next.
   *
   * @param id the node id
   * @param type the node type
   * @param label display text
   * @param connections seed records connected to it
   */
  public record Pivot(String id, String type, String label, int connections) {}
}
