package dev.brain.retrieval;

import dev.brain.index.IndexFields;
import java.io.IOException;
import java.util.List;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.document.IntField;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause.Occur;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.BoostQuery;
import org.apache.lucene.search.ConstantScoreQuery;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.QueryRescorer;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.search.similarities.BM25Similarity;
import org.apache.lucene.util.QueryBuilder;

/**
 * The lexical lane: BM25 over chunk documents. A chunk scores on its text, its heading path and its
 * record's title and aliases (denormalized onto every chunk), each with a field boost (aliases
 * count like the title); multi-word queries get a sloppy phrase bonus on the text; query words that
 * are user tags of the record get a constant bonus.
 *
 * <p>Two passes: the candidates (top {@code depth} by the first pass) are the chunks whose text,
 * heading or aliases match, ranked by those clauses, and after them the first chunk of each record
 * whose title or tags alone match (a constant, tiny first-pass score); then each candidate gets its
 * full score (title, phrase and tag clauses added) and the candidates are re-sorted. So a word
 * found only in a note's title or tags finds the note. The title and tags sit on every chunk of
 * their record, but one candidate per record is enough for a match of the record alone: a long note
 * whose title matches fills no more of the depth than a short one, and a chunk that also matches by
 * its text still competes by its text, as before. Where no title or tag matches, the candidates and
 * their order are what the text, heading and alias clauses alone give.
 */
final class Bm25Lane {

  /**
   * The lane's tuning.
   *
   * @param k1 BM25 term-frequency saturation
   * @param b BM25 length normalization
   * @param titleBoost weight of title (and alias) matches relative to text matches
   * @param headingBoost weight of heading matches
   * @param phraseBoost weight of the sloppy phrase query over the text (multi-word queries only)
   * @param phraseSlop positions the phrase's words may move
   * @param tagBoost constant bonus when a tag alias of the query is a tag of the record
   */
  record Params(
      float k1,
      float b,
      float titleBoost,
      float headingBoost,
      float phraseBoost,
      int phraseSlop,
      float tagBoost) {

    /** Chosen on BEIR SciFact; see the module README. */
    static final Params DEFAULTS = new Params(0.9f, 0.4f, 0.4f, 0.5f, 0.5f, 2, 2.0f);
  }

  private final Params params;
  private final BM25Similarity similarity;
  private final QueryBuilder builder;
  private volatile IndexSearcher last;

  Bm25Lane(Analyzer analyzer, Params params) {
    this.params = params;
    this.similarity = new BM25Similarity(params.k1(), params.b());
    this.builder = new QueryBuilder(analyzer);
  }

  /**
   * The scoring part of the lane's query (no filters), or {@code null} if nothing is searchable.
   */
  Query scoringQuery(QueryText query) {
    var should = new BooleanQuery.Builder();
    int clauses = 0;
    clauses += add(should, words(IndexFields.TEXT, query), 1f);
    clauses += add(should, words(IndexFields.TITLE, query), params.titleBoost());
    clauses += add(should, words(IndexFields.HEADING, query), params.headingBoost());
    clauses += add(should, words(IndexFields.ALIASES, query), params.titleBoost());
    if (clauses == 0) {
      return null;
    }
    if (query.sequence().size() > 1) {
      add(
          should,
          builder.createPhraseQuery(IndexFields.TEXT, query.searchText(), params.phraseSlop()),
          params.phraseBoost());
    }
    if (!query.tagAliases().isEmpty()) {
      add(
          should,
          new ConstantScoreQuery(Filters.anyOf(IndexFields.TAGS, query.tagAliases())),
          params.tagBoost());
    }
    return should.build();
  }

  /** The query's words as a disjunction of term queries on {@code field}; null if none. */
  private Query words(String field, QueryText query) {
    return builder.createBooleanQuery(field, query.searchText());
  }

  private static int add(BooleanQuery.Builder b, Query q, float boost) {
    if (q == null || boost <= 0) {
      return 0;
    }
    b.add(boost == 1f ? q : new BoostQuery(q, boost), Occur.SHOULD);
    return 1;
  }

  /**
   * The first pass: chunks whose text, heading or aliases match, each clause with its weight in
   * {@link #scoringQuery}, and the first chunk of each record whose title or tags match, with a
   * tiny constant score. Text and headings exist only on chunk documents; aliases, title and tags
   * are also on records, so their clauses are kept to chunks.
   */
  Query candidateQuery(QueryText query) {
    var should = new BooleanQuery.Builder();
    int clauses = addTextClauses(should, query);
    // A record's title and tags make its first chunk a candidate, with a score too small to move
    // a chunk its text made one: the first pass keeps ranking by text, so the depth cut is what it
    // was, and a record found by its title alone comes last. Its full score, title and tag clauses
    // included, is given by the second pass, as to every candidate.
    clauses += add(should, within(onlyMatch(words(IndexFields.TITLE, query)), FIRST_CHUNK), 1f);
    if (!query.tagAliases().isEmpty()) {
      clauses +=
          add(
              should,
              within(onlyMatch(Filters.anyOf(IndexFields.TAGS, query.tagAliases())), FIRST_CHUNK),
              1f);
    }
    return clauses == 0 ? null : should.build();
  }

  /**
   * The chunks whose text, heading or aliases match: what the lane counts as its matches (a record
   * found by its title or tags alone is a candidate, not a text match).
   */
  private Query textQuery(QueryText query) {
    var should = new BooleanQuery.Builder();
    return addTextClauses(should, query) == 0 ? null : should.build();
  }

  private int addTextClauses(BooleanQuery.Builder should, QueryText query) {
    int clauses = 0;
    clauses += add(should, words(IndexFields.TEXT, query), 1f);
    clauses += add(should, words(IndexFields.HEADING, query), params.headingBoost());
    clauses +=
        add(should, within(words(IndexFields.ALIASES, query), Filters.CHUNKS), params.titleBoost());
    return clauses;
  }

  /**
   * The first chunk of every record (ordinal 0, which only chunks have): where a match of the
   * record's own fields (title, tags) makes it a candidate, once.
   */
  private static final Query FIRST_CHUNK = IntField.newExactQuery(IndexFields.ORDINAL, 0);

  /**
   * The first-pass score of a match by a record's title or tags alone: far below any text match's
   * score, so such a candidate never moves one the text found.
   */
  private static final float ONLY_MATCH = 1e-4f;

  /** {@code q} as a constant, tiny score ({@link #ONLY_MATCH}); null if {@code q} is. */
  private static Query onlyMatch(Query q) {
    return q == null ? null : new BoostQuery(new ConstantScoreQuery(q), ONLY_MATCH);
  }

  /** {@code q} restricted to documents passing {@code filter}; null if {@code q} is. */
  private static Query within(Query q, Query filter) {
    return q == null
        ? null
        : new BooleanQuery.Builder().add(q, Occur.MUST).add(filter, Occur.FILTER).build();
  }

  /** The top {@code depth} chunks for the query among chunks passing {@code filter}. */
  LaneHits search(IndexSearcher shared, QueryText query, Query filter, int depth)
      throws IOException {
    return search(shared, query, scoringQuery(query), filter, depth);
  }

  /**
   * As {@link #search(IndexSearcher, QueryText, Query, int)}, with the query's {@link
   * #scoringQuery} already built (the retriever reuses it to pick rows' best chunks).
   */
  LaneHits search(IndexSearcher shared, QueryText query, Query scoring, Query filter, int depth)
      throws IOException {
    Query candidates = candidateQuery(query);
    if (scoring == null || candidates == null) {
      return LaneHits.used(Lane.BM25, List.of(), 0, "the query has no searchable words");
    }
    if (filter != null) {
      candidates =
          new BooleanQuery.Builder().add(candidates, Occur.MUST).add(filter, Occur.FILTER).build();
    }
    IndexSearcher searcher = searcher(shared.getIndexReader());
    TopDocs first = searcher.search(candidates, depth);
    TopDocs top = new FullScore(scoring).rescore(searcher, first, depth);
    List<Hit> hits = ParentKeys.hits(searcher, top.scoreDocs, score -> score);
    return LaneHits.used(Lane.BM25, hits, first.totalHits.value(), null);
  }

  /**
   * The lane's text matches, all of them ({@link #textQuery}: chunks whose text, heading or aliases
   * match), counted exactly. A single word on an index without deletions that occurs in chunk text
   * only is answered from the term dictionary ({@link IndexReader#docFreq}) without walking
   * postings.
   */
  long matches(IndexSearcher searcher, QueryText query) throws IOException {
    Query candidates = textQuery(query);
    if (candidates == null) {
      return 0;
    }
    IndexReader reader = searcher.getIndexReader();
    if (query.terms().size() == 1 && !reader.hasDeletions()) {
      String term = query.terms().keySet().iterator().next();
      if (reader.docFreq(new Term(IndexFields.HEADING, term)) == 0
          && reader.docFreq(new Term(IndexFields.ALIASES, term)) == 0) {
        return reader.docFreq(new Term(IndexFields.TEXT, term));
      }
    }
    return searcher.count(candidates);
  }

  /**
   * The distinct records among the top {@code depth} candidates passing {@code filter}: what {@link
   * #search} would return, counted without its re-scoring (which reorders the same chunks).
   */
  int records(IndexSearcher shared, QueryText query, Query filter, int depth) throws IOException {
    Query candidates = candidateQuery(query);
    if (candidates == null) {
      return 0;
    }
    if (filter != null) {
      candidates =
          new BooleanQuery.Builder().add(candidates, Occur.MUST).add(filter, Occur.FILTER).build();
    }
    IndexSearcher searcher = searcher(shared.getIndexReader());
    TopDocs first = searcher.search(candidates, depth);
    var keys = new java.util.HashSet<String>();
    ParentKeys.hits(searcher, first.scoreDocs, score -> score).forEach(h -> keys.add(h.key()));
    return keys.size();
  }

  /** Replaces a candidate's first-pass score with its score under the full query. */
  private static final class FullScore extends QueryRescorer {
    FullScore(Query scoring) {
      super(scoring);
    }

    @Override
    protected float combine(float firstPassScore, boolean secondPassMatches, float secondPass) {
      return secondPassMatches ? secondPass : firstPassScore;
    }
  }

  /**
   * A searcher over the same reader with this lane's BM25 parameters, made once per reader (the
   * last one is kept: searches of one searcher generation share it).
   */
  IndexSearcher searcher(IndexReader reader) {
    IndexSearcher searcher = last;
    if (searcher == null || searcher.getIndexReader() != reader) {
      searcher = new IndexSearcher(reader);
      searcher.setSimilarity(similarity);
      last = searcher;
    }
    return searcher;
  }
}
