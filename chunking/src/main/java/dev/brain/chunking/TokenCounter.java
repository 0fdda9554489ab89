package dev.brain.chunking;

/** Counts model tokens in a piece of text; the chunker's only view of the embedding model. */
@FunctionalInterface
public interface TokenCounter {
  /** Number of tokens in {@code text}, special tokens excluded. */
  int count(String text);
}
