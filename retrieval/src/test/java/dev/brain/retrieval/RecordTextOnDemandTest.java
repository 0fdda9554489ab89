package dev.brain.retrieval;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brain.index.BrainIndex;
import dev.brain.index.CorpusRecord;
import dev.brain.index.IndexInternals;
import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Rows read their records without the raw text and ask for it only when a row needs it: the rows
 * are exactly those of records read whole.
 */
class RecordTextOnDemandTest {

  @TempDir static Path dir;
  static BrainIndex index;

  @BeforeAll
  static void buildIndex() throws IOException {
    index = TestVault.build(dir);
  }

  @AfterAll
  static void close() throws IOException {
    index.close();
  }

  @Test
  void aLoadedRecordHasEveryFieldButItsTextWhichIsReadOnItsOwn() throws IOException {
    var searcher = IndexInternals.acquireSearcher(index);
    try {
      List<String> keys =
          List.of(
              TestVault.ESPRESSO,
              TestVault.GRINDERS,
              TestVault.COFFEE_LOG,
              TestVault.SLEEP,
              TestVault.CARNEY,
              TestVault.GEOLOGY,
              TestVault.SOURDOUGH,
              TestVault.OLD_DOC,
              TestVault.NEW_DOC);
      var loaded =
          Stored.load(searcher, keys, List.of(), new StoredDocCache<>(16), new StoredDocCache<>(16))
              .records();
      assertThat(loaded).containsOnlyKeys(keys);
      for (String key : keys) {
        CorpusRecord whole = index.get(key).orElseThrow().record();
        assertThat(whole.text()).isNotEmpty();
        assertThat(loaded.get(key).text()).isEmpty();
        assertThat(withText(loaded.get(key), whole.text())).isEqualTo(whole);
        assertThat(Stored.recordText(searcher, key)).isEqualTo(whole.text());
      }
      assertThat(Stored.recordText(searcher, "note:no/such.md")).isNull();
    } finally {
      IndexInternals.releaseSearcher(index, searcher);
    }
  }

  @Test
  void searchRowsEqualThoseOfABackendThatLoadsRecordsWhole() throws IOException {
    var embedded = Backend.embedded(index);
    var onDemand = new Retriever(embedded);
    var whole = new Retriever(loadingWhole(embedded));
    var queries =
        List.of(
            "espresso crema",
            "grinder burr",
            "sourdough starter",
            "#coffee",
            "minerals in water",
            "backflush the machine");
    for (String query : queries) {
      for (var options :
          List.of(
              SearchOptions.builder().lanes(Lane.BM25).build(),
              SearchOptions.builder().lanes(Lane.BM25, Lane.EXACT_TAG, Lane.RELATED).build(),
              SearchOptions.builder().build())) {
        assertThat(onDemand.search(query, options).rows())
            .as(query + " " + options)
            .isEqualTo(whole.search(query, options).rows())
            .isNotEmpty();
      }
    }
  }

  /** {@code backend} with views whose {@link Backend.View#load} fills in each record's text. */
  private static Backend loadingWhole(Backend backend) {
    return (Backend)
        Proxy.newProxyInstance(
            Backend.class.getClassLoader(),
            new Class<?>[] {Backend.class},
            (proxy, method, args) -> {
              Object result = invoke(backend, method, args);
              return result instanceof Backend.View view ? wholeRecords(view) : result;
            });
  }

  private static Backend.View wholeRecords(Backend.View view) {
    return (Backend.View)
        Proxy.newProxyInstance(
            Backend.class.getClassLoader(),
            new Class<?>[] {Backend.View.class},
            (proxy, method, args) -> {
              Object result = invoke(view, method, args);
              if (result instanceof Backend.Loaded loaded) {
                var records = new HashMap<String, CorpusRecord>();
                for (var e : loaded.records().entrySet()) {
                  records.put(e.getKey(), withText(e.getValue(), view.recordText(e.getKey())));
                }
                return new Backend.Loaded(records, loaded.chunks());
              }
              return result;
            });
  }

  private static Object invoke(Object target, java.lang.reflect.Method method, Object[] args)
      throws Throwable {
    try {
      return method.invoke(target, args);
    } catch (InvocationTargetException e) {
      throw e.getCause();
    }
  }

  private static CorpusRecord withText(CorpusRecord r, String text) {
    return new CorpusRecord(
        r.key(),
        r.kind(),
        r.sourceType(),
        r.title(),
        r.url(),
        r.path(),
        r.author(),
        r.tags(),
        r.createdAt(),
        r.publishedAt(),
        text,
        r.summary(),
        r.links(),
        r.origin(),
        r.aliases(),
        r.updatedAt(),
        r.dateSource());
  }
}
