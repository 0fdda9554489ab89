package dev.brain;

import dev.brain.models.chat.ChatConfig;
import dev.brain.models.chat.ChatModel;
import dev.brain.models.chat.ChatModels;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The chat models a {@link Brain} has opened, one per spec, opened on first use with the configured
 * model servers and closed with the brain. Thread-safe.
 */
final class ChatModelCache implements AutoCloseable {
  private final ChatConfig servers;
  private final Map<String, ChatModel> models = new ConcurrentHashMap<>();

  ChatModelCache(ChatConfig servers) {
    this.servers = servers;
  }

  /**
   * The model of {@code spec}, opened now if it is the first use; {@code null} for {@code null} or
   * {@code extractive}.
   *
   * @throws dev.brain.models.chat.ChatException if the spec names no known provider or a hosted
   *     server that is not allowed
   */
  ChatModel get(String spec) {
    if (spec == null || ChatModels.isExtractive(spec)) {
      return null;
    }
    return models.computeIfAbsent(spec, s -> ChatModels.open(s, servers));
  }

  @Override
  public void close() {
    models.values().forEach(ChatModel::close);
  }
}
