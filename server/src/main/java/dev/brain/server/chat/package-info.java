/**
 * Saved Chat conversations: {@code <data>/chat-transcripts/<id>.json}, one file per conversation,
 * written atomically and redacted like the traces, and their shareable exports (Markdown and JSON)
 * that carry no secrets, no absolute paths and no rejected drafts.
 *
 * <p>{@link dev.brain.server.chat.ConversationStore} is the entry (list, find, save, rename,
 * delete); {@link dev.brain.server.chat.Conversation} is the file's shape; {@link
 * dev.brain.server.chat.ConversationExport} renders a conversation to share. The web Chat writes
 * through the HTTP API; {@code brain chat} reads the files directly.
 */
package dev.brain.server.chat;
