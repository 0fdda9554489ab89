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
        .contains(
            "A link to <span class=\"unresolved-link\" title=\"unresolved: no note named"
                + " 'Nowhere' in any collection\">Nowhere</span>.")
        .doesNotContain("<a");
    assertThat(render("A link to [[manual.pdf]]."))
        .as("a file brain keys by content is no note that could be missing")
        .contains("A link to manual.pdf.");
    assertThat(render("[[Tom & \"Jerry\"]]"))
        .contains("named 'Tom &amp; &quot;Jerry&quot;' in")
        .contains(">Tom &amp; &quot;Jerry&quot;</span>");
  }

  @Test
  void taskListItemsAreReadOnlyCheckboxes() {
    String html = render("- [ ] descale the machine\n- [x] order filters\n- plain item\n");
    assertThat(html)
        .contains("<li><input type=\"checkbox\" disabled=\"\"> descale the machine</li>")
        .contains("<li><input type=\"checkbox\" disabled=\"\" checked=\"\"> order filters</li>")
        .contains("<li>plain item</li>")
        .doesNotContain("[ ]")
        .doesNotContain("[x]");
  }

  @Test
  void bareUrlsAreLinksAndOnlyToLiveSchemes() {
    String html =
        render(
            "Based on https://www.youtube.com/@jameshoffmann, see www.example.org or mail me@x.org.");
    assertThat(html)
        .contains(
            "<a rel=\"nofollow\" href=\"https://www.youtube.com/@jameshoffmann\">"
                + "https://www.youtube.com/@jameshoffmann</a>,")
        .contains("<a rel=\"nofollow\" href=\"http://www.example.org\">www.example.org</a>")
        .contains("<a rel=\"nofollow\" href=\"mailto:me@x.org\">me@x.org</a>");
    String other =
        render("Try javascript://%0aalert(1) and ftp://example.org/file and file:///etc/passwd");
    assertThat(other).doesNotContain("<a").doesNotContain("href");
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

  @Test
  void onlyWebMailObsidianAndRelativeLinksAreLive() {
    for (String url :
        new String[] {
          "https://example.org/a",
          "http://example.org/",
          "mailto:me@example.org",
          "obsidian://open?vault=v&file=Home",
          "/record/note%3Av%2FHome.md",
          "Other%20note.md",
          "#heading",
          "?q=1"
        }) {
      assertThat(render("[go](" + url + ")"))
          .as(url)
          .contains("<a ")
          .contains("href=\"" + url.replace("&", "&amp;") + "\"");
    }
    for (String url :
        new String[] {
          "javascript:alert(1)",
          "JavaScript:alert(1)",
          "data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==",
          "vbscript:msgbox(1)",
          "file:///etc/passwd",
          "<java\tscript:alert(1)>",
          "ftp://example.org/x",
          "tel:+4912345"
        }) {
      String html = render("[go](" + url + ")");
      assertThat(html).as(url).doesNotContain("<a ").contains("go");
    }
    assertThat(render("<data:text/html,hi>")).doesNotContain("<a ");
    assertThat(render("[go][ref]\n\n[ref]: data:text/html,hi\n")).doesNotContain("<a ");
  }

  @Test
  void imagesLoadOnlyFromWebAndRelativeUrls() {
    assertThat(render("![kettle](/api/asset?x=1)")).contains("<img src=\"/api/asset?x=1\"");
    assertThat(render("![remote](https://example.org/a.png)")).contains("<img ");
    for (String url :
        new String[] {
          "javascript:alert(1)",
          "data:image/svg+xml;base64,PHN2Zy8+",
          "vbscript:x",
          "file:///tmp/a.png"
        }) {
      String html = render("![kettle](" + url + ")");
      assertThat(html).as(url).doesNotContain("<img").contains("[image: kettle]");
    }
  }

  @Test
  void aLinkToAnotherSchemeKeepsALiveImageInsideAsText() {
    String html = render("[![kettle](data:image/png;base64,AAAA)](javascript:alert(1))");
    assertThat(html).doesNotContain("<a ").doesNotContain("<img").contains("[image: kettle]");
  }

  @Test
  void thePagePolicyLoadsNoImageFromAnotherSite() {
    String policy = RequestGuard.CONTENT_SECURITY_POLICY;
    String images = policy.replaceAll(".*img-src ([^;]*);.*", "$1");
    assertThat(images.split(" ")).containsOnly("'self'", "data:");
    assertThat(policy).contains("default-src 'self'").doesNotContain("*");
  }
}
