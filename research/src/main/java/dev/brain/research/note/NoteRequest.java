package dev.brain.research.note;

import java.nio.file.Path;
import java.util.Objects;

/**
 * What note research should do.
 *
 * @param path the note: a {@code .md}, {@code .markdown} or {@code .txt} file inside a configured
 *     collection
 * @param depth web depth; default {@link Depth#SHALLOW}
 * @param focus narrows the topics to this subject; {@code null} for none
 * @param dryRun build the section but write nothing (no file change, no re-index, no trace)
 */
public record NoteRequest(Path path, Depth depth, String focus, boolean dryRun) {
  public NoteRequest {
    Objects.requireNonNull(path, "path");
    depth = depth == null ? Depth.SHALLOW : depth;
    focus = focus == null || focus.isBlank() ? null : focus.strip();
  }

  /** A shallow, unfocused run that writes. */
  public static NoteRequest of(Path path) {
    return new NoteRequest(path, Depth.SHALLOW, null, false);
  }

  /** This request with another depth. */
  public NoteRequest withDepth(Depth value) {
    return new NoteRequest(path, value, focus, dryRun);
  }

  /** This request with another focus. */
  public NoteRequest withFocus(String value) {
    return new NoteRequest(path, depth, value, dryRun);
  }

  /** This request as a dry run (or not). */
  public NoteRequest withDryRun(boolean value) {
    return new NoteRequest(path, depth, focus, value);
  }
}
