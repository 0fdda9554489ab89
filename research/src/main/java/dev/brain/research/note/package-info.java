/**
 * Note research ({@code brain note research}): brain's one explicit write path. {@link
 * dev.brain.research.note.NoteResearcher} reads a note inside a configured collection, extracts up
 * to ten topics (with a chat model, or deterministically from headings, key phrases, tags and
 * links), researches each against the corpus (and a configured web search endpoint) on a bounded
 * pool, synthesizes a cited {@code ## Research} section (with the model, or extractively), checks
 * every wikilink and URL in it, and writes it back atomically, replacing an older one and leaving
 * every other byte of the note as it was.
 *
 * <p>The index tells brain's own, marked section from the user's text with {@link
 * dev.brain.chunking.BrainWritten}, whose marker strings the package-private {@code
 * ResearchSection} writes.
 *
 * <p>Package-private machinery: {@code NoteFile} (path checks, reading, the atomic write), {@code
 * TopicExtractor} and {@code ModelTopics} (topics), {@code TopicResearch} with {@code WebSearch}
 * (gathering), {@code SectionSynthesis} and {@code SectionCheck} (the section), {@code NoteTrace}
 * (the trace).
 */
package dev.brain.research.note;
