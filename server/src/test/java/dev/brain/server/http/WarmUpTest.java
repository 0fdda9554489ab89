package dev.brain.server.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brain.BrainConfig;
import java.io.IOException;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * A server warms itself up as soon as it listens: with no request from anyone, it has searched its
 * own index through its API with every default lane, the vector lane included, so the embedding
 * model is loaded and has embedded a query before the first person's search arrives.
 */
class WarmUpTest {

  /** Far longer than a warm-up takes even on a loaded machine; only a hang reaches it. */
  private static final Duration BOUND = Duration.ofMinutes(2);

  @Test
  void aFreshServerHasEmbeddedAQueryBeforeAnyoneSearches() throws IOException {
    var config = BrainConfig.defaults(SampleVaultData.dataDir());
    try (var server = BrainServer.start(config.withServer(config.server().withPort(0)))) {
      var lanes = server.warmUpLanes(BOUND);
      assertThat(lanes).isPresent();
      assertThat(lanes.get()).containsEntry("bm25", "used").containsEntry("vector", "used");
    }
  }

  @Test
  void aServerWithATokenWarmsUpToo() throws IOException {
    var config = BrainConfig.defaults(SampleVaultData.dataDir());
    var guarded =
        config.withServer(config.server().withPort(0).withToken("warm-token-0123456789abcdef"));
    try (var server = BrainServer.start(guarded)) {
      assertThat(server.warmUpLanes(BOUND)).hasValueSatisfying(l -> assertThat(l).isNotEmpty());
    }
  }
}
