package dev.brain.research.run;

import java.security.SecureRandom;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.HexFormat;
import java.util.regex.Pattern;

/**
 * Run ids: the UTC start time to the millisecond and 12 random hex digits ({@code
 * 20260102T030405.678Z-0123456789ab}), so ids sort by start time. A research run, an agent run and
 * a note research each get one; a trace directory is named by it.
 */
public final class RunId {
  private RunId() {}

  private static final Pattern FORMAT = Pattern.compile("\\d{8}T\\d{6}\\.\\d{3}Z-[0-9a-f]{12}");
  private static final DateTimeFormatter STAMP =
      DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss.SSS'Z'").withZone(ZoneOffset.UTC);
  private static final SecureRandom RANDOM = new SecureRandom();

  /** A new unique run id for a run started at {@code now}. */
  public static String next(Instant now) {
    byte[] random = new byte[6];
    RANDOM.nextBytes(random);
    return STAMP.format(now) + "-" + HexFormat.of().formatHex(random);
  }

  /** Whether {@code name} is a run id. */
  public static boolean matches(String name) {
    return FORMAT.matcher(name).matches();
  }

  /** The start time encoded in a run id, or {@code null}. */
  public static Instant startOf(String runId) {
    try {
      return Instant.from(STAMP.parse(runId.substring(0, runId.indexOf('-'))));
    } catch (DateTimeParseException | IndexOutOfBoundsException e) {
      return null;
    }
  }
}
