/**
 * Records' text as chunks and as a reader sees it: the chunker, and the Markdown readings the
 * index, retrieval and research share.
 *
 * <p>API: {@link dev.brain.chunking.Chunker} splits a text into {@link dev.brain.chunking.Chunk}s
 * with a {@link dev.brain.chunking.ChunkRole}, counting tokens through a {@link
 * dev.brain.chunking.TokenCounter}; {@link dev.brain.chunking.MarkdownText} and {@link
 * dev.brain.chunking.MarkdownBlocks} give Markdown's visible text and its blocks, {@link
 * dev.brain.chunking.MarkdownNesting} parses it with bounded nesting, {@link
 * dev.brain.chunking.ExtractiveSummary} says what a long text is about, and {@link
 * dev.brain.chunking.BrainWritten} finds the research section brain wrote into a note. Sections,
 * pieces, tables and the window packer are package-private.
 */
package dev.brain.chunking;
