package dev.brain.research.pack;

import dev.brain.index.CorpusRecord;
import dev.brain.index.RecordDetail;
import dev.brain.index.importer.Tags;
import dev.brain.research.pack.TopicBrief.Edge;
import dev.brain.research.pack.TopicBrief.Entity;
import dev.brain.research.pack.TopicBrief.Node;
import dev.brain.research.pack.TopicBrief.Pivot;
import dev.brain.retrieval.EvidenceRow;
import dev.brain.retrieval.Retriever;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Builds a {@link TopicBrief} from the top evidence records: their tags, links and backlinks, and
 * entities derived from metadata (authors are people, URL domains are sites, GitHub owners are
 * organisations and their repositories projects, notes with aliases are named subjects). Reads each
 * seed record once; linked records are named by their keys, not read.
 */
final class TopicBriefBuilder {

  /** Most evidence records used as seeds. */
  static final int SEED_LIMIT = 8;

  /** Most links and most backlinks followed per seed. */
  static final int LINKS_PER_SEED = 5;

  /** Most pivots listed. */
  static final int MAX_PIVOTS = 8;

  /** Most seed summaries quoted in the brief's summary. */
  static final int SUMMARIES = 3;

  /** Longest summary opening quoted. */
  private static final int OPENING_CHARS = 200;

  private final Map<String, Node> nodes = new LinkedHashMap<>();
  private final List<Edge> edges = new ArrayList<>();
  private final Map<String, Set<String>> connections = new HashMap<>();
  private final Map<String, EntityBuilder> entities = new LinkedHashMap<>();

  private record EntityBuilder(String name, String type, Set<String> aliases, Set<String> keys) {}

  /** The brief of {@code topic} over {@code seeds} (evidence rows, best first). */
  static TopicBrief build(
      Retriever retriever, String topic, List<EvidenceRow> seeds, List<String> sourceTypes)
      throws IOException {
    var builder = new TopicBriefBuilder();
    var used = new ArrayList<EvidenceRow>();
    for (EvidenceRow row : seeds) {
      if (used.size() < SEED_LIMIT
          && used.stream().noneMatch(u -> u.sourceKey().equals(row.sourceKey()))) {
        used.add(row);
      }
    }
    for (EvidenceRow row : used) {
      builder.addSeed(row, retriever.get(row.sourceKey()));
    }
    return builder.finish(topic, used, sourceTypes);
  }

  private void addSeed(EvidenceRow row, Optional<RecordDetail> detail) {
    String key = row.sourceKey();
    node(key, "record", row.title() == null ? label(key) : row.title(), true);
    for (String tag : row.userTags()) {
      link(key, "tag:" + tag, "tag", "#" + tag, "tagged");
    }
    if (detail.isEmpty()) {
      return;
    }
    CorpusRecord record = detail.get().record();
    record.links().stream()
        .limit(LINKS_PER_SEED)
        .forEach(l -> link(key, l, "record", label(l), "links_to"));
    detail.get().backlinks().stream()
        .limit(LINKS_PER_SEED)
        .forEach(b -> link(key, b, "record", label(b), "linked_from"));
    for (RecordEntities.Named n : RecordEntities.of(record)) {
      entity(key, n.name(), n.type(), n.aliases(), n.relation());
    }
  }

  private void entity(String key, String name, String type, List<String> aliases, String relation) {
    String id = type + ":" + name;
    var e =
        entities.computeIfAbsent(
            id, k -> new EntityBuilder(name, type, new LinkedHashSet<>(), new LinkedHashSet<>()));
    e.aliases().addAll(aliases);
    e.keys().add(key);
    link(key, id, type, name, relation);
  }

  private void link(String seed, String id, String type, String label, String relation) {
    if (!nodes.containsKey(id) && nodes.size() >= TopicBrief.MAX_NODES) {
      return;
    }
    node(id, type, label, false);
    if (edges.size() < TopicBrief.MAX_EDGES) {
      edges.add(new Edge(seed, id, relation));
    }
    connections.computeIfAbsent(id, k -> new LinkedHashSet<>()).add(seed);
  }

  private void node(String id, String type, String label, boolean seed) {
    Node existing = nodes.get(id);
    if (existing == null || seed && !existing.seed()) {
      nodes.put(id, new Node(id, type, label, seed));
    }
  }

  private TopicBrief finish(String topic, List<EvidenceRow> seeds, List<String> sourceTypes) {
    List<Pivot> pivots = pivots(topic);
    List<Entity> entityList = new ArrayList<>();
    for (EntityBuilder e : entities.values()) {
      entityList.add(
          new Entity(e.name(), e.type(), List.copyOf(e.aliases()), List.copyOf(e.keys())));
    }
    return new TopicBrief(
        topic,
        sourceTypes,
        SEED_LIMIT,
        LINKS_PER_SEED,
        summary(topic, seeds, pivots),
        pivots,
        entityList,
        List.copyOf(nodes.values()),
        edges);
  }

  private List<Pivot> pivots(String topic) {
    String topicTag = topic == null ? "" : "tag:" + Tags.normalize(topic);
    var out = new ArrayList<Pivot>();
    for (var e : connections.entrySet()) {
      Node n = nodes.get(e.getKey());
      if (n == null || n.seed() || n.id().equals(topicTag)) {
        continue;
      }
      out.add(new Pivot(n.id(), n.type(), n.label(), e.getValue().size()));
    }
    out.sort(Comparator.comparingInt(Pivot::connections).reversed().thenComparing(Pivot::label));
    return out.subList(0, Math.min(MAX_PIVOTS, out.size()));
  }

  private static String summary(String topic, List<EvidenceRow> seeds, List<Pivot> pivots) {
    var types = new LinkedHashMap<String, Integer>();
    seeds.forEach(s -> types.merge(s.sourceType(), 1, Integer::sum));
    var parts = new ArrayList<String>();
    types.forEach((t, n) -> parts.add(n + " " + t));
    var text = new StringBuilder();
    text.append("Topic \"")
        .append(topic)
        .append("\": ")
        .append(seeds.size())
        .append(seeds.size() == 1 ? " evidence record (" : " evidence records (")
        .append(String.join(", ", parts))
        .append(").");
    appendSummaries(text, seeds);
    appendPivots(text, pivots, "tag", " Shared tags: ");
    appendPivots(text, pivots, "record", " Most linked records: ");
    appendOthers(text, pivots);
    return text.toString();
  }

  /**
   * What the best seeds with a summary are about, in their summary's opening statement: a brief
   * reads a long record by its summary rather than by the excerpt a query happened to hit.
   */
  private static void appendSummaries(StringBuilder text, List<EvidenceRow> seeds) {
    List<String> items =
        seeds.stream()
            .filter(s -> s.summary() != null && !s.summary().isBlank())
            .limit(SUMMARIES)
            .map(s -> name(s) + ": " + opening(s.summary()))
            .toList();
    if (!items.isEmpty()) {
      text.append(" In their summaries: ").append(String.join(" ", items));
    }
  }

  private static String name(EvidenceRow row) {
    return row.title() != null && !row.title().isBlank() ? row.title() : label(row.sourceKey());
  }

  /** A summary's first paragraph on one line, cut at a word after {@value #OPENING_CHARS}. */
  private static String opening(String summary) {
    String first = summary.strip().split("\\n\\s*\\n", 2)[0].replaceAll("\\s+", " ");
    if (first.length() <= OPENING_CHARS) {
      return first;
    }
    int cut = first.lastIndexOf(' ', OPENING_CHARS);
    return first.substring(0, cut > 0 ? cut : OPENING_CHARS) + "…";
  }

  private static void appendPivots(
      StringBuilder text, List<Pivot> pivots, String type, String lead) {
    List<String> items =
        pivots.stream()
            .filter(p -> p.type().equals(type) && p.connections() > 1)
            .limit(4)
            .map(p -> p.label() + " (" + p.connections() + ")")
            .toList();
    if (!items.isEmpty()) {
      text.append(lead).append(String.join(", ", items)).append('.');
    }
  }

  private static void appendOthers(StringBuilder text, List<Pivot> pivots) {
    List<String> items =
        pivots.stream()
            .filter(p -> !p.type().equals("tag") && !p.type().equals("record"))
            .limit(4)
            .map(p -> p.type() + " " + p.label())
            .toList();
    if (!items.isEmpty()) {
      text.append(" Entities: ").append(String.join(", ", items)).append('.');
    }
  }

  /** A readable label for a key: a note's file name, else the key. */
  static String label(String key) {
    if (key.startsWith("note:")) {
      String path = key.substring("note:".length());
      String name = path.substring(path.lastIndexOf('/') + 1);
      return name.replaceFirst("\\.(md|markdown|txt)$", "");
    }
    return key;
  }
}
