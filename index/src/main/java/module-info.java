/**
 * brain's index: collections read into records and chunks, embedded, and written to a Lucene index
 * kept in sync with the files. {@code dev.brain.index} is API; the importers of each file format
 * ({@code dev.brain.index.importer}) are internals that only the layers which read records again
 * (retrieval, research, the SolrCloud backend) see.
 *
 * <p>PDFBox and ROME are automatic modules with a stable name (the {@code Automatic-Module-Name} of
 * their manifests), not one derived from a file name; javac warns about every automatic module all
 * the same, hence the suppression.
 */
@SuppressWarnings("requires-automatic")
module dev.brain.index {
  requires transitive dev.brain.chunking;
  requires transitive dev.brain.models;
  // Lucene types appear only in IndexInternals (searcher, analyzer, stored document).
  requires transitive org.apache.lucene.core;
  requires org.apache.lucene.analysis.common;
  requires java.xml;
  requires com.fasterxml.jackson.annotation;
  requires com.fasterxml.jackson.core;
  requires com.fasterxml.jackson.databind;
  requires com.fasterxml.jackson.dataformat.toml;
  requires com.fasterxml.jackson.dataformat.yaml;
  requires com.rometools.rome;
  requires org.apache.pdfbox;
  requires org.commonmark.ext.front.matter;
  requires org.jsoup;

  exports dev.brain.index;
  exports dev.brain.index.store to
      dev.brain.solr;
  exports dev.brain.index.importer to
      dev.brain.retrieval,
      dev.brain.research,
      dev.brain.solr;
}
