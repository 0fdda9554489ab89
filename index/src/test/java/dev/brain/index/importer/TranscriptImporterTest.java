package dev.brain.index.importer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.brain.index.CorpusRecord;
import java.util.List;
import org.junit.jupiter.api.Test;

class TranscriptImporterTest {

  @Test
  void readsWebVttCuesAsSpeakerParagraphs() throws Exception {
    ImportResult result = Fixtures.read("talk.vtt");
    CorpusRecord talk = result.records().get(0);

    assertThat(talk.key()).isEqualTo(Keys.sourceFile("formats", "talk.vtt"));
    assertThat(talk.kind()).isEqualTo(CorpusRecord.KIND_SOURCE);
    assertThat(talk.sourceType()).isEqualTo("transcript");
    assertThat(talk.text())
        .isEqualTo(
            "Dana: Welcome back to Espresso Hour. Today: pressure profiling & flow.\n\n"
                + "Marco Rossi: Thanks. Start at 3 bar for preinfusion, then ramp to 9 bar."
                + " Drop to 6 bar for the last third.\n\n"
                + "Marco Rossi: After a pause, a new thought.");
    assertThat(result.warnings()).singleElement().asString().contains("talk.vtt:26");
  }

  @Test
  void theHeaderTitleLineWinsOverTheFileName() throws Exception {
    assertThat(Fixtures.read("talk.vtt").records().get(0).title())
        .isEqualTo("Espresso Hour 12: Pressure profiling");
  }

  @Test
  void readsSrtCuesDroppingMarkupAndRepeatedCaptions() throws Exception {
    CorpusRecord talk = Fixtures.readOne("talk.srt");

    assertThat(talk.key()).isEqualTo(Keys.sourceFile("formats", "talk.srt"));
    assertThat(talk.title()).isEqualTo("talk");
    assertThat(talk.text())
        .isEqualTo(
            "TOM: Tempo runs build lactate threshold. Run them at comfortably hard effort.\n\n"
                + "JANE: Twenty minutes is plenty.");
  }

  @Test
  void joinsCuesWithoutSpeakersAtPauses() {
    var cues =
        List.of(
            TranscriptImporter.cue(0, 1000, "first"),
            TranscriptImporter.cue(1100, 2000, "second"),
            TranscriptImporter.cue(5000, 6000, "after a pause"));

    assertThat(TranscriptImporter.join(cues)).isEqualTo("first second\n\nafter a pause");
  }

  @Test
  void parsesTimestampsOfBothFormats() {
    assertThat(TranscriptImporter.millis("01:02:03.450")).isEqualTo(3_723_450);
    assertThat(TranscriptImporter.millis("02:03.4")).isEqualTo(123_400);
    assertThat(TranscriptImporter.millis("00:00:01,000")).isEqualTo(1000);
  }

  @Test
  void aVttWithoutHeaderIsMalformedWithAHint() {
    assertThatThrownBy(() -> Fixtures.read("broken.vtt"))
        .isInstanceOfSatisfying(ImportException.class, e -> assertThat(e.skipped()).isFalse())
        .hasMessageContaining("WEBVTT header")
        .hasMessageContaining(".srt");
  }

  @Test
  void anSrtWithoutCuesIsMalformed() {
    assertThatThrownBy(() -> Fixtures.read("empty.srt"))
        .isInstanceOf(ImportException.class)
        .hasMessageContaining("no cues");
  }
}
