package dev.brain.research.pack;

import dev.brain.index.CorpusRecord;
import dev.brain.index.IndexStats;
import dev.brain.index.RecordDetail;
import dev.brain.index.importer.Tags;
import dev.brain.research.pack.EntityMap.Entity;
import dev.brain.research.pack.TopicMap.Connection;
import dev.brain.research.pack.TopicMap.RecordLink;
import dev.brain.research.pack.TopicMap.RecordRef;
import dev.brain.research.pack.TopicMap.TagLink;
import dev.brain.research.pack.TopicMap.Topic;
import dev.brain.retrieval.Retriever;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The collection-wide maps: the {@link TopicMap} (tags, links, headings) and the {@link EntityMap}
 * (who and what the records name), built from what the index keeps — tag counts, the records
 * carrying a tag, each record's links, backlinks, headings and metadata. Read-only and bounded: the
 * most used tags only, a fixed number of records read per tag and in all.
 */
public final class CorpusMaps {

  /** Most tags a topic map lists (the index's own list of most used tags). */
  public static final int MAX_TOPICS = IndexStats.TOP_TAGS;

  /** Tags a topic map lists when not told. */
  public static final int DEFAULT_TOPICS = 12;

  /** Records read per tag for links, backlinks and headings. */
  public static final int READS_PER_TAG = 20;

  /** Records whose metadata an entity map reads at most. */
  public static final int MAX_READS = 400;

  /** Most connections a topic map lists. */
  public static final int MAX_CONNECTIONS = 30;

  /** Record keys an entity carries in a list. */
  public static final int KEYS_PER_ENTITY = 5;

  /** Records asked for per tag (the tag's membership, for counts and connections). */
  static final int RECORDS_PER_TAG = 5_000;

  /** Items per list of a topic (co-tags, top records, headings, links). */
  static final int LIST = 5;

  private final Retriever retriever;
  private final Map<String, Optional<RecordDetail>> details = new HashMap<>();
  private final IndexStats stats;

  private CorpusMaps(Retriever retriever) throws IOException {
    this.retriever = retriever;
    this.stats = retriever.stats();
  }

  /**
   * The topic map of the {@code topics} most used tags (1 to {@value #MAX_TOPICS}).
   *
   * @throws IOException if the index cannot be read
   */
  public static TopicMap topicMap(Retriever retriever, int topics) throws IOException {
    return new CorpusMaps(retriever).topics(Math.max(1, Math.min(MAX_TOPICS, topics)));
  }

  /**
   * The entities, most named first, at most {@code limit}; only those of {@code type} when it is
   * not {@code null}.
   *
   * @throws IOException if the index cannot be read
   */
  public static EntityMap entities(Retriever retriever, String type, int limit) throws IOException {
    var maps = new CorpusMaps(retriever);
    var scan = maps.scan();
    List<Entity> all = scan.entities(maps);
    return new EntityMap(
        scan.read.size(),
        scan.read.size() >= maps.stats.records(),
        all.stream().filter(e -> type == null || e.type().equals(type)).limit(limit).toList());
  }

  /**
   * One entity by id ({@code tag:coffee}, {@code person:Steven Levy}, a record key) with the
   * records that name it, at most {@code limit}; empty when nothing in the collection is known by
   * that id. A tag's records and a record's backlinks are complete; other entities are found among
   * the records the entity map reads.
   *
   * @throws IOException if the index cannot be read
   */
  public static Optional<EntityMap.Named> entity(Retriever retriever, String id, int limit)
      throws IOException {
    return new CorpusMaps(retriever).named(id.strip(), limit);
  }

  private TopicMap topics(int count) throws IOException {
    List<IndexStats.TagCount> top =
        stats.topTags().subList(0, Math.min(count, stats.topTags().size()));
    Map<String, Map<String, List<String>>> members = new LinkedHashMap<>();
    for (IndexStats.TagCount t : top) {
      members.put(t.tag(), retriever.tagged(List.of(t.tag()), RECORDS_PER_TAG));
    }
    var topics = new ArrayList<Topic>();
    var readKeys = new LinkedHashSet<String>();
    Map<String, List<CorpusRecord>> readByTag = new HashMap<>();
    for (IndexStats.TagCount t : top) {
      Map<String, List<String>> records = members.get(t.tag());
      var coTags = new HashMap<String, Integer>();
      records
          .values()
          .forEach(
              tags ->
                  tags.stream()
                      .filter(x -> !x.equals(t.tag()))
                      .forEach(x -> coTags.merge(x, 1, Integer::sum)));
      var read = new ArrayList<RecordDetail>();
      for (String key : records.keySet().stream().limit(READS_PER_TAG).toList()) {
        detail(key).ifPresent(read::add);
        readKeys.add(key);
      }
      readByTag.put(t.tag(), read.stream().map(RecordDetail::record).toList());
      topics.add(
          new Topic(
              t.tag(),
              t.count(),
              top(coTags).stream().map(e -> new TagLink(e.getKey(), e.getValue())).toList(),
              topRecords(read),
              headings(read),
              linksTo(read)));
    }
    var connections = new ArrayList<Connection>();
    for (int i = 0; i < top.size(); i++) {
      for (int j = i + 1; j < top.size(); j++) {
        String a = top.get(i).tag();
        String b = top.get(j).tag();
        Set<String> inA = members.get(a).keySet();
        Set<String> inB = members.get(b).keySet();
        int shared = (int) inA.stream().filter(inB::contains).count();
        int links = links(readByTag.get(a), inB) + links(readByTag.get(b), inA);
        if (shared > 0 || links > 0) {
          connections.add(new Connection(a, b, shared, links));
        }
      }
    }
    connections.sort(
        Comparator.comparingInt((Connection c) -> c.sharedRecords() + c.links())
            .reversed()
            .thenComparing(Connection::from)
            .thenComparing(Connection::to));
    String note =
        "the "
            + top.size()
            + " most used of "
            + stats.distinctTags()
            + " tags; links and headings from up to "
            + READS_PER_TAG
            + " records per tag ("
            + readKeys.size()
            + " read); records without a listed tag are not on the map";
    return new TopicMap(
        stats.records(),
        stats.distinctTags(),
        readKeys.size(),
        topics,
        connections.subList(0, Math.min(MAX_CONNECTIONS, connections.size())),
        note);
  }

  private static int links(List<CorpusRecord> from, Set<String> to) {
    int n = 0;
    for (CorpusRecord r : from) {
      n += (int) r.links().stream().filter(to::contains).count();
    }
    return n;
  }

  private List<RecordRef> topRecords(List<RecordDetail> read) {
    return read.stream()
        .sorted(
            Comparator.comparingInt((RecordDetail d) -> d.backlinks().size())
                .reversed()
                .thenComparing(d -> d.record().key()))
        .limit(LIST)
        .map(d -> new RecordRef(d.record().key(), d.record().title(), d.record().sourceType()))
        .toList();
  }

  private static List<String> headings(List<RecordDetail> read) {
    var counts = new LinkedHashMap<String, Integer>();
    var shown = new HashMap<String, String>();
    for (RecordDetail d : read) {
      String title = d.record().title() == null ? "" : d.record().title().toLowerCase(Locale.ROOT);
      var seen = new LinkedHashSet<String>();
      d.chunks().forEach(c -> c.headingPath().forEach(h -> seen.add(h.strip())));
      for (String h : seen) {
        String k = h.toLowerCase(Locale.ROOT);
        if (!h.isEmpty() && !k.equals(title)) {
          counts.merge(k, 1, Integer::sum);
          shown.putIfAbsent(k, h);
        }
      }
    }
    return top(counts).stream().map(e -> shown.get(e.getKey())).toList();
  }

  private List<RecordLink> linksTo(List<RecordDetail> read) throws IOException {
    var counts = new LinkedHashMap<String, Integer>();
    for (RecordDetail d : read) {
      new LinkedHashSet<>(d.record().links()).forEach(l -> counts.merge(l, 1, Integer::sum));
    }
    var out = new ArrayList<RecordLink>();
    for (var e : top(counts)) {
      out.add(new RecordLink(e.getKey(), title(e.getKey()), e.getValue()));
    }
    return out;
  }

  /** The {@value #LIST} largest counts, ties in first-seen order. */
  private static <K> List<Map.Entry<K, Integer>> top(Map<K, Integer> counts) {
    return counts.entrySet().stream()
        .sorted(Map.Entry.<K, Integer>comparingByValue().reversed())
        .limit(LIST)
        .toList();
  }

  private Optional<RecordDetail> detail(String key) throws IOException {
    Optional<RecordDetail> d = details.get(key);
    if (d == null) {
      d = retriever.get(key);
      details.put(key, d);
    }
    return d;
  }

  private String title(String key) throws IOException {
    return detail(key).map(d -> d.record().title()).orElse(null);
  }

  private RecordRef ref(String key) throws IOException {
    Optional<RecordDetail> d = detail(key);
    return new RecordRef(
        key,
        d.map(x -> x.record().title()).orElse(null),
        d.map(x -> x.record().sourceType()).orElse(null));
  }

  /** The records the entity map reads and what they name. */
  private static final class Scan {
    final List<CorpusRecord> read = new ArrayList<>();
    final Map<String, Found> found = new LinkedHashMap<>();

    List<Entity> entities(CorpusMaps maps) throws IOException {
      var out = new ArrayList<Entity>();
      for (Found f : found.values()) {
        String name = f.name;
        if (f.type.equals("record")) {
          name = Optional.ofNullable(maps.title(f.id)).orElse(f.id);
        }
        out.add(
            new Entity(
                f.id,
                name,
                f.type,
                List.copyOf(f.aliases),
                f.count >= 0 ? f.count : f.keys.size(),
                f.keys.stream().limit(KEYS_PER_ENTITY).toList()));
      }
      out.sort(
          Comparator.comparingLong(Entity::records)
              .reversed()
              .thenComparing(Entity::type)
              .thenComparing(Entity::name));
      return out;
    }
  }

  private static final class Found {
    final String id;
    final String name;
    final String type;
    final String relation;
    final Set<String> aliases = new LinkedHashSet<>();
    final Set<String> keys = new LinkedHashSet<>();
    long count = -1;

    Found(String id, String name, String type, String relation) {
      this.id = id;
      this.name = name;
      this.type = type;
      this.relation = relation;
    }
  }

  private Scan scan() throws IOException {
    var scan = new Scan();
    var keys = new LinkedHashSet<String>();
    for (IndexStats.TagCount t : stats.topTags()) {
      Map<String, List<String>> records = retriever.tagged(List.of(t.tag()), RECORDS_PER_TAG);
      Found tag = new Found("tag:" + t.tag(), t.tag(), "tag", "tagged");
      tag.count = t.count();
      tag.keys.addAll(records.keySet());
      scan.found.put(tag.id, tag);
      for (String key : records.keySet()) {
        if (keys.size() < MAX_READS) {
          keys.add(key);
        }
      }
    }
    for (String key : keys) {
      Optional<RecordDetail> d = detail(key);
      if (d.isEmpty()) {
        continue;
      }
      CorpusRecord r = d.get().record();
      scan.read.add(r);
      for (RecordEntities.Named n : RecordEntities.of(r)) {
        String id = n.type() + ":" + n.name();
        Found f =
            scan.found.computeIfAbsent(id, x -> new Found(id, n.name(), n.type(), n.relation()));
        f.aliases.addAll(n.aliases());
        f.keys.add(key);
      }
      for (String link : new LinkedHashSet<>(r.links())) {
        Found f =
            scan.found.computeIfAbsent(link, x -> new Found(link, link, "record", "links_to"));
        f.keys.add(key);
      }
    }
    return scan;
  }

  private Optional<EntityMap.Named> named(String id, int limit) throws IOException {
    if (id.startsWith("tag:")) {
      String tag = Tags.normalize(id.substring(4)); // "tag:#Search Engine" is search-engine
      Map<String, List<String>> records = retriever.tagged(List.of(tag), RECORDS_PER_TAG);
      if (records.isEmpty()) {
        return Optional.empty();
      }
      var entity =
          new Entity(
              "tag:" + tag,
              tag,
              "tag",
              List.of(),
              records.size(),
              records.keySet().stream().limit(KEYS_PER_ENTITY).toList());
      return Optional.of(named(entity, records.keySet(), limit, "tagged"));
    }
    Optional<RecordDetail> record = id.contains(":") ? detail(id) : Optional.empty();
    if (record.isPresent()) {
      List<String> backlinks = record.get().backlinks();
      CorpusRecord r = record.get().record();
      var entity =
          new Entity(
              r.key(),
              r.title() == null ? r.key() : r.title(),
              "record",
              r.aliases(),
              backlinks.size(),
              backlinks.stream().limit(KEYS_PER_ENTITY).toList());
      return Optional.of(named(entity, backlinks, limit, "links_to"));
    }
    Scan scan = scan();
    for (Found f : scan.found.values()) {
      if (f.id.equalsIgnoreCase(id) && !f.type.equals("tag") && !f.type.equals("record")) {
        var entity =
            new Entity(
                f.id,
                f.name,
                f.type,
                List.copyOf(f.aliases),
                f.keys.size(),
                f.keys.stream().limit(KEYS_PER_ENTITY).toList());
        return Optional.of(named(entity, f.keys, limit, f.relation));
      }
    }
    return Optional.empty();
  }

  private EntityMap.Named named(
      Entity entity, java.util.Collection<String> keys, int limit, String relation)
      throws IOException {
    var records = new ArrayList<RecordRef>();
    for (String key : keys.stream().limit(limit).toList()) {
      records.add(ref(key));
    }
    return new EntityMap.Named(entity, records, keys.size(), relation);
  }
}
