/**
 * Chat models behind one streaming interface: Ollama's native API ({@code ollama/<model>}) and any
 * OpenAI-compatible server ({@code openai/<model>}), refused on a non-loopback host unless hosted
 * use is allowed.
 *
 * <p>API: {@link dev.brain.models.chat.ChatModels} opens a {@link dev.brain.models.chat.ChatModel}
 * by its spec with a {@link dev.brain.models.chat.ChatConfig}; a {@link
 * dev.brain.models.chat.ChatRequest} of {@link dev.brain.models.chat.ChatMessage}s streams to a
 * {@link dev.brain.models.chat.ChatListener} and ends in a {@link
 * dev.brain.models.chat.ChatResponse} or a {@link dev.brain.models.chat.ChatException}. The two
 * providers, their wire formats (NDJSON, server-sent events), the body stream and the hosted guard
 * are package-private.
 */
package dev.brain.models.chat;
