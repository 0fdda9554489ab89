package dev.brain.index;

import dev.brain.index.importer.Importers;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field.Store;
import org.apache.lucene.document.KeywordField;
import org.apache.lucene.document.NumericDocValuesField;
import org.apache.lucene.document.SortedDocValuesField;
import org.apache.lucene.document.SortedSetDocValuesField;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.document.StringField;
import org.apache.lucene.index.DocValues;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.NumericDocValues;
import org.apache.lucene.index.PostingsEnum;
import org.apache.lucene.index.SortedDocValues;
import org.apache.lucene.index.SortedSetDocValues;
import org.apache.lucene.index.StoredFields;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.util.Bits;
import org.apache.lucene.util.BytesRef;

/**
 * What a sync remembers of each file it read whole, so the next one can tell an unchanged file from
 * its attributes without opening it: the file's stamp (size, modification and change time, file
 * key), the keys of the records it gave and the warnings and truncations it was reported with. One
 * {@code doc_type=file} document per file, in the index itself: it is written after the file's
 * records by the same writer, so a commit never holds a state ahead of the records it vouches for,
 * and {@code removeCollection} deletes it with the collection.
 */
final class FileStates {
  private FileStates() {}

  /** {@link IndexFields#DOC_TYPE} of a file document. */
  static final String FILE = "file";

  /** The file's absolute, normalized path; keyword, stored. */
  static final String PATH_FIELD = "file_path";

  private static final String STAMP = "file_stat";
  private static final String KEYS = "file_records";
  private static final String WARNINGS = "file_warnings";
  private static final String TRUNCATED = "file_truncated";
  private static final String NOTES = "file_notes"; // how many warnings and truncations

  /**
   * How close to the time its stamp was taken a file may have changed and still be trusted: a write
   * in the same clock tick (or the same 2 s of a FAT volume) can leave size and times as they were,
   * so such a stamp is checked by reading the file once more ("racy git").
   */
  static final Duration RACY = Duration.ofSeconds(2);

  /**
   * The build of the readers: stamps say a file is unchanged, not that this brain would read it the
   * same way, so a collection read by another build is read again once (its records are rewritten
   * only where their content hash changed). The jar's size and time; {@code classes} when run from
   * a build folder.
   */
  static final String READER_BUILD = readerBuild();

  /**
   * A file's remembered state.
   *
   * @param collection the collection it was read for
   * @param stamp its stamp when it was read ({@link #stamp}); empty when it was too fresh to trust
   * @param keys the keys of its records
   * @param warnings the parts of it the reader skipped, as reported
   * @param truncated its records the chunk cap cut, with the reasons as reported
   */
  record FileState(
      String collection,
      String stamp,
      List<String> keys,
      List<String> warnings,
      List<String> truncated) {}

  /**
   * The stamp of {@code file} taken at {@code now} (before its bytes are read, so a change while
   * they are read shows next time): size, modification time, the change time and file key where the
   * platform has them. Empty when the file changed less than {@link #RACY} before {@code now}; null
   * when its attributes cannot be read.
   */
  static String stamp(Path file, Instant now) {
    try {
      Map<String, Object> attrs = attributes(file);
      long modified = nanos((FileTime) attrs.get("lastModifiedTime"));
      long changed = attrs.get("ctime") instanceof FileTime t ? nanos(t) : -1;
      if (Math.max(modified, changed) > nanos(FileTime.from(now.minus(RACY)))) {
        return "";
      }
      Object key = attrs.get("fileKey"); // null where the file system has no inodes
      return attrs.get("size") + "/" + modified + "/" + changed + "/" + (key == null ? "" : key);
    } catch (IOException | RuntimeException e) {
      return null; // reading it reports what is wrong
    }
  }

  /**
   * Size, modification time, file key and, where the platform has it, the inode change time (POSIX
   * ctime, which no program can set back: it catches a file replaced with its old size and
   * modification time), all from one {@code stat}.
   */
  private static Map<String, Object> attributes(Path file) throws IOException {
    if (UNIX) {
      return Files.readAttributes(
          file, "unix:size,lastModifiedTime,fileKey,ctime", LinkOption.NOFOLLOW_LINKS);
    }
    BasicFileAttributes basic =
        Files.readAttributes(file, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
    var attrs = new HashMap<String, Object>();
    attrs.put("size", basic.size());
    attrs.put("lastModifiedTime", basic.lastModifiedTime());
    attrs.put("fileKey", basic.fileKey());
    return attrs;
  }

  private static final boolean UNIX =
      java.nio.file.FileSystems.getDefault().supportedFileAttributeViews().contains("unix");

  private static long nanos(FileTime t) {
    return t.to(TimeUnit.NANOSECONDS);
  }

  /** The term that selects the file document of {@code path}. */
  static Term term(String path) {
    return new Term(PATH_FIELD, path);
  }

  /**
   * The file document of {@code path}: what every sync reads is in doc values (read without
   * decompressing stored fields); the warnings and truncations, which few files have, are stored.
   */
  static Document document(String path, FileState state) {
    var doc = new Document();
    doc.add(new StringField(IndexFields.DOC_TYPE, FILE, Store.NO));
    doc.add(new KeywordField(PATH_FIELD, path, Store.NO));
    doc.add(new KeywordField(IndexFields.COLLECTION, state.collection(), Store.NO));
    doc.add(new SortedDocValuesField(STAMP, new BytesRef(state.stamp())));
    state.keys().forEach(k -> doc.add(new SortedSetDocValuesField(KEYS, new BytesRef(k))));
    int notes = state.warnings().size() + state.truncated().size();
    doc.add(new NumericDocValuesField(NOTES, notes));
    state.warnings().forEach(w -> doc.add(new StoredField(WARNINGS, w)));
    state.truncated().forEach(t -> doc.add(new StoredField(TRUNCATED, t)));
    return doc;
  }

  /** Every file's remembered state, by path. */
  static Map<String, FileState> read(IndexSearcher searcher) throws IOException {
    var out = new HashMap<String, FileState>();
    Term files = new Term(IndexFields.DOC_TYPE, FILE);
    for (LeafReaderContext leaf : searcher.getIndexReader().leaves()) {
      LeafReader reader = leaf.reader();
      PostingsEnum docs = reader.postings(files, PostingsEnum.NONE);
      if (docs == null) {
        continue;
      }
      Bits live = reader.getLiveDocs();
      SortedSetDocValues paths = DocValues.getSortedSet(reader, PATH_FIELD);
      SortedSetDocValues collections = DocValues.getSortedSet(reader, IndexFields.COLLECTION);
      SortedDocValues stamps = DocValues.getSorted(reader, STAMP);
      SortedSetDocValues keys = DocValues.getSortedSet(reader, KEYS);
      NumericDocValues notes = DocValues.getNumeric(reader, NOTES);
      StoredFields stored = reader.storedFields();
      for (int doc = docs.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS; doc = docs.nextDoc()) {
        if (live != null && !live.get(doc)) {
          continue;
        }
        String stamp =
            stamps.advanceExact(doc) ? stamps.lookupOrd(stamps.ordValue()).utf8ToString() : "";
        var fileKeys = new ArrayList<String>(1);
        if (keys.advanceExact(doc)) {
          for (int i = 0; i < keys.docValueCount(); i++) {
            fileKeys.add(keys.lookupOrd(keys.nextOrd()).utf8ToString());
          }
        }
        List<String> warnings = List.of();
        List<String> truncated = List.of();
        if (notes.advanceExact(doc) && notes.longValue() > 0) {
          Document d = stored.document(doc, Set.of(WARNINGS, TRUNCATED));
          warnings = Arrays.asList(d.getValues(WARNINGS));
          truncated = Arrays.asList(d.getValues(TRUNCATED));
        }
        out.put(
            IndexReads.first(paths, doc),
            new FileState(
                IndexReads.first(collections, doc), stamp, fileKeys, warnings, truncated));
      }
    }
    return out;
  }

  /**
   * What a collection's files were last read against: this build's readers and the names of all its
   * files (wikilinks resolve by name, so a note's records depend on the other files' names: a file
   * added, renamed or deleted means every note is read again).
   */
  static String reading(List<String> relativeNames) {
    return CorpusRecord.sha256(READER_BUILD + "\n" + String.join("\n", relativeNames));
  }

  private static String readerBuild() {
    try {
      var source = Importers.class.getProtectionDomain().getCodeSource();
      Path location = source == null ? null : Path.of(source.getLocation().toURI());
      if (location != null && Files.isRegularFile(location)) {
        return location.getFileName()
            + "/"
            + Files.size(location)
            + "/"
            + Files.getLastModifiedTime(location).toMillis();
      }
    } catch (IOException | RuntimeException | java.net.URISyntaxException e) {
      // fall through: no build to tell apart
    }
    return "classes";
  }
}
