/**
 * brain's models: embedding models (ONNX Runtime with DJL's tokenizers) and chat-model providers.
 * Both packages are API: the door ({@code dev.brain.Brain}) hands out chat models and embedders.
 *
 * <p>ONNX Runtime and DJL's tokenizers are automatic modules with a stable name (the {@code
 * Automatic-Module-Name} of their manifests), not one derived from a file name; javac warns about
 * every automatic module all the same, hence the suppression.
 */
@SuppressWarnings("requires-automatic")
module dev.brain.models {
  requires java.net.http;
  requires com.fasterxml.jackson.databind;
  requires com.microsoft.onnxruntime;
  requires ai.djl.tokenizers;

  exports dev.brain.models;
  exports dev.brain.models.chat;
}
