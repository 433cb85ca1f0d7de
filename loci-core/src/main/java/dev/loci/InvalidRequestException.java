package dev.loci;

import java.util.Objects;

/**
 * The caller sent something Loci cannot accept: a malformed value, a bad namespace, JSON that does
 * not parse. Nothing was written. {@link #field()} names the offending input.
 */
public class InvalidRequestException extends LociException {
  private static final long serialVersionUID = 1L;
  private final String field;

  /**
   * Creates an exception for {@code field}.
   *
   * @param field the name of the offending input, as the caller named it (for example {@code
   *     content} or {@code namespace})
   * @param message what was expected and what was found
   */
  public InvalidRequestException(String field, String message) {
    super(field + ": " + message);
    this.field = Objects.requireNonNull(field, "field");
  }

  /** The name of the offending input. */
  public String field() {
    return field;
  }
}
