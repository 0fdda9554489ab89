package dev.brain;

import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.brain.solr.SolrBackendException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BackendsTest {

  @TempDir Path data;

  @Test
  void aSolrUrlNobodyAnswersIsNamedWithWhatToCheck() throws Exception {
    int port;
    try (var socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = socket.getLocalPort();
    }
    String url = "http://127.0.0.1:" + port + "/solr";
    Files.writeString(
        data.resolve(BrainConfig.FILE), "index:\n  backend: solr\n  solr:\n    url: " + url + "\n");
    BrainConfig config = BrainConfig.load(data, Map.of(), List.of());
    assertTimeoutPreemptively(
        Duration.ofSeconds(60),
        () ->
            assertThatThrownBy(() -> Backends.open(config))
                .isInstanceOf(SolrBackendException.class)
                .hasMessageStartingWith("no SolrCloud node answered at " + url + " within 5 s")
                .hasMessageContaining("is it running?")
                .hasMessageContaining("Check index.solr.url in brain.yaml")
                .hasMessageNotContaining("live_nodes")
                .hasMessageNotContaining("CloudSolrClient"));
  }
}
