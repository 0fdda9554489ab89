/**
 * brain's evals: answer, document-answer, research and BEIR evaluations over a brain index. Not
 * API: the {@code brain eval} commands of the server module run them.
 */
module dev.brain.evals {
  requires dev.brain;
  requires com.fasterxml.jackson.annotation;
  requires com.fasterxml.jackson.core;
  requires com.fasterxml.jackson.databind;

  exports dev.brain.evals to
      dev.brain.server;
}
