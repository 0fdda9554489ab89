/**
 * Local embedding models: text to L2-normalized vectors with ONNX Runtime and a HuggingFace
 * tokenizer, on this machine.
 *
 * <p>API: {@link dev.brain.models.Embedder} (open, preload, embed passages and queries), run as
 * {@link dev.brain.models.EmbedderOptions} say, and {@link dev.brain.models.EmbeddingModel}, the
 * identity and dimension the index records. The ONNX session, pooling, the extracted model file and
 * the one background preload per process are package-private.
 */
package dev.brain.models;
