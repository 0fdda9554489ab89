package dev.brain.index.importer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brain.index.CorpusRecord;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class BookmarksImporterTest {

  @Test
  void readsOneRecordPerBookmarkAndSkipsBookmarkletsAndDuplicates() throws Exception {
    ImportResult result = Fixtures.read("bookmarks.html");

    assertThat(result.records())
        .extracting(CorpusRecord::title)
        .containsExactly("Home-Barista forums", "Grind chart", "Apache Lucene");
    assertThat(result.warnings()).hasSize(2);
    assertThat(result.warnings().get(0)).contains("Bookmarklet", "not an http(s) URL");
    assertThat(result.warnings().get(1)).contains("Apache Lucene again", "same URL again");
  }

  @Test
  void aBookmarkCarriesItsCanonicalUrlTagsDateDescriptionAndFolders() throws Exception {
    CorpusRecord forum = Fixtures.read("bookmarks.html").records().get(0);

    assertThat(forum.key()).isEqualTo(Keys.bookmark("https://home-barista.com/forums"));
    assertThat(forum.kind()).isEqualTo(CorpusRecord.KIND_ITEM);
    assertThat(forum.sourceType()).isEqualTo("bookmark");
    assertThat(forum.url()).isEqualTo("https://home-barista.com/forums");
    assertThat(forum.tags()).containsExactly("coffee", "home-espresso");
    assertThat(forum.createdAt()).isEqualTo(Instant.ofEpochSecond(1700000100));
    assertThat(forum.links()).containsExactly(Keys.source("https://home-barista.com/forums"));
    assertThat(forum.text())
        .isEqualTo(
            "Home-Barista forums\n\n"
                + "The best forum for espresso machines.\n\n"
                + "Folder: Bookmarks bar / Coffee\n\n"
                + "https://home-barista.com/forums");
  }

  @Test
  void folderPathFollowsNesting() throws Exception {
    List<CorpusRecord> records = Fixtures.read("bookmarks.html").records();

    assertThat(records.get(1).text()).contains("Folder: Bookmarks bar / Coffee");
    assertThat(records.get(2).text()).contains("Folder: Bookmarks bar\n");
    assertThat(records.get(1).url()).isEqualTo("https://example.org/grind-chart");
  }
}
