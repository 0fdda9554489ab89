package dev.brain.models.chat;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * Cuts a byte stream into text lines at {@code \n} (a trailing {@code \r} is dropped).
 *
 * <p>Lines are cut on bytes and decoded whole, so a UTF-8 character split across network reads is
 * never broken: the byte {@code 0x0A} cannot occur inside a multi-byte UTF-8 sequence.
 */
final class LineSplitter {

  /** Receives complete lines; returns true once the stream's terminator was seen. */
  interface LineSink {
    boolean onLine(String line) throws ChatException;
  }

  private final ByteArrayOutputStream pending = new ByteArrayOutputStream();
  private final int maxLineBytes;
  private final String source;

  /**
   * @param maxLineBytes longest line accepted, so a server without newlines cannot fill memory
   * @param source who sends the stream, for the error message
   */
  LineSplitter(int maxLineBytes, String source) {
    this.maxLineBytes = maxLineBytes;
    this.source = source;
  }

  /** Feeds bytes; returns true as soon as the sink reports the terminator (rest is ignored). */
  boolean feed(ByteBuffer buffer, LineSink sink) throws ChatException {
    while (buffer.hasRemaining()) {
      byte b = buffer.get();
      if (b != '\n') {
        append(b);
        continue;
      }
      if (sink.onLine(takeLine())) {
        return true;
      }
    }
    return false;
  }

  /** Delivers a last line that had no newline, if any; returns the sink's answer. */
  boolean finish(LineSink sink) throws ChatException {
    return pending.size() > 0 && sink.onLine(takeLine());
  }

  private void append(byte b) throws ChatException {
    if (pending.size() >= maxLineBytes) {
      throw new ChatException(
          ChatException.Kind.PROTOCOL,
          source
              + " sent a line longer than "
              + maxLineBytes
              + " bytes; this is not a chat stream");
    }
    pending.write(b);
  }

  private String takeLine() {
    byte[] bytes = pending.toByteArray();
    pending.reset();
    int length = bytes.length;
    if (length > 0 && bytes[length - 1] == '\r') {
      length--;
    }
    return new String(bytes, 0, length, StandardCharsets.UTF_8);
  }
}
