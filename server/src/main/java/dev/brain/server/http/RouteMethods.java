package dev.brain.server.http;

import io.helidon.http.HeaderNames;
import io.helidon.http.Method;
import io.helidon.http.Status;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.util.List;
import java.util.Map;

/**
 * The methods each path answers, for the fallback route: a known path asked with another method is
 * a 405 with {@code Allow}, an unknown path a 404.
 */
final class RouteMethods {
  private static final List<String> READ = List.of("GET", "HEAD");
  private static final List<String> WRITE = List.of("POST");

  private static final Map<String, List<String>> EXACT =
      Map.ofEntries(
          Map.entry("/", READ),
          Map.entry("/search", READ),
          Map.entry("/lab", READ),
          Map.entry("/api/health", READ),
          Map.entry("/api/session", List.of("GET")),
          Map.entry("/api/search", READ),
          Map.entry("/api/get", READ),
          Map.entry("/api/asset", READ),
          Map.entry("/api/facets", READ),
          Map.entry("/api/status", READ),
          Map.entry("/api/cli", WRITE),
          Map.entry("/api/research/traces", READ),
          Map.entry("/api/research", WRITE),
          Map.entry("/api/research/run", WRITE),
          Map.entry("/api/agent/run", WRITE),
          Map.entry("/api/research/synthesize", WRITE),
          Map.entry("/api/research/trace-diff", WRITE),
          Map.entry("/api/research/eval-cases", WRITE),
          Map.entry("/api/note/research", WRITE),
          Map.entry("/api/conversations", List.of("GET", "HEAD", "POST")));

  private RouteMethods() {}

  /** The methods {@code path} answers; empty when nothing lives there. */
  static List<String> allowed(String path) {
    String p =
        path.length() > 1 && path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
    var exact = EXACT.get(p);
    if (exact != null) {
      return exact;
    }
    if (p.startsWith("/api/research/traces/") && p.indexOf('/', 21) < 0) {
      return READ;
    }
    if (p.startsWith("/api/conversations/") && p.length() > 19) {
      return conversationMethods(p.substring(19));
    }
    if (p.startsWith("/record/") && p.length() > 8) {
      return READ;
    }
    return List.of();
  }

  /** The methods of a path under {@code /api/conversations/}: {@code {id}} and its actions. */
  private static List<String> conversationMethods(String rest) {
    int slash = rest.indexOf('/');
    if (slash < 0) {
      return READ;
    }
    return switch (rest.substring(slash + 1)) {
      case "export" -> List.of("GET");
      case "rename", "delete" -> WRITE;
      case "eval-cases" -> List.of("GET", "POST");
      default -> List.of();
    };
  }

  /** The fallback route: 405 with {@code Allow} for a known path, else 404. */
  static void fallback(ServerRequest req, ServerResponse res) {
    Method method = req.prologue().method();
    String path = req.path().path();
    List<String> allowed = allowed(path);
    if (!allowed.isEmpty() && !allowed.contains(method.text())) {
      res.header(HeaderNames.ALLOW, String.join(", ", allowed));
      throw new ApiException(
          Status.METHOD_NOT_ALLOWED_405,
          "method_not_allowed",
          path + " answers " + String.join(" and ", allowed) + ", not " + method.text(),
          null);
    }
    throw ApiException.notFound("nothing at " + method.text() + " " + path, null);
  }
}
