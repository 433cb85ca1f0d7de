package dev.loci.spi;

import dev.loci.StorageException;

/**
 * Thrown by a journal whose storage could not take a batch (a database that cannot be reached),
 * when it is certain that nothing of the batch was written and the journal is as it was before the
 * call. The engine fails the commands of that write and keeps accepting new ones: a later write
 * succeeds once the storage is back, without a restart. A journal that cannot be sure what was
 * written throws a plain {@link StorageException} instead, and the engine stops writes.
 */
public class JournalUnavailableException extends StorageException {
  private static final long serialVersionUID = 1L;

  /** Creates an exception that says what failed, keeping the cause. */
  public JournalUnavailableException(String message, Throwable cause) {
    super(message, cause);
  }
}
