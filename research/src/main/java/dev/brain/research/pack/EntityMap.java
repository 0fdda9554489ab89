package dev.brain.research.pack;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;

/**
 * Who and what the collection's records name: its user tags, the people who wrote them (authors),
 * the sites, GitHub organisations and projects of their URLs, notes with aliases (named subjects)
 * and the records its records link to (wikilink targets), each with how many records name it.
 * Derived from the metadata the index keeps, never from model output.
 *
 * @param recordsRead records whose metadata was read (those carrying the most used tags, at most
 *     {@link CorpusMaps#MAX_READS})
 * @param complete whether every record of the collection was read; when not, a record carrying none
 *     of the most used tags names nothing here
 * @param entities the entities, most named first
 */
public record EntityMap(
    @JsonProperty("records_read") int recordsRead, boolean complete, List<Entity> entities) {

  public EntityMap {
    entities = List.copyOf(entities);
  }

  /**
   * A named thing.
   *
   * @param id {@code <type>:<name>} ({@code tag:coffee}, {@code person:Steven Levy}), or the record
   *     key for a linked record
   * @param name its name
   * @param type {@code tag}, {@code person}, {@code site}, {@code org}, {@code project}, {@code
   *     subject} or {@code record}
   * @param aliases other names (a subject note's aliases)
   * @param records how many records name it (for a tag: carry it)
   * @param sourceKeys the first records that name it (at most {@link CorpusMaps#KEYS_PER_ENTITY})
   */
  public record Entity(
      String id,
      String name,
      String type,
      List<String> aliases,
      long records,
      @JsonProperty("source_keys") List<String> sourceKeys) {
    public Entity {
      aliases = List.copyOf(aliases);
      sourceKeys = List.copyOf(sourceKeys);
    }
  }

  /**
   * One entity with the records that name it.
   *
   * @param entity the entity
   * @param records the records naming it, at most the limit asked for
   * @param total how many records name it
   * @param relation how those records relate to it ({@code tagged}, {@code authored_by}, {@code
   *     hosted_on}, {@code owned_by}, {@code about}, {@code links_to})
   */
  public record Named(
      Entity entity, List<TopicMap.RecordRef> records, long total, String relation) {
    public Named {
      records = List.copyOf(records);
    }
  }
}
