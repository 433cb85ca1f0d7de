package dev.loci;

/**
 * The request is well formed but conflicts with the current state (for example a caller-chosen id
 * that is already taken). Nothing was written; the caller must re-read and decide.
 */
public class ConflictException extends LociException {
  private static final long serialVersionUID = 1L;

  /** Creates an exception that says what conflicted. */
  public ConflictException(String message) {
    super(message);
  }
}
