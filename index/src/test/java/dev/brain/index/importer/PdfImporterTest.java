package dev.brain.index.importer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.brain.index.CorpusRecord;
import java.nio.file.Path;
import java.time.Instant;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.pdmodel.PDPage;
import org.apache.pdfbox.pdmodel.PDPageContentStream;
import org.apache.pdfbox.pdmodel.font.PDType1Font;
import org.apache.pdfbox.pdmodel.font.Standard14Fonts;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

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
    assertThat(pdf.text())
        .startsWith("# Burr Care Guide\n\nClean the conical burrs")
        .contains("\n\n## Calibration\n\nZero point:");
  }

  @Test
  void linesSetLargerThanTheBodyAreHeadingsUnderTheTitle(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("care.pdf");
    var bold = new PDType1Font(Standard14Fonts.FontName.HELVETICA_BOLD);
    var body = new PDType1Font(Standard14Fonts.FontName.HELVETICA);
    try (var doc = new PDDocument()) {
      doc.getDocumentInformation().setTitle("Machine Care Guide");
      var page = new PDPage();
      doc.addPage(page);
      try (var out = new PDPageContentStream(doc, page)) {
        out.beginText();
        out.newLineAtOffset(60, 720);
        String[][] lines = {
          {"h", "Machine Care Guide"},
          {"b", "This guide covers home machines with a 58 mm group."},
          {"h", "1. After every session: water backflush"},
          {"b", "Insert the blind basket and run the pump for 10 seconds,"},
          {"b", "then stop for 10 seconds; repeat five times."},
          {"h", "4. Descaling"},
          {"b", "Use citric acid: 25 g per litre of water."},
          {"h", "4.1 Descaler by script"},
          {"c", "# descale --dry-run"}
        };
        for (String[] line : lines) {
          boolean heading = line[0].equals("h");
          if (heading || line[0].equals("c")) {
            out.newLineAtOffset(0, -8);
          }
          out.setFont(heading ? bold : body, heading ? (line[1].contains(".1") ? 13 : 14) : 11);
          out.showText(line[1]);
          out.newLineAtOffset(0, heading ? -22 : -15);
        }
        out.endText();
      }
      doc.save(file.toFile());
    }

    String text = Fixtures.IMPORTERS.read(file, dir).records().getFirst().text();

    assertThat(text)
        .startsWith("# Machine Care Guide\n\n")
        .contains("\n\n## 1. After every session: water backflush\n\n")
        .contains("\n\n## 4. Descaling\n\nUse citric acid: 25 g per litre of water.")
        .contains("\n\n### 4.1 Descaler by script\n\n\\# descale --dry-run")
        .contains("Insert the blind basket and run the pump for 10 seconds,")
        .doesNotContain("# This guide")
        .doesNotContain("# Insert");
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
