package dev.brain.index;

import java.io.IOException;
import java.util.HashSet;
import java.util.Set;
import java.util.function.BiConsumer;
import org.apache.lucene.index.FloatVectorValues;
import org.apache.lucene.index.KnnVectorValues;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.PostingsEnum;
import org.apache.lucene.index.Terms;
import org.apache.lucene.index.TermsEnum;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.util.Bits;
import org.apache.lucene.util.BytesRef;

/**
 * Finds the stored embedding of a chunk by its embedding-input hash, so unchanged inputs are never
 * embedded twice. Reads the raw float vectors, which every {@link VectorFormat} keeps.
 */
final class VectorLookup {
  private VectorLookup() {}

  /**
   * The vector of any live chunk whose embedding-input hash is {@code embedHash}, or {@code null}
   * if none.
   *
   * @param dimension the expected vector length; a vector of another length is ignored
   */
  static float[] find(IndexSearcher searcher, String embedHash, int dimension) throws IOException {
    var term = new BytesRef(embedHash);
    for (LeafReaderContext leaf : searcher.getIndexReader().leaves()) {
      float[] vector = findInLeaf(leaf, term, dimension);
      if (vector != null) {
        return vector;
      }
    }
    return null;
  }

  /** The embedding-input hashes of the index's live chunks. */
  static Set<String> liveEmbedHashes(IndexSearcher searcher) throws IOException {
    var used = new HashSet<String>();
    for (LeafReaderContext leaf : searcher.getIndexReader().leaves()) {
      Terms terms = leaf.reader().terms(IndexFields.EMBED_HASH);
      if (terms == null) {
        continue;
      }
      Bits live = leaf.reader().getLiveDocs();
      TermsEnum termsEnum = terms.iterator();
      PostingsEnum docs = null;
      for (BytesRef term = termsEnum.next(); term != null; term = termsEnum.next()) {
        docs = termsEnum.postings(docs, PostingsEnum.NONE);
        for (int doc = docs.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS; doc = docs.nextDoc()) {
          if (live == null || live.get(doc)) {
            used.add(term.utf8ToString());
            break;
          }
        }
      }
    }
    return used;
  }

  /** Hands each live chunk's embedding-input hash and vector of one segment to {@code action}. */
  static void forEachLive(LeafReader reader, int dimension, BiConsumer<String, float[]> action)
      throws IOException {
    FloatVectorValues vectors = reader.getFloatVectorValues(IndexFields.VECTOR);
    Terms terms = reader.terms(IndexFields.EMBED_HASH);
    if (vectors == null || terms == null || vectors.dimension() != dimension) {
      return;
    }
    var hashByDoc = new String[reader.maxDoc()];
    TermsEnum termsEnum = terms.iterator();
    PostingsEnum docs = null;
    for (BytesRef term = termsEnum.next(); term != null; term = termsEnum.next()) {
      String hash = term.utf8ToString();
      docs = termsEnum.postings(docs, PostingsEnum.NONE);
      for (int doc = docs.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS; doc = docs.nextDoc()) {
        hashByDoc[doc] = hash;
      }
    }
    Bits live = reader.getLiveDocs();
    KnnVectorValues.DocIndexIterator it = vectors.iterator();
    for (int doc = it.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS; doc = it.nextDoc()) {
      if ((live == null || live.get(doc)) && hashByDoc[doc] != null) {
        action.accept(hashByDoc[doc], vectors.vectorValue(it.index()).clone());
      }
    }
  }

  private static float[] findInLeaf(LeafReaderContext leaf, BytesRef term, int dimension)
      throws IOException {
    Terms terms = leaf.reader().terms(IndexFields.EMBED_HASH);
    if (terms == null) {
      return null;
    }
    TermsEnum termsEnum = terms.iterator();
    if (!termsEnum.seekExact(term)) {
      return null;
    }
    FloatVectorValues vectors = leaf.reader().getFloatVectorValues(IndexFields.VECTOR);
    if (vectors == null || vectors.dimension() != dimension) {
      return null;
    }
    var liveDocs = leaf.reader().getLiveDocs();
    PostingsEnum postings = termsEnum.postings(null, PostingsEnum.NONE);
    KnnVectorValues.DocIndexIterator vectorDocs = vectors.iterator();
    for (int doc = postings.nextDoc();
        doc != DocIdSetIterator.NO_MORE_DOCS;
        doc = postings.nextDoc()) {
      if (liveDocs != null && !liveDocs.get(doc)) {
        continue;
      }
      int vectorDoc = vectorDocs.docID() < doc ? vectorDocs.advance(doc) : vectorDocs.docID();
      if (vectorDoc == doc) {
        return vectors.vectorValue(vectorDocs.index()).clone();
      }
    }
    return null;
  }
}
