package dev.brain.research.note;

/**
 * A topic of a note worth researching.
 *
 * @param topic a short label, used as the search question
 * @param context what the note says about it
 * @param type {@code claim}, {@code concept} or {@code question}
 */
public record Topic(String topic, String context, String type) {}
