package dev.brain.server.http;

import dev.brain.Brain;
import dev.brain.index.IndexStatus;
import io.helidon.webserver.http.HttpRules;
import io.helidon.webserver.http.HttpService;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.io.IOException;

/**
 * {@code GET /api/status}: per collection what is indexed, how its last sync went, its vector
 * coverage and whether it is watched ({@link IndexStatus}), for the web page's status panel.
 */
final class StatusService implements HttpService {

  private final Brain brain;

  StatusService(Brain brain) {
    this.brain = brain;
  }

  @Override
  public void routing(HttpRules rules) {
    rules.get("/status", this::status).head("/status", HttpJson.head(this::status));
  }

  private void status(ServerRequest req, ServerResponse res) throws IOException {
    BrainServer.refreshQuietly(brain);
    HttpJson.ok(res, brain.indexStatus());
  }
}
