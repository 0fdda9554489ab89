package dev.brain.research.note;

import dev.brain.models.chat.ChatException;
import dev.brain.models.chat.ChatListener;
import dev.brain.models.chat.ChatMessage;
import dev.brain.models.chat.ChatModel;
import dev.brain.models.chat.ChatRequest;
import dev.brain.research.note.NoteResearchException.Reason;
import dev.brain.research.note.NoteResult.Source;
import dev.brain.research.note.TopicResearch.Findings;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The body of the {@code ## Research} section: findings by topic, the user's notes as {@code
 * [[wikilinks]]}, web and corpus sources with URLs as Markdown links, related notes the note does
 * not link yet. Written by a chat model when one is configured, else extractively (passages chosen
 * and cited, no judgement of contradictions).
 */
final class SectionSynthesis {
  private SectionSynthesis() {}

  /** Characters of the note given to the synthesis model. */
  static final int NOTE_CHARS_FOR_SYNTHESIS = 20_000;

  static final String SYSTEM =
      """
      You write the "## Research" section of a personal note: a concise research supplement, \
      not a thesis. Use only the findings given. Organize by topic with "### <topic>" headings \
      and short bullet points. Cite the user's notes exactly as the [[wikilinks]] given and web \
      or corpus sources exactly as the Markdown links given; cite nothing else and invent no \
      link or URL. Flag any contradiction between the note and a source with "**Contradiction:**". \
      End with "### Related notes" listing notes from the findings the note does not link yet. \
      Do not repeat the "## Research" heading. Markdown only.""";

  /** The section without a model: for each topic its best passages, each cited. */
  static String extractive(List<Findings> findings, Set<String> linkedFromNote) {
    var out = new StringBuilder();
    var related = new LinkedHashMap<String, String>();
    for (Findings f : findings) {
      if (f.sources().isEmpty()) {
        // No heading and no line saying there is nothing: a topic without a source to quote
        // adds nothing to keep (the result's research list still reports it).
        continue;
      }
      out.append("### ").append(plain(f.topic().topic())).append("\n\n");
      for (Source s : f.sources()) {
        out.append("- ").append(cite(s));
        String excerpt = plain(s.excerpt());
        if (!excerpt.isEmpty()) {
          out.append(": ").append(excerpt);
        }
        out.append('\n');
        if (s.link() != null
            && !linkedFromNote.contains(target(s.link()).toLowerCase(Locale.ROOT))) {
          related.putIfAbsent(target(s.link()).toLowerCase(Locale.ROOT), s.link());
        }
      }
      out.append('\n');
    }
    if (out.isEmpty()) {
      return "_Nothing in the corpus (or on the web) matched this note's topics._\n";
    }
    if (!related.isEmpty()) {
      out.append("### Related notes\n\n");
      for (String link : related.values()) {
        out.append("- [[").append(link).append("]]\n");
      }
      out.append('\n');
    }
    return out.toString().stripTrailing() + "\n";
  }

  /** The section by a model, from the note and the findings. */
  static String model(
      ChatModel model, String note, List<Findings> findings, Duration timeout, int[] calls) {
    var request =
        new ChatRequest(
            List.of(ChatMessage.system(SYSTEM), ChatMessage.user(prompt(note, findings))),
            timeout,
            false,
            0.2,
            1500,
            List.of());
    try {
      calls[0]++;
      String body = model.chat(request, ChatListener.NONE).content().strip();
      body = body.replaceFirst("(?is)\\A```(?:markdown|md)?\\s*\\n(.*)\\n```\\z", "$1").strip();
      body = body.replaceFirst("(?i)\\A#{1,2}\\s*research\\s*\\n", "").strip();
      if (body.isEmpty()) {
        throw new NoteResearchException(
            Reason.MODEL_FAILED,
            "the model " + model.id() + " wrote an empty research section; nothing was written");
      }
      return body + "\n";
    } catch (ChatException e) {
      throw new NoteResearchException(
          "the model "
              + model.id()
              + " failed while writing the section: "
              + e.getMessage()
              + "; nothing was written",
          e);
    }
  }

  static String prompt(String note, List<Findings> findings) {
    var out = new StringBuilder("The note:\n\n");
    out.append(
        note.length() <= NOTE_CHARS_FOR_SYNTHESIS
            ? note
            : note.substring(0, NOTE_CHARS_FOR_SYNTHESIS));
    out.append("\n\nFindings by topic:\n");
    for (Findings f : findings) {
      out.append("\n## ")
          .append(f.topic().topic())
          .append(" (")
          .append(f.topic().type())
          .append(")\n");
      if (!f.topic().context().isEmpty()) {
        out.append("The note says: ").append(f.topic().context()).append('\n');
      }
      if (f.sources().isEmpty()) {
        out.append("- nothing found\n");
      }
      for (Source s : f.sources()) {
        out.append("- ").append(cite(s)).append(": ").append(plain(s.excerpt())).append('\n');
      }
    }
    return out.toString();
  }

  /**
   * The target of a wikilink's text: {@code Plugins/Templates} of {@code
   * Plugins/Templates|Templates}.
   */
  static String target(String link) {
    int bar = link.indexOf('|');
    return bar < 0 ? link : link.substring(0, bar);
  }

  /**
   * How a source is cited: a wikilink (a note of the researched note's collection), a Markdown
   * link, a note of another collection as plain text naming it, or the record's key.
   */
  static String cite(Source s) {
    if (s.link() != null) {
      return "[[" + s.link() + "]]";
    }
    String title = plain(s.title()).replace("[", "(").replace("]", ")");
    String collection = TopicResearch.collectionOf(s.key());
    if ("note".equals(s.kind()) && collection != null) {
      return title + " (collection " + collection + ")";
    }
    if (s.url() != null && !s.url().isBlank()) {
      return "[" + title + "](" + s.url() + ")";
    }
    return title + " (`" + s.key() + "`)";
  }

  /** Text with links made plain, on one line, so that a passage adds no link of its own. */
  static String plain(String text) {
    return Sanitize.line(Sanitize.unlink(text), 700);
  }
}
