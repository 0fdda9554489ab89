package dev.brain.solrit;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.apache.solr.client.solrj.impl.CloudHttp2SolrClient;
import org.apache.solr.client.solrj.request.CollectionAdminRequest;
import org.apache.solr.client.solrj.request.ConfigSetAdminRequest;

/**
 * Makes a collection from brain's own configset, but rendered for vectors of another length: what a
 * cluster shared with another model, or a hand-edited schema, looks like to brain.
 */
final class WrongDimension {
  private WrongDimension() {}

  static void create(List<String> urls, String collection, int dimension) throws Exception {
    Path zip = Files.createTempFile("wrong-dimension", ".zip");
    try (var client = new CloudHttp2SolrClient.Builder(urls).build()) {
      Files.write(zip, configset(dimension));
      var upload = new ConfigSetAdminRequest.Upload();
      upload.setConfigSetName(collection);
      upload.setUploadFile(zip.toFile(), "application/zip");
      upload.process(client);
      CollectionAdminRequest.createCollection(collection, collection, 1, 1).process(client);
    } finally {
      Files.deleteIfExists(zip);
    }
  }

  private static byte[] configset(int dimension) throws IOException {
    var out = new ByteArrayOutputStream();
    try (var zip = new ZipOutputStream(out)) {
      put(zip, "solrconfig.xml", resource("solrconfig.xml"));
      put(
          zip,
          "schema.xml",
          resource("schema.xml")
              .replace("@DIMENSION@", Integer.toString(dimension))
              .replace("@MAX_CONN@", "16")
              .replace("@BEAM_WIDTH@", "100"));
      put(zip, "stopwords_en.txt", "a\nthe\n");
    }
    return out.toByteArray();
  }

  private static void put(ZipOutputStream zip, String name, String text) throws IOException {
    zip.putNextEntry(new ZipEntry(name));
    zip.write(text.getBytes(StandardCharsets.UTF_8));
    zip.closeEntry();
  }

  private static String resource(String name) throws IOException {
    try (InputStream in =
        WrongDimension.class.getResourceAsStream("/dev/brain/solr/configset/" + name)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }
}
