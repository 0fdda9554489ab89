package dev.brain.bench;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A cache file of embeddings by key (a chunk's text hash, or a query's text): {@code BBV1}, the
 * dimension, the count, then per entry the key (modified UTF-8) and the floats (little endian).
 * Written to a temporary file and moved into place, so a reader never sees half a file.
 */
final class VectorFile {
  private VectorFile() {}

  private static final int MAGIC = 0x42425631; // "BBV1"

  static void write(Path file, Map<String, float[]> vectors) throws IOException {
    int dim = vectors.isEmpty() ? 0 : vectors.values().iterator().next().length;
    Files.createDirectories(file.toAbsolutePath().getParent());
    Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
    var bytes = ByteBuffer.allocate(dim * Float.BYTES).order(ByteOrder.LITTLE_ENDIAN);
    try (var out = new DataOutputStream(new BufferedOutputStream(Files.newOutputStream(tmp)))) {
      out.writeInt(MAGIC);
      out.writeInt(dim);
      out.writeInt(vectors.size());
      for (var e : vectors.entrySet()) {
        if (e.getValue().length != dim) {
          throw new IllegalArgumentException(
              "vector of "
                  + e.getKey()
                  + " has "
                  + e.getValue().length
                  + " dimensions, not "
                  + dim);
        }
        out.writeUTF(e.getKey());
        bytes.clear();
        bytes.asFloatBuffer().put(e.getValue());
        out.write(bytes.array());
      }
    }
    Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
  }

  static Map<String, float[]> read(Path file) throws IOException {
    try (var in = new DataInputStream(new BufferedInputStream(Files.newInputStream(file)))) {
      if (in.readInt() != MAGIC) {
        throw new IOException(file + " is not a bench vector file; delete it to rebuild the cache");
      }
      int dim = in.readInt();
      int count = in.readInt();
      var vectors = new LinkedHashMap<String, float[]>(count * 2);
      byte[] raw = new byte[dim * Float.BYTES];
      for (int i = 0; i < count; i++) {
        String key = in.readUTF();
        in.readFully(raw);
        float[] v = new float[dim];
        ByteBuffer.wrap(raw).order(ByteOrder.LITTLE_ENDIAN).asFloatBuffer().get(v);
        vectors.put(key, v);
      }
      return vectors;
    }
  }
}
