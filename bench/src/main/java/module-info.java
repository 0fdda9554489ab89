/**
 * brain's benchmarks (JMH) and their report. Exports nothing: {@code benchmarks.jar} runs them from
 * the class path.
 *
 * <p>JMH and SolrJ have no module name of their own (no module-info, no {@code
 * Automatic-Module-Name}): they stay on the class path, and this module reads the class path
 * ({@code --add-reads dev.brain.bench=ALL-UNNAMED} in the pom) instead of requiring names derived
 * from file names. XChart is an automatic module with a stable name (its manifest's {@code
 * Automatic-Module-Name}); javac warns about every automatic module all the same, hence the
 * suppression.
 */
@SuppressWarnings("requires-automatic")
module dev.brain.bench {
  requires dev.brain.research;
  requires dev.brain.solr;
  requires java.desktop;
  requires com.fasterxml.jackson.databind;
  requires org.knowm.xchart;
}
