package dev.brain.index.importer;

import dev.brain.chunking.MarkdownNesting;
import dev.brain.chunking.MarkdownText;
import dev.brain.index.CorpusRecord;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.commonmark.ext.front.matter.YamlFrontMatterBlock;
import org.commonmark.ext.front.matter.YamlFrontMatterExtension;
import org.commonmark.ext.front.matter.YamlFrontMatterVisitor;
import org.commonmark.node.AbstractVisitor;
import org.commonmark.node.Code;
import org.commonmark.node.FencedCodeBlock;
import org.commonmark.node.Heading;
import org.commonmark.node.HtmlBlock;
import org.commonmark.node.HtmlInline;
import org.commonmark.node.Image;
import org.commonmark.node.IndentedCodeBlock;
import org.commonmark.node.Link;
import org.commonmark.node.Node;
import org.commonmark.node.SourceSpan;
import org.commonmark.node.Text;
import org.commonmark.parser.IncludeSourceSpans;
import org.commonmark.parser.Parser;

/**
 * Reads a Markdown note (Obsidian flavour) into one {@code note:} record: front matter (YAML, or
 * TOML between {@code +++} lines) title, tags and aliases; inline {@code #tags}; wikilinks,
 * relative note links and web links as keys. The record text is the Markdown body without front
 * matter, its docs-site admonitions turned into callouts ({@link #callouts}).
 */
final class MarkdownImporter {

  /** Thread-safe: commonmark parsers hold no state between parses. */
  private static final Parser PARSER =
      MarkdownNesting.parser()
          .extensions(List.of(YamlFrontMatterExtension.create()))
          .includeSourceSpans(IncludeSourceSpans.BLOCKS_AND_INLINES)
          .build();

  /** Front-matter keys of a note's last change, first found wins; else the file time. */
  private static final List<String> UPDATED_KEYS =
      List.of("updated", "modified", "last_modified", "last-modified", "lastmod");

  private MarkdownImporter() {}

  static ImportResult read(SourceFile file, NoteNames names) throws ImportException {
    return read(file, names, callouts(file.readText()), List.of());
  }

  /**
   * Reads an MDX file: {@link Mdx} turns it into Markdown first; one it cannot follow is read as
   * plain Markdown, with a warning, rather than dropped. Either way its admonitions then turn into
   * callouts ({@link #callouts}), as for a Markdown file.
   */
  static ImportResult readMdx(SourceFile file, NoteNames names) throws ImportException {
    String source = file.readText();
    try {
      return read(file, names, callouts(Mdx.toMarkdown(source)), List.of());
    } catch (Mdx.Unreadable e) {
      return read(
          file,
          names,
          callouts(source),
          List.of(
              file.relativePath()
                  + ": read as plain Markdown, so its import lines and component tags stay in its"
                  + " text: "
                  + e.getMessage()));
    }
  }

  /**
   * {@code markdown} with the admonitions of docs sites as callouts: {@code :::} containers ({@link
   * Containers}) and MkDocs's {@code !!!} admonitions and {@code ===} tabs ({@link Admonitions}).
   */
  static String callouts(String markdown) {
    return Admonitions.toCallouts(Containers.toCallouts(markdown));
  }

  private static ImportResult read(
      SourceFile file, NoteNames names, String source, List<String> warnings) {
    // TOML front matter (Hugo, Zola) is read on its own and blanked for the Markdown parser, which
    // would show it as a paragraph; YAML front matter is the commonmark extension's.
    TomlFrontMatter toml = TomlFrontMatter.of(source);
    String parsed = toml == null ? source : blanked(source, toml.end());
    Node document = PARSER.parse(parsed);
    var frontMatter = new YamlFrontMatterVisitor();
    document.accept(frontMatter);
    Map<String, List<String>> meta = toml == null ? frontMatter.getData() : toml.meta();

    var scan = new Scan(new StringBuilder(parsed));
    scan.bodyStart = toml == null ? 0 : toml.end();
    document.accept(scan);
    NoteSyntax.blankComments(scan.masked);
    String body = source.substring(scan.bodyStart);
    CharSequence prose = scan.masked.subSequence(scan.bodyStart, scan.masked.length());

    var tags = new ArrayList<String>(FrontMatter.list(meta, "tags", "tag"));
    tags.addAll(NoteSyntax.inlineTags(prose));

    var links = new LinkedHashSet<String>();
    for (String target : NoteSyntax.wikilinkTargets(prose)) {
      add(links, names.resolveWikilink(target, file.relativePath()));
    }
    for (String destination : scan.destinations) {
      add(links, linkKey(destination, file.relativePath(), names));
    }
    for (String url : NoteSyntax.bareUrls(prose)) {
      links.add(Keys.source(url));
    }
    links.remove(Keys.note(file.collection(), file.relativePath()));

    String title = FrontMatter.scalar(meta, "title");
    if (title == null) {
      title = scan.firstH1 != null && !scan.firstH1.isBlank() ? scan.firstH1 : file.baseName();
    }
    Instant created = Dates.parse(FrontMatter.scalar(meta, "created"));
    String dateSource = CorpusRecord.DATE_FRONT_MATTER_CREATED;
    if (created == null) {
      created = Dates.parse(FrontMatter.scalar(meta, "date"));
      dateSource = CorpusRecord.DATE_FRONT_MATTER_DATE;
    }
    if (created == null) {
      created = file.modified();
      dateSource = CorpusRecord.DATE_FILE_TIME;
    }
    Instant updated = null;
    for (String key : UPDATED_KEYS) {
      updated = updated != null ? updated : Dates.parse(FrontMatter.scalar(meta, key));
    }
    var record =
        CorpusRecord.builder(
                Keys.note(file.collection(), file.relativePath()),
                CorpusRecord.KIND_ITEM,
                "note",
                body.strip())
            .title(title.strip())
            .path(file.relativePath())
            .author(FrontMatter.scalar(meta, "author"))
            .tags(Tags.normalizeAll(tags))
            .createdAt(created)
            .summary(summary(meta))
            .links(List.copyOf(links))
            .origin(file.origin())
            .aliases(FrontMatter.list(meta, "aliases", "alias"))
            .updatedAt(updated != null ? updated : file.modified())
            .dateSource(dateSource)
            .build();
    return new ImportResult(List.of(record), warnings);
  }

  /** {@code source} with its first {@code end} characters blanked, line breaks kept. */
  private static String blanked(String source, int end) {
    var out = new StringBuilder(source);
    for (int i = 0; i < end; i++) {
      if (out.charAt(i) != '\n') {
        out.setCharAt(i, ' ');
      }
    }
    return out.toString();
  }

  /**
   * The summary the note gives itself in front matter ({@code summary:}, else {@code
   * description:}), or null: indexed as the record's summary chunk, searched in both lanes.
   */
  private static String summary(Map<String, List<String>> meta) {
    String summary = FrontMatter.scalar(meta, "summary");
    if (summary == null || summary.isBlank()) {
      summary = FrontMatter.scalar(meta, "description");
    }
    return summary == null || summary.isBlank() ? null : summary.strip();
  }

  /** The key a Markdown link destination points at, or null for anchors, mail and media. */
  static String linkKey(String destination, String fromPath, NoteNames names) {
    String d = destination.strip();
    if (d.isEmpty() || d.startsWith("#")) {
      return null;
    }
    if (Keys.isWebUrl(d)) {
      return Keys.source(d);
    }
    if (d.matches("(?i)^[a-z][a-z0-9+.\\-]*:.*")) {
      return null; // mailto:, obsidian:, file: and other schemes
    }
    String relative = resolve(MarkdownText.linkPath(d), fromPath);
    return relative == null ? null : names.resolvePath(relative, fromPath);
  }

  /** A link path resolved against the linking note's folder (or the vault root for "/..."). */
  private static String resolve(String link, String fromPath) {
    Path base = Path.of("vault");
    Path target;
    try {
      Path from = base.resolve(fromPath).getParent();
      target = link.startsWith("/") ? base.resolve(link.substring(1)) : from.resolve(link);
    } catch (InvalidPathException e) {
      return null; // not a path this platform can name, so no file of the vault
    }
    target = target.normalize();
    if (!target.startsWith(base) || target.equals(base)) {
      return null;
    }
    String relative = base.relativize(target).toString().replace('\\', '/');
    String ext = SourceFile.extensionOf(relative);
    return Set.of("md", "markdown", "mdx", "txt", "pdf", "vtt", "srt").contains(ext)
        ? relative
        : null;
  }

  private static void add(Set<String> keys, String key) {
    if (key != null) {
      keys.add(key);
    }
  }

  /**
   * Walks the parsed note once: finds where the body starts, the first H1, the link destinations,
   * and blanks out code, HTML and links in {@code masked} so that tags and wikilinks are only found
   * in prose.
   */
  private static final class Scan extends AbstractVisitor {
    final StringBuilder masked;
    final List<String> destinations = new ArrayList<>();
    int bodyStart;
    String firstH1;

    Scan(StringBuilder masked) {
      this.masked = masked;
    }

    @Override
    public void visit(org.commonmark.node.CustomBlock block) {
      if (block instanceof YamlFrontMatterBlock) {
        List<SourceSpan> spans = block.getSourceSpans();
        if (!spans.isEmpty()) {
          SourceSpan last = spans.get(spans.size() - 1);
          bodyStart = lineEnd(last.getInputIndex() + last.getLength());
        }
        blank(block);
        return;
      }
      visitChildren(block);
    }

    @Override
    public void visit(Heading heading) {
      if (firstH1 == null && heading.getLevel() == 1) {
        firstH1 = plainText(heading);
      }
      visitChildren(heading);
    }

    @Override
    public void visit(Link link) {
      destinations.add(link.getDestination());
      blank(link);
    }

    @Override
    public void visit(Image image) {
      blank(image);
    }

    @Override
    public void visit(Code code) {
      blank(code);
    }

    @Override
    public void visit(FencedCodeBlock block) {
      blank(block);
    }

    @Override
    public void visit(IndentedCodeBlock block) {
      blank(block);
    }

    @Override
    public void visit(HtmlBlock block) {
      blank(block);
    }

    @Override
    public void visit(HtmlInline html) {
      blank(html);
    }

    private void blank(Node node) {
      for (SourceSpan span : node.getSourceSpans()) {
        NoteSyntax.blank(masked, span.getInputIndex(), span.getInputIndex() + span.getLength());
      }
    }

    private int lineEnd(int index) {
      int i = index;
      if (i < masked.length() && masked.charAt(i) == '\r') {
        i++;
      }
      if (i < masked.length() && masked.charAt(i) == '\n') {
        i++;
      }
      return Math.min(i, masked.length());
    }
  }

  private static String plainText(Node node) {
    var out = new StringBuilder();
    node.accept(
        new AbstractVisitor() {
          @Override
          public void visit(Text text) {
            out.append(text.getLiteral());
          }

          @Override
          public void visit(Code code) {
            out.append(code.getLiteral());
          }
        });
    return out.toString().strip();
  }

  /** Front matter values as the commonmark extension reads them (every value is a list). */
  static final class FrontMatter {
    private FrontMatter() {}

    /** The first non-blank value of the first key present, without quotes, or null. */
    static String scalar(Map<String, List<String>> meta, String key) {
      List<String> values = meta.get(key);
      if (values == null || values.isEmpty() || values.get(0).isBlank()) {
        return null;
      }
      return unquote(values.get(0));
    }

    /**
     * A list-valued key: a YAML block list, a flow list {@code [a, "b c"]} or a comma-separated
     * string. The first of {@code keys} present (lower-case match) wins.
     */
    static List<String> list(Map<String, List<String>> meta, String... keys) {
      for (String key : keys) {
        for (var entry : meta.entrySet()) {
          if (entry.getKey().toLowerCase(Locale.ROOT).equals(key)) {
            return split(entry.getValue());
          }
        }
      }
      return List.of();
    }

    private static List<String> split(List<String> values) {
      var out = new ArrayList<String>();
      for (String value : values) {
        String v = value.strip();
        if (v.startsWith("[") && v.endsWith("]")) {
          v = v.substring(1, v.length() - 1);
        }
        boolean flow = values.size() == 1;
        for (String part : flow ? v.split(",") : new String[] {v}) {
          String p = unquote(part.strip());
          if (!p.isEmpty()) {
            out.add(p);
          }
        }
      }
      return List.copyOf(out);
    }

    private static String unquote(String s) {
      String t = s.strip();
      if (t.length() >= 2
          && (t.startsWith("\"") && t.endsWith("\"") || t.startsWith("'") && t.endsWith("'"))) {
        return t.substring(1, t.length() - 1);
      }
      return t;
    }
  }
}
