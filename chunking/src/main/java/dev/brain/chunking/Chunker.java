package dev.brain.chunking;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Splits a record's text into chunks: Markdown headings first, then paragraphs, then sentences,
 * bounded by model tokens with a small overlap. Deterministic: the same input always yields the
 * same chunks and ids. Thread-safe if its {@link TokenCounter} is.
 *
 * <p>The rules, in short (the module README has them in full): a text that fits the budget is one
 * chunk. Otherwise each heading section is chunked on its own (a section holding only its heading
 * merges into a nested section right after it). Within a section, blocks are packed greedily; a
 * block that does not fit is split into sentences (code into lines), a sentence into lines or
 * words. A single word over the budget is the only chunk that may exceed it. Each chunk after the
 * first in a section starts with whole trailing sentences of the previous chunk (or, when not one
 * fits, its trailing words), at most {@code overlapTokens} and half the budget. Every chunk's text
 * is exactly {@code text.substring(startChar, endChar)}, trimmed.
 */
public final class Chunker {

  /** Version of the chunking rules; stored on every chunk. Bump it when the output changes. */
  public static final String VERSION = "chunker-v2";

  /** Default token budget of one chunk. */
  public static final int DEFAULT_MAX_TOKENS = 256;

  /** Default overlap, in tokens, between consecutive chunks. */
  public static final int DEFAULT_OVERLAP_TOKENS = 32;

  private final TokenCounter counter;
  private final int maxTokens;
  private final int overlapTokens;

  /**
   * A chunker with the given budget.
   *
   * @param counter counts model tokens
   * @param maxTokens upper bound of tokens per chunk (a single over-long word may exceed it)
   * @param overlapTokens tokens of trailing context repeated at the start of the next chunk; capped
   *     at half of {@code maxTokens}
   * @throws IllegalArgumentException if {@code maxTokens < 1} or {@code overlapTokens < 0}
   */
  public Chunker(TokenCounter counter, int maxTokens, int overlapTokens) {
    this.counter = Objects.requireNonNull(counter, "counter");
    if (maxTokens < 1) {
      throw new IllegalArgumentException(
          "maxTokens must be at least 1, was " + maxTokens + "; the default is 256");
    }
    if (overlapTokens < 0) {
      throw new IllegalArgumentException(
          "overlapTokens must be 0 (no overlap) or more, was " + overlapTokens);
    }
    this.maxTokens = maxTokens;
    this.overlapTokens = overlapTokens;
  }

  /**
   * A chunker with the default budget ({@value #DEFAULT_MAX_TOKENS} tokens, {@value
   * #DEFAULT_OVERLAP_TOKENS} of overlap).
   *
   * @param counter counts model tokens
   */
  public Chunker(TokenCounter counter) {
    this(counter, DEFAULT_MAX_TOKENS, DEFAULT_OVERLAP_TOKENS);
  }

  /** Upper bound of tokens per chunk. */
  public int maxTokens() {
    return maxTokens;
  }

  /** Tokens of overlap asked for (the chunker uses at most half of {@link #maxTokens()}). */
  public int overlapTokens() {
    return overlapTokens;
  }

  /**
   * Chunks one text.
   *
   * @param key the record key; chunk ids are {@code key#ordinal}
   * @param text the record's raw text
   * @param role the role every chunk gets
   * @param markdown whether to honour Markdown headings (and keep fenced code blocks whole)
   * @return the chunks in text order; empty for blank text
   */
  public List<Chunk> chunk(String key, String text, ChunkRole role, boolean markdown) {
    return chunk(key, text, role, markdown, Integer.MAX_VALUE);
  }

  /**
   * The first {@code maxChunks} chunks of a text: the same chunks {@link #chunk(String, String,
   * ChunkRole, boolean)} begins with, made without counting or chunking the rest of the text, so a
   * huge text costs time and memory in proportion to the cap. The text was cut when the last
   * chunk's {@link Chunk#endChar()} falls short of the end of the text's last non-whitespace
   * character.
   *
   * @param maxChunks most chunks to make, at least 1
   * @throws IllegalArgumentException if {@code maxChunks < 1}
   */
  public List<Chunk> chunk(
      String key, String text, ChunkRole role, boolean markdown, int maxChunks) {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(text, "text");
    Objects.requireNonNull(role, "role");
    if (maxChunks < 1) {
      throw new IllegalArgumentException("maxChunks must be at least 1, was " + maxChunks);
    }
    if (text.isBlank()) {
      return List.of();
    }
    List<Section> parsed = markdown ? MarkdownSections.of(text) : List.of();
    List<Section> sections =
        Section.mergeHeadingOnly(parsed.isEmpty() ? plainSections(text) : parsed);
    Packer packer = new Packer(new PieceCache(counter, text), maxTokens, overlapTokens);
    List<Packer.Window> windows = new ArrayList<>();
    if (packer.fits(sections)) {
      Section first = sections.getFirst();
      Section last = sections.getLast();
      windows.add(new Packer.Window(first.start(), last.end(), Section.commonPath(sections)));
    } else {
      for (Section section : sections) {
        windows.addAll(packer.pack(section, maxChunks - windows.size()));
        if (windows.size() >= maxChunks) {
          break;
        }
      }
    }
    return toChunks(key, text, role, windows);
  }

  /**
   * The extractive summary of a record's text ({@link ExtractiveSummary}), or empty when the text
   * is too short to need one. Sections are measured in this chunker's tokens.
   *
   * @param markdown whether the text is Markdown (else paragraphs between blank lines)
   */
  public Optional<ExtractiveSummary> summarize(String text, boolean markdown) {
    Objects.requireNonNull(text, "text");
    return ExtractiveSummary.of(text, markdown, counter);
  }

  /**
   * Plain text as sections: its paragraphs under the headings it marks ({@link
   * MarkdownBlocks#marksHeadings}, as a PDF's are imported), else all of them in one section.
   */
  private static List<Section> plainSections(String text) {
    if (!MarkdownBlocks.marksHeadings(text)) {
      return List.of(new Section(List.of(), TextPieces.paragraphs(text, 0, text.length()), false));
    }
    var sections = new ArrayList<Section>();
    List<String> path = List.of();
    int from = 0;
    for (MarkdownBlocks.Block block : MarkdownBlocks.ofPlainText(text, true)) {
      if (block.kind() == MarkdownBlocks.Kind.HEADING) {
        addPlainSection(sections, path, text, from, block.start());
        var nested = new ArrayList<>(block.headingPath());
        nested.add(block.units().getFirst().text());
        path = nested;
        from = block.start();
      }
    }
    addPlainSection(sections, path, text, from, text.length());
    return sections;
  }

  private static void addPlainSection(
      List<Section> sections, List<String> path, String text, int start, int end) {
    List<Piece> pieces = TextPieces.paragraphs(text, start, end);
    if (!pieces.isEmpty()) {
      boolean headingOnly = !path.isEmpty() && pieces.size() == 1;
      sections.add(new Section(path, pieces, headingOnly));
    }
  }

  private static List<Chunk> toChunks(
      String key, String text, ChunkRole role, List<Packer.Window> windows) {
    MessageDigest sha256 = sha256();
    List<Chunk> chunks = new ArrayList<>(windows.size());
    for (Packer.Window window : windows) {
      int ordinal = chunks.size();
      String chunkText = text.substring(window.start(), window.end());
      String hash =
          HexFormat.of().formatHex(sha256.digest(chunkText.getBytes(StandardCharsets.UTF_8)));
      chunks.add(
          new Chunk(
              key + "#" + ordinal,
              key,
              ordinal,
              role,
              window.headingPath(),
              window.start(),
              window.end(),
              chunkText,
              hash,
              VERSION));
    }
    return List.copyOf(chunks);
  }

  private static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is required of every Java platform", e);
    }
  }
}
