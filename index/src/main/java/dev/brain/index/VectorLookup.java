package dev.brain.index;

import java.io.IOException;
import org.apache.lucene.index.FloatVectorValues;
import org.apache.lucene.index.KnnVectorValues;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.PostingsEnum;
import org.apache.lucene.index.Terms;
import org.apache.lucene.index.TermsEnum;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.search.IndexSearcher;
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
