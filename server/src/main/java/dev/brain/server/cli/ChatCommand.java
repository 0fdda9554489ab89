package dev.brain.server.cli;

import dev.brain.research.trace.Redactor;
import dev.brain.server.chat.Conversation;
import dev.brain.server.chat.ConversationExport;
import dev.brain.server.chat.ConversationStore;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code brain chat list|show|export}: the web Chat's saved conversations ({@code
 * <data>/chat-transcripts}), read from the files; no server is needed. An ID is a conversation id,
 * a unique prefix of one, or {@code latest}.
 */
@Command(
    name = "chat",
    mixinStandardHelpOptions = true,
    description = {
      "The web Chat's saved conversations: list them, show one, or export one to share (Markdown"
          + " or JSON, without secrets, local paths or rejected drafts)."
    },
    subcommands = {ChatCommand.ListChats.class, ChatCommand.Show.class, ChatCommand.Export.class})
final class ChatCommand implements Callable<Integer> {

  @ParentCommand BrainCommand brain;

  @Spec picocli.CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() {
    spec.commandLine().usage(spec.commandLine().getOut());
    return 0;
  }

  ConversationStore store() {
    return ConversationStore.of(brain.config());
  }

  /** {@code brain chat list}. */
  @Command(
      name = "list",
      mixinStandardHelpOptions = true,
      description = "List saved conversations, last saved first.")
  static final class ListChats implements Callable<Integer> {
    @ParentCommand ChatCommand chat;

    @Spec picocli.CommandLine.Model.CommandSpec spec;

    @Option(names = "--json", description = "Print the list as JSON.")
    boolean json;

    @Override
    public Integer call() throws IOException {
      ConversationStore store = chat.store();
      List<Conversation.Summary> all = store.list();
      PrintWriter out = TerminalText.writer(spec.commandLine().getOut());
      if (json) {
        out.println(PrettyJson.pretty(all));
        return 0;
      }
      if (all.isEmpty()) {
        out.println(
            "no saved conversations in "
                + store.root()
                + "; the web Chat saves each one unless \"Don't save this question\" is on");
        return 0;
      }
      for (Conversation.Summary s : all) {
        out.printf(
            Locale.ROOT,
            "%s  %3d turn%s  %s  %s%n",
            s.id(),
            s.turns(),
            s.turns() == 1 ? " " : "s",
            HumanTime.of(s.updatedAt()),
            TerminalText.line(s.title() == null ? "" : s.title()));
      }
      return 0;
    }
  }

  /** {@code brain chat show ID}. */
  @Command(
      name = "show",
      mixinStandardHelpOptions = true,
      description =
          "Print a saved conversation as a document (its Markdown export), or the saved file with"
              + " --json.")
  static final class Show implements Callable<Integer> {
    @ParentCommand ChatCommand chat;

    @Spec picocli.CommandLine.Model.CommandSpec spec;

    @Parameters(
        index = "0",
        paramLabel = "ID",
        defaultValue = "latest",
        description = "Conversation id, unique prefix, or latest. Default: latest.")
    String id;

    @Option(
        names = "--json",
        description = "Print the saved file (every turn as the Chat kept it).")
    boolean json;

    @Override
    public Integer call() throws IOException {
      ConversationStore store = chat.store();
      Conversation conversation = store.find(id);
      PrintWriter out = TerminalText.writer(spec.commandLine().getOut());
      String text =
          json
              ? PrettyJson.pretty(conversation) + "\n"
              : new ConversationExport(store.redactor()).markdown(conversation);
      // Escape sequences in a question or an answer must not reach the terminal.
      out.print(Redactor.withoutControlCharacters(text));
      out.flush();
      return 0;
    }
  }

  /** {@code brain chat export ID}. */
  @Command(
      name = "export",
      mixinStandardHelpOptions = true,
      description = {
        "Export a saved conversation to share: each turn's question, status, answer and citations"
            + " (links to /record/<key>). A turn whose draft failed verification is exported as"
            + " rejected, without the draft. Secrets and paths of this machine are removed."
      })
  static final class Export implements Callable<Integer> {
    @ParentCommand ChatCommand chat;

    @Spec picocli.CommandLine.Model.CommandSpec spec;

    /** The export formats. */
    enum Format {
      md,
      json
    }

    @Parameters(
        index = "0",
        paramLabel = "ID",
        defaultValue = "latest",
        description = "Conversation id, unique prefix, or latest. Default: latest.")
    String id;

    @Option(
        names = "--format",
        paramLabel = "md|json",
        description = "Markdown (md) or JSON (json). Default: md.")
    Format format = Format.md;

    @Option(
        names = "--out",
        paramLabel = "FILE",
        description = "Write to FILE (replaced whole) instead of standard output.")
    Path file;

    @Override
    public Integer call() throws IOException {
      ConversationStore store = chat.store();
      Conversation conversation = store.find(id);
      var export = new ConversationExport(store.redactor());
      String text =
          Redactor.withoutControlCharacters(
              format == Format.json
                  ? PrettyJson.pretty(export.json(conversation)) + "\n"
                  : export.markdown(conversation));
      PrintWriter out = TerminalText.writer(spec.commandLine().getOut());
      if (file == null) {
        out.print(text);
        out.flush();
        return 0;
      }
      write(file, text);
      spec.commandLine()
          .getErr()
          .println(
              "exported conversation "
                  + conversation.id()
                  + " ("
                  + conversation.turns().size()
                  + " turns) to "
                  + file);
      return 0;
    }

    /** Writes a sibling temporary file and renames it over {@code target}. */
    private static void write(Path target, String text) throws IOException {
      Path absolute = target.toAbsolutePath();
      Path dir = absolute.getParent();
      if (dir == null || !Files.isDirectory(dir)) {
        throw new IllegalArgumentException(
            "cannot write " + target + ": its folder does not exist; create it first");
      }
      Path temporary = Files.createTempFile(dir, ".brain-chat-", ".tmp");
      try {
        Files.writeString(temporary, text, StandardCharsets.UTF_8);
        Files.move(temporary, absolute, StandardCopyOption.REPLACE_EXISTING);
      } finally {
        Files.deleteIfExists(temporary);
      }
    }
  }
}
