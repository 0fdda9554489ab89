package dev.brain.index;

import org.apache.lucene.codecs.Codec;
import org.apache.lucene.codecs.KnnVectorsFormat;
import org.apache.lucene.codecs.lucene104.Lucene104Codec;
import org.apache.lucene.codecs.lucene104.Lucene104HnswScalarQuantizedVectorsFormat;
import org.apache.lucene.codecs.lucene99.Lucene99HnswVectorsFormat;
import org.apache.lucene.util.quantization.QuantizedByteVectorValues.ScalarEncoding;

/**
 * The codec the writer uses: Lucene's default codec with the vector format of {@link
 * IndexConfig#vectorFormat()} for the vector field. Readers need no custom codec: the per-field
 * vector format is recorded by name in each segment and found through Lucene's SPI.
 */
final class VectorCodecs {
  private VectorCodecs() {}

  static Codec codec(IndexConfig config) {
    KnnVectorsFormat format = vectorsFormat(config);
    return new Lucene104Codec() {
      @Override
      public KnnVectorsFormat getKnnVectorsFormatForField(String field) {
        return format;
      }
    };
  }

  /**
   * The HNSW vector format for a configuration. The quantized formats keep the raw floats beside
   * the quantized copies (Lucene's default centered mode), which is what lets sync read vectors
   * back for reuse.
   */
  static KnnVectorsFormat vectorsFormat(IndexConfig config) {
    int m = config.hnswMaxConn();
    int beam = config.hnswBeamWidth();
    return switch (config.vectorFormat()) {
      case FLOAT -> new Lucene99HnswVectorsFormat(m, beam);
      case INT8 ->
          new Lucene104HnswScalarQuantizedVectorsFormat(ScalarEncoding.fromNumBits(8), m, beam);
      case INT4 ->
          new Lucene104HnswScalarQuantizedVectorsFormat(ScalarEncoding.fromNumBits(4), m, beam);
    };
  }
}
