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
 * @param replace replace a {@code ## Research} section brain cannot prove it wrote (no marker, or
 *     edited since); default {@code false}: such a section is kept and the run refused
 */
public record NoteRequest(Path path, Depth depth, String focus, boolean dryRun, boolean replace) {
  public NoteRequest {
    Objects.requireNonNull(path, "path");
    depth = depth == null ? Depth.SHALLOW : depth;
    focus = focus == null || focus.isBlank() ? null : focus.strip();
  }

  /** A request that replaces only brain's own section. */
  public NoteRequest(Path path, Depth depth, String focus, boolean dryRun) {
    this(path, depth, focus, dryRun, false);
  }

  /** A shallow, unfocused run that writes. */
  public static NoteRequest of(Path path) {
    return new NoteRequest(path, Depth.SHALLOW, null, false, false);
  }

  /** This request with another depth. */
  public NoteRequest withDepth(Depth value) {
    return new NoteRequest(path, value, focus, dryRun, replace);
  }

  /** This request with another focus. */
  public NoteRequest withFocus(String value) {
    return new NoteRequest(path, depth, value, dryRun, replace);
  }

  /** This request as a dry run (or not). */
  public NoteRequest withDryRun(boolean value) {
    return new NoteRequest(path, depth, focus, value, replace);
  }

  /** This request replacing a section brain did not write (or not). */
  public NoteRequest withReplace(boolean value) {
    return new NoteRequest(path, depth, focus, dryRun, value);
  }
}
