package dev.loci;

import java.util.Objects;

/**
 * A record the caller named does not exist in the namespace the caller named. Nothing was written.
 * A record in another namespace is reported exactly like a record that does not exist, so the error
 * never reveals what another namespace holds.
 */
public class NotFoundException extends LociException {
  private static final long serialVersionUID = 1L;
  private final String field;

  /**
   * Creates an exception for the record named by {@code field}.
   *
   * @param field the input that named the missing record, for example {@code uid}
   * @param message what was looked for; the message of the exception is {@code field: message}
   */
  public NotFoundException(String field, String message) {
    super(field + ": " + message);
    this.field = Objects.requireNonNull(field, "field");
  }

  /** The name of the input that named the missing record. */
  public String field() {
    return field;
  }
}
