/**
 * brain's benchmarks: JMH benchmarks of search, embedding, indexing, vector formats and research
 * packs, the non-JMH scale and backend curves, and {@link dev.brain.bench.Prepare}, which builds
 * the caches they read.
 *
 * <p>Nothing here is API: the benchmark and {@code main} classes are public because JMH and {@code
 * bench/run} start them; the data readers, synthetic corpus and embedders and the index tools are
 * package-private.
 */
package dev.brain.bench;
