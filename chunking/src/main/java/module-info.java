/** brain's chunking: Markdown read into sections and chunks with stable identity and provenance. */
module dev.brain.chunking {
  requires transitive org.commonmark;
  requires org.commonmark.ext.gfm.tables;
  requires org.jsoup;

  exports dev.brain.chunking;
}
