package dev.brain;

import dev.brain.index.BrainIndex;
import dev.brain.index.CollectionRoot;
import dev.brain.index.CollectionWatcher;
import dev.brain.index.CollectionsFile;
import dev.brain.index.CorpusRecord;
import dev.brain.index.IndexMetadata;
import dev.brain.index.IndexStats;
import dev.brain.index.IndexStatus;
import dev.brain.index.RecordDetail;
import dev.brain.index.SyncListener;
import dev.brain.index.SyncReport;
import dev.brain.models.chat.ChatModel;
import dev.brain.research.Researcher;
import dev.brain.research.agent.AgentTool;
import dev.brain.research.note.NoteRequest;
import dev.brain.research.note.NoteResearcher;
import dev.brain.research.note.NoteResult;
import dev.brain.research.pack.CorpusMaps;
import dev.brain.research.pack.EntityMap;
import dev.brain.research.pack.ResearchOptions;
import dev.brain.research.pack.ResearchPack;
import dev.brain.research.pack.TopicMap;
import dev.brain.research.plan.ChatContinuity;
import dev.brain.research.plan.ConversationTurn;
import dev.brain.research.run.ResearchRunner;
import dev.brain.research.run.RunListener;
import dev.brain.research.run.RunRequest;
import dev.brain.research.run.RunResult;
import dev.brain.research.synthesis.PreparedSynthesis;
import dev.brain.research.synthesis.SynthesisOptions;
import dev.brain.research.synthesis.SynthesisResult;
import dev.brain.research.synthesis.Verification;
import dev.brain.research.trace.Redactor;
import dev.brain.research.trace.TraceStore;
import dev.brain.retrieval.Backend;
import dev.brain.retrieval.InvalidSearchException;
import dev.brain.retrieval.Retriever;
import dev.brain.retrieval.SearchOptions;
import dev.brain.retrieval.SearchResult;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * brain as a library: one data directory's index, search, research (pack and run), traces and
 * status behind one object. The CLI, the web server, bench and tests all start here.
 *
 * <pre>{@code
 * try (Brain brain = Brain.open(Path.of("/tmp/brain-data"))) {
 *   brain.index(Path.of("notes"));
 *   SearchResult hits = brain.search("espresso grind size");
 *   RunResult run = brain.research("How often should I backflush the espresso machine?");
 *   System.out.println(run.synthesis().answer());
 * }
 * }</pre>
 *
 * <p>Thread-safe: searches and runs may go on many threads at once; one index or put at a time.
 * {@link #open} takes the index's write lock (one writer per data directory); {@link #openReadOnly}
 * does not, so a server can read while a {@code brain index} writes ({@link #refresh()} moves to
 * its latest commit). Chat models named in {@link BrainConfig#chat()} are opened on first use and
 * closed with the brain.
 */
public final class Brain implements AutoCloseable {

  private final BrainConfig config;
  private final Backend index;
  private final Retriever retriever;
  private final Researcher researcher;
  private final TraceStore traces;
  private final ResearchRunner runner;
  private final BrainNotes notes;
  private final boolean readOnly;
  private final ChatModelCache models;

  private Brain(BrainConfig config, Backend index, boolean readOnly) {
    this.config = config;
    this.readOnly = readOnly;
    this.index = index;
    this.retriever = new Retriever(index);
    this.researcher = new Researcher(retriever);
    this.traces = traces(config);
    this.runner = new ResearchRunner(retriever, traces);
    this.models = new ChatModelCache(config.chat().chatConfig());
    this.notes = new BrainNotes(config, index, readOnly, this::pack, traces);
  }

  /**
   * Opens the brain of {@code dataDir} with its {@code brain.yaml} and the environment (see {@link
   * BrainConfig#load(Path)}), creating an empty index if there is none.
   *
   * @throws BrainConfigException if the configuration cannot be used
   * @throws IOException if the index cannot be opened
   */
  public static Brain open(Path dataDir) throws IOException {
    return open(BrainConfig.load(dataDir));
  }

  /**
   * Opens the brain of {@code config}, creating an empty index if there is none, for reading and
   * writing.
   *
   * @throws dev.brain.index.IndexMismatchException if the index was built with another model or
   *     vector format than the configuration names
   * @throws dev.brain.index.IndexLockedException if another writer has the index open
   * @throws IOException if the index cannot be opened
   */
  public static Brain open(BrainConfig config) throws IOException {
    Objects.requireNonNull(config, "config");
    return new Brain(config, Backends.open(config), false);
  }

  /**
   * Opens the existing index of {@code config} for reading only: no write lock, so another process
   * may index meanwhile. {@link #index} and {@link #put} throw.
   *
   * @throws NoSuchFileException if the data directory holds no index yet; the message says to run
   *     {@code brain index}
   * @throws IOException if the index cannot be opened
   */
  public static Brain openReadOnly(BrainConfig config) throws IOException {
    Objects.requireNonNull(config, "config");
    return new Brain(config, Backends.openReadOnly(config), true);
  }

  /** The configuration this brain runs with. */
  public BrainConfig config() {
    return config;
  }

  /**
   * Brings the index in line with files and folders (notes, pages, PDFs, feeds, bookmarks,
   * transcripts, JSONL): new and changed records are imported, removed files' records deleted.
   *
   * @param listener progress callbacks (may be {@code null})
   * @throws NoSuchFileException if a root does not exist
   * @throws IOException if the index cannot be written
   */
  public SyncReport index(List<Path> roots, SyncListener listener) throws IOException {
    return index.syncCollections(BrainIndex.namedRoots(roots), listener);
  }

  /** {@link #index(List, SyncListener)} without progress callbacks. */
  public SyncReport index(Path... roots) throws IOException {
    return index(Arrays.asList(roots), null);
  }

  /**
   * Brings the index in line with {@code collections}: each one's new and changed files imported,
   * its vanished files' records deleted, its sync recorded for {@link #indexStatus()}.
   *
   * @param listener progress callbacks (may be {@code null})
   * @throws IOException if the index cannot be written
   */
  public SyncReport sync(List<CollectionRoot> collections, SyncListener listener)
      throws IOException {
    return index.syncCollections(collections, listener);
  }

  /**
   * Syncs {@code collections} if that writes nothing, also on a brain opened {@link #openReadOnly
   * read-only}: the report when every file is as the last commit recorded it, empty when there is
   * something to write (then {@link #sync} on a writable brain does it). See {@link
   * dev.brain.index.BrainIndex#syncIfUnchanged}.
   *
   * @throws NoSuchFileException if a root does not exist
   * @throws IOException if the index cannot be read
   */
  public Optional<SyncReport> syncIfUnchanged(List<CollectionRoot> collections) throws IOException {
    return index.syncIfUnchanged(collections);
  }

  /**
   * Deletes the records of a collection from the index (its folder is untouched).
   *
   * @return how many records were deleted
   * @throws IOException if the index cannot be written
   */
  public long removeCollection(String name) throws IOException {
    return index.removeCollection(name);
  }

  /**
   * Follows {@code collections} and syncs each change into this brain's index on a thread of its
   * own until the returned watcher is closed; the first sync of every collection runs at once.
   * Bursts of changes within {@link CollectionWatcher#DEFAULT_DEBOUNCE} become one sync.
   *
   * @param listener told of each sync and each failed one, on the watcher's thread
   * @throws IOException if the folders cannot be watched
   */
  public CollectionWatcher watch(
      List<CollectionRoot> collections, CollectionWatcher.Listener listener) throws IOException {
    return CollectionWatcher.start(
        index, collections, CollectionWatcher.DEFAULT_DEBOUNCE, listener);
  }

  /**
   * Deletes the index of {@code config} (not the traces or {@code brain.yaml}), for a rebuild with
   * another brain version; the next {@link #open} starts empty.
   *
   * @throws dev.brain.index.IndexLockedException if a writer has the index open
   * @throws IOException if it cannot be deleted
   */
  public static void deleteIndex(BrainConfig config) throws IOException {
    Backends.delete(config);
  }

  /**
   * Adds or replaces records a Java caller built itself, without files; unchanged ones are skipped
   * and nothing is deleted.
   *
   * @throws IOException if the index cannot be written
   */
  public SyncReport put(List<CorpusRecord> records) throws IOException {
    return index.put(records, null);
  }

  /**
   * The search defaults of {@link BrainConfig#retrieval()}, to change and pass to {@link
   * #search(String, SearchOptions)}.
   */
  public SearchOptions searchOptions() {
    return config.retrieval().searchOptions();
  }

  /** Searches with the configured defaults. */
  public SearchResult search(String query) throws IOException {
    return search(query, searchOptions());
  }

  /**
   * Searches the index: lexical, vector and tag lanes fused into evidence rows.
   *
   * @throws InvalidSearchException if the query has no searchable word or an option is invalid
   * @throws IOException if the index cannot be read
   */
  public SearchResult search(String query, SearchOptions options) throws IOException {
    return retriever.search(query, options);
  }

  /**
   * The options of a search request as every surface builds them: {@link SearchRequest#validate
   * validated}, its fields applied over the configured defaults ({@link #searchOptions()}).
   *
   * @throws InvalidSearchException naming the field of a request that cannot run as given
   */
  public SearchOptions searchOptions(SearchRequest request) {
    return request.validate().options(searchOptions());
  }

  /**
   * Searches as a surface asks: the request completed from {@code brain.yaml} ({@link
   * #searchOptions(SearchRequest)}).
   *
   * @throws InvalidSearchException naming the field of a request that cannot run as given, or
   *     {@code source_types} when it names a type the index does not hold
   * @throws IOException if the index cannot be read
   */
  public SearchResult search(SearchRequest request) throws IOException {
    return search(request.query(), searchOptions(request));
  }

  /** The source types a search may filter on, sorted. */
  public List<String> sourceTypes() throws IOException {
    return retriever.sourceTypes();
  }

  /** The pack defaults of {@link BrainConfig#research()}. */
  public ResearchOptions researchOptions() {
    return config.research().options();
  }

  /** The research pack of a question with the configured defaults and planner. */
  public ResearchPack pack(String question) throws IOException {
    return pack(question, researchOptions());
  }

  /**
   * The research pack of a question: ranked evidence, coverage and (for broad questions) a topic
   * brief, planned by the configured planner model (deterministic when there is none).
   *
   * @throws InvalidSearchException if the question has no searchable word or an option is invalid
   */
  public ResearchPack pack(String question, ResearchOptions options) throws IOException {
    return pack(question, options, chatModel(config.chat().plannerSpec()));
  }

  /**
   * The research pack of a question planned by {@code planner}, or deterministically when it is
   * {@code null} (a surface's "no planner" switch). A planner failure never fails the pack: {@code
   * query_plan.planner_error} says why the deterministic plan was used.
   *
   * @throws InvalidSearchException if the question has no searchable word or an option is invalid
   */
  public ResearchPack pack(String question, ResearchOptions options, ChatModel planner)
      throws IOException {
    return researcher.pack(question, options, planner);
  }

  /** A follow-up's pack with an earlier turn's evidence as candidates; see {@link Researcher}. */
  public ResearchPack withEarlierTurns(
      ResearchPack pack, List<String> keys, ResearchOptions options) throws IOException {
    return researcher.withEarlierTurns(pack, keys, options);
  }

  /**
   * {@code pack} with the records the user pinned added as a research run adds them (after the
   * ranked rows, windowed on the plan's concepts); the report says which were added and why others
   * were not.
   */
  public Researcher.Pinned pin(ResearchPack pack, List<String> keys, ResearchOptions options)
      throws IOException {
    return researcher.pin(pack, keys, options);
  }

  /**
   * The synthesis input of a pack under the evidence budget of {@code options}.
   *
   * @throws InvalidSearchException if the pack is not a {@code research_pack.v1}
   */
  public PreparedSynthesis prepare(ResearchPack pack, SynthesisOptions options) {
    return researcher.prepare(pack, options);
  }

  /**
   * The answer of a prepared synthesis by {@code model} (tokens streamed to {@code listener}), or
   * by the extractive synthesizer when {@code model} is {@code null}. Never throws for model
   * failures.
   */
  public SynthesisResult synthesize(
      PreparedSynthesis prepared,
      ChatModel model,
      SynthesisOptions options,
      dev.brain.models.chat.ChatListener listener) {
    return researcher.synthesize(prepared, model, options, listener);
  }

  /** Checks an answer's citations and status against its pack. */
  public Verification verify(ResearchPack pack, SynthesisResult synthesis) {
    return researcher.verify(pack, synthesis);
  }

  /**
   * A run request for {@code question} with the configured pack options, budgets, planner, answer
   * model and review model; change it with its {@code with...} methods and pass it to {@link #run}.
   */
  public RunRequest request(String question) {
    return RunRequest.of(question)
        .withOptions(researchOptions())
        .withSynthesis(config.research().synthesis())
        .withBudgets(config.research().budgets())
        .withPlanner(chatModel(config.chat().plannerSpec()))
        .withModel(chatModel(config.chat().model()))
        .withReviewer(chatModel(config.research().reviewSpec()))
        .withSurface("library");
  }

  /**
   * A run request for {@code question} as the next turn of a conversation whose earlier turns are
   * {@code conversation} (oldest first): a short follow-up ("and for the V60?") keeps the earlier
   * turn's intent. See {@link #request(String)}.
   */
  public RunRequest request(String question, List<ConversationTurn> conversation) {
    return request(question).withConversation(conversation);
  }

  /**
   * The evidence of a research request as every surface builds it: {@link ResearchRequest#validate
   * validated}, its options applied over the configured ones, searched with the earlier questions
   * of a chat follow-up, the earlier turns' keys recorded, the pinned records added.
   *
   * @throws InvalidSearchException naming the field of a request that cannot run as given
   */
  public Researcher.Pinned pack(ResearchRequest request) throws IOException {
    request.validate();
    ResearchOptions options = request.options(researchOptions());
    ChatContinuity continuity = request.continuity();
    ResearchPack pack = pack(request.searchQuestion(), options);
    pack = withEarlierTurns(pack, continuity.priorEvidenceKeys(), options);
    return pin(pack, continuity.pinnedEvidenceKeys(), options);
  }

  /**
   * The run of a research request, completed from {@code brain.yaml} as {@link #request(String)}
   * completes a question, answered by {@code model} ({@code null}: the built-in extractive
   * synthesizer).
   *
   * @throws InvalidSearchException naming the field of a request that cannot run as given
   */
  public RunRequest request(ResearchRequest request, ChatModel model) {
    request.validate();
    return request(request.question())
        .withOptions(request.options(researchOptions()))
        .withSynthesis(request.synthesisOptions(config.research().synthesis()))
        .withModel(model)
        .withContinuity(request.continuity())
        .withSurface(request.surfaceName())
        .withTrace(request.wantsTrace(config.chat().saveTraces()));
  }

  /** Researches a question with the configured defaults; see {@link #run}. */
  public RunResult research(String question) throws IOException {
    return run(request(question), null);
  }

  /**
   * Runs bounded, traced research: plan, retrieve, judge, at most one retry, synthesize, verify,
   * write the trace. Never throws for model failures, timeouts or weak evidence: the stop reason
   * says what happened. Cancel by interrupting the calling thread.
   *
   * @param listener progress events and answer tokens (may be {@code null})
   * @throws InvalidSearchException if the question has no searchable word; no trace is written
   * @throws IOException if the index cannot be read
   */
  public RunResult run(RunRequest request, RunListener listener) throws IOException {
    return runner.run(request, listener);
  }

  /**
   * An agent over {@code tools} (the surface's: brain's read tools, the worker tools, tools
   * imported from MCP servers) with {@code agent.*} of brain.yaml: budgets, allow/deny and hooks;
   * {@code deny} names more tools to deny. Its runs are saved in {@link #traces()}.
   */
  public BrainAgent agent(List<AgentTool> tools, Collection<String> deny) {
    return BrainAgent.of(this, tools, deny);
  }

  /**
   * The chat model of a spec ({@code ollama/<model>}, {@code openai/<model>}), opened on first use
   * with {@link ChatSettings#chatConfig()} and kept until {@link #close()}; {@code null} for {@code
   * null} or {@code extractive}.
   *
   * @throws dev.brain.models.chat.ChatException if the spec names no known provider or a hosted
   *     server that is not allowed
   */
  public ChatModel chatModel(String spec) {
    return models.get(spec);
  }

  /**
   * Researches a note and writes its {@code ## Research} section (brain's one explicit write path;
   * see {@link NoteResearcher}): topics by the configured chat model (deterministic without one),
   * the corpus and the configured web search per topic, a verified cited section written atomically
   * in place of an older one, the note re-indexed (not by a read-only brain: the result says so)
   * and a trace written. A dry run writes nothing.
   *
   * @throws dev.brain.research.note.NoteResearchException when the note is refused (not a text
   *     note, outside the collections), the model fails, the section cites what is not real, or the
   *     note changed during the run; nothing was written
   * @throws IOException if the note cannot be read or written
   * @throws InterruptedException if the calling thread is interrupted
   */
  public NoteResult researchNote(NoteRequest request) throws IOException, InterruptedException {
    return notes.research(request, chatModel(config.chat().model()));
  }

  /**
   * {@link #researchNote} without the chat model: deterministic topics and an extractive section
   * from the same evidence. What a surface falls back to when the configured model cannot be
   * reached ({@link dev.brain.research.note.NoteResearchException#modelUnreachable()}).
   */
  public NoteResult researchNoteWithoutModel(NoteRequest request)
      throws IOException, InterruptedException {
    return notes.research(request, null);
  }

  /**
   * The trace store of a configuration's data directory, without opening its index: {@code
   * <data>/research-runs} with the configured retention, redacting the configured API key.
   */
  public static TraceStore traces(BrainConfig config) {
    String key = config.chat().apiKey();
    return new TraceStore(
        config.dataDir(),
        Redactor.forDataRoot(config.dataDir(), key == null ? List.of() : List.of(key)),
        config.traces().retention());
  }

  /**
   * The trace store: {@code <data>/research-runs}, with the configured retention: {@code list()},
   * {@code find(runIdOrPrefix)}, {@code prune()}.
   */
  public TraceStore traces() {
    return traces;
  }

  /** A record by key, with its chunks, or empty when the index holds none. */
  public Optional<RecordDetail> get(String key) throws IOException {
    return index.get(key);
  }

  /**
   * The keys a text that is not a key may mean, best first (a path such as {@code home/Apartment
   * lease.md}, a title, a URL, a note key in the wrong collection), for "did you mean" when {@link
   * #get} finds none.
   */
  public List<String> keysFor(String text) throws IOException {
    return index.keysFor(text);
  }

  /**
   * What {@code brain get}, {@code GET /api/get} and MCP say when {@link #get} finds no record: "no
   * record with key 'K'", with the keys a path, title or URL may mean ("did you mean ...?"), or how
   * to find one when none matches.
   */
  public String noRecordMessage(String key) throws IOException {
    return NoRecordMessage.of(key, key.isBlank() ? List.of() : keysFor(key.strip()));
  }

  /**
   * The collection's topics and how they connect: the {@code topics} most used tags (at most
   * {@value CorpusMaps#MAX_TOPICS}) with co-occurring tags, most linked records, headings and
   * links, and the connections between them. Read-only.
   */
  public TopicMap topicMap(int topics) throws IOException {
    return CorpusMaps.topicMap(retriever, topics);
  }

  /**
   * Who and what the records name (tags, authors, sites, GitHub organisations and projects, named
   * subjects, linked records), most named first, at most {@code limit}; of one {@code type} when it
   * is not {@code null}. Read-only.
   */
  public EntityMap entities(String type, int limit) throws IOException {
    return CorpusMaps.entities(retriever, type, limit);
  }

  /**
   * One entity ({@code tag:coffee}, {@code person:Steven Levy}, a record key) with up to {@code
   * limit} records that name it, or empty when nothing is known by that id. Read-only.
   */
  public Optional<EntityMap.Named> entity(String id, int limit) throws IOException {
    return CorpusMaps.entity(retriever, id, limit);
  }

  /** Counts by kind, source type and tag, size on disk and the index metadata. */
  public IndexStats stats() throws IOException {
    return index.stats();
  }

  /** The index's metadata: its models, vector format and last sync. */
  public IndexMetadata metadata() {
    return index.metadata();
  }

  /**
   * Per collection of {@code brain.yaml} (and any other the index holds) what is indexed, how its
   * last sync went, its vector coverage, and whether a watcher follows the collections.
   */
  public IndexStatus indexStatus() throws IOException {
    return IndexStatus.of(index, collections(), CollectionWatcher.isWatching(config.indexConfig()));
  }

  /**
   * The status of {@code config}'s data directory while its index has no commit, without opening
   * it: nothing was indexed yet, or the first {@code brain index} still runs or was killed before
   * its first commit. The configured collections are listed, never synced. Empty once the index has
   * a commit: open a brain for its {@link #indexStatus()}.
   */
  public static Optional<IndexStatus> statusBeforeFirstCommit(BrainConfig config)
      throws IOException {
    return Backends.statusBeforeFirstCommit(config);
  }

  /**
   * The collections of {@code brain.yaml} as they are now (read on each call: {@code brain add} and
   * {@code brain remove} change the file while a brain is open).
   *
   * @throws IOException if the file cannot be read
   */
  public List<CollectionRoot> collections() throws IOException {
    return CollectionsFile.of(config.dataDir()).read();
  }

  /** The status of this brain. */
  public BrainStatus status() throws IOException {
    return BrainStatus.of(config, index.stats(), readOnly);
  }

  /**
   * Moves a read-only brain to the latest commit of the writer that shares its index.
   *
   * @return whether the view changed
   */
  public boolean refresh() throws IOException {
    return index.refresh();
  }

  /** Closes the chat models and the index. */
  @Override
  public void close() throws IOException {
    try {
      models.close();
    } finally {
      index.close();
    }
  }
}
