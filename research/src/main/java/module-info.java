/**
 * brain's research layer: plans, evidence packs, synthesis, runs, traces, note research and the
 * agent loop. See the module README for what each package holds.
 *
 * <p>OpenNLP's tools and its English part-of-speech model are automatic modules (the model's name
 * comes from its file name); javac warns about every automatic module, hence the suppression.
 */
@SuppressWarnings("requires-automatic")
module dev.brain.research {
  requires transitive dev.brain.retrieval;
  requires java.net.http;
  requires com.fasterxml.jackson.annotation;
  requires com.fasterxml.jackson.core;
  requires transitive com.fasterxml.jackson.databind;
  requires com.fasterxml.jackson.datatype.jsr310;
  requires com.fasterxml.jackson.dataformat.toml;
  requires com.networknt.schema;
  requires org.jsoup;
  requires org.apache.opennlp.tools;
  requires opennlp.models.pos.en;

  exports dev.brain.research;
  exports dev.brain.research.note;
  exports dev.brain.research.pack;
  exports dev.brain.research.plan;
  exports dev.brain.research.run;
  exports dev.brain.research.synthesis;
  exports dev.brain.research.trace;
  exports dev.brain.research.agent;
  exports dev.brain.research.json to
      dev.brain.server;
}
