package dev.brain.server.http;

import dev.brain.Brain;
import io.helidon.http.HeaderNames;
import io.helidon.http.Status;
import io.helidon.webserver.http.HttpRules;
import io.helidon.webserver.http.HttpService;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

/**
 * {@code POST /api/cli}: runs a {@code brain} command ({@code search}, {@code get}, {@code status},
 * {@code research} without a chat model, and {@code index}, a sync) in the server through a {@link
 * CliRunner} and answers exactly what the command printed: the body is standard output followed by
 * standard error ({@code application/octet-stream}), {@code Brain-Stdout-Length} says where one
 * ends and {@code Brain-Exit-Code} carries the exit code. It needs the token the server advertises
 * in {@code <data>/server.json} even when {@code server.token} is not set (401), and refuses
 * anything else with 422 so the client runs it itself.
 *
 * <p>{@code POST /api/cli/hello} ({@code {"nonce": "<64 hex digits>"}}, no token) answers {@code
 * {"proof": "<hex>"}}, the {@link CliProof} with which a client checks that this is the server of
 * its data directory before it sends the token or a command.
 */
final class CliService implements HttpService {
  static final String EXIT_CODE = CliRunner.EXIT_CODE;

  static final String STDOUT_LENGTH = CliRunner.STDOUT_LENGTH;

  /** Arguments beyond this many are refused (a command line is never that long). */
  static final int MAX_ARGS = 256;

  /**
   * The body.
   *
   * @param args the command's arguments as typed after {@code brain}
   */
  record Body(List<String> args) {}

  /**
   * The body of {@code POST /api/cli/hello}.
   *
   * @param nonce the client's random nonce, 64 lowercase hex digits
   */
  record Hello(String nonce) {}

  private final long maxBodyBytes;
  private final ClientToken token;
  private final Brain brain;
  private final CliRunner runner;
  private final RunLimiter limiter;
  private final String secret;
  private final String dataDir;

  CliService(
      long maxBodyBytes,
      ClientToken token,
      Brain brain,
      CliRunner runner,
      RunLimiter limiter,
      String secret,
      String dataDir) {
    this.maxBodyBytes = maxBodyBytes;
    this.secret = secret;
    this.dataDir = dataDir;
    this.token = token;
    this.brain = brain;
    this.runner = runner;
    this.limiter = limiter;
  }

  @Override
  public void routing(HttpRules rules) {
    rules.post("/cli", this::run);
    rules.post("/cli/hello", this::hello);
  }

  private void hello(ServerRequest req, ServerResponse res) {
    Hello body = HttpJson.read(req, maxBodyBytes, "POST /api/cli/hello", Hello.class);
    if (!CliProof.isHex32(body.nonce())) {
      throw ApiException.invalidOption("nonce must be 64 lowercase hex digits", "nonce");
    }
    res.header(HeaderNames.CACHE_CONTROL, "no-store");
    HttpJson.ok(res, Map.of("proof", CliProof.proof(secret, body.nonce(), dataDir)));
  }

  private void run(ServerRequest req, ServerResponse res) {
    token.require(req, res);
    Body body = HttpJson.read(req, maxBodyBytes, "POST /api/cli", Body.class);
    if (body.args() == null || body.args().isEmpty()) {
      throw ApiException.badRequest("missing_args", "args is missing: name the command", "args");
    }
    if (body.args().size() > MAX_ARGS || body.args().contains(null)) {
      throw ApiException.invalidOption(
          "args must be at most " + MAX_ARGS + " strings, none of them null", "args");
    }
    CliRunner.Output output;
    var slot = limiter.acquire();
    try {
      BrainServer.refreshQuietly(brain);
      output = runner.run(brain, List.copyOf(body.args()));
    } catch (IllegalArgumentException e) {
      throw new ApiException(
          Status.UNPROCESSABLE_CONTENT_422, "not_served", e.getMessage(), "args");
    } finally {
      slot.close();
    }
    byte[] out = output.stdout().getBytes(StandardCharsets.UTF_8);
    byte[] err = output.stderr().getBytes(StandardCharsets.UTF_8);
    byte[] all = new byte[out.length + err.length];
    System.arraycopy(out, 0, all, 0, out.length);
    System.arraycopy(err, 0, all, out.length, err.length);
    res.status(Status.OK_200);
    res.header(HeaderNames.CONTENT_TYPE, "application/octet-stream");
    res.header(HeaderNames.CACHE_CONTROL, "no-store");
    res.header(HeaderNames.create(EXIT_CODE), Integer.toString(output.exitCode()));
    res.header(HeaderNames.create(STDOUT_LENGTH), Integer.toString(out.length));
    res.send(all);
  }
}
