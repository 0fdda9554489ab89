package dev.brain.bench;

import dev.brain.index.IndexConfig;
import dev.brain.index.VectorFormat;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.stream.Stream;
import org.apache.lucene.codecs.KnnVectorsFormat;
import org.apache.lucene.codecs.lucene104.Lucene104Codec;
import org.apache.lucene.codecs.lucene104.Lucene104HnswScalarQuantizedVectorsFormat;
import org.apache.lucene.codecs.lucene99.Lucene99HnswVectorsFormat;
import org.apache.lucene.index.CodecReader;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.SlowCodecReaderWrapper;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.util.quantization.QuantizedByteVectorValues.ScalarEncoding;

/**
 * Copies a brain index into a new folder as one segment with a chosen vector format, re-encoding
 * the stored float vectors and rebuilding the HNSW graph instead of embedding again. Every
 * benchmark index is made this way, so formats and corpus sizes are compared at the same segment
 * count (one). The copy keeps the brain metadata with the new vector format, so {@code
 * BrainIndex.openReadOnly} accepts it.
 */
final class Reencode {
  private Reencode() {}

  /**
   * The vector format brain's index module writes for {@code format} (its {@code VectorCodecs},
   * which is package-private there), with brain's default HNSW parameters.
   */
  static KnnVectorsFormat vectorsFormat(VectorFormat format) {
    int m = IndexConfig.DEFAULT_HNSW_MAX_CONN;
    int beam = IndexConfig.DEFAULT_HNSW_BEAM_WIDTH;
    return switch (format) {
      case FLOAT -> new Lucene99HnswVectorsFormat(m, beam);
      case INT8 ->
          new Lucene104HnswScalarQuantizedVectorsFormat(ScalarEncoding.fromNumBits(8), m, beam);
      case INT4 ->
          new Lucene104HnswScalarQuantizedVectorsFormat(ScalarEncoding.fromNumBits(4), m, beam);
    };
  }

  static void copy(Path from, Path to, VectorFormat format) throws IOException {
    deleteTree(to);
    Files.createDirectories(to);
    KnnVectorsFormat vectors = vectorsFormat(format);
    var config =
        new IndexWriterConfig()
            .setOpenMode(IndexWriterConfig.OpenMode.CREATE)
            .setCodec(
                new Lucene104Codec() {
                  @Override
                  public KnnVectorsFormat getKnnVectorsFormatForField(String field) {
                    return vectors;
                  }
                });
    try (Directory source = FSDirectory.open(from);
        DirectoryReader reader = DirectoryReader.open(source);
        Directory dest = FSDirectory.open(to);
        IndexWriter writer = new IndexWriter(dest, config)) {
      var readers = new ArrayList<CodecReader>();
      for (LeafReaderContext leaf : reader.leaves()) {
        readers.add(SlowCodecReaderWrapper.wrap(leaf.reader()));
      }
      writer.addIndexes(readers.toArray(CodecReader[]::new));
      writer.forceMerge(1);
      var data = new HashMap<>(reader.getIndexCommit().getUserData());
      data.put("brain.vector_format", format.name());
      writer.setLiveCommitData(data.entrySet());
      writer.commit();
    }
  }

  static void deleteTree(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(dir)) {
      for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }
}
