package dev.brain.index;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brain.chunking.Chunk;
import dev.brain.chunking.ChunkRole;
import dev.brain.chunking.Chunker;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.lucene.analysis.en.EnglishAnalyzer;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.KnnFloatVectorQuery;
import org.apache.lucene.store.FSDirectory;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Every vector format keeps the raw floats (for reuse) and answers kNN queries. */
class VectorFormatsTest {

  private static final int DIM = 384;

  @TempDir Path data;

  @ParameterizedTest
  @EnumSource(VectorFormat.class)
  void keepsRawVectorsReadableForReuseAndSearchable(VectorFormat format) throws Exception {
    var config = IndexConfig.defaults(data).withVectorFormat(format);
    var random = new Random(42);
    var vectors = new ArrayList<float[]>();
    try (var dir = FSDirectory.open(config.directory());
        var writer =
            new IndexWriter(
                dir,
                new IndexWriterConfig(new EnglishAnalyzer())
                    .setCodec(VectorCodecs.codec(config)))) {
      for (int r = 0; r < 20; r++) {
        var record = record("doc:" + r);
        var chunks = new ArrayList<Chunk>();
        var recordVectors = new ArrayList<float[]>();
        for (int c = 0; c < 3; c++) {
          chunks.add(chunk(record.key(), c, "text " + r + "/" + c));
          float[] v = unitVector(random);
          recordVectors.add(v);
          vectors.add(v);
        }
        writer.updateDocuments(
            Documents.parentTerm(record.key()),
            Documents.block(
                record,
                record.contentHash(),
                null,
                "test",
                config.chunkingSignature(),
                chunks,
                chunks.stream().map(c -> EmbeddingInput.hash(record, c)).toList(),
                recordVectors));
      }
      writer.commit();
    }

    try (var dir = FSDirectory.open(config.directory());
        var reader = DirectoryReader.open(dir)) {
      var searcher = new IndexSearcher(reader);
      String formatName =
          reader
              .leaves()
              .get(0)
              .reader()
              .getFieldInfos()
              .fieldInfo(IndexFields.VECTOR)
              .getAttribute("PerFieldKnnVectorsFormat.format");
      assertThat(formatName).isEqualTo(VectorCodecs.vectorsFormat(config).getName());
      assertThat(formatName)
          .isEqualTo(
              format == VectorFormat.FLOAT
                  ? "Lucene99HnswVectorsFormat"
                  : "Lucene104HnswBinaryQuantizedVectorsFormat");
      // Looked up by the hash of the embedding input: the record's title, a blank line, the text.
      float[] stored =
          VectorLookup.find(searcher, CorpusRecord.sha256("Title doc:7\n\ntext 7/2"), DIM);
      assertThat(stored).containsExactly(vectors.get(7 * 3 + 2));
      assertThat(VectorLookup.find(searcher, CorpusRecord.sha256("text 7/2"), DIM)).isNull();

      var hits =
          searcher.search(new KnnFloatVectorQuery(IndexFields.VECTOR, vectors.get(11), 5), 5);
      String top =
          searcher.storedFields().document(hits.scoreDocs[0].doc).get(IndexFields.CHUNK_ID);
      assertThat(top).isEqualTo("doc:3#2");
    }
  }

  private static CorpusRecord record(String key) {
    return CorpusRecord.builder(key, "item", "doc", "x")
        .title("Title " + key)
        .tags(List.of("t"))
        .origin("/tmp/x.jsonl")
        .build();
  }

  private static Chunk chunk(String key, int ordinal, String text) {
    return new Chunk(
        key + "#" + ordinal,
        key,
        ordinal,
        ChunkRole.RAW,
        List.of(),
        0,
        text.length(),
        text,
        CorpusRecord.sha256(text),
        Chunker.VERSION);
  }

  private static float[] unitVector(Random random) {
    var v = new float[DIM];
    double norm = 0;
    for (int i = 0; i < DIM; i++) {
      v[i] = (float) random.nextGaussian();
      norm += v[i] * v[i];
    }
    for (int i = 0; i < DIM; i++) {
      v[i] /= (float) Math.sqrt(norm);
    }
    return v;
  }
}
