package dev.brain;

import dev.brain.models.chat.ChatConfig;
import dev.brain.models.chat.ChatModels;
import java.net.URI;
import java.util.Map;

/**
 * {@code chat.*}: the chat model of the planner and the answer, read by the CLI and the server
 * alike, and where model servers are. The API key is read from the environment only ({@code
 * BRAIN_OPENAI_API_KEY}, else {@code OPENAI_API_KEY}) and never shown.
 *
 * @param model {@code extractive} (default: built in, deterministic, no planner), {@code
 *     ollama/<model>} or {@code openai/<model>}. Env {@code BRAIN_MODEL}
 * @param plannerModel the planner's model when it should differ; default: {@code model}. Env {@code
 *     BRAIN_PLANNER_MODEL}
 * @param ollamaUrl default {@value ChatConfig#DEFAULT_OLLAMA_URL}. Env {@code BRAIN_OLLAMA_URL}
 * @param openAiUrl default {@value ChatConfig#DEFAULT_OPENAI_URL}. Env {@code BRAIN_OPENAI_URL}
 * @param allowHosted whether a non-loopback model server may be used; default false. Env {@code
 *     BRAIN_ALLOW_HOSTED}
 * @param apiKey the API key of an OpenAI-compatible server, or {@code null}
 * @param saveTraces whether a question asked without saying is traced under {@code
 *     <data>/research-runs}: the initial state of the web Chat's "don't save this question" switch
 *     (off when true) and the default of {@code trace} in {@code POST /api/research/run}; default
 *     true
 */
public record ChatSettings(
    String model,
    String plannerModel,
    URI ollamaUrl,
    URI openAiUrl,
    boolean allowHosted,
    String apiKey,
    boolean saveTraces) {

  /** This section with another chat model spec (planner and answer). */
  public ChatSettings withModel(String value) {
    return new ChatSettings(
        ConfigValues.chatModel(value),
        plannerModel,
        ollamaUrl,
        openAiUrl,
        allowHosted,
        apiKey,
        saveTraces);
  }

  /**
   * This section with another planner model spec ({@code extractive}: the deterministic planner;
   * {@code null}: the chat model).
   */
  public ChatSettings withPlannerModel(String value) {
    return new ChatSettings(
        model,
        value == null ? null : ConfigValues.chatModel(value),
        ollamaUrl,
        openAiUrl,
        allowHosted,
        apiKey,
        saveTraces);
  }

  /** This section with the model servers of {@code value} (URLs, hosted use, API key). */
  public ChatSettings withServers(ChatConfig value) {
    return new ChatSettings(
        model,
        plannerModel,
        value.ollamaUrl(),
        value.openAiUrl(),
        value.allowHosted(),
        value.apiKey(),
        saveTraces);
  }

  /** This section with questions traced by default ({@code true}) or not. */
  public ChatSettings withSaveTraces(boolean value) {
    return new ChatSettings(model, plannerModel, ollamaUrl, openAiUrl, allowHosted, apiKey, value);
  }

  /** The model servers' settings. */
  public ChatConfig chatConfig() {
    return ChatConfig.defaults()
        .withOllamaUrl(ollamaUrl)
        .withOpenAiUrl(openAiUrl)
        .withAllowHosted(allowHosted)
        .withApiKey(apiKey);
  }

  /** The planner's model spec, or {@code null} for the deterministic planner. */
  public String plannerSpec() {
    if (plannerModel != null) {
      return ChatModels.isExtractive(plannerModel) ? null : plannerModel;
    }
    return ChatModels.isExtractive(model) ? null : model;
  }

  @Override
  public String toString() {
    return "Chat[model="
        + model
        + ", plannerModel="
        + plannerModel
        + ", saveTraces="
        + saveTraces
        + ", apiKey=(redacted)]";
  }

  /** The {@code chat.*} values of {@code r}: flag, environment, file or default. */
  static ChatSettings read(ConfigReader r, Map<String, String> env) {
    String allowed = "extractive, ollama/<model>, openai/<model>";
    String url = "an http:// or https:// URL";
    var d = ChatConfig.defaults();
    String model =
        r.checked(
            "chat.model", "BRAIN_MODEL", ChatModels.EXTRACTIVE, ConfigValues::chatModel, allowed);
    String planner =
        r.checked(
            "chat.planner-model", "BRAIN_PLANNER_MODEL", null, ConfigValues::chatModel, allowed);
    String ollama =
        r.checked(
            "chat.ollama-url",
            ChatConfig.ENV_OLLAMA_URL,
            d.ollamaUrl().toString(),
            ConfigValues::httpUrl,
            url);
    String openAi =
        r.checked(
            "chat.openai-url",
            ChatConfig.ENV_OPENAI_URL,
            d.openAiUrl().toString(),
            ConfigValues::httpUrl,
            url);
    boolean hosted = r.bool("chat.allow-hosted", ChatConfig.ENV_ALLOW_HOSTED, false);
    boolean saveTraces = r.bool("chat.save-traces", null, true);
    String key = env.get(ChatConfig.ENV_OPENAI_API_KEY);
    if (key == null || key.isBlank()) {
      key = env.get(ChatConfig.ENV_OPENAI_API_KEY_FALLBACK);
    }
    return new ChatSettings(
        model, planner, URI.create(ollama), URI.create(openAi), hosted, key, saveTraces);
  }
}
