package dev.brain.server.http;

import dev.brain.index.BrainIndex;
import dev.brain.index.CollectionWatcher;
import dev.brain.index.CollectionsFile;
import dev.brain.index.IndexConfig;
import dev.brain.index.IndexStatus;
import io.helidon.webserver.http.HttpRules;
import io.helidon.webserver.http.HttpService;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.io.IOException;
import java.nio.file.Path;

/**
 * {@code GET /api/status}: per collection what is indexed, how its last sync went, its vector
 * coverage and whether it is watched ({@link IndexStatus}), for the web page's status panel.
 */
final class StatusService implements HttpService {

  private final BrainIndex index;
  private final Path dataDir;

  StatusService(BrainIndex index, Path dataDir) {
    this.index = index;
    this.dataDir = dataDir;
  }

  @Override
  public void routing(HttpRules rules) {
    rules.get("/status", this::status);
  }

  private void status(ServerRequest req, ServerResponse res) throws IOException {
    BrainServer.refreshQuietly(index);
    var collections = CollectionsFile.of(dataDir).read();
    boolean watching = CollectionWatcher.isWatching(IndexConfig.defaults(dataDir));
    HttpJson.ok(res, IndexStatus.of(index, collections, watching));
  }
}
