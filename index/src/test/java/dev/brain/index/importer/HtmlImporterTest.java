package dev.brain.index.importer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brain.index.CorpusRecord;
import java.nio.charset.Charset;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

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
            "## Dialling in a light roast\n\n"
                + "Light roasts need a finer grind and hotter water, around 94 degrees.\n\n"
                + "Start with a 1:2.5 ratio and a 28 second shot.\n\n"
                + "- Dose 18 g\n- Yield 45 g");
  }

  @Test
  void writesHeadingsPreformattedCodeAndInlineCodeAsTheMarkdownThePageIsReadAs(@TempDir Path root)
      throws Exception {
    Path file = root.resolve("howto.html");
    Files.writeString(
        file,
        """
        <html><head><title>Threads</title></head><body><main>
        <h1>Threads</h1>
        <p>Call <code>join</code> to wait; a name with a backtick: <code>a`b</code>.</p>
        <h2>Waiting<br>for a thread</h2>
        <p>Like this:</p>
        <pre><code>fn main() {
            let h = thread::spawn(|| {});
            h.join().unwrap();
        }
        </code></pre>
        <h3>Notes</h3>
        <p>Done.</p>
        <h2 id="anchor"></h2>
        <pre class="highlight"><span>if x {</span><br><span>    y();</span><br><span>}</span></pre>
        <pre>A plain-text post
          keeps its lines as prose.</pre>
        <pre><code class="language-rust">let v = 1;</code></pre>
        </main></body></html>
        """);

    CorpusRecord page = Fixtures.IMPORTERS.read(file, root).records().getFirst();

    assertThat(page.text())
        .isEqualTo(
            """
            # Threads

            Call `join` to wait; a name with a backtick: ``a`b``.

            ## Waiting for a thread

            Like this:

            ```
            fn main() {
                let h = thread::spawn(|| {});
                h.join().unwrap();
            }
            ```

            ### Notes

            Done.

            ```
            if x {
                y();
            }
            ```

            A plain-text post
            keeps its lines as prose.

            ```rust
            let v = 1;
            ```""");
  }

  @Test
  void aPageWithoutUrlIsKeyedByItsPath() throws Exception {
    CorpusRecord page = Fixtures.readOne("page-no-url.htm");

    assertThat(page.key()).isEqualTo(Keys.sourceFile("formats", "page-no-url.htm"));
    assertThat(page.url()).isNull();
    assertThat(page.title()).isEqualTo("Offline copy");
    assertThat(page.text()).isEqualTo("A page saved without any URL.");
  }

  private static final String PAGE =
      "<!doctype html><html><head><meta charset=\"utf-16\"><title>Caf\u00e9 notes</title></head>"
          + "<body><article><p>A na\u00efve r\u00e9sum\u00e9 of the espresso.</p></article></body>"
          + "</html>";

  /**
   * A page whose bytes are UTF-8 (so its {@code <meta charset="utf-16">} was readable as ASCII) is
   * read as UTF-8, as browsers do; one in UTF-16 with its byte-order mark is read as UTF-16.
   */
  @ParameterizedTest
  @ValueSource(strings = {"UTF-8", "UTF-16LE", "UTF-16BE"})
  void aPageDeclaringUtf16IsDecodedAsItsBytesAreWritten(String encoding, @TempDir Path root)
      throws Exception {
    Charset charset = Charset.forName(encoding);
    byte[] bom =
        switch (encoding) {
          case "UTF-16LE" -> new byte[] {(byte) 0xFF, (byte) 0xFE};
          case "UTF-16BE" -> new byte[] {(byte) 0xFE, (byte) 0xFF};
          default -> new byte[0];
        };
    byte[] body = PAGE.getBytes(charset);
    byte[] bytes = Arrays.copyOf(bom, bom.length + body.length);
    System.arraycopy(body, 0, bytes, bom.length, body.length);
    Path file = Files.write(root.resolve("cafe.html"), bytes);

    CorpusRecord page = Fixtures.IMPORTERS.read(file, root).records().getFirst();

    assertThat(page.title()).isEqualTo("Caf\u00e9 notes");
    assertThat(page.text()).isEqualTo("A na\u00efve r\u00e9sum\u00e9 of the espresso.");
  }
}
