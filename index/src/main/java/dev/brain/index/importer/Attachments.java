package dev.brain.index.importer;

import java.nio.file.Path;
import java.util.Set;

/**
 * Files that are attachments by their type: images, audio, video, archives, fonts and office or
 * e-book documents brain does not import. A vault holds thousands of them beside its notes; a sync
 * counts them per extension instead of reading each only to report it unsupported, so a listing of
 * what went wrong keeps to what did.
 */
public final class Attachments {

  /** Attachment extensions, lower-case, without the dot. None of them is in {@link Importers}. */
  public static final Set<String> EXTENSIONS =
      Set.of(
          // images
          "png",
          "jpg",
          "jpeg",
          "gif",
          "webp",
          "bmp",
          "tif",
          "tiff",
          "svg",
          "ico",
          "heic",
          "heif",
          "avif",
          "psd",
          // audio
          "mp3",
          "wav",
          "m4a",
          "ogg",
          "oga",
          "flac",
          "aac",
          "opus",
          "wma",
          "aif",
          "aiff",
          // video
          "mp4",
          "m4v",
          "mov",
          "avi",
          "mkv",
          "webm",
          "wmv",
          "flv",
          "mpg",
          "mpeg",
          "3gp",
          "ogv",
          // archives
          "zip",
          "tar",
          "gz",
          "tgz",
          "bz2",
          "xz",
          "7z",
          "rar",
          "zst",
          // office and e-book documents brain does not import
          "doc",
          "docx",
          "xls",
          "xlsx",
          "ppt",
          "pptx",
          "odt",
          "ods",
          "odp",
          "rtf",
          "pages",
          "numbers",
          "key",
          "epub",
          // fonts
          "ttf",
          "otf",
          "woff",
          "woff2",
          "eot");

  private Attachments() {}

  /** The file's extension (lower-case, no dot) if the file is an attachment by type, else null. */
  public static String type(Path file) {
    Path name = file.getFileName();
    String extension = name == null ? "" : SourceFile.extensionOf(name.toString());
    return EXTENSIONS.contains(extension) ? extension : null;
  }
}
