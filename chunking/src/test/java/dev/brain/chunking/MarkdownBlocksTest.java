package dev.brain.chunking;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brain.chunking.MarkdownBlocks.Block;
import dev.brain.chunking.MarkdownBlocks.Kind;
import dev.brain.chunking.MarkdownBlocks.Unit;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link MarkdownBlocks}: a document's blocks as a reader sees them, with their headings. */
class MarkdownBlocksTest {

  @Test
  void everyBlockKnowsTheHeadingsItSitsUnderAndWhereItLies() {
    String md =
        "---\ntitle: x\n---\n# Install\n\nFirst install it.\n\n## Update\n\nRun this:\n\n"
            + "```console\n$ rustup update\n```\n\n# Other\n\nDone.\n";

    List<Block> blocks = MarkdownBlocks.of(md);

    assertThat(blocks)
        .extracting(Block::kind)
        .containsExactly(
            Kind.HEADING,
            Kind.PARAGRAPH,
            Kind.HEADING,
            Kind.PARAGRAPH,
            Kind.CODE,
            Kind.HEADING,
            Kind.PARAGRAPH);
    assertThat(blocks.get(4).headingPath()).containsExactly("Install", "Update");
    assertThat(blocks.get(4).units().getFirst().markdown())
        .isEqualTo("```console\n$ rustup update\n```");
    assertThat(blocks.get(5).headingPath()).isEmpty();
    assertThat(blocks.get(6).headingPath()).containsExactly("Other");
    Block run = blocks.get(3);
    assertThat(md.substring(run.start(), run.end())).isEqualTo("Run this:");
  }

  @Test
  void inlineCodeIsVerbatimInMarkdownAndItsWikilinkSyntaxIsNoLink() {
    Unit unit =
        MarkdownBlocks.of("To embed, write `![[Internal links]]` or see [[Embeds|the embeds]].")
            .getFirst()
            .units()
            .getFirst();

    assertThat(unit.markdown())
        .isEqualTo("To embed, write `![[Internal links]]` or see the embeds.");
    assertThat(unit.text()).isEqualTo("To embed, write ![[Internal links]] or see the embeds.");
    assertThat(unit.links()).containsExactly("the embeds");
    assertThat(unit.targets()).containsExactly("Embeds");
  }

  @Test
  void eachLinkKeepsWhatItPointsTo() {
    Unit unit =
        MarkdownBlocks.of(
                "See [[Plantar fasciitis#Treatment|the heel]], [[Gear]] and [shoes](gear/Running%20shoes.md).")
            .getFirst()
            .units()
            .getFirst();

    assertThat(unit.text()).isEqualTo("See the heel, Gear and shoes.");
    assertThat(unit.links()).containsExactly("the heel", "Gear", "shoes");
    assertThat(unit.targets())
        .containsExactly("Plantar fasciitis", "Gear", "gear/Running%20shoes.md");
  }

  @Test
  void listItemsAndTableRowsKeepWhatTheirLinksPointTo() {
    List<Block> blocks =
        MarkdownBlocks.of(
            "- see [[Gear|the gear]] and [x](Shoes.md)\n\n| Shoe | Note |\n|---|---|\n"
                + "| Ghost | [PF](Plantar%20fasciitis.md) |\n");

    Unit item = blocks.get(0).units().getFirst();
    Unit row = blocks.get(1).units().getFirst();
    assertThat(item.links()).containsExactly("the gear", "x");
    assertThat(item.targets()).containsExactly("Gear", "Shoes.md");
    assertThat(row.links()).containsExactly("PF");
    assertThat(row.targets()).containsExactly("Plantar%20fasciitis.md");
  }

  @Test
  void aListIsOneBlockWithAnItemPerUnitAndNestedItemsDeeper() {
    Block list = MarkdownBlocks.of("3. First _step_\n4. Second\n   - detail\n").getFirst();

    assertThat(list.kind()).isEqualTo(Kind.LIST);
    assertThat(list.ordered()).isTrue();
    assertThat(list.firstNumber()).isEqualTo(3);
    assertThat(list.units())
        .extracting(Unit::text, Unit::depth)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("First step", 0),
            org.assertj.core.groups.Tuple.tuple("Second", 0),
            org.assertj.core.groups.Tuple.tuple("detail", 1));
  }

  @Test
  void aTableRowReadsAsOneStatementAndACalloutKeepsItsTitleApart() {
    String md =
        "| | |\n|---|---|\n| Dose | 18 g |\n| Yield | 36 g (1:2) |\n\n"
            + "> [!info]+ Deleted files\n> Deleted notes stay in the system trash.\n";

    List<Block> blocks = MarkdownBlocks.of(md);

    assertThat(blocks.get(0).units())
        .extracting(Unit::text)
        .containsExactly("Dose: 18 g.", "Yield: 36 g (1:2).");
    assertThat(blocks.get(1).kind()).isEqualTo(Kind.QUOTE);
    assertThat(blocks.get(1).title()).isEqualTo("Deleted files");
    assertThat(blocks.get(1).text()).isEqualTo("Deleted notes stay in the system trash.");
  }

  @Test
  void aCalloutInACalloutLeadsItsTextWithItsTitleNotItsMarker() {
    String md =
        "> [!warning] Outer\n> Outer text.\n>\n> > [!tip] Mind the port\n> > Use 8080.\n>\n"
            + "> > [!note]\n> > Untitled.\n>\n> > [!faq] Why?\n> > Because.\n>\n> > Just quoted.\n";

    Block block = MarkdownBlocks.of(md).getFirst();

    assertThat(block.title()).isEqualTo("Outer");
    assertThat(block.units())
        .extracting(Unit::text)
        .containsExactly(
            "Outer text.",
            "Mind the port: Use 8080.",
            "Untitled.",
            "Why? Because.",
            "Just quoted.");
  }

  @Test
  void aParagraphOfTemplateDirectivesShowsNothingButACodeBlockOfThemStaysCode() {
    String md =
        "Options:\n\n{{#include ./opt-common.md}}\n\n{% raw %}\n{{ content }}\n\n"
            + "```liquid\n{% for post in site.posts %}\n```\n\nDone.\n";

    List<Block> blocks = MarkdownBlocks.of(md);

    assertThat(blocks)
        .extracting(Block::kind, Block::text)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(Kind.PARAGRAPH, "Options:"),
            org.assertj.core.groups.Tuple.tuple(Kind.CODE, "{% for post in site.posts %}"),
            org.assertj.core.groups.Tuple.tuple(Kind.PARAGRAPH, "Done."));
    assertThat(MarkdownBlocks.directives("{{#include a.rs}}\n\n{% raw %}")).isTrue();
    assertThat(MarkdownBlocks.directives("Use {{ content }} in a layout.")).isFalse();
    assertThat(MarkdownBlocks.includes("{{#rustdoc_include ../listings/a/src/main.rs:all}}"))
        .isTrue();
    assertThat(MarkdownBlocks.includes("{% include_relative note.html %}")).isTrue();
    assertThat(MarkdownBlocks.includes("{% for post in site.posts %}\n{{ post.title }}")).isFalse();
  }

  @Test
  void attributeListsGivingIdsAndClassesAreNotShown() {
    String md =
        "## Setting the password {: #setting-the-password }\n\n{: .note .info}\nYou need Ruby.\n\n"
            + "## Type layout {#type-layout .rule data-x=\"1\"}\n\nKeep it.\n{: .warning}\n\n"
            + "## {#each ...}\n\nPass options like {:verbose}\n\n## Pretty hex `{:#x}`\n\n"
            + "Round with `{:.2}`\n\n`{% raw %}`\n";

    List<Block> blocks = MarkdownBlocks.of(md);

    assertThat(blocks)
        .extracting(Block::text)
        .containsExactly(
            "Setting the password",
            "You need Ruby.",
            "Type layout",
            "Keep it.",
            "{#each ...}",
            "Pass options like {:verbose}",
            "Pretty hex {:#x}",
            "Round with {:.2}",
            "{% raw %}");
    assertThat(blocks.get(3).headingPath()).containsExactly("Type layout");
    assertThat(MarkdownSections.of(md))
        .extracting(section -> String.join(" > ", section.headingPath()))
        .contains("Setting the password", "Type layout", "Pretty hex {:#x}");
  }

  @Test
  void plainTextIsReadAsParagraphsWithShortUnpunctuatedLinesAsHeadings() {
    List<Block> blocks =
        MarkdownBlocks.ofPlainText("4. Descaling\n\nThe interval depends on water hardness.\n");

    assertThat(blocks).extracting(Block::kind).containsExactly(Kind.HEADING, Kind.PARAGRAPH);
    assertThat(blocks.get(1).headingPath()).containsExactly("4. Descaling");
  }

  @Test
  void plainTextThatMarksItsHeadingsNestsThemAndReadsNoOtherLineAsOne() {
    List<Block> blocks =
        MarkdownBlocks.ofPlainText(
            "# Machine Care Guide\n\nFor home machines.\n\n"
                + "## 1. After every session: water backflush\n\nInsert the blind basket.\n\n"
                + "Short line\n\n## 4. Descaling\n\n\\# apt-get install descaler\n");

    assertThat(blocks)
        .extracting(Block::kind)
        .containsExactly(
            Kind.HEADING,
            Kind.PARAGRAPH,
            Kind.HEADING,
            Kind.PARAGRAPH,
            Kind.PARAGRAPH,
            Kind.HEADING,
            Kind.PARAGRAPH);
    assertThat(blocks.get(2).units().getFirst().text())
        .isEqualTo("1. After every session: water backflush");
    assertThat(blocks.get(3).headingPath())
        .containsExactly("Machine Care Guide", "1. After every session: water backflush");
    assertThat(blocks.get(4).units().getFirst().text()).isEqualTo("Short line");
    assertThat(blocks.get(6).headingPath()).containsExactly("Machine Care Guide", "4. Descaling");
    assertThat(blocks.get(6).units().getFirst().text()).isEqualTo("# apt-get install descaler");
  }

  @Test
  void anHtmlBlockShowsItsCaptionsAndNothingElse() {
    String md =
        "We can use a trait object, as in Listing 20-34.\n\n"
            + "<Listing number=\"20-34\" caption=\"Returning `Box<dyn Fn>` &amp; more\">\n\n"
            + "```rust\n{{#include main.rs}}\n```\n\n</Listing>\n\n"
            + "<figure>\n<img src=\"a.png\">\n<figcaption>The `brew` ratio</figcaption>\n</figure>\n\n"
            + "<!-- a comment a reader never sees -->\n\n<div class=\"note\">\n";

    List<Block> blocks = MarkdownBlocks.of(md);

    assertThat(blocks)
        .extracting(Block::kind)
        .containsExactly(Kind.PARAGRAPH, Kind.PARAGRAPH, Kind.CODE, Kind.PARAGRAPH);
    Unit listing = blocks.get(1).units().getFirst();
    assertThat(listing.markdown()).isEqualTo("Listing 20-34: Returning `Box<dyn Fn>` & more");
    assertThat(listing.text()).isEqualTo("Listing 20-34: Returning Box<dyn Fn> & more");
    assertThat(blocks.get(3).units().getFirst().markdown()).isEqualTo("The `brew` ratio");
    assertThat(blocks.get(3).units().getFirst().text()).isEqualTo("The brew ratio");
  }

  @Test
  void anHtmlPreBlockIsCodeAsABrowserShowsIt() {
    String md =
        "**Stable releases:**\n\n"
            + "<pre><code class=\"cmd\"><span class=\"bash\">sudo apt install -y curl</span>\n"
            + "<span class=\"bash\">curl -1sLf 'https://example.org/debian.deb.txt' | sudo tee"
            + " /etc/apt/sources.list.d/x.list</span>\n"
            + "<span class=\"bash\">sudo apt update &amp;&amp; sudo apt install x</span></code></pre>\n\n"
            + "<pre><code class=\"language-toml\"></code></pre>\n\n"
            + "After installing, read the service instructions.\n";

    List<Block> blocks = MarkdownBlocks.of(md);

    assertThat(blocks)
        .extracting(Block::kind)
        .containsExactly(Kind.PARAGRAPH, Kind.CODE, Kind.PARAGRAPH);
    Unit code = blocks.get(1).units().getFirst();
    assertThat(code.text())
        .isEqualTo(
            "sudo apt install -y curl\n"
                + "curl -1sLf 'https://example.org/debian.deb.txt' | sudo tee"
                + " /etc/apt/sources.list.d/x.list\n"
                + "sudo apt update && sudo apt install x");
    assertThat(code.markdown()).startsWith("```\nsudo apt install -y curl\n").endsWith("\n```");
  }

  @Test
  void anHtmlBlocksTextIsShownByItsElementsAsABrowserShowsIt() {
    String md =
        "<dl>\n\n"
            + "<dt class=\"option-term\"><a href=\"#p\"><code>-p</code> <em>spec</em></a></dt>\n"
            + "<dt class=\"option-term\"><a href=\"#pk\"><code>--package</code> <em>spec</em></a></dt>\n"
            + "<dd class=\"option-desc\"><p>Build only the specified packages.</p>\n</dd>\n\n\n"
            + "<dt class=\"option-term\"><code>--workspace</code></dt>\n"
            + "<dd class=\"option-desc\"><p>Build all members of the workspace.</p>\n</dd>\n\n"
            + "</dl>\n\n"
            + "<table>\n<tr><th>Plan</th><th>Price</th></tr>\n<tr><td>Plus</td><td>8 &amp; up</td></tr>\n"
            + "</table>\n\n"
            + "<ul>\n<li><p>Grind <code>fine</code></p></li>\n<li>Dose 18 g</li>\n</ul>\n\n"
            + "<a id=\"anchor\"></a>\n\n<img src=\"x.png\" alt=\"x\">\n";

    List<Block> blocks = MarkdownBlocks.of(md);

    // The blank lines between the <dl>'s groups do not split it: one list, as a browser shows it.
    assertThat(blocks).extracting(Block::kind).containsExactly(Kind.LIST, Kind.TABLE, Kind.LIST);
    assertThat(blocks.get(0).units())
        .extracting(Unit::text)
        .containsExactly(
            "-p spec, --package spec: Build only the specified packages.",
            "--workspace: Build all members of the workspace.");
    assertThat(md.substring(blocks.get(0).start(), blocks.get(0).end()))
        .startsWith("<dl>\n\n<dt")
        .endsWith("</dd>\n\n</dl>");
    assertThat(blocks.get(1).units())
        .extracting(Unit::text)
        .containsExactly("Plan: Plus, Price: 8 & up.");
    assertThat(blocks.get(2).units())
        .extracting(Unit::text)
        .containsExactly("Grind fine", "Dose 18 g");
  }

  @Test
  void aCaptionIsNeverLostToMarkdownItDoesNotHold() {
    String md =
        "<figure caption=\"1. Pull\"><figcaption>Vec&lt;T&gt; layout</figcaption></figure>\n\n"
            + "<table>\n<caption>Doses</caption>\n<tr><td>18 g</td></tr>\n</table>\n\n"
            + "<figure caption=\"Same\">\n<figcaption>Same</figcaption>\n</figure>\n";

    List<Block> blocks = MarkdownBlocks.of(md);

    // An attribute that opens like a list is shown as written; element text is text, not
    // Markdown (its <T> stays); the same caption twice is shown once.
    assertThat(blocks)
        .extracting(b -> b.units().getFirst().text())
        .containsExactly("1. Pull Vec<T> layout", "Doses", "Same");
  }

  @Test
  void aTableWithBlankLinesInItsCellsIsOneTableAsABrowserShowsIt() {
    // Jekyll's front-matter.md: kramdown reads a blank line inside <td><p>, then text indented
    // ten spaces, as HTML; CommonMark's rule alone ends the block there and reads the text as code.
    String md =
        "## Predefined Global Variables\n\n"
            + "<div class=\"mobile-side-scroller\">\n<table>\n  <thead>\n    <tr>\n"
            + "      <th>Variable</th>\n      <th>Description</th>\n    </tr>\n  </thead>\n"
            + "  <tbody>\n    <tr>\n      <td>\n        <p><code>layout</code></p>\n      </td>\n"
            + "      <td>\n        <p>\n\n"
            + "          If set, this specifies the layout file to use. Use the layout file\n"
            + "          name without the file extension. Layout files must be placed in the\n"
            + "          <code>_layouts</code> directory.\n\n        </p>\n      </td>\n    </tr>\n"
            + "    <tr>\n      <td>\n        <p><code>published</code></p>\n      </td>\n"
            + "      <td>\n        <p>\n          Set to false if you don’t want a specific post to"
            + " show up when the\n          site is generated.\n        </p>\n      </td>\n"
            + "    </tr>\n  </tbody>\n</table>\n</div>\n\n"
            + "## Custom Variables\n\nYou can also set your own front matter variables.\n";

    List<Block> blocks = MarkdownBlocks.of(md);

    assertThat(blocks)
        .extracting(Block::kind)
        .containsExactly(Kind.HEADING, Kind.TABLE, Kind.HEADING, Kind.PARAGRAPH);
    Block table = blocks.get(1);
    assertThat(table.units())
        .extracting(Unit::text)
        .containsExactly(
            "Variable: layout, Description: If set, this specifies the layout file to use. Use"
                + " the layout file name without the file extension. Layout files must be placed"
                + " in the _layouts directory.",
            "Variable: published, Description: Set to false if you don’t want a specific post"
                + " to show up when the site is generated.");
    assertThat(md.substring(table.start(), table.end()))
        .startsWith("<div class=")
        .endsWith("</table>\n</div>");
    assertThat(blocks.get(3).headingPath()).containsExactly("Custom Variables");
  }

  @Test
  void markdownInsideAnHtmlListOrAnUnclosedTableKeepsCommonMarksRule() {
    String md =
        "<ul>\n<li>\n\n```sh\ncargo build\n```\n\n</li>\n</ul>\n\n"
            + "<table>\n<tr><th>Plan</th><th>Price</th></tr>\n\n<tr><td>Plus</td><td>8</td></tr>\n\n"
            + "The plans are billed monthly.\n\n# Next\n\nDone.\n";

    List<Block> blocks = MarkdownBlocks.of(md);

    // A fence at column 0 is Markdown, so the <ul> is read by CommonMark's rule: its code stays
    // code. The <table> never closes, so it takes nothing past its first blank line.
    assertThat(blocks)
        .extracting(Block::kind)
        .containsExactly(
            Kind.CODE,
            Kind.PARAGRAPH,
            Kind.PARAGRAPH,
            Kind.PARAGRAPH,
            Kind.HEADING,
            Kind.PARAGRAPH);
    assertThat(blocks.get(0).units().getFirst().text()).isEqualTo("cargo build");
    Block table = blocks.get(1);
    assertThat(md.substring(table.start(), table.end()))
        .isEqualTo("<table>\n<tr><th>Plan</th><th>Price</th></tr>");
    assertThat(blocks.get(3).units().getFirst().text()).isEqualTo("The plans are billed monthly.");
  }

  @Test
  void aListInsideAListIsReadToTheOuterListsClose() {
    String md =
        "<ul>\n<li>Grind\n\n<ul>\n<li>fine</li>\n</ul>\n\n</li>\n<li>Dose 18 g</li>\n</ul>\n\n"
            + "Then tamp.\n";

    List<Block> blocks = MarkdownBlocks.of(md);

    assertThat(blocks).extracting(Block::kind).containsExactly(Kind.LIST, Kind.PARAGRAPH);
    assertThat(blocks.getFirst().units())
        .extracting(Unit::text)
        .containsExactly("Grind fine", "Dose 18 g");
    assertThat(md.substring(blocks.getFirst().start(), blocks.getFirst().end())).endsWith("</ul>");
  }

  @Test
  void codeInAnHtmlListItemFollowsItsTextInTheList() {
    // cargo-package.md: the last option of a <dl> holds an example in <pre>.
    String md =
        "<dl>\n\n<dt class=\"option-term\"><code>--list</code></dt>\n"
            + "<dd class=\"option-desc\"><p>Print files included in a package.</p>\n</dd>\n\n\n"
            + "<dt class=\"option-term\"><code>--message-format</code> <em>fmt</em></dt>\n"
            + "<dd class=\"option-desc\"><p>Specifies the output message format.</p>\n<ul>\n"
            + "<li><code>json</code>: One package per JSON line.\n"
            + "<pre><code class=\"language-javascript\">{\n  \"id\": \"path+file:///foo#0.0.0\"\n}\n"
            + "</code></pre>\n</li>\n</ul>\n</dd>\n\n\n</dl>\n";

    List<Block> blocks = MarkdownBlocks.of(md);

    assertThat(blocks).extracting(Block::kind).containsExactly(Kind.LIST);
    assertThat(blocks.getFirst().units())
        .extracting(Unit::text)
        .containsExactly(
            "--list: Print files included in a package.",
            "--message-format fmt: Specifies the output message format. json: One package per"
                + " JSON line.",
            "{\n  \"id\": \"path+file:///foo#0.0.0\"\n}");
    assertThat(blocks.getFirst().units().getLast().markdown()).startsWith("```javascript\n{");
  }
}
