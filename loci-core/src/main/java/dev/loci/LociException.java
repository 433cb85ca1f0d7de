package dev.loci;

/**
 * Root of every domain failure Loci reports. Subclasses are named after who must act: the caller
 * ({@link InvalidRequestException}, {@link NotFoundException}, {@link ConflictException}) or the
 * operator ({@link StorageException}, {@link CorruptJournalException}, {@link
 * CorruptDataException}).
 */
public class LociException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** Creates an exception with a message that says what happened and what was expected. */
  public LociException(String message) {
    super(message);
  }

  /** Creates an exception that keeps its cause. */
  public LociException(String message, Throwable cause) {
    super(message, cause);
  }
}
