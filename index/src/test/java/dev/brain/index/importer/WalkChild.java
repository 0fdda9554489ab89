package dev.brain.index.importer;

import java.nio.file.Path;

/**
 * A process of its own that walks a folder the way a sync does and prints one line per file it
 * lists ({@code file<TAB>path}) and per entry it leaves out ({@code skipped<TAB>path<TAB>reason}):
 * for the test of a folder the process cannot enter, run without the permission to read everything
 * that root has.
 */
final class WalkChild {
  private WalkChild() {}

  public static void main(String[] args) throws Exception {
    var importers = Importers.defaults();
    var files =
        importers.walk(
            Path.of(args[0]),
            (path, reason) -> System.out.println("skipped\t" + path + "\t" + reason));
    for (Path file : files) {
      System.out.println("file\t" + file);
    }
  }
}
