package dev.brain.solr;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brain.index.IndexConfig;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.ZipInputStream;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.custom.CustomAnalyzer;
import org.apache.lucene.analysis.en.EnglishAnalyzer;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;
import org.apache.lucene.util.ResourceLoader;
import org.junit.jupiter.api.Test;

class SolrConfigsetTest {

  private final IndexConfig config = IndexConfig.defaults(Path.of("unused"));

  @Test
  void theSchemaCarriesTheModelsDimensionAndTheEmbeddedHnswParameters() throws IOException {
    String schema = files().get("schema.xml");

    assertThat(schema).contains("vectorDimension=\"384\"");
    assertThat(schema).contains("similarityFunction=\"dot_product\"");
    assertThat(schema).contains("hnswMaxConnections=\"" + config.hnswMaxConn() + "\"");
    assertThat(schema).contains("hnswBeamWidth=\"" + config.hnswBeamWidth() + "\"");
    assertThat(schema).doesNotContain("@");
  }

  @Test
  void theStopWordsAreTheEmbeddedAnalyzersOwn() throws IOException {
    List<String> words =
        files().get("stopwords_en.txt").lines().filter(l -> !l.startsWith("#")).toList();

    assertThat(words).hasSize(EnglishAnalyzer.ENGLISH_STOP_WORDS_SET.size());
    assertThat(words).allMatch(w -> EnglishAnalyzer.ENGLISH_STOP_WORDS_SET.contains(w));
  }

  @Test
  void theTextFieldAnalyzesAsTheEmbeddedIndexDoes() throws IOException {
    Map<String, String> files = files();
    Analyzer schemaChain = textAnalyzer(files.get("schema.xml"), files.get("stopwords_en.txt"));
    String text =
        "The barista's grinders were dialing-in 18.5 g doses; it isn't the Niche Zero's fault,"
            + " and running shoes wear out after 800 km of RUNNING.";

    assertThat(tokens(schemaChain, text)).isEqualTo(tokens(new EnglishAnalyzer(), text));
  }

  /**
   * The analyzer of field type text_en, built by brain's Lucene from the schema's factory names.
   */
  private static Analyzer textAnalyzer(String schema, String stopWords) throws IOException {
    Matcher type =
        Pattern.compile("<fieldType name=\"text_en\".*?</fieldType>", Pattern.DOTALL)
            .matcher(schema);
    assertThat(type.find()).isTrue();
    Matcher parts =
        Pattern.compile("<(tokenizer|filter) name=\"(\\w+)\"([^/]*)/>").matcher(type.group());
    ResourceLoader loader =
        new ResourceLoader() {
          @Override
          public java.io.InputStream openResource(String resource) {
            return new ByteArrayInputStream(stopWords.getBytes(StandardCharsets.UTF_8));
          }

          @Override
          public <T> Class<? extends T> findClass(String cname, Class<T> expectedType) {
            throw new UnsupportedOperationException(cname);
          }
        };
    var builder = CustomAnalyzer.builder(loader);
    while (parts.find()) {
      var params = new HashMap<String, String>();
      Matcher attr = Pattern.compile("(\\w+)=\"([^\"]*)\"").matcher(parts.group(3));
      while (attr.find()) {
        params.put(attr.group(1), attr.group(2));
      }
      if (parts.group(1).equals("tokenizer")) {
        builder.withTokenizer(parts.group(2), params);
      } else {
        builder.addTokenFilter(parts.group(2), params);
      }
    }
    return builder.build();
  }

  private static List<String> tokens(Analyzer analyzer, String text) throws IOException {
    var out = new ArrayList<String>();
    try (TokenStream stream = analyzer.tokenStream("text", new StringReader(text))) {
      CharTermAttribute term = stream.addAttribute(CharTermAttribute.class);
      stream.reset();
      while (stream.incrementToken()) {
        out.add(term.toString());
      }
      stream.end();
    }
    return out;
  }

  private Map<String, String> files() throws IOException {
    var out = new HashMap<String, String>();
    byte[] zip = SolrCollections.configsetZip(config.model().dimension(), config);
    try (var in = new ZipInputStream(new ByteArrayInputStream(zip))) {
      for (var e = in.getNextEntry(); e != null; e = in.getNextEntry()) {
        out.put(e.getName(), new String(in.readAllBytes(), StandardCharsets.UTF_8));
      }
    }
    assertThat(out).containsOnlyKeys("solrconfig.xml", "schema.xml", "stopwords_en.txt");
    return out;
  }
}
