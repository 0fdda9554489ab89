package dev.brain.server.chat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Instant;
import java.util.List;

/**
 * A saved Chat conversation, {@code brain_conversation.v1}: its id (a run-id-shaped name, so files
 * sort by creation), a title, when it was created and last saved, and its turns as the Chat keeps
 * them (each an object with at least {@code question}; the Chat also keeps {@code id}, {@code
 * mode}, {@code status}, {@code answer}, {@code answerStatus}, {@code citations}, {@code pack}, ...
 * — what it needs to draw the turn again, and what {@code CaseProposal.fromConversation} reads).
 *
 * @param schemaVersion {@value ConversationStore#SCHEMA_VERSION}
 * @param id the conversation's id, its file's name without {@code .json}
 * @param title a name for lists: the first question unless renamed
 * @param createdAt when it was first saved
 * @param updatedAt when it was last saved or renamed
 * @param turns the turns, oldest first
 */
public record Conversation(
    String schemaVersion,
    String id,
    String title,
    Instant createdAt,
    Instant updatedAt,
    List<ObjectNode> turns) {

  /** What a listing shows of it. */
  public Summary summary() {
    return new Summary(id, title, createdAt, updatedAt, turns.size());
  }

  /**
   * A conversation in a listing.
   *
   * @param id its id
   * @param title its title
   * @param createdAt when it was first saved
   * @param updatedAt when it was last saved or renamed
   * @param turns how many turns it holds
   */
  public record Summary(String id, String title, Instant createdAt, Instant updatedAt, int turns) {}
}
