package dev.brain.index.importer;

import dev.brain.index.CorpusRecord;
import java.util.LinkedHashSet;
import java.util.List;

/**
 * Reads a {@code .txt} file as a note: title from the file name, {@code #tags} and web links found
 * in the text, the text as is.
 */
final class PlainTextImporter {

  private PlainTextImporter() {}

  static ImportResult read(SourceFile file) throws ImportException {
    String text = file.readText();
    var links = new LinkedHashSet<String>();
    for (String url : NoteSyntax.bareUrls(text)) {
      links.add(Keys.source(url));
    }
    var record =
        CorpusRecord.builder(
                Keys.note(file.collection(), file.relativePath()),
                CorpusRecord.KIND_ITEM,
                "note",
                text.strip())
            .title(file.baseName())
            .path(file.relativePath())
            .tags(Tags.normalizeAll(NoteSyntax.inlineTags(text)))
            .createdAt(file.modified())
            .links(List.copyOf(links))
            .origin(file.origin())
            .updatedAt(file.modified())
            .dateSource(CorpusRecord.DATE_FILE_TIME)
            .build();
    return ImportResult.of(List.of(record));
  }
}
