package dev.brain.index.importer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.brain.index.CorpusRecord;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class PdfImporterTest {

  @Test
  void readsTheTextLayerTitleAndAuthor() throws Exception {
    CorpusRecord pdf = Fixtures.readOne("guide.pdf");

    assertThat(pdf.key()).isEqualTo(Keys.sourceFile("formats", "guide.pdf"));
    assertThat(pdf.kind()).isEqualTo(CorpusRecord.KIND_SOURCE);
    assertThat(pdf.sourceType()).isEqualTo("pdf");
    assertThat(pdf.title()).isEqualTo("Burr Care Guide");
    assertThat(pdf.author()).isEqualTo("Acme Grinders");
    assertThat(pdf.publishedAt()).isEqualTo(Instant.parse("2023-09-14T09:00:00Z"));
    assertThat(pdf.text().replaceAll("\\s+", " "))
        .contains("Clean the conical burrs every 10 kilograms of coffee")
        .contains("Espresso usually sits between 12 and 18 on the dial.");
  }

  @Test
  void aTruncatedPdfIsMalformed() {
    assertThatThrownBy(() -> Fixtures.read("truncated.pdf"))
        .isInstanceOfSatisfying(ImportException.class, e -> assertThat(e.skipped()).isFalse())
        .hasMessageContaining("truncated.pdf");
  }

  @Test
  void aPasswordProtectedPdfIsMalformedWithTheFix() {
    assertThatThrownBy(() -> Fixtures.read("locked.pdf"))
        .isInstanceOfSatisfying(ImportException.class, e -> assertThat(e.skipped()).isFalse())
        .hasMessageContaining("password-protected")
        .hasMessageContaining("unprotected copy");
  }
}
