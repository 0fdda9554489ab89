package dev.brain.server.mcp;

import dev.brain.Brain;
import dev.brain.research.note.Depth;
import dev.brain.research.note.NoteRequest;
import dev.brain.research.note.NoteResearchException;
import dev.brain.research.note.NoteResearcher;
import dev.brain.research.note.NoteResult;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * {@code brain_research_note}, the one writing tool: its arguments read, the note researched and
 * written, and the evidence shown instead when the configured model cannot be reached.
 */
final class NoteTool {
  private NoteTool() {}

  /** Reads the arguments, researches the note; see {@link BrainTools#researchNote}. */
  static BrainTools.ToolOutput research(Brain brain, Map<String, Object> arguments)
      throws IOException {
    var args =
        new ToolArgs(
            "brain_research_note",
            arguments,
            Set.of("path", "depth", "focus", "dry_run", "replace"));
    String path = args.requiredString("path");
    Boolean dryRun = args.bool("dry_run");
    try {
      var collections = brain.collections();
      var request =
          new NoteRequest(
              NoteResearcher.locate(path, collections),
              Depth.of(args.string("depth")),
              args.string("focus"),
              Boolean.TRUE.equals(dryRun),
              Boolean.TRUE.equals(args.bool("replace")));
      NoteResult result;
      try {
        result = brain.researchNote(request);
      } catch (NoteResearchException e) {
        if (!e.modelUnreachable()) {
          throw e;
        }
        return evidenceWithoutModel(brain, request, e.getMessage());
      }
      Map<String, Object> out = BrainTools.toMap(result);
      String text =
          (result.written()
                  ? "wrote the section into " + result.path()
                  : "dry run, nothing written")
              + " ("
              + result.topics().size()
              + " topics)\n\n"
              + result.section();
      return new BrainTools.ToolOutput(out, text);
    } catch (NoteResearchException e) {
      throw new ToolInputException(e.field() == null ? "path" : e.field(), e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted", e);
    }
  }

  /**
   * The note's research when the configured model cannot be reached, as the Chat and {@code brain
   * research} fall back to the evidence: deterministic topics and the extractive section of what
   * was found, as a dry run (the section asked for is the model's, so nothing is written), with
   * {@code model_unavailable} saying why.
   */
  private static BrainTools.ToolOutput evidenceWithoutModel(
      Brain brain, NoteRequest asked, String why) throws IOException, InterruptedException {
    var dryRun = new NoteRequest(asked.path(), asked.depth(), asked.focus(), true, asked.replace());
    var result = brain.researchNoteWithoutModel(dryRun);
    Map<String, Object> out = new LinkedHashMap<>(BrainTools.toMap(result));
    out.put("model_unavailable", why);
    String text =
        "model unreachable: showing the evidence; nothing was written ("
            + why
            + ")\n\n"
            + result.topics().size()
            + " topics, extractive\n\n"
            + result.section();
    return new BrainTools.ToolOutput(out, text);
  }
}
