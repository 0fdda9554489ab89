package dev.brain.retrieval;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brain.index.IndexFields;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.lucene.analysis.core.WhitespaceAnalyzer;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field.Store;
import org.apache.lucene.document.StringField;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.NoMergePolicy;
import org.apache.lucene.index.Term;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link Stored#textTerms}: a chunk's query words read from the text postings, segment by segment.
 */
class StoredTextTermsTest {

  @Test
  @Timeout(30) // a handle past the last segment once made the walk loop forever
  void eachChunkGetsTheWordsItsTextHoldsAcrossSegmentsAndAnUnknownHandleNone() throws IOException {
    try (var dir = new ByteBuffersDirectory();
        var writer =
            new IndexWriter(
                dir,
                new IndexWriterConfig(new WhitespaceAnalyzer())
                    .setMergePolicy(NoMergePolicy.INSTANCE))) {
      writer.addDocument(chunk("0", "alpha beta"));
      writer.addDocument(chunk("1", "beta gamma"));
      writer.commit();
      writer.addDocument(chunk("2", "gamma alpha alpha"));
      writer.addDocument(chunk("3", "delta"));
      writer.deleteDocuments(new Term("id", "1"));
      writer.commit();
      try (var reader = DirectoryReader.open(dir)) {
        assertThat(reader.leaves()).hasSize(2);

        Map<Integer, Set<String>> terms =
            Stored.textTerms(
                reader, List.of(3, 0, 2, 0, 99, -1), Set.of("alpha", "gamma", "delta"));

        assertThat(terms)
            .containsOnlyKeys(0, 2, 3)
            .containsEntry(0, Set.of("alpha"))
            .containsEntry(2, Set.of("alpha", "gamma"))
            .containsEntry(3, Set.of("delta"));
      }
    }
  }

  private static Document chunk(String id, String text) {
    var doc = new Document();
    doc.add(new StringField("id", id, Store.NO));
    doc.add(new TextField(IndexFields.TEXT, text, Store.YES));
    return doc;
  }
}
