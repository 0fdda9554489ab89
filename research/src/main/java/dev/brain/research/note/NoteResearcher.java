package dev.brain.research.note;

import dev.brain.index.CollectionRoot;
import dev.brain.models.chat.ChatModel;
import dev.brain.research.note.NoteResearchException.Reason;
import dev.brain.research.note.NoteResult.Source;
import dev.brain.research.note.TopicResearch.Findings;
import dev.brain.research.pack.ResearchPack;
import dev.brain.research.trace.TraceStore;
import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Researches a note and writes its {@code ## Research} section: brain's one explicit write path.
 *
 * <p>Reads the note (a {@code .md}, {@code .markdown} or {@code .txt} file inside a collection,
 * symlinks resolved), picks at most {@value #MAX_TOPICS} topics (a chat model's JSON list, or a
 * deterministic extraction), researches each on a bounded pool (the corpus without the note itself;
 * the web only through a configured search endpoint), synthesizes a cited section (the model, or
 * extractively), checks that every wikilink names a real note and every URL is one a search
 * returned, and writes the note atomically with brain's old section replaced, every other byte as
 * it was — unless the file changed meanwhile, or its {@code ## Research} section is not one brain
 * can prove it wrote (see {@link ResearchSection}) and {@link NoteRequest#replace()} is off. Then
 * the note is re-indexed and a trace written.
 *
 * <p>Thread-safe; each call is independent. {@link dev.brain.Brain#researchNote} wires it to a data
 * directory.
 */
public final class NoteResearcher {

  /** Most topics researched per note. */
  public static final int MAX_TOPICS = 10;

  /** Characters of the note read for topics; the rest is reported as cut. */
  public static final int MAX_NOTE_CHARS = 200_000;

  /** Asks the corpus a question (a research pack with the configured defaults). */
  @FunctionalInterface
  public interface Corpus {
    /** The research pack of {@code question}. */
    ResearchPack pack(String question) throws IOException;
  }

  /** Re-indexes the collection of a written note. */
  @FunctionalInterface
  public interface Reindex {
    /**
     * Brings the index in line with {@code collection} after {@code note} was written.
     *
     * @return {@code done}, or why the note was not re-indexed
     */
    String reindex(CollectionRoot collection, java.nio.file.Path note) throws IOException;
  }

  /**
   * How note research runs.
   *
   * @param webSearchUrl a SearxNG-compatible JSON search endpoint, or {@code null} for none
   * @param concurrency topics researched at once
   * @param pageTimeout time per web request (search or page)
   * @param modelTimeout time per chat-model call
   */
  public record Options(
      URI webSearchUrl, int concurrency, Duration pageTimeout, Duration modelTimeout) {
    public Options {
      if (concurrency < 1) {
        throw new IllegalArgumentException("concurrency must be positive");
      }
      Objects.requireNonNull(pageTimeout, "pageTimeout");
      Objects.requireNonNull(modelTimeout, "modelTimeout");
    }
  }

  private final Corpus corpus;
  private final Reindex reindex;
  private final TraceStore traces;
  private final Options options;

  /**
   * A researcher over {@code corpus}, re-indexing with {@code reindex} and tracing into {@code
   * traces} (may be {@code null}: no trace).
   */
  public NoteResearcher(Corpus corpus, Reindex reindex, TraceStore traces, Options options) {
    this.corpus = Objects.requireNonNull(corpus, "corpus");
    this.reindex = Objects.requireNonNull(reindex, "reindex");
    this.traces = traces;
    this.options = Objects.requireNonNull(options, "options");
  }

  /**
   * Researches a note and (unless a dry run) writes its section.
   *
   * @param collections the configured collections; the note must be inside one
   * @param model the chat model for topics and synthesis, or {@code null} for the deterministic and
   *     extractive paths
   * @throws NoteResearchException when the note is refused, the model fails, every topic fails, the
   *     section cites what is not real, or the note changed meanwhile; nothing was written
   * @throws IOException when the note cannot be read or written
   * @throws InterruptedException when the calling thread is interrupted
   */
  public NoteResult research(NoteRequest request, List<CollectionRoot> collections, ChatModel model)
      throws IOException, InterruptedException {
    Instant started = Instant.now();
    NoteFile note = NoteFile.read(request.path(), collections);
    if (!request.dryRun()) {
      // Before any research: a section brain may not replace refuses the run at once.
      ResearchSection.requireReplaceable(note.text(), request.replace(), note.path().toString());
    }
    String body = ResearchSection.without(note.text());
    long cut = Math.max(0, body.length() - MAX_NOTE_CHARS);
    String input = cut > 0 ? body.substring(0, MAX_NOTE_CHARS) : body;
    int[] calls = {0};
    List<Topic> topics = topics(input, note, request.focus(), model, calls);
    // Wikilinks only to notes of the note's own collection: Obsidian opens a vault, and a link to
    // a note of another collection would create an empty note there.
    NoteLinks links = NoteLinks.of(List.of(note.collection()));
    List<Findings> findings =
        topicResearch(links, collections).research(topics, note, request.depth());
    List<String> skipped = skipped(cut, topics, findings);
    String sectionBody =
        model == null
            ? SectionSynthesis.extractive(findings, linkedFromNote(input))
            : SectionSynthesis.model(model, input, findings, options.modelTimeout(), calls);
    sectionBody = ResearchSection.demoteHeadings(sectionBody);
    SectionCheck.check(sectionBody, knownLinks(findings), urls(findings), links);
    String section = section(sectionBody, topics.size(), findings, model);
    boolean written = false;
    String reindexed = "not written";
    if (!request.dryRun()) {
      note.write(
          ResearchSection.replace(note.text(), section, request.replace(), note.path().toString()));
      written = true;
      reindexed = reindexSafely(note);
    }
    NoteResult result =
        result(request, note, model, topics, findings, section, written, reindexed, cut, skipped);
    if (written && traces != null) {
      String traceId = NoteTrace.write(traces, result, started, calls[0]);
      result = withTrace(result, traceId);
    }
    return result;
  }

  private TopicResearch topicResearch(NoteLinks links, List<CollectionRoot> collections) {
    return new TopicResearch(
        corpus::pack,
        options.webSearchUrl() == null
            ? null
            : new WebSearch(options.webSearchUrl(), options.pageTimeout()),
        options.concurrency(),
        links,
        collections);
  }

  /**
   * What was not researched: the cut end of the note, then each topic's failures.
   *
   * @throws NoteResearchException when every topic failed
   */
  private static List<String> skipped(long cut, List<Topic> topics, List<Findings> findings) {
    var skipped = new ArrayList<String>();
    if (cut > 0) {
      skipped.add("the note's last " + cut + " characters were not read for topics (200,000 cap)");
    }
    findings.forEach(f -> skipped.addAll(f.failures()));
    if (!topics.isEmpty() && findings.stream().allMatch(Findings::failed)) {
      throw new NoteResearchException(
          Reason.RESEARCH_FAILED,
          "every topic failed (" + String.join("; ", skipped) + "); nothing was written");
    }
    return List.copyOf(skipped);
  }

  private static NoteResult result(
      NoteRequest request,
      NoteFile note,
      ChatModel model,
      List<Topic> topics,
      List<Findings> findings,
      String section,
      boolean written,
      String reindexed,
      long cut,
      List<String> skipped) {
    return new NoteResult(
        NoteResult.SCHEMA_VERSION,
        note.path().toString(),
        note.key(),
        request.depth().wireName(),
        request.focus(),
        model == null ? "deterministic" : "model",
        model == null ? "extractive" : model.id(),
        topics,
        topics.size(),
        findings.stream()
            .map(
                f ->
                    new NoteResult.TopicReport(
                        f.topic().topic(), f.query(), f.sources(), f.failures()))
            .toList(),
        section,
        NoteResult.preview(section),
        written,
        request.dryRun(),
        reindexed,
        null,
        cut,
        skipped);
  }

  /**
   * The file a surface's path names: a record key {@code note:<collection>/<path>}, an absolute
   * path, or a path relative to a collection's root (the first collection holding it), else to the
   * working directory. Whether it may be researched is checked later, by {@link #research}.
   */
  public static java.nio.file.Path locate(String pathOrKey, List<CollectionRoot> collections) {
    if (pathOrKey == null || pathOrKey.isBlank()) {
      throw new NoteResearchException(
          Reason.INVALID_INPUT, "path is missing: name the note file to research", "path");
    }
    String p = pathOrKey.strip();
    if (p.indexOf('\0') >= 0) {
      throw new NoteResearchException(
          Reason.INVALID_INPUT, "path holds a NUL character, which no file name can", "path");
    }
    if (p.startsWith("note:")) {
      String rest = p.substring("note:".length());
      for (CollectionRoot c : collections) {
        if (rest.startsWith(c.name() + "/")) {
          return c.root().resolve(rest.substring(c.name().length() + 1));
        }
      }
      throw new NoteResearchException(
          Reason.NOT_FOUND, "no configured collection holds the key " + p, "path");
    }
    java.nio.file.Path path = java.nio.file.Path.of(p);
    if (path.isAbsolute()) {
      return path;
    }
    for (CollectionRoot c : collections) {
      java.nio.file.Path inside = c.root().resolve(path);
      if (java.nio.file.Files.exists(inside)) {
        return inside;
      }
    }
    return path;
  }

  private List<Topic> topics(
      String input, NoteFile note, String focus, ChatModel model, int[] calls) {
    List<Topic> topics;
    if (model != null) {
      topics = ModelTopics.ask(model, input, focus, options.modelTimeout(), calls);
    } else {
      String name = TopicResearch.linkName(note.path().getFileName().toString());
      topics = TopicExtractor.extract(input, name);
      if (focus != null) {
        topics = TopicExtractor.narrow(topics, focus);
      }
    }
    return topics.size() <= MAX_TOPICS ? topics : List.copyOf(topics.subList(0, MAX_TOPICS));
  }

  private String reindexSafely(NoteFile note) {
    try {
      return reindex.reindex(note.collection(), note.path());
    } catch (IOException | RuntimeException e) {
      return "not re-indexed: "
          + Sanitize.line(String.valueOf(e.getMessage()), 300)
          + "; run 'brain index'";
    }
  }

  private static String section(String body, int topics, List<Findings> findings, ChatModel model) {
    long sources =
        findings.stream().flatMap(f -> f.sources().stream()).map(Source::title).distinct().count();
    String by = model == null ? "extractive, no model" : model.id();
    return ResearchSection.compose(
        "_Researched by brain on "
            + LocalDate.now(ZoneOffset.UTC)
            + " ("
            + by
            + "): "
            + topics
            + (topics == 1 ? " topic, " : " topics, ")
            + sources
            + (sources == 1 ? " source._" : " sources._")
            + "\n\n"
            + body);
  }

  private static final Pattern WIKILINK = Pattern.compile("\\[\\[([^\\]|#\\n]+)");

  private static Set<String> linkedFromNote(String text) {
    var out = new HashSet<String>();
    Matcher m = WIKILINK.matcher(text);
    while (m.find()) {
      out.add(m.group(1).strip().toLowerCase(Locale.ROOT));
    }
    return out;
  }

  private static Set<String> knownLinks(List<Findings> findings) {
    var out = new HashSet<String>();
    findings.stream()
        .flatMap(f -> f.sources().stream())
        .filter(s -> s.link() != null)
        .forEach(s -> out.add(SectionSynthesis.target(s.link()).toLowerCase(Locale.ROOT)));
    return out;
  }

  private static Set<String> urls(List<Findings> findings) {
    var out = new HashSet<String>();
    findings.stream()
        .flatMap(f -> f.sources().stream())
        .filter(s -> s.url() != null)
        .forEach(s -> out.add(s.url()));
    return out;
  }

  private static NoteResult withTrace(NoteResult r, String traceId) {
    return new NoteResult(
        r.schemaVersion(),
        r.path(),
        r.key(),
        r.depth(),
        r.focus(),
        r.topicSource(),
        r.synthesizer(),
        r.topics(),
        r.topicsResearched(),
        r.research(),
        r.section(),
        r.preview(),
        r.written(),
        r.dryRun(),
        r.reindex(),
        traceId,
        r.truncatedChars(),
        r.skipped());
  }
}
