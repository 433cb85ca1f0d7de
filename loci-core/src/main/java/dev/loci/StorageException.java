package dev.loci;

/**
 * The storage below Loci failed (a write, an fsync, a full disk, a locked data directory). The
 * operator must act. A failed write was not acknowledged and left no trace in the state.
 */
public class StorageException extends LociException {
  private static final long serialVersionUID = 1L;

  /** Creates an exception that says what failed. */
  public StorageException(String message) {
    super(message);
  }

  /** Creates an exception that keeps the I/O cause. */
  public StorageException(String message, Throwable cause) {
    super(message, cause);
  }
}
