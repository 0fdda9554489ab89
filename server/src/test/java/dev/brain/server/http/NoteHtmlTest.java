package dev.brain.server.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** A note's Markdown rendered for the record page, Obsidian's syntax included. */
class NoteHtmlTest {
  private static final Map<String, String> NOTES =
      Map.of(
          "Internal links", "note:help/Linking notes/Internal links.md",
          "Embed files", "note:help/Embed files.md");

  private static String render(String markdown) {
    return NoteHtml.render(
        markdown,
        name -> Optional.ofNullable(NOTES.get(name)),
        image -> image.equals("Engelbart.jpg") ? Optional.of("/api/asset?x=1") : Optional.empty());
  }

  @Test
  void aCalloutIsABoxWithItsTitle() {
    String html = render("> [!tip]- Drag and drop embed\n> Drag a file into the note.\n");
    assertThat(html)
        .contains("<div class=\"callout callout-tip\" data-callout=\"tip\">")
        .contains("<div class=\"callout-title\">Drag and drop embed</div>")
        .contains("Drag a file into the note.")
        .doesNotContain("[!tip]")
        .doesNotContain("<blockquote>");
    assertThat(render("> [!note]\n> Body.\n")).contains("callout-title\">Note</div>");
    assertThat(render("> A plain quote.\n")).contains("<blockquote>").doesNotContain("callout");
  }

  @Test
  void wikilinksLinkToTheRecordByAliasOrHeading() {
    String html = render("See [[Internal links|Internal link]] and [[Embed files#Images]].");
    assertThat(html)
        .contains(
            "href=\"/record/note%3Ahelp%2FLinking%20notes%2FInternal%20links.md\">Internal"
                + " link</a>")
        .contains(">Embed files › Images</a>")
        .doesNotContain("[[");
    assertThat(render("A link to [[Nowhere]]."))
        .contains("A link to Nowhere.")
        .doesNotContain("<a");
  }

  @Test
  void embedsShowNotesAsLinksAndImagesAsImages() {
    String html = render("![[Embed files]]\n\n![[Engelbart.jpg]]\n\n![[missing.png]]");
    assertThat(html)
        .contains("title=\"embedded note\">↪ Embed files</a>")
        .contains("<img src=\"/api/asset?x=1\" alt=\"Engelbart.jpg\"")
        .contains("[image missing.png is not in the collection]");
  }

  @Test
  void codeKeepsItsBracketsAndHtmlIsEscaped() {
    String html = render("Write `[[Internal links]]` like this.\n\n<script>alert(1)</script>\n");
    assertThat(html).contains("<code>[[Internal links]]</code>").doesNotContain("<script>");
    assertThat(render("[x](javascript:alert(1))")).doesNotContain("javascript:");
  }
}
