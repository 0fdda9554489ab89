package dev.brain.index.importer;

import dev.brain.index.CorpusRecord;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jsoup.parser.Parser;

/**
 * Reads WebVTT and SRT subtitles into one {@code src:} transcript record keyed by its path. The
 * text is the cue text without timings or markup, joined into paragraphs: a new paragraph at each
 * change of speaker ({@code <v Name>} or a leading {@code Name:}) and at pauses of two seconds or
 * more, so that chunks follow the talk. The title is a {@code Title:} line in the WebVTT header or
 * a {@code NOTE}, the text after {@code WEBVTT}, or the file name.
 */
final class TranscriptImporter {

  private static final Pattern TIMING =
      Pattern.compile(
          "((?:\\d+:)?\\d{1,2}:\\d{2}[.,]\\d{1,3})\\s*-->\\s*((?:\\d+:)?\\d{1,2}:\\d{2}[.,]\\d{1,3})");
  private static final Pattern VOICE = Pattern.compile("<v(?:\\.[^\\s>]*)?\\s+([^>]+)>");
  private static final Pattern TAG = Pattern.compile("<[^>]*>|\\{\\\\[^}]*}");
  private static final Pattern SPEAKER_PREFIX =
      Pattern.compile("^(\\p{Lu}[\\p{L}.'\\-]*(?: \\p{Lu}[\\p{L}.'\\-]*){0,3}):\\s+(.*)$");
  private static final Pattern TITLE_LINE = Pattern.compile("(?i)^title:\\s*(.+)$");

  /** A pause of this length starts a new paragraph. */
  private static final long PAUSE_MILLIS = 2000;

  /** A paragraph this long ends at the next sentence end even without a pause. */
  private static final int LONG_PARAGRAPH = 700;

  private TranscriptImporter() {}

  record Cue(long start, long end, String speaker, String text) {}

  static ImportResult readVtt(SourceFile file) throws ImportException {
    List<Block> blocks = Block.split(file.readText());
    if (blocks.isEmpty() || !blocks.get(0).lines.get(0).matches("^WEBVTT(?:[ \\t].*)?$")) {
      throw ImportException.malformed(
          file.file(),
          "missing the WEBVTT header line in "
              + file.file()
              + "; if this is SRT, rename it to .srt",
          null);
    }
    String title = titleLine(blocks.get(0).lines.subList(1, blocks.get(0).lines.size()));
    var cues = new ArrayList<Cue>();
    var warnings = new ArrayList<String>();
    for (Block block : blocks.subList(1, blocks.size())) {
      String first = block.lines.get(0);
      if (first.startsWith("NOTE")) {
        title = title != null ? title : noteTitle(block);
      } else if (!first.startsWith("STYLE") && !first.startsWith("REGION")) {
        addCue(block, cues, warnings, file);
      }
    }
    return result(file, title != null ? title : headerText(blocks.get(0)), cues, warnings);
  }

  static ImportResult readSrt(SourceFile file) throws ImportException {
    var cues = new ArrayList<Cue>();
    var warnings = new ArrayList<String>();
    for (Block block : Block.split(file.readText())) {
      addCue(block, cues, warnings, file);
    }
    return result(file, null, cues, warnings);
  }

  private static ImportResult result(
      SourceFile file, String title, List<Cue> cues, List<String> warnings) throws ImportException {
    if (cues.isEmpty()) {
      throw ImportException.malformed(
          file.file(),
          "no cues (lines like 00:00:01.000 --> 00:00:04.000) in " + file.file(),
          null);
    }
    String shown = title != null ? title : file.baseName();
    var record =
        CorpusRecord.builder(
                Keys.sourceFile(file.collection(), file.relativePath()),
                CorpusRecord.KIND_SOURCE,
                "transcript",
                join(cues))
            .title(shown)
            .createdAt(file.modified())
            .origin(file.origin())
            .updatedAt(file.modified())
            .dateSource(CorpusRecord.DATE_FILE_TIME)
            .build();
    return new ImportResult(List.of(record), warnings);
  }

  private static void addCue(Block block, List<Cue> cues, List<String> warnings, SourceFile file) {
    int timing = -1;
    for (int i = 0; i < block.lines.size() && i < 2; i++) {
      if (block.lines.get(i).contains("-->")) {
        timing = i;
      }
    }
    Matcher m = timing < 0 ? null : TIMING.matcher(block.lines.get(timing));
    if (m == null || !m.find()) {
      warnings.add(
          file.relativePath() + ":" + block.firstLine + ": skipped a block without a cue timing");
      return;
    }
    String payload = String.join("\n", block.lines.subList(timing + 1, block.lines.size()));
    Cue cue = cue(millis(m.group(1)), millis(m.group(2)), payload);
    if (!cue.text.isEmpty()) {
      cues.add(cue);
    }
  }

  /** A cue's speaker and plain text: voice tags become the speaker, other markup is dropped. */
  static Cue cue(long start, long end, String payload) {
    String speaker = null;
    Matcher voice = VOICE.matcher(payload);
    if (voice.find()) {
      speaker = voice.group(1).strip();
    }
    String text = Parser.unescapeEntities(TAG.matcher(payload).replaceAll(""), false);
    text = text.replace('\u00A0', ' ').replaceAll("[\\u200E\\u200F]", "");
    text = String.join(" ", text.strip().split("\\s*\\n\\s*"));
    Matcher prefix = SPEAKER_PREFIX.matcher(text);
    if (speaker == null && prefix.matches()) {
      speaker = prefix.group(1);
      text = prefix.group(2);
    }
    return new Cue(start, end, speaker, text.strip());
  }

  /** Joins cues into paragraphs (see the class comment); repeated captions are dropped. */
  static String join(List<Cue> cues) {
    var out = new StringBuilder();
    var paragraph = new StringBuilder();
    String speaker = null;
    Cue previous = null;
    for (Cue cue : cues) {
      if (previous != null && previous.text.equals(cue.text)) {
        continue; // rolling auto-captions repeat the last line
      }
      boolean newSpeaker = cue.speaker != null && !cue.speaker.equals(speaker);
      boolean pause = previous != null && cue.start - previous.end >= PAUSE_MILLIS;
      boolean longEnough = paragraph.length() > LONG_PARAGRAPH && endsSentence(paragraph);
      if (paragraph.length() > 0 && (newSpeaker || pause || longEnough)) {
        out.append(paragraph).append("\n\n");
        paragraph.setLength(0);
      }
      if (cue.speaker != null) {
        speaker = cue.speaker;
      }
      if (paragraph.length() == 0 && speaker != null) {
        paragraph.append(speaker).append(": ");
      } else if (paragraph.length() > 0) {
        paragraph.append(' ');
      }
      paragraph.append(cue.text);
      previous = cue;
    }
    return out.append(paragraph).toString().strip();
  }

  private static boolean endsSentence(CharSequence s) {
    char last = s.charAt(s.length() - 1);
    return last == '.' || last == '?' || last == '!';
  }

  /** The text after {@code WEBVTT} on the first line ({@code WEBVTT - Episode 12}), if any. */
  private static String headerText(Block header) {
    String rest = header.lines.get(0).substring("WEBVTT".length()).strip();
    while (rest.startsWith("-")) {
      rest = rest.substring(1).strip();
    }
    return rest.isEmpty() ? null : rest;
  }

  private static String noteTitle(Block note) {
    var lines = new ArrayList<String>();
    lines.add(note.lines.get(0).substring("NOTE".length()));
    lines.addAll(note.lines.subList(1, note.lines.size()));
    return titleLine(lines);
  }

  private static String titleLine(List<String> lines) {
    for (String line : lines) {
      Matcher m = TITLE_LINE.matcher(line.strip());
      if (m.matches()) {
        return m.group(1).strip();
      }
    }
    return null;
  }

  /** {@code hh:mm:ss.mmm}, {@code mm:ss.mmm} or SRT's {@code hh:mm:ss,mmm} in milliseconds. */
  static long millis(String timestamp) {
    String[] parts = timestamp.replace(',', '.').split("[:.]");
    long ms = Long.parseLong((parts[parts.length - 1] + "00").substring(0, 3));
    long total = 0;
    for (int i = 0; i < parts.length - 1; i++) {
      total = total * 60 + Long.parseLong(parts[i]);
    }
    return total * 1000 + ms;
  }

  /** A run of non-blank lines and the 1-based line number it starts on. */
  private record Block(int firstLine, List<String> lines) {
    static List<Block> split(String text) {
      var blocks = new ArrayList<Block>();
      var lines = new ArrayList<String>();
      int start = 0;
      String[] all = text.split("\\r?\\n|\\r", -1);
      for (int i = 0; i < all.length; i++) {
        if (all[i].isBlank()) {
          if (!lines.isEmpty()) {
            blocks.add(new Block(start + 1, List.copyOf(lines)));
            lines.clear();
          }
        } else {
          if (lines.isEmpty()) {
            start = i;
          }
          lines.add(all[i]);
        }
      }
      if (!lines.isEmpty()) {
        blocks.add(new Block(start + 1, List.copyOf(lines)));
      }
      return blocks;
    }
  }
}
