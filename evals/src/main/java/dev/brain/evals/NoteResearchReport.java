package dev.brain.evals;

import java.util.List;
import java.util.Locale;
import java.util.function.ToIntFunction;

/**
 * The note-research rubric's result on a vault ({@code note_research_eval.v1}): per note and in
 * total, the bullets written and what is wrong with them.
 *
 * @param schemaVersion {@value #SCHEMA_VERSION}
 * @param vault the vault researched
 * @param others folders indexed beside it
 * @param finishedAt when the run ended (UTC, ISO-8601)
 * @param notes notes researched
 * @param failed notes whose research was refused or failed
 * @param bullets cited bullets in all sections
 * @param duplicates bullets citing a source the section cited already (under any topic)
 * @param excerpts bullets with an excerpt
 * @param cut excerpts cut (see {@link NoteResearchRubric.Score#cut()})
 * @param links wikilinks written
 * @param foreign wikilinks to no note of the vault
 * @param filler filler lines
 * @param stable notes whose second run wrote the same section as the first
 * @param results one entry per note, in path order
 */
public record NoteResearchReport(
    String schemaVersion,
    String vault,
    List<String> others,
    String finishedAt,
    int notes,
    int failed,
    int bullets,
    int duplicates,
    int excerpts,
    int cut,
    int links,
    int foreign,
    int filler,
    int stable,
    List<Note> results) {

  /** Version of this report's JSON shape. */
  public static final String SCHEMA_VERSION = "note_research_eval.v1";

  /**
   * The rubric on one note.
   *
   * @param note the note's path in the vault
   * @param error why its research failed, or {@code null}
   * @param topics topics researched
   * @param bullets see {@link NoteResearchRubric.Score}
   * @param duplicates see {@link NoteResearchRubric.Score}
   * @param excerpts see {@link NoteResearchRubric.Score}
   * @param cut see {@link NoteResearchRubric.Score}
   * @param links see {@link NoteResearchRubric.Score}
   * @param foreign see {@link NoteResearchRubric.Score}
   * @param filler see {@link NoteResearchRubric.Score}
   * @param stable whether the second run wrote the same section
   * @param findings each problem counted, in words
   * @param section the first run's section
   */
  public record Note(
      String note,
      String error,
      int topics,
      int bullets,
      int duplicates,
      int excerpts,
      int cut,
      int links,
      int foreign,
      int filler,
      boolean stable,
      List<String> findings,
      String section) {

    /** One line for the progress log. */
    public String line() {
      if (error != null) {
        return note + ": failed: " + error;
      }
      return String.format(
          Locale.ROOT,
          "%s: %d topics, %d bullets, %d duplicate, %d/%d cut, %d/%d foreign links, %d filler, %s",
          note,
          topics,
          bullets,
          duplicates,
          cut,
          excerpts,
          foreign,
          links,
          filler,
          stable ? "stable" : "UNSTABLE");
    }
  }

  static NoteResearchReport of(
      String vault, List<String> others, String finishedAt, List<Note> results) {
    var ok = results.stream().filter(n -> n.error() == null).toList();
    return new NoteResearchReport(
        SCHEMA_VERSION,
        vault,
        others,
        finishedAt,
        results.size(),
        results.size() - ok.size(),
        sum(ok, Note::bullets),
        sum(ok, Note::duplicates),
        sum(ok, Note::excerpts),
        sum(ok, Note::cut),
        sum(ok, Note::links),
        sum(ok, Note::foreign),
        sum(ok, Note::filler),
        (int) ok.stream().filter(Note::stable).count(),
        List.copyOf(results));
  }

  private static int sum(List<Note> notes, ToIntFunction<Note> f) {
    return notes.stream().mapToInt(f).sum();
  }

  /** Every counted problem, one line each, prefixed by its note. */
  public List<String> misses() {
    return results.stream()
        .flatMap(
            n ->
                n.error() != null
                    ? java.util.stream.Stream.of(n.note() + ": failed: " + n.error())
                    : java.util.stream.Stream.concat(
                        n.findings().stream().map(f -> n.note() + ": " + f),
                        n.stable()
                            ? java.util.stream.Stream.empty()
                            : java.util.stream.Stream.of(
                                n.note() + ": a second run wrote another section")))
        .toList();
  }

  /** The totals in a few lines. */
  public String summary() {
    return String.format(
        Locale.ROOT,
        "%d notes (%d failed), %d bullets: %d duplicate sources, %d of %d excerpts cut,"
            + " %d of %d wikilinks foreign, %d filler lines, %d of %d sections stable",
        notes,
        failed,
        bullets,
        duplicates,
        cut,
        excerpts,
        foreign,
        links,
        filler,
        stable,
        notes - failed);
  }
}
