package dev.brain.models.chat;

import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.util.Locale;
import java.util.regex.Pattern;

/** Decides whether a base URL is on this machine, and shows URLs without their credentials. */
final class Endpoints {
  private static final Pattern IPV4 = Pattern.compile("\\d{1,3}(\\.\\d{1,3}){3}");

  private Endpoints() {}

  /**
   * Whether the URL's host is loopback: {@code localhost}, {@code 127.0.0.0/8} or {@code ::1}.
   * Decided from the literal host, without DNS: a name that merely resolves to loopback counts as
   * hosted, which errs on the side of asking.
   */
  static boolean isLoopback(URI url) {
    String host = url.getHost();
    if (host == null) {
      return false;
    }
    host = host.toLowerCase(Locale.ROOT);
    if (host.equals("localhost")) {
      return true;
    }
    boolean ipLiteral = IPV4.matcher(host).matches() || host.startsWith("[") || host.contains(":");
    if (!ipLiteral) {
      return false;
    }
    try {
      // A literal address: getByName parses it and never asks DNS.
      return InetAddress.getByName(host).isLoopbackAddress();
    } catch (UnknownHostException e) {
      return false;
    }
  }

  /** Throws {@link ChatException.Kind#REFUSED} for a hosted URL unless hosted use is enabled. */
  static void requireAllowed(String modelId, URI url, boolean allowHosted) throws ChatException {
    if (allowHosted || isLoopback(url)) {
      return;
    }
    throw new ChatException(
        ChatException.Kind.REFUSED,
        modelId
            + ": base URL "
            + display(url)
            + " is not on this machine (hosted), and hosted models are off. To send your evidence"
            + " there, enable hosted use explicitly: set "
            + ChatConfig.ENV_ALLOW_HOSTED
            + "=true (ChatConfig.allowHosted); otherwise point the provider at a loopback URL.");
  }

  /** The URL as shown in messages: scheme, host, port and path, never user info or query. */
  static String display(URI url) {
    String port = url.getPort() < 0 ? "" : ":" + url.getPort();
    String path = url.getRawPath() == null ? "" : url.getRawPath();
    return url.getScheme() + "://" + url.getHost() + port + path;
  }
}
