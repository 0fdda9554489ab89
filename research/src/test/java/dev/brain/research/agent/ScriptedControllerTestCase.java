package dev.brain.research.agent;

import dev.brain.models.chat.ChatModel;
import dev.brain.models.chat.ChatModels;
import dev.brain.models.chat.FakeOpenAiServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/**
 * Base of the agent loop's tests: a tool-calling controller model over a fake OpenAI-compatible
 * server, fresh for each test. A test enqueues the controller's turns on {@link #controller} and
 * hands {@link #model} to an {@link AgentController}.
 */
abstract class ScriptedControllerTestCase {
  /** The fake model server; its queued responses are the controller's turns. */
  FakeOpenAiServer controller;

  /** The controller model, {@code openai/controller-test}, talking to {@link #controller}. */
  ChatModel model;

  @BeforeEach
  void startController() {
    controller = FakeOpenAiServer.start();
    model = ChatModels.open("openai/controller-test", controller.config());
  }

  @AfterEach
  void stopController() {
    model.close();
    controller.close();
  }
}
