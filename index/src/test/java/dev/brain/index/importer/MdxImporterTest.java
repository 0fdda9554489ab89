package dev.brain.index.importer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brain.index.CorpusRecord;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** MDX files (Starlight, Docusaurus, Nextra) import as the Markdown a reader of the page sees. */
class MdxImporterTest {

  static final String GUIDE =
      """
      ---
      title: Frontend setup
      description: Wire a Vite frontend to the app.
      ---

      import { Tabs, TabItem, Steps } from '@astrojs/starlight/components';
      import {
        Aside,
        LinkCard,
      } from '@astrojs/starlight/components';
      export const version = '2.0';

      {/* TODO: explain the dev server */}
      Point the app at the **quarkmoss** dev server.

      <Tabs>
        <TabItem label="npm">

        ```sh
        npm run zephyrdev
        ```

        </TabItem>
        <TabItem label="yarn">
          ```sh
          yarn zephyrdev
          ```
        </TabItem>
      </Tabs>

      <CommandTabs
        npm="npm run tauri dev"
        yarn="yarn tauri dev"
      />

      <LinkCard title="Vite guide" href="/start/frontend/vite/" />

      <Aside type="caution" title="Mind the port">
      The dev server must listen on port 5173, or the window stays **blankfern**.
      </Aside>

      ```js title="vite.config.js"
      import { defineConfig } from 'vite';
      export default defineConfig({});
      ```
      """;

  @TempDir Path dir;

  private final Importers importers = Importers.defaults();

  private ImportResult read(String name, String content) throws Exception {
    Path file = dir.resolve(name);
    Files.createDirectories(file.getParent());
    Files.writeString(file, content);
    return importers.read(file, dir, "docs");
  }

  @Test
  void anMdxFileIsANoteTitledByItsFrontMatter() throws Exception {
    ImportResult result = read("guide.mdx", GUIDE);

    CorpusRecord note = result.records().get(0);
    assertThat(result.warnings()).isEmpty();
    assertThat(note.key()).isEqualTo("note:docs/guide.mdx");
    assertThat(note.sourceType()).isEqualTo("note");
    assertThat(note.title()).isEqualTo("Frontend setup");
    assertThat(note.summary()).isEqualTo("Wire a Vite frontend to the app.");
    assertThat(Importers.EXTENSIONS).contains("mdx");
  }

  @Test
  void importsExportsCommentsAndComponentTagsLeaveTheText() throws Exception {
    String text = read("guide.mdx", GUIDE).records().get(0).text();

    assertThat(text)
        .doesNotContain("@astrojs/starlight/components")
        .doesNotContain("LinkCard,")
        .doesNotContain("export const")
        .doesNotContain("TODO")
        .doesNotContain("{/*")
        .doesNotContain("<Tabs")
        .doesNotContain("TabItem")
        .doesNotContain("CommandTabs")
        .doesNotContain("</")
        .doesNotContain("href=");
  }

  @Test
  void theMarkdownInsideComponentsStaysAsMarkdown() throws Exception {
    String text = read("guide.mdx", GUIDE).records().get(0).text();

    assertThat(text)
        .startsWith("Point the app at the **quarkmoss** dev server.")
        .containsPattern("(?m)^ *```sh\n *npm run zephyrdev\n *```$")
        // indented four spaces under its tag, yet no indented code block: MDX has none
        .contains("\n```sh\nyarn zephyrdev\n```\n")
        .containsPattern("(?m)^ *npm$")
        .containsPattern("(?m)^ *yarn$")
        .contains("\nVite guide\n");
  }

  @Test
  void anAsideBecomesACalloutWithItsTitle() throws Exception {
    String text = read("guide.mdx", GUIDE).records().get(0).text();

    assertThat(text)
        .contains(
            "> [!caution] Mind the port\n"
                + "> The dev server must listen on port 5173, or the window stays **blankfern**.\n\n");
  }

  @Test
  void anImportInAFencedCodeBlockIsCode() throws Exception {
    String text = read("guide.mdx", GUIDE).records().get(0).text();

    assertThat(text)
        .endsWith(
            "```js title=\"vite.config.js\"\n"
                + "import { defineConfig } from 'vite';\n"
                + "export default defineConfig({});\n"
                + "```");
  }

  @Test
  void anAsideWithoutATitleIsANoteCalloutAndCalloutNamesTheirType() throws Exception {
    String text =
        read(
                "a.mdx",
                "<Aside>\nPlain aside text.\n</Aside>\n\n<Warning>\nSharp edges.\n</Warning>\n")
            .records()
            .get(0)
            .text();

    assertThat(text).isEqualTo("> [!note]\n> Plain aside text.\n\n> [!warning]\n> Sharp edges.");
  }

  @Test
  void aCalloutOnOneLineQuotesAllItsText() throws Exception {
    String text =
        read("d.mdx", "Before.\n<Aside type=\"danger\">Do not run this as root.</Aside>\nAfter.\n")
            .records()
            .get(0)
            .text();

    assertThat(text).isEqualTo("Before.\n\n> [!danger]\n> Do not run this as root.\n\nAfter.");
  }

  @Test
  void inlineComponentsKeepTheirTextAndHtmlStays() throws Exception {
    String text =
        read("b.mdx", "Press <Kbd>Ctrl</Kbd> then <Badge label=\"new\" /> go.\n\n<div>html</div>\n")
            .records()
            .get(0)
            .text();

    assertThat(text).isEqualTo("Press Ctrl then  new  go.\n\n<div>html</div>");
  }

  @Test
  void codeIndentedWithTabsAndSpacesUnderItsTagsStaysOneFencedBlock() throws Exception {
    String text =
        read(
                "e.mdx",
                "<Tabs>\n<TabItem label=\"Manual\">\n\n"
                    + "        1.  Edit `lib.rs`:\n\n"
                    + "            ```rust\n"
                    + "            #[cfg(desktop)]\n"
                    + "    \t\t    pub fn run() {\n"
                    + "                tauri::Builder::default();\n"
                    + "            }\n"
                    + "            ```\n\n"
                    + "</TabItem>\n</Tabs>\n")
            .records()
            .get(0)
            .text();

    // The tabs count to multiples of four: the third line is indented 16 columns to the others' 12.
    assertThat(text)
        .isEqualTo(
            "Manual\n\n1.  Edit `lib.rs`:\n\n    ```rust\n    #[cfg(desktop)]\n        pub fn run() {\n"
                + "        tauri::Builder::default();\n    }\n    ```");
  }

  @Test
  void aFileThePassCannotFollowIsReadAsMarkdownWithOneWarning() throws Exception {
    ImportResult result =
        read("broken.mdx", "# Broken\n\nSome text.\n\n{/* a comment that never closes\n\nMore.\n");

    assertThat(result.records()).hasSize(1);
    assertThat(result.records().get(0).text()).contains("Some text.").contains("never closes");
    assertThat(result.warnings())
        .singleElement()
        .asString()
        .startsWith("broken.mdx: read as plain Markdown")
        .contains("line 5");
  }

  @Test
  void anUnclosedCapitalisedTagIsText() throws Exception {
    String text =
        read("c.mdx", "If a <B then the result holds.\n\nNext paragraph.\n")
            .records()
            .get(0)
            .text();

    assertThat(text).isEqualTo("If a <B then the result holds.\n\nNext paragraph.");
  }

  @Test
  void mdxWikilinksAndRelativeLinksResolveLikeMarkdown() throws Exception {
    read("start/setup.mdx", "# Setup\n");
    read("start/prerequisites.md", "# Prerequisites\n");
    importers.walk(dir);

    CorpusRecord fromMdx =
        read("start/index.mdx", "See [[setup]], [the setup](./setup.mdx) and [[prerequisites]].\n")
            .records()
            .get(0);
    CorpusRecord fromMd =
        read("notes.md", "Read [[setup]] and [it](start/setup.mdx).\n").records().get(0);

    assertThat(fromMdx.links())
        .containsExactly("note:docs/start/setup.mdx", "note:docs/start/prerequisites.md");
    assertThat(fromMd.links()).containsExactly("note:docs/start/setup.mdx");
  }
}
