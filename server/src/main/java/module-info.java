/**
 * brain's surfaces: the {@code brain} command line, the HTTP server and the MCP server, all through
 * the door ({@code dev.brain.Brain}). An application, not a library: it exports nothing. {@code
 * brain.jar} runs it from the class path, so this declaration is the compile-time boundary (what
 * the server may reach in other modules); picocli, Jackson and Helidon read its classes
 * reflectively on the class path as before.
 *
 * <p>The MCP SDK (core and its Jackson binding) and Reactor are automatic modules with a stable
 * name (the {@code Automatic-Module-Name} of their manifests), not one derived from a file name;
 * javac warns about every automatic module all the same, hence the suppression.
 */
@SuppressWarnings("requires-automatic")
module dev.brain.server {
  requires dev.brain;
  requires dev.brain.evals;
  requires java.logging;
  requires java.net.http;
  requires jdk.httpserver;
  requires com.fasterxml.jackson.annotation;
  requires com.fasterxml.jackson.core;
  requires com.fasterxml.jackson.databind;
  requires com.fasterxml.jackson.datatype.jsr310;
  requires info.picocli;
  requires io.helidon.common.buffers;
  requires io.helidon.common.media.type;
  requires io.helidon.common.parameters;
  requires io.helidon.common.socket;
  requires io.helidon.http;
  requires io.helidon.http.sse;
  requires io.helidon.webserver;
  requires io.helidon.webserver.sse;
  requires io.helidon.webserver.staticcontent;
  requires io.modelcontextprotocol.sdk.mcp.core;
  requires io.modelcontextprotocol.sdk.mcp.json.jackson2;
  requires me.tongfei.progressbar;
  requires org.commonmark.ext.autolink;
  requires org.commonmark.ext.front.matter;
  requires org.commonmark.ext.gfm.tables;
  requires org.commonmark.ext.task.list.items;
  requires reactor.core;
}
