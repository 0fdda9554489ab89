package dev.brain.server.mcp;

import dev.brain.research.pack.ResearchOptions;
import io.modelcontextprotocol.server.McpServerFeatures.SyncPromptSpecification;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.List;

/** The {@code brain_research} prompt: how an agent should research a question with brain. */
final class BrainPrompt {
  private BrainPrompt() {}

  static final String NAME = "brain_research";

  static SyncPromptSpecification specification() {
    var prompt =
        McpSchema.Prompt.builder(NAME)
            .title("Research with brain")
            .description(
                "Answer a question from the user's own corpus with brain's tools, citing exact"
                    + " record keys.")
            .arguments(
                List.of(
                    McpSchema.PromptArgument.builder("question")
                        .title("Question")
                        .description("The question to research.")
                        .required(true)
                        .build()))
            .build();
    return new SyncPromptSpecification(
        prompt,
        (exchange, request) -> {
          Object question =
              request.arguments() == null ? null : request.arguments().get("question");
          if (!(question instanceof String q) || q.isBlank()) {
            throw McpError.builder(McpSchema.ErrorCodes.INVALID_PARAMS)
                .message("brain_research needs a non-empty 'question' argument")
                .build();
          }
          if (q.strip().length() > ResearchOptions.MAX_QUESTION_CHARS) {
            throw McpError.builder(McpSchema.ErrorCodes.INVALID_PARAMS)
                .message(
                    "brain_research takes a question of at most "
                        + ResearchOptions.MAX_QUESTION_CHARS
                        + " characters")
                .build();
          }
          return McpSchema.GetPromptResult.builder(
                  List.of(
                      new McpSchema.PromptMessage(
                          McpSchema.Role.USER,
                          McpSchema.TextContent.builder(text(q.strip())).build())))
              .description("Research \"" + q.strip() + "\" with brain")
              .build();
        });
  }

  static String text(String question) {
    return """
        Research this question in my own corpus with the brain tools, then answer it.

        Question: %s

        1. Call brain_research_pack with the question first. Read its coverage, missing
           concepts, recall note and next steps, not only the rows.
        2. Inspect the strongest rows before relying on them: brain_get_many on their
           source_key values (content "evidence", query = the question), or brain_get with
           content "full" for one record you need whole. Follow links with brain_related when
           the rows point elsewhere; use brain_search for a narrower follow-up.
        3. Answer only from what the tools returned. Cite every material claim with the exact
           record key in brackets, e.g. [note:notes/coffee/espresso.md] or [src:0123456789ab], and
           never invent a key. Keep my own notes apart from third-party sources, and raw text
           apart from derived summaries.
        4. When the evidence is weak, partial or missing, say so plainly and say what was
           searched; the evidence is a capped working set, not the whole corpus. Add no outside
           knowledge unless I ask for it, and mark it as such.
        """
        .formatted(question);
  }
}
