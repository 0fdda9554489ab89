package dev.brain.index.importer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brain.index.CorpusRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class KeysTest {

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource({
    "http://Example.COM, https://example.com/",
    "https://www.example.com/a/b/, https://example.com/a/b",
    "https://example.com/, https://example.com/",
    "https://example.com/Path/To#section, https://example.com/Path/To",
    "https://example.com:443/x, https://example.com/x",
    "http://example.com:8080/x, https://example.com:8080/x",
    "'https://example.com/p?utm_source=rss&id=7&utm_medium=feed', https://example.com/p?id=7",
    "'https://example.com/p?fbclid=abc&gclid=1&ref=hn&mc_cid=2&mc_eid=3', https://example.com/p",
    "'https://example.com/p?b=2&a=1', https://example.com/p?b=2&a=1",
    "'  https://example.com/with space  ', https://example.com/with%20space",
    "https://www2.example.com/, https://www2.example.com/",
    "https://My_Host.Example.com/a/, https://my_host.example.com/a",
    "https://user@www.example.com:8443/a, https://user@example.com:8443/a",
  })
  void canonicalizesUrls(String url, String canonical) {
    assertThat(Keys.canonicalUrl(url)).isEqualTo(canonical);
  }

  @Test
  void keepsWhatIsNotAWebUrlAsWritten() {
    assertThat(Keys.canonicalUrl(" mailto:me@example.com ")).isEqualTo("mailto:me@example.com");
    assertThat(Keys.canonicalUrl("not a url at all")).isEqualTo("not a url at all");
  }

  @Test
  void sameUrlInAnyFormGivesTheSameSourceKey() {
    String key = Keys.source("https://example.com/post");
    assertThat(Keys.source("http://www.EXAMPLE.com/post/?utm_campaign=x#top")).isEqualTo(key);
    assertThat(key).matches("src:[0-9a-f]{12}");
    assertThat(key)
        .isEqualTo("src:" + CorpusRecord.sha256("https://example.com/post").substring(0, 12));
  }

  @Test
  void prefixesEveryKind() {
    assertThat(Keys.note("vault", "daily/2024-03-05.md"))
        .isEqualTo("note:vault/daily/2024-03-05.md");
    assertThat(Keys.doc("4983")).isEqualTo("doc:4983");
    assertThat(Keys.bookmark("https://example.com")).startsWith("bm:").hasSize(15);
    assertThat(Keys.feedEntry("https://example.com/a")).startsWith("feed-entry:").hasSize(23);
    assertThat(Keys.sourceFile("vault", "talks/a.vtt"))
        .isEqualTo("src:" + CorpusRecord.sha256("file:vault/talks/a.vtt").substring(0, 12));
  }

  @Test
  void feedEntryKeysUseTheGuidAsWrittenWhenItIsNoUrl() {
    assertThat(Keys.feedEntry("post-101"))
        .isEqualTo("feed-entry:" + CorpusRecord.sha256("post-101").substring(0, 12));
    assertThat(Keys.feedEntry("http://www.example.com/a/"))
        .isEqualTo(Keys.feedEntry("https://example.com/a"));
  }
}
