package dev.brain.server.http;

import dev.brain.research.pack.ResearchPack;
import dev.brain.research.synthesis.SynthesisOptions;

/**
 * The body of {@code POST /api/research/synthesize}: a whole research pack, exactly as {@code POST
 * /api/research} returned it, to answer from. Stateless: the server keeps no packs.
 *
 * @param question the question; default the pack's
 * @param researchPack the {@code research_pack.v1} to answer from (required)
 * @param model {@code extractive}, {@code ollama/<model>} or {@code openai/<model>}; {@code ""} or
 *     absent: the server's {@code chat.model}. The {@code start} and {@code done} events name the
 *     model that answered
 * @param maxEvidenceChars the evidence budget; default 24,000
 */
record SynthesizeRequest(
    String question, ResearchPack researchPack, String model, Integer maxEvidenceChars) {

  SynthesisOptions options() {
    var o = SynthesisOptions.defaults();
    return maxEvidenceChars == null ? o : o.withMaxEvidenceChars(maxEvidenceChars);
  }
}
