package dev.brain.server.http;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.regex.Pattern;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * How a server proves to a CLI client that it is the {@code brain serve} advertised in the client's
 * data directory before the client sends it a token or a question: the client posts a random nonce
 * to {@code POST /api/cli/hello} (no token), the server answers {@code HMAC-SHA256(secret, nonce ||
 * real path of its data directory)} in hex, and the client computes the same with the secret of
 * {@code <data>/server.json} (mode 600) and its own data directory's real path. A process that took
 * over the port does not know the secret; the server of another data directory (a copied one, whose
 * {@code server.json} names the original's port) answers for another path. {@code bin/brain}
 * computes the same HMAC in bash.
 */
public final class CliProof {
  /** A nonce or a secret: 32 bytes as 64 lowercase hex digits. */
  private static final Pattern HEX_32 = Pattern.compile("[0-9a-f]{64}");

  private static final SecureRandom RANDOM = new SecureRandom();

  private CliProof() {}

  /** 32 random bytes as 64 lowercase hex digits: a server's secret, or a client's nonce. */
  public static String random() {
    byte[] bytes = new byte[32];
    RANDOM.nextBytes(bytes);
    return HexFormat.of().formatHex(bytes);
  }

  /** Whether {@code s} is 64 lowercase hex digits (a secret or a nonce). */
  public static boolean isHex32(String s) {
    return s != null && HEX_32.matcher(s).matches();
  }

  /**
   * The proof for {@code nonce} by the holder of {@code secret} serving {@code dataDir}.
   *
   * @param secret the server's secret, 64 hex digits
   * @param nonce the client's nonce, 64 hex digits
   * @param dataDir the data directory's real path (see {@link #realPath})
   * @return the HMAC in 64 lowercase hex digits
   */
  public static String proof(String secret, String nonce, String dataDir) {
    if (!isHex32(secret) || !isHex32(nonce)) {
      throw new IllegalArgumentException("the secret and the nonce must be 64 hex digits");
    }
    try {
      var mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(HexFormat.of().parseHex(secret), "HmacSHA256"));
      mac.update(nonce.getBytes(StandardCharsets.US_ASCII));
      return HexFormat.of().formatHex(mac.doFinal(dataDir.getBytes(StandardCharsets.UTF_8)));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 is part of every JDK", e);
    }
  }

  /**
   * The path both sides put into the proof: every symbolic link resolved, as {@code pwd -P} prints
   * it; the absolute normalized path when the directory cannot be resolved.
   */
  public static String realPath(Path dataDir) {
    try {
      return dataDir.toRealPath().toString();
    } catch (IOException e) {
      return dataDir.toAbsolutePath().normalize().toString();
    }
  }
}
