package dev.brain.models;

/**
 * A process of its own that loads the embedding model (for the temp-directory tests): prints {@code
 * loaded} once a query is embedded, then with {@code wait} blocks until stdin ends.
 */
final class LoadEmbedder {
  private LoadEmbedder() {}

  public static void main(String[] args) throws Exception {
    try (Embedder embedder = Embedder.open(EmbeddingModel.BGE_SMALL_EN_V15)) {
      embedder.embedQuery("espresso grind size");
    }
    System.out.println("loaded");
    System.out.flush();
    if (args.length > 0 && args[0].equals("wait")) {
      System.in.transferTo(java.io.OutputStream.nullOutputStream());
    }
  }
}
