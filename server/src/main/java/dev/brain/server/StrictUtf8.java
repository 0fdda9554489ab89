package dev.brain.server;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * Bytes from outside (an HTTP body, an MCP message) read as UTF-8 that must be valid: a stray byte,
 * an overlong form or an encoded surrogate is refused with its byte offset, never replaced by
 * U+FFFD. Each surface words the refusal its own way (a 400, a JSON-RPC parse error).
 */
public final class StrictUtf8 {
  private StrictUtf8() {}

  /** Bytes that are not valid UTF-8, and where the first invalid sequence starts. */
  public static final class Invalid extends RuntimeException {
    private final int offset;

    Invalid(int offset) {
      super("not valid UTF-8 at byte offset " + offset, null, false, false);
      this.offset = offset;
    }

    /** The byte offset of the first invalid sequence. */
    public int offset() {
      return offset;
    }
  }

  /**
   * {@code bytes} as text.
   *
   * @throws Invalid when they are not valid UTF-8
   */
  public static String decode(byte[] bytes) {
    var decoder =
        StandardCharsets.UTF_8
            .newDecoder()
            .onMalformedInput(CodingErrorAction.REPORT)
            .onUnmappableCharacter(CodingErrorAction.REPORT);
    ByteBuffer in = ByteBuffer.wrap(bytes);
    CharBuffer out = CharBuffer.allocate(bytes.length + 1); // UTF-8: at most a char per byte
    CoderResult result = decoder.decode(in, out, true);
    if (!result.isError()) {
      result = decoder.flush(out);
    }
    if (result.isError()) {
      throw new Invalid(in.position());
    }
    return out.flip().toString();
  }
}
