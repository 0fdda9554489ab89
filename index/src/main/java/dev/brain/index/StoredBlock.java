package dev.brain.index;

import dev.brain.chunking.Chunk;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;
import org.apache.lucene.document.Document;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.StoredFields;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.TermQuery;

/**
 * A record read back from the index with its chunks and the vectors the index (else the embedding
 * cache) holds for them, to be changed and written back as one block: how the passes that follow
 * the lexical commit of a sync (vectors, model summaries) rewrite a record.
 *
 * @param contentHash as stored: a re-sync must find the record unchanged
 * @param vectors per chunk, {@code null} where none is known yet
 */
record StoredBlock(
    CorpusRecord record,
    String contentHash,
    SummaryState summary,
    String collection,
    String chunking,
    List<Chunk> chunks,
    List<String> embedHashes,
    float[][] vectors) {

  /** The record {@code key} as the index holds it, or {@code null} if there is none. */
  static StoredBlock load(IndexSearcher searcher, String key, int dimension, EmbeddingCache cache)
      throws IOException {
    return load(searcher, key, dimension, cache::find);
  }

  /**
   * The record {@code key} as the index holds it, or {@code null} if there is none.
   *
   * @param elsewhere the vector of an embedding-input hash the searcher does not hold, or {@code
   *     null}
   */
  static StoredBlock load(
      IndexSearcher searcher, String key, int dimension, Function<String, float[]> elsewhere)
      throws IOException {
    Query byParent = new TermQuery(Documents.parentTerm(key));
    int count = searcher.count(byParent);
    if (count == 0) {
      return null;
    }
    StoredFields stored = searcher.storedFields();
    Document recordDoc = null;
    var chunkDocs = new ArrayList<Document>();
    for (ScoreDoc hit : searcher.search(byParent, count).scoreDocs) {
      Document doc = stored.document(hit.doc);
      if (IndexFields.RECORD.equals(doc.get(IndexFields.DOC_TYPE))) {
        recordDoc = doc;
      } else {
        chunkDocs.add(doc);
      }
    }
    if (recordDoc == null) {
      return null;
    }
    chunkDocs.sort(
        (a, b) ->
            Integer.compare(
                a.getField(IndexFields.ORDINAL).numericValue().intValue(),
                b.getField(IndexFields.ORDINAL).numericValue().intValue()));
    var chunks = new ArrayList<Chunk>(chunkDocs.size());
    var hashes = new ArrayList<String>(chunkDocs.size());
    var vectors = new float[chunkDocs.size()][];
    for (int i = 0; i < chunkDocs.size(); i++) {
      chunks.add(Documents.toChunk(chunkDocs.get(i)));
      String hash = chunkDocs.get(i).get(IndexFields.EMBED_HASH);
      hashes.add(hash);
      vectors[i] = VectorLookup.find(searcher, hash, dimension);
      if (vectors[i] == null) {
        // Not searchable yet, or cached by a killed sync without being committed.
        vectors[i] = elsewhere.apply(hash);
      }
    }
    return new StoredBlock(
        Documents.toRecord(recordDoc),
        recordDoc.get(IndexFields.CONTENT_HASH),
        Documents.summaryState(recordDoc),
        recordDoc.get(IndexFields.COLLECTION),
        recordDoc.get(IndexFields.CHUNKING),
        chunks,
        hashes,
        vectors);
  }

  /** Replaces the record and its chunks, with the vectors it has, in one atomic block. */
  void write(IndexWriter writer) throws IOException {
    writer.updateDocuments(
        Documents.parentTerm(record.key()),
        Documents.block(
            record,
            contentHash,
            summary,
            collection,
            chunking,
            chunks,
            embedHashes,
            Arrays.asList(vectors)));
  }
}
