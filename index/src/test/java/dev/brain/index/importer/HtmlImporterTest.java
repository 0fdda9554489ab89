package dev.brain.index.importer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brain.index.CorpusRecord;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class HtmlImporterTest {

  @Test
  void keysASavedPageByItsCanonicalUrl() throws Exception {
    CorpusRecord page = Fixtures.readOne("page.html");

    assertThat(page.url()).isEqualTo("https://example.com/blog/light-roast?id=7");
    assertThat(page.key()).isEqualTo(Keys.source("https://example.com/blog/light-roast?id=7"));
    assertThat(page.kind()).isEqualTo(CorpusRecord.KIND_SOURCE);
    assertThat(page.sourceType()).isEqualTo("web");
    assertThat(page.title()).isEqualTo("Dialling in a light roast");
    assertThat(page.author()).isEqualTo("Ana Barista");
    assertThat(page.publishedAt()).isEqualTo(Instant.parse("2024-02-11T08:30:00Z"));
  }

  @Test
  void keepsTheArticleTextInParagraphsWithoutPageChrome() throws Exception {
    CorpusRecord page = Fixtures.readOne("page.html");

    assertThat(page.text())
        .isEqualTo(
            "Dialling in a light roast\n\n"
                + "Light roasts need a finer grind and hotter water, around 94 degrees.\n\n"
                + "Start with a 1:2.5 ratio and a 28 second shot.\n\n"
                + "- Dose 18 g\n- Yield 45 g");
  }

  @Test
  void aPageWithoutUrlIsKeyedByItsPath() throws Exception {
    CorpusRecord page = Fixtures.readOne("page-no-url.htm");

    assertThat(page.key()).isEqualTo(Keys.sourceFile("formats", "page-no-url.htm"));
    assertThat(page.url()).isNull();
    assertThat(page.title()).isEqualTo("Offline copy");
    assertThat(page.text()).isEqualTo("A page saved without any URL.");
  }
}
