package dev.brain.server.http;

import dev.brain.chunking.MarkdownNesting;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.commonmark.ext.autolink.AutolinkExtension;
import org.commonmark.ext.front.matter.YamlFrontMatterExtension;
import org.commonmark.ext.gfm.tables.TablesExtension;
import org.commonmark.ext.task.list.items.TaskListItemsExtension;
import org.commonmark.node.AbstractVisitor;
import org.commonmark.node.BlockQuote;
import org.commonmark.node.Code;
import org.commonmark.node.CustomNode;
import org.commonmark.node.FencedCodeBlock;
import org.commonmark.node.Image;
import org.commonmark.node.IndentedCodeBlock;
import org.commonmark.node.Link;
import org.commonmark.node.Node;
import org.commonmark.node.Paragraph;
import org.commonmark.node.Text;
import org.commonmark.parser.Parser;
import org.commonmark.renderer.NodeRenderer;
import org.commonmark.renderer.html.DefaultUrlSanitizer;
import org.commonmark.renderer.html.HtmlNodeRendererContext;
import org.commonmark.renderer.html.HtmlRenderer;
import org.commonmark.renderer.html.HtmlWriter;

/**
 * A note's Markdown as the record page shows it: CommonMark and GFM tables by commonmark-java, raw
 * HTML escaped, links live only to http(s), {@code mailto:}, {@code obsidian:} and relative URLs
 * (images only from http(s) and relative ones; others show as text), and the Obsidian syntax a
 * vault is written in — {@code [[note]]}, {@code [[note|alias]]} and {@code [[note#heading]]} as
 * links to the note's record page (resolved like Obsidian: by note name, the path disambiguating),
 * {@code ![[note]]} embeds as a link, {@code ![[image.png]]} as the image when the file is in the
 * collection, and callouts ({@code > [!tip] Title}) as boxes. A wikilink to a note the index does
 * not hold is marked unresolved ({@code <span class="unresolved-link">}). Task lists ({@code - [
 * ]}, {@code - [x]}) are read-only checkboxes and bare URLs ({@code https://...}, {@code www....})
 * links, by commonmark-java's extensions; those links pass the same scheme check as any other.
 */
final class NoteHtml {
  private static final Pattern WIKILINK =
      Pattern.compile("(!?)\\[\\[([^\\[\\]|#^\\n]+)(#[^\\[\\]|\\n]*)?(?:\\|([^\\[\\]\\n]*))?]]");
  private static final Pattern CALLOUT = Pattern.compile("^\\[!([A-Za-z-]+)]([+-]?)\\s*(.*)$");
  private static final Set<String> IMAGES =
      Set.of("png", "jpg", "jpeg", "gif", "webp", "avif", "bmp");

  private static final Parser PARSER =
      MarkdownNesting.parser()
          .extensions(
              List.of(
                  TablesExtension.create(),
                  YamlFrontMatterExtension.create(),
                  TaskListItemsExtension.create(),
                  AutolinkExtension.create()))
          .build();

  /** Renders task list items as disabled checkboxes: the page shows a note, it does not edit it. */
  private static final List<org.commonmark.Extension> RENDER_EXTENSIONS =
      List.of(TaskListItemsExtension.create());

  private NoteHtml() {}

  /**
   * The HTML of {@code markdown}.
   *
   * @param notes the key of a note by the name a wikilink gives ({@code Internal links} or {@code
   *     Plugins/Templates}); empty when the index holds none
   * @param imageUrl the URL of an embedded image by its file name; empty when it is not in the
   *     collection
   */
  static String render(
      String markdown,
      Function<String, Optional<String>> notes,
      Function<String, Optional<String>> imageUrl) {
    Node document = PARSER.parse(markdown == null ? "" : markdown);
    document.accept(new Wikilinks(notes, imageUrl));
    document.accept(new DeadUrls());
    return HtmlRenderer.builder()
        .extensions(RENDER_EXTENSIONS)
        .escapeHtml(true)
        .sanitizeUrls(true)
        // The renderer's second line behind DeadUrls; its default list lacks obsidian:.
        .urlSanitizer(new DefaultUrlSanitizer(LINK_SCHEMES))
        .nodeRendererFactory(CalloutRenderer::new)
        .nodeRendererFactory(UnresolvedRenderer::new)
        .build()
        .render(document);
  }

  /** Link schemes a note may make live; a link without a scheme (relative) is live too. */
  private static final Set<String> LINK_SCHEMES = Set.of("http", "https", "mailto", "obsidian");

  /** Image schemes a note may load from; the page's policy then allows its own origin only. */
  private static final Set<String> IMAGE_SCHEMES = Set.of("http", "https");

  private static final Pattern SCHEME = Pattern.compile("^([A-Za-z][A-Za-z0-9+.-]*):");

  /** Whether a link to {@code url} may be live: http(s), mailto, obsidian or relative. */
  static boolean liveLink(String url) {
    return allowed(url, LINK_SCHEMES);
  }

  /** Whether an image may load from {@code url}: http(s) or relative, never data: or file:. */
  static boolean liveImage(String url) {
    return allowed(url, IMAGE_SCHEMES);
  }

  /**
   * Whether {@code url}'s scheme, read as a browser reads it (leading spaces and control characters
   * dropped, tabs and line breaks removed anywhere), is one of {@code schemes}; a URL without a
   * scheme (a path, a query, a fragment, {@code //host}) is relative and allowed.
   */
  private static boolean allowed(String url, Set<String> schemes) {
    if (url == null) {
      return false;
    }
    String seen = url.replaceAll("[\\t\\n\\r]", "").replaceFirst("^[\\x00-\\x20]+", "");
    Matcher m = SCHEME.matcher(seen);
    if (!m.find()) {
      return !seen.contains(":") || seen.indexOf(':') > firstOf(seen, "/?#");
    }
    return schemes.contains(m.group(1).toLowerCase(Locale.ROOT));
  }

  /** The index of the first of {@code chars} in {@code s}, or its length. */
  private static int firstOf(String s, String chars) {
    for (int i = 0; i < s.length(); i++) {
      if (chars.indexOf(s.charAt(i)) >= 0) {
        return i;
      }
    }
    return s.length();
  }

  /**
   * Turns links to other schemes ({@code javascript:}, {@code data:}, {@code vbscript:}, {@code
   * file:}, ...) into their text and images from them into their alt text: a note is input from
   * anywhere (a saved web page, a feed), and its page must not run or load what it names.
   */
  private static final class DeadUrls extends AbstractVisitor {
    @Override
    public void visit(Link link) {
      visitChildren(link);
      if (liveLink(link.getDestination())) {
        return;
      }
      for (Node child = link.getFirstChild(); child != null; ) {
        Node next = child.getNext();
        link.insertBefore(child);
        child = next;
      }
      link.unlink();
    }

    @Override
    public void visit(Image image) {
      if (liveImage(image.getDestination())) {
        return;
      }
      var alt = new StringBuilder();
      image.accept(
          new AbstractVisitor() {
            @Override
            public void visit(Text text) {
              alt.append(text.getLiteral());
            }
          });
      image.insertBefore(new Text(alt.isEmpty() ? "[image]" : "[image: " + alt + "]"));
      image.unlink();
    }
  }

  /** The record page of a key. */
  static String recordUrl(String key) {
    return "/record/" + URLEncoder.encode(key, StandardCharsets.UTF_8).replace("+", "%20");
  }

  /** Replaces wikilinks in text (never in code) by links, embeds and images. */
  private static final class Wikilinks extends AbstractVisitor {
    private final Function<String, Optional<String>> notes;
    private final Function<String, Optional<String>> imageUrl;

    Wikilinks(Function<String, Optional<String>> notes, Function<String, Optional<String>> images) {
      this.notes = notes;
      this.imageUrl = images;
    }

    @Override
    public void visit(Code code) {}

    @Override
    public void visit(FencedCodeBlock code) {}

    @Override
    public void visit(IndentedCodeBlock code) {}

    @Override
    public void visit(Text text) {
      String literal = text.getLiteral();
      Matcher m = WIKILINK.matcher(literal);
      if (!m.find()) {
        return;
      }
      int at = 0;
      do {
        if (m.start() > at) {
          text.insertBefore(new Text(literal.substring(at, m.start())));
        }
        text.insertBefore(link(m.group(1).equals("!"), m.group(2).strip(), m.group(3), m.group(4)));
        at = m.end();
      } while (m.find());
      if (at < literal.length()) {
        text.insertBefore(new Text(literal.substring(at)));
      }
      text.unlink();
    }

    private Node link(boolean embed, String target, String heading, String alias) {
      String shown =
          alias != null && !alias.isBlank()
              ? alias.strip()
              : heading == null ? target : target + " › " + heading.substring(1).strip();
      if (embed && IMAGES.contains(extension(target))) {
        Optional<String> url = imageUrl.apply(target);
        if (url.isPresent()) {
          var image = new Image(url.get(), shown);
          image.appendChild(new Text(shown));
          return image;
        }
        return new Text("[image " + target + " is not in the collection]");
      }
      Optional<String> key = notes.apply(target);
      if (key.isEmpty()) {
        String text = embed ? "[embedded " + shown + "]" : shown;
        // A file brain does not key by name (a saved page, an attachment) is no note to resolve.
        return isNoteName(target) ? new Unresolved(text, target) : new Text(text);
      }
      var link = new Link(recordUrl(key.get()), embed ? "embedded note" : null);
      link.appendChild(new Text(embed ? "↪ " + shown : shown));
      return link;
    }

    private static String extension(String name) {
      int dot = name.lastIndexOf('.');
      return dot < 0 ? "" : name.substring(dot + 1).toLowerCase(Locale.ROOT);
    }

    /** A wikilink that names a note: no extension, a note's, or a dot inside a name (v1.2). */
    private static boolean isNoteName(String target) {
      String ext = extension(target.substring(target.lastIndexOf('/') + 1));
      return ext.isEmpty()
          || Set.of("md", "markdown", "mdx", "txt").contains(ext)
          || !ext.matches("[a-z][a-z0-9]{0,4}");
    }
  }

  /** A wikilink to a note the index does not hold: its text, marked as leading nowhere. */
  private static final class Unresolved extends CustomNode {
    final String text;
    final String target;

    Unresolved(String text, String target) {
      this.text = text;
      this.target = target;
    }
  }

  /** {@code <span class="unresolved-link" title="...">text</span>}, escaped like all text. */
  private static final class UnresolvedRenderer implements NodeRenderer {
    private final HtmlWriter html;

    UnresolvedRenderer(HtmlNodeRendererContext context) {
      this.html = context.getWriter();
    }

    @Override
    public Set<Class<? extends Node>> getNodeTypes() {
      return Set.of(Unresolved.class);
    }

    @Override
    public void render(Node node) {
      var link = (Unresolved) node;
      var attributes = new java.util.LinkedHashMap<String, String>();
      attributes.put("class", "unresolved-link");
      attributes.put("title", "unresolved: no note named '" + link.target + "' in any collection");
      html.tag("span", attributes);
      html.text(link.text);
      html.tag("/span");
    }
  }

  /** A block quote opening with {@code [!type]} is a callout box; others stay block quotes. */
  private static final class CalloutRenderer implements NodeRenderer {
    private final HtmlNodeRendererContext context;
    private final HtmlWriter html;

    CalloutRenderer(HtmlNodeRendererContext context) {
      this.context = context;
      this.html = context.getWriter();
    }

    @Override
    public Set<Class<? extends Node>> getNodeTypes() {
      return Set.of(BlockQuote.class);
    }

    @Override
    public void render(Node node) {
      Matcher m = calloutHead(node);
      if (m == null) {
        html.line();
        html.tag("blockquote");
        renderChildren(node, null);
        html.tag("/blockquote");
        html.line();
        return;
      }
      String type = m.group(1).toLowerCase(Locale.ROOT);
      String title = m.group(3).isBlank() ? capitalized(type) : m.group(3).strip();
      html.line();
      var attributes = new java.util.LinkedHashMap<String, String>();
      attributes.put("class", "callout callout-" + type);
      attributes.put("data-callout", type);
      html.tag("div", attributes);
      html.tag("div", Map.of("class", "callout-title"));
      html.text(title);
      html.tag("/div");
      renderChildren(node, m);
      html.tag("/div");
      html.line();
    }

    /** The head of a callout's first paragraph, or null when {@code quote} is no callout. */
    private static Matcher calloutHead(Node quote) {
      if (!(quote.getFirstChild() instanceof Paragraph p)
          || !(p.getFirstChild() instanceof Text t)) {
        return null;
      }
      String firstLine = t.getLiteral().lines().findFirst().orElse("");
      Matcher m = CALLOUT.matcher(firstLine);
      return m.matches() ? m : null;
    }

    /** The children; a callout's head line is its title, so the rest of its paragraph follows. */
    private void renderChildren(Node parent, Matcher head) {
      Node child = parent.getFirstChild();
      if (head != null && child instanceof Paragraph p) {
        Node first = p.getFirstChild();
        // The title line ends at a soft break; what follows it is the callout's first paragraph.
        Node next = first.getNext();
        first.unlink();
        if (next instanceof org.commonmark.node.SoftLineBreak) {
          next.unlink();
        }
        if (p.getFirstChild() == null) {
          child = p.getNext();
          p.unlink();
        }
      }
      while (child != null) {
        Node next = child.getNext();
        context.render(child);
        child = next;
      }
    }

    private static String capitalized(String type) {
      return type.isEmpty() ? type : Character.toUpperCase(type.charAt(0)) + type.substring(1);
    }
  }
}
