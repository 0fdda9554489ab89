package dev.brain.index.importer;

import dev.brain.index.CorpusRecord;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Calendar;
import java.util.List;
import org.apache.pdfbox.Loader;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.pdmodel.PDDocumentInformation;
import org.apache.pdfbox.pdmodel.encryption.InvalidPasswordException;

/**
 * Reads a PDF's text layer into one {@code src:} record keyed by its path, with PDFBox: paragraphs
 * apart, and headings (lines set larger than the body text) marked as {@code #} lines, so an answer
 * can say which section of a manual or a paper it quotes. A password-protected or unreadable PDF is
 * malformed; a PDF without a text layer (a scan) imports with its title only and a warning, since
 * brain does no OCR.
 */
final class PdfImporter {

  private PdfImporter() {}

  static ImportResult read(SourceFile file) throws ImportException {
    try (PDDocument doc = Loader.loadPDF(file.file().toFile())) {
      PDDocumentInformation info = doc.getDocumentInformation();
      String titled = blankToNull(info.getTitle());
      var lines = new PdfLines();
      lines.getText(doc);
      String text = lines.text(titled);
      String title = titled == null ? file.baseName() : titled;
      var warnings = new ArrayList<String>();
      if (text.isEmpty()) {
        warnings.add(
            file.relativePath() + ": the PDF has no text layer (a scan?); only its title is kept");
        text = title;
      }
      var record =
          CorpusRecord.builder(
                  Keys.sourceFile(file.collection(), file.relativePath()),
                  CorpusRecord.KIND_SOURCE,
                  "pdf",
                  text)
              .title(title)
              .author(blankToNull(info.getAuthor()))
              .createdAt(file.modified())
              .publishedAt(instant(info.getCreationDate()))
              .origin(file.origin())
              .updatedAt(file.modified())
              .dateSource(CorpusRecord.DATE_FILE_TIME)
              .build();
      return new ImportResult(List.of(record), warnings);
    } catch (InvalidPasswordException e) {
      throw ImportException.malformed(
          file.file(),
          "password-protected PDF: " + file.file() + "; save an unprotected copy to import it",
          e);
    } catch (IOException e) {
      throw ImportException.malformed(
          file.file(), "not a readable PDF: " + file.file() + ": " + e.getMessage(), e);
    } catch (RuntimeException e) {
      // PDFBox fails this way on some damaged files (a font it cannot parse, a null where an
      // object should be); its message speaks of its own classes.
      throw ImportException.malformed(
          file.file(),
          "not a readable PDF: "
              + file.file()
              + ": it is damaged in a way the PDF reader cannot work around",
          e);
    }
  }

  private static String blankToNull(String s) {
    return s == null || s.isBlank() ? null : s.strip();
  }

  private static Instant instant(Calendar calendar) {
    return calendar == null ? null : calendar.toInstant();
  }
}
