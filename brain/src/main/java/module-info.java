/**
 * brain's front door: {@code dev.brain.Brain} and the configuration it opens a data directory with.
 * The library's API is this package and the packages its signatures hand across (their modules are
 * required transitively; javac's exports check keeps the two in step).
 */
module dev.brain {
  requires transitive dev.brain.research;
  requires transitive dev.brain.solr;
  requires io.helidon.common.media.type;
  requires io.helidon.config;
  requires io.helidon.config.yaml;
  requires org.yaml.snakeyaml;

  exports dev.brain;
}
