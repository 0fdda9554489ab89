package dev.brain.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * PDFs that PDFBox reads with complaints, or cannot read at all, print nothing of PDFBox's on
 * stderr: {@code brain index} says what it needs to, one line per failed file. Run as a child
 * process, since logging is set up by {@link Main}.
 */
class PdfLogsTest {

  @TempDir Path tmp;

  @Test
  void brokenPdfsLeaveOnePlainLineEachAndNothingFromPdfBox() throws Exception {
    Path vault = Files.createDirectories(tmp.resolve("vault"));
    // A content stream with a missing font and an operator short of operands: PDFBox reads the
    // text and logs an error with a stack trace for each.
    Files.write(
        vault.resolve("complaints.pdf"),
        pdf("BT /F9 12 Tf 10 10 Td (Hello kingfisher) Tj Tf Td ET"));
    Files.writeString(vault.resolve("garbage.pdf"), "%PDF-1.7\nthis is not really a pdf\n");
    Files.writeString(vault.resolve("note.md"), "# Note\n\nThe heron waits.\n");

    Process brain = start("--data", tmp.resolve("data").toString(), "index", vault.toString());
    var out = new ByteArrayOutputStream();
    var drain = Thread.ofPlatform().daemon().start(() -> copy(brain, out));
    boolean exited = brain.waitFor(180, TimeUnit.SECONDS);
    if (!exited) {
      brain.destroyForcibly();
    }
    drain.join(10_000);
    String err = Files.readString(tmp.resolve("err.txt"));
    String stdout = out.toString(StandardCharsets.UTF_8);

    assertThat(exited).as("brain index finished").isTrue();
    assertThat(err).doesNotContainIgnoringCase("pdfbox").doesNotContain("\tat ", "Exception");
    assertThat(stdout.lines().filter(l -> l.contains("garbage.pdf")))
        .singleElement()
        .asString()
        .contains("FAILED", "not a readable PDF")
        .doesNotContain("Exception", "org.apache");
    assertThat(stdout).doesNotContainIgnoringCase("pdfbox").doesNotContain("\tat ");
    assertThat(stdout).doesNotContain("complaints.pdf: ");
  }

  private Process start(String... args) throws IOException {
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    var command =
        new java.util.ArrayList<>(
            List.of(
                java.toString(),
                "--enable-native-access=ALL-UNNAMED",
                "--add-modules",
                "jdk.incubator.vector",
                "-Dai.djl.offline=true",
                Main.class.getName()));
    command.addAll(List.of(args));
    var builder = new ProcessBuilder(command);
    builder.environment().put("DJL_OFFLINE", "true");
    // Not -cp: ONNX Runtime crashes (SIGSEGV) in a process whose command line passes ~4 KB.
    builder.environment().put("CLASSPATH", System.getProperty("java.class.path"));
    builder.redirectError(tmp.resolve("err.txt").toFile());
    builder.redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
    return builder.start();
  }

  private static void copy(Process process, ByteArrayOutputStream out) {
    try (var in = process.getInputStream()) {
      in.transferTo(out);
    } catch (IOException e) {
      // the process is gone; what was read is kept
    }
  }

  /** A one-page PDF with a Helvetica font as F1 and {@code content} as its page's content. */
  static byte[] pdf(String content) {
    List<String> objects =
        List.of(
            "<< /Type /Catalog /Pages 2 0 R >>",
            "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /Contents 4 0 R"
                + " /Resources << /Font << /F1 5 0 R >> >> >>",
            "<< /Length " + content.length() + " >>\nstream\n" + content + "\nendstream",
            "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>");
    var out = new StringBuilder("%PDF-1.4\n");
    var offsets = new java.util.ArrayList<Integer>();
    for (int i = 0; i < objects.size(); i++) {
      offsets.add(out.length());
      out.append(i + 1).append(" 0 obj\n").append(objects.get(i)).append("\nendobj\n");
    }
    int xref = out.length();
    out.append("xref\n0 ").append(objects.size() + 1).append("\n0000000000 65535 f \n");
    for (int offset : offsets) {
      out.append(String.format("%010d 00000 n \n", offset));
    }
    out.append("trailer\n<< /Root 1 0 R /Size ")
        .append(objects.size() + 1)
        .append(" >>\nstartxref\n")
        .append(xref)
        .append("\n%%EOF\n");
    return out.toString().getBytes(StandardCharsets.US_ASCII);
  }
}
