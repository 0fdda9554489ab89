package dev.brain.research;

import dev.brain.models.chat.ChatException;
import dev.brain.models.chat.ChatListener;
import dev.brain.models.chat.ChatModel;
import dev.brain.models.chat.ChatRequest;
import dev.brain.models.chat.ChatResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A chat model for research-level tests: answers every request with a canned text (streamed to the
 * listener word by word) or fails with a canned {@link ChatException}, and records the requests.
 * Wire formats are the provider tests' business; here only the research behaviour is under test.
 */
final class ScriptedChatModel implements ChatModel {

  private final String id;
  private final String answer;
  private final ChatException failure;
  final List<ChatRequest> requests = new CopyOnWriteArrayList<>();

  private ScriptedChatModel(String id, String answer, ChatException failure) {
    this.id = id;
    this.answer = answer;
    this.failure = failure;
  }

  /** A model that answers {@code answer} to everything. */
  static ScriptedChatModel answering(String answer) {
    return new ScriptedChatModel("ollama/scripted", answer, null);
  }

  /** A model whose every call fails with {@code kind}. */
  static ScriptedChatModel failing(ChatException.Kind kind, String message) {
    return new ScriptedChatModel("ollama/scripted", null, new ChatException(kind, message));
  }

  @Override
  public String id() {
    return id;
  }

  @Override
  public ChatResponse chat(ChatRequest request, ChatListener listener) throws ChatException {
    requests.add(request);
    if (failure != null) {
      throw failure;
    }
    var tokens = new ArrayList<String>();
    for (String word : answer.split("(?<= )")) {
      tokens.add(word);
      listener.onToken(word);
    }
    return new ChatResponse(String.join("", tokens), List.of(), "scripted", 10, tokens.size());
  }

  @Override
  public void close() {}
}
