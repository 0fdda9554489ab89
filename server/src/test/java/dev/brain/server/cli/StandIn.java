package dev.brain.server.cli;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;

/**
 * Another process on the port a {@code server.json} advertises, as a plain socket: it records every
 * byte a client sends and answers each request with what {@code reply} makes of it (its head and
 * body as text), or with nothing at all (null: the connection is held open until the stand-in is
 * closed).
 */
final class StandIn implements AutoCloseable {
  private final ServerSocket socket;
  private final Function<String, byte[]> reply;
  private final ByteArrayOutputStream received = new ByteArrayOutputStream();
  private final CopyOnWriteArrayList<Socket> held = new CopyOnWriteArrayList<>();

  StandIn(Function<String, byte[]> reply) throws IOException {
    this.socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    this.reply = reply;
    Thread.ofPlatform().daemon().name("stand-in").start(this::accept);
  }

  /** An HTTP/1.1 reply with {@code headers} (each ending in CRLF) and {@code body}. */
  static byte[] http(String status, String headers, byte[] body) {
    byte[] head =
        ("HTTP/1.1 "
                + status
                + "\r\n"
                + headers
                + "Content-Length: "
                + body.length
                + "\r\nConnection: close\r\n\r\n")
            .getBytes(StandardCharsets.UTF_8);
    byte[] all = new byte[head.length + body.length];
    System.arraycopy(head, 0, all, 0, head.length);
    System.arraycopy(body, 0, all, head.length, body.length);
    return all;
  }

  String url() {
    return "http://127.0.0.1:" + socket.getLocalPort() + "/";
  }

  /** Everything clients sent so far. */
  String received() {
    synchronized (received) {
      return received.toString(StandardCharsets.UTF_8);
    }
  }

  private void accept() {
    while (!socket.isClosed()) {
      try {
        Socket client = socket.accept();
        held.add(client);
        Thread.ofPlatform().daemon().name("stand-in-client").start(() -> answer(client));
      } catch (IOException e) {
        return; // closed
      }
    }
  }

  private void answer(Socket client) {
    try {
      String request = readRequest(client.getInputStream());
      byte[] answer = reply.apply(request);
      if (answer == null) {
        return; // say nothing; the socket stays open until close()
      }
      client.getOutputStream().write(answer);
      client.getOutputStream().flush();
      client.close();
    } catch (IOException e) {
      // the client gave up
    }
  }

  /** Reads one request: the head, then as many body bytes as Content-Length says. */
  private String readRequest(InputStream in) throws IOException {
    var bytes = new ByteArrayOutputStream();
    int b;
    while ((b = in.read()) >= 0) {
      bytes.write(b);
      record(b);
      if (bytes.toString(StandardCharsets.ISO_8859_1).endsWith("\r\n\r\n")) {
        break;
      }
    }
    String head = bytes.toString(StandardCharsets.UTF_8);
    var length = java.util.regex.Pattern.compile("(?i)content-length:\\s*(\\d+)").matcher(head);
    int n = length.find() ? Integer.parseInt(length.group(1)) : 0;
    for (int i = 0; i < n && (b = in.read()) >= 0; i++) {
      bytes.write(b);
      record(b);
    }
    return bytes.toString(StandardCharsets.UTF_8);
  }

  private void record(int b) {
    synchronized (received) {
      received.write(b);
    }
  }

  @Override
  public void close() throws IOException {
    socket.close();
    for (Socket s : held) {
      s.close();
    }
  }
}
