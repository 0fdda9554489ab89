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

  @Test
  void aPdfThatBreaksThePdfReaderIsMalformedInWords(@TempDir Path dir) throws Exception {
    // A Type 1 font whose embedded program is garbage: PDFBox fails with a null pointer.
    String content = "BT /F1 12 Tf 10 10 Td (Hello) Tj ET";
    String program = "%!PS-AdobeFont garbage ".repeat(20);
    java.util.List<String> objects =
        java.util.List.of(
            "<< /Type /Catalog /Pages 2 0 R >>",
            "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /Contents 4 0 R"
                + " /Resources << /Font << /F1 5 0 R >> >> >>",
            "<< /Length " + content.length() + " >>\nstream\n" + content + "\nendstream",
            "<< /Type /Font /Subtype /Type1 /BaseFont /Foo /FontDescriptor 6 0 R /FirstChar 32"
                + " /LastChar 33 /Widths [1 2] >>",
            "<< /Type /FontDescriptor /FontName /Foo /Flags 32 /FontFile 7 0 R >>",
            "<< /Length "
                + program.length()
                + " /Length1 10 /Length2 10 /Length3 0 >>\nstream\n"
                + program
                + "\nendstream");
    var pdf = new StringBuilder("%PDF-1.4\n");
    var offsets = new java.util.ArrayList<Integer>();
    for (int i = 0; i < objects.size(); i++) {
      offsets.add(pdf.length());
      pdf.append(i + 1).append(" 0 obj\n").append(objects.get(i)).append("\nendobj\n");
    }
    int xref = pdf.length();
    pdf.append("xref\n0 ").append(objects.size() + 1).append("\n0000000000 65535 f \n");
    offsets.forEach(o -> pdf.append(String.format("%010d 00000 n \n", o)));
    pdf.append("trailer\n<< /Root 1 0 R /Size ")
        .append(objects.size() + 1)
        .append(" >>\nstartxref\n")
        .append(xref)
        .append("\n%%EOF\n");
    Path file = java.nio.file.Files.writeString(dir.resolve("font.pdf"), pdf);

    assertThatThrownBy(() -> Fixtures.IMPORTERS.read(file, dir))
        .isInstanceOfSatisfying(ImportException.class, e -> assertThat(e.skipped()).isFalse())
        .hasMessageContaining("not a readable PDF")
        .hasMessageNotContaining("org.")
        .hasMessageNotContaining("Exception");
  }
}
