package dev.brain;

import dev.brain.index.CollectionRoot;
import dev.brain.index.CollectionsFile;
import dev.brain.index.CorpusStore;
import dev.brain.models.chat.ChatModel;
import dev.brain.research.note.NoteRequest;
import dev.brain.research.note.NoteResearcher;
import dev.brain.research.note.NoteResult;
import dev.brain.research.trace.TraceStore;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * Note research wired to one {@link Brain}: packs from its corpus, the note re-indexed in its index
 * after the write (unless the brain is read-only), traces in its store, the {@code note.*}
 * settings, and the collections of its {@code brain.yaml} as they are at each call.
 */
final class BrainNotes {
  private final BrainConfig config;
  private final CorpusStore index;
  private final boolean readOnly;
  private final NoteResearcher researcher;

  BrainNotes(
      BrainConfig config,
      CorpusStore index,
      boolean readOnly,
      NoteResearcher.Corpus corpus,
      TraceStore traces) {
    this.config = config;
    this.index = index;
    this.readOnly = readOnly;
    this.researcher =
        new NoteResearcher(
            corpus,
            this::reindex,
            traces,
            new NoteResearcher.Options(
                config.note().webSearchUrl(),
                config.note().concurrency(),
                config.note().pageTimeout(),
                config.research().budgets().synthesis()));
  }

  /** See {@link Brain#researchNote(NoteRequest)}. */
  NoteResult research(NoteRequest request, ChatModel model)
      throws IOException, InterruptedException {
    var collections = CollectionsFile.of(config.dataDir()).read();
    return researcher.research(request, collections, model);
  }

  private String reindex(CollectionRoot collection, Path note) throws IOException {
    if (readOnly) {
      return "not re-indexed: this brain has the index open read-only; 'brain index' (or a"
          + " watching server) picks the change up";
    }
    index.syncCollections(List.of(collection), null);
    return "done";
  }
}
