package dev.brain.solrit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.brain.Brain;
import dev.brain.index.CollectionRoot;
import dev.brain.index.IndexStatus;
import dev.brain.retrieval.EvidenceRow;
import dev.brain.retrieval.Lane;
import dev.brain.retrieval.LaneScore;
import dev.brain.solr.SolrBackendException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * brain on a real SolrCloud: two Solr nodes and ZooKeeper in a JVM of their own ({@link
 * SolrCluster}), a collection of 2 shards x 2 replicas that brain creates with its own configset,
 * the sample vault indexed through brain's pipeline, and the same research layer on top. Compared
 * with the embedded index over the same vault: the probes' top keys, lane provenance, status, an
 * edit, a node going down, and a collection whose vectors have another dimension.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class SolrCloudIT {

  @TempDir static Path temp;

  static SolrCluster cluster;
  static Brain embedded;
  static Brain solr;
  static Path vault;
  static Map<String, List<String>> solrTopKeys;

  @BeforeAll
  static void startClusterAndIndexTheVaultTwice() throws Exception {
    cluster = SolrCluster.start(2, temp.resolve("cluster.log"));
    vault = temp.resolve("copy").resolve("vault"); // named vault: the same keys as samples/vault
    copy(Path.of("..", "samples", "vault"), vault);
    embedded = Brain.open(temp.resolve("embedded"));
    embedded.index(vault);
    solr = Brain.open(solrData("vault"));
    solr.index(vault);
  }

  @AfterAll
  static void stopEverything() throws Exception {
    try {
      if (solr != null) {
        solr.close();
      }
      if (embedded != null) {
        embedded.close();
      }
    } finally {
      if (cluster != null) {
        cluster.close(); // fails if the cluster's JVM is left running
      }
    }
  }

  /** A data directory whose brain.yaml points at the cluster's collection {@code collection}. */
  static Path solrData(String collection) throws IOException {
    Path data = temp.resolve("solr-" + collection);
    Files.createDirectories(data);
    Files.writeString(
        data.resolve("brain.yaml"),
        "index:\n"
            + "  backend: solr\n"
            + "  solr:\n"
            + "    url: \""
            + String.join(",", cluster.urls())
            + "\"\n"
            + "    collection: "
            + collection
            + "\n"
            + "    shards: 2\n"
            + "    replicas: 2\n");
    return data;
  }

  @Test
  @Order(1)
  void statusPerCollectionComesFromSolr() throws IOException {
    IndexStatus status = solr.indexStatus();
    IndexStatus local = embedded.indexStatus();

    assertThat(status.index()).contains("solr").contains("collection vault");
    assertThat(status.records()).isEqualTo(local.records());
    assertThat(status.chunks()).isEqualTo(local.chunks());
    assertThat(status.embeddedChunks()).isEqualTo(status.chunks());
    var vaultStatus = status.collections().getFirst();
    assertThat(vaultStatus.name()).isEqualTo("vault");
    assertThat(vaultStatus.files()).isEqualTo(local.collections().getFirst().files());
    assertThat(vaultStatus.lastSyncAt()).isNotNull();
  }

  @Test
  @Order(1)
  void aRecordReadsBackFromSolrAsTheEmbeddedIndexHoldsIt() throws IOException {
    String key = "note:vault/coffee/Espresso recipe.md";
    var fromSolr = solr.get(key).orElseThrow().record();
    var fromEmbedded = embedded.get(key).orElseThrow().record();

    assertThat(fromSolr.dateSource()).isEqualTo("front_matter:created");
    assertThat(fromSolr).usingRecursiveComparison().isEqualTo(fromEmbedded);
  }

  @Test
  @Order(2)
  void researchProbesFindTheSameTopKeysAsTheEmbeddedIndex() throws IOException {
    Map<String, List<String>> fromSolr = topKeys(solr);
    Map<String, List<String>> fromEmbedded = topKeys(embedded);

    var differences = new ArrayList<String>();
    for (var probe : fromEmbedded.entrySet()) {
      List<String> s = fromSolr.get(probe.getKey());
      if (!probe.getValue().equals(s)) {
        differences.add(probe.getKey() + ": embedded " + probe.getValue() + ", solr " + s);
      }
    }
    assertThat(differences).as("probes whose top keys differ").isEmpty();
    assertThat(fromSolr.values().stream().filter(k -> !k.isEmpty())).hasSizeGreaterThan(10);
    solrTopKeys = fromSolr;
  }

  @Test
  @Order(3)
  void aSearchRowCarriesItsBm25AndVectorRanks() throws IOException {
    EvidenceRow top = solr.search("grind size for the Niche Zero").rows().getFirst();

    assertThat(top.sourceKey()).isEqualTo("note:vault/coffee/Niche Zero.md");
    assertThat(top.retrieval().lanes())
        .extracting(LaneScore::lane)
        .contains(Lane.BM25, Lane.VECTOR);
    assertThat(top.retrieval().lanes()).allSatisfy(l -> assertThat(l.rank()).isPositive());
    assertThat(top.excerpt()).isNotBlank();
    assertThat(top.signals()).contains("lexical_and_semantic");
  }

  @Test
  @Order(4)
  void anEditIsSearchableAfterTheSync() throws IOException {
    Path note = vault.resolve("coffee").resolve("Milk steaming.md");
    Files.writeString(
        note,
        "\n\nThe quokkaberry latte wants the wand a finger below the surface.\n",
        StandardCharsets.UTF_8,
        java.nio.file.StandardOpenOption.APPEND);

    var report = solr.sync(List.of(CollectionRoot.of("vault", vault)), null);

    assertThat(report.updated()).isEqualTo(1);
    assertThat(report.unchanged()).isPositive();
    var rows = solr.search("quokkaberry").rows();
    assertThat(rows).isNotEmpty();
    assertThat(rows.getFirst().sourceKey()).isEqualTo("note:vault/coffee/Milk steaming.md");
    assertThat(rows.getFirst().matchedTerms()).contains("quokkaberry");
  }

  @Test
  @Order(5)
  void withOneNodeDownEveryQueryIsAnsweredByTheReplicas() throws Exception {
    Map<String, List<String>> before = solrTopKeys != null ? solrTopKeys : topKeys(solr);

    cluster.stop(1);

    Map<String, List<String>> after = topKeys(solr);
    assertThat(after).isEqualTo(before);
  }

  @Test
  @Order(6)
  void aCollectionWhoseVectorsHaveAnotherDimensionIsRefused() throws Exception {
    WrongDimension.create(cluster.urls(), "wrong-dimension", 8);

    assertThatThrownBy(() -> Brain.open(solrData("wrong-dimension")).close())
        .isInstanceOf(SolrBackendException.class)
        .hasMessageContaining("stores vectors of 8 dimensions")
        .hasMessageContaining("makes vectors of 384")
        .hasMessageContaining("index.solr.collection");
  }

  /** Each probe question's top 3 pack keys. */
  private static Map<String, List<String>> topKeys(Brain brain) throws IOException {
    var out = new LinkedHashMap<String, List<String>>();
    var mapper = new ObjectMapper();
    for (String line : Files.readAllLines(Path.of("..", "samples", "probes.jsonl"))) {
      if (line.isBlank()) {
        continue;
      }
      JsonNode probe = mapper.readTree(line);
      String question = probe.get("question").asText();
      var keys = new ArrayList<String>();
      brain.pack(question, brain.researchOptions(), null).evidence().stream()
          .filter(r -> r.relatedTo() == null)
          .limit(3)
          .forEach(r -> keys.add(r.sourceKey()));
      out.put(question, keys);
    }
    return out;
  }

  private static void copy(Path from, Path to) throws IOException {
    try (var paths = Files.walk(from)) {
      for (Path p : paths.toList()) {
        Path target = to.resolve(from.relativize(p).toString());
        if (Files.isDirectory(p)) {
          Files.createDirectories(target);
        } else {
          Files.copy(p, target);
        }
      }
    }
  }
}
