package dev.loci;

import java.nio.file.Path;
import java.util.Objects;

/**
 * A journal segment or snapshot file holds bytes that cannot be what Loci wrote: a bad checksum, a
 * header of an unknown format or version, a line that does not parse. The operator must act.
 */
public class CorruptJournalException extends LociException {
  private static final long serialVersionUID = 1L;
  private final transient Path file;
  private final long offset;
  private final String detail;

  /**
   * Creates an exception for damage in {@code file} at byte {@code offset}.
   *
   * @param file the damaged file
   * @param offset byte offset of the damage, or -1 when it concerns the whole file
   * @param detail what is wrong
   */
  public CorruptJournalException(Path file, long offset, String detail) {
    super(file + (offset >= 0 ? " at byte " + offset : "") + ": " + detail);
    this.file = Objects.requireNonNull(file, "file");
    this.offset = offset;
    this.detail = Objects.requireNonNull(detail, "detail");
  }

  /** The damaged file. */
  public Path file() {
    return file;
  }

  /** The byte offset of the damage, or -1 when it concerns the whole file. */
  public long offset() {
    return offset;
  }

  /** What is wrong, without the file and offset. */
  public String detail() {
    return detail;
  }
}
