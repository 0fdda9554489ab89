package dev.brain.server.http;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * HTTP/1.1 over a plain socket, for requests {@code java.net.http} refuses to send: a foreign
 * {@code Host}, a negative {@code Content-Length}, a broken chunk size.
 */
final class RawHttp {
  private RawHttp() {}

  /** A response; {@code status} is -1 when the server closed or stalled without answering. */
  record Reply(int status, Map<String, String> headers, String body) {
    String header(String name) {
      return headers.getOrDefault(name.toLowerCase(Locale.ROOT), "");
    }
  }

  /**
   * Sends {@code head} (request line and headers, without the blank line) and {@code body}, with
   * {@code Connection: close}, and reads the whole answer (at most 10 seconds).
   */
  static Reply exchange(int port, String head, byte[] body) {
    try (var socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
      socket.setSoTimeout(10_000);
      var out = socket.getOutputStream();
      out.write((head + "\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
      out.write(body);
      out.flush();
      return parse(readAll(socket.getInputStream(), head.startsWith("HEAD ")));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * What the server sends back on one connection for {@code bytes} sent as they are (no {@code
   * Connection: close} added): every byte until the server closes the connection or sends nothing
   * for {@code quietMillis}.
   */
  static Conversation converse(int port, byte[] bytes, int quietMillis) {
    try (var socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
      socket.setSoTimeout(quietMillis);
      var out = socket.getOutputStream();
      out.write(bytes);
      out.flush();
      var buffer = new ByteArrayOutputStream();
      byte[] chunk = new byte[8192];
      boolean closed = false;
      try {
        for (int n; ; ) {
          n = socket.getInputStream().read(chunk);
          if (n < 0) {
            closed = true;
            break;
          }
          buffer.write(chunk, 0, n);
        }
      } catch (SocketTimeoutException e) {
        // quiet for quietMillis: the server keeps the connection open
      } catch (java.net.SocketException e) {
        closed = true; // reset
      }
      return new Conversation(buffer.toString(StandardCharsets.ISO_8859_1), closed);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * The bytes a server sent on one connection and whether it closed it.
   *
   * @param text everything received, as ISO-8859-1
   * @param closed whether the server closed (or reset) the connection
   */
  record Conversation(String text, boolean closed) {
    /** The status codes of the responses in {@code text}, in order. */
    java.util.List<Integer> statuses() {
      var statuses = new java.util.ArrayList<Integer>();
      // Not anchored to a line start: a response follows the previous body without a newline.
      var m = java.util.regex.Pattern.compile("HTTP/1\\.[01] (\\d{3}) ").matcher(text);
      while (m.find()) {
        statuses.add(Integer.parseInt(m.group(1)));
      }
      return statuses;
    }
  }

  /** A GET of {@code path} naming {@code host} in its {@code Host} header. */
  static Reply get(int port, String path, String host) {
    return exchange(port, "GET " + path + " HTTP/1.1\r\nHost: " + host, new byte[0]);
  }

  /** Reads until the server closes, or the response is complete, or it stalls. */
  private static byte[] readAll(InputStream in, boolean headOnly) throws IOException {
    var buffer = new ByteArrayOutputStream();
    byte[] chunk = new byte[8192];
    try {
      for (int n; (n = in.read(chunk)) > 0; ) {
        buffer.write(chunk, 0, n);
        if (complete(buffer.toString(StandardCharsets.ISO_8859_1), headOnly)) {
          break;
        }
      }
    } catch (SocketTimeoutException | java.net.SocketException e) {
      // Whatever arrived before the stall or reset is the answer.
    }
    return buffer.toByteArray();
  }

  private static boolean complete(String text, boolean headOnly) {
    int end = text.indexOf("\r\n\r\n");
    if (end < 0) {
      return false;
    }
    if (headOnly) {
      return true;
    }
    String head = text.substring(0, end).toLowerCase(Locale.ROOT);
    if (head.contains("transfer-encoding: chunked")) {
      return text.endsWith("\r\n0\r\n\r\n") || text.endsWith("\n0\r\n\r\n");
    }
    var length = java.util.regex.Pattern.compile("content-length: *(\\d+)").matcher(head);
    if (length.find()) {
      return text.length() - end - 4 >= Integer.parseInt(length.group(1));
    }
    return head.startsWith("http/1.1 304") || head.startsWith("http/1.1 204");
  }

  private static Reply parse(byte[] raw) {
    String text = new String(raw, StandardCharsets.UTF_8);
    int end = text.indexOf("\r\n\r\n");
    if (!text.startsWith("HTTP/1.") || end < 0) {
      return new Reply(-1, Map.of(), text);
    }
    String[] lines = text.substring(0, end).split("\r\n");
    int status = Integer.parseInt(lines[0].split(" ")[1]);
    Map<String, String> headers = new LinkedHashMap<>();
    for (int i = 1; i < lines.length; i++) {
      int colon = lines[i].indexOf(':');
      if (colon > 0) {
        headers.put(
            lines[i].substring(0, colon).strip().toLowerCase(Locale.ROOT),
            lines[i].substring(colon + 1).strip());
      }
    }
    String body = text.substring(end + 4);
    if (headers.getOrDefault("transfer-encoding", "").equalsIgnoreCase("chunked")) {
      body = dechunk(body);
    }
    return new Reply(status, headers, body);
  }

  private static String dechunk(String body) {
    var out = new StringBuilder();
    int at = 0;
    while (at < body.length()) {
      int nl = body.indexOf("\r\n", at);
      if (nl < 0) {
        break;
      }
      int size = Integer.parseInt(body.substring(at, nl).split(";")[0].strip(), 16);
      if (size == 0) {
        break;
      }
      // Sizes count bytes; the bodies here are ASCII JSON, so characters do as well.
      out.append(body, nl + 2, Math.min(body.length(), nl + 2 + size));
      at = nl + 2 + size + 2;
    }
    return out.toString();
  }
}
