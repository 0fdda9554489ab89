package dev.brain.index;

import dev.brain.chunking.Chunk;
import java.util.List;

/**
 * One record as stored, for {@code brain get}: the record (with its raw text, summary and links),
 * its chunks in ordinal order, its backlinks, and where each of its links leads.
 *
 * @param record the record exactly as imported
 * @param chunks the record's chunks, ordered by ordinal (summary chunks after the text's)
 * @param backlinks keys of the records whose links reach this record, sorted
 * @param links the record's links in its order, each with the record it reaches or why none; one
 *     that reaches the record itself (a bookmark's own address) is left out
 */
public record RecordDetail(
    CorpusRecord record, List<Chunk> chunks, List<String> backlinks, List<Link> links) {
  public RecordDetail {
    chunks = List.copyOf(chunks);
    backlinks = List.copyOf(backlinks);
    links = List.copyOf(links);
  }

  /**
   * A record from a store that does not resolve links (SolrCloud): each link is listed as the key
   * it names, unchecked.
   */
  public RecordDetail(CorpusRecord record, List<Chunk> chunks, List<String> backlinks) {
    this(
        record,
        chunks,
        backlinks,
        record.links().stream().map(k -> new Link(k, k, null, null)).toList());
  }

  /** The keys of the records the links reach, in link order, without repeats. */
  public List<String> linkedKeys() {
    return links.stream().map(Link::target).filter(k -> k != null).distinct().toList();
  }

  /** The links that reach no record. */
  public List<Link> unresolvedLinks() {
    return links.stream().filter(l -> l.target() == null).toList();
  }

  /**
   * One link of a record.
   *
   * @param key the key the link names, as stored
   * @param target the key of the record it reaches (the same key, the bookmark of the address a
   *     {@code src:} link names, a note of that name in another collection), or null when none
   * @param text what the note names for an unresolved link (the wikilink's name, the web address),
   *     else null
   * @param unresolved why the link reaches no record, or null when it reaches one
   */
  public record Link(String key, String target, String text, String unresolved) {}
}
