package dev.loci.client;

import dev.loci.LociException;
import java.util.Objects;
import java.util.Optional;

/**
 * A server refused a request for a reason the embedded API has no exception for: a missing or
 * refused credential (401, 403), a namespace outside the token's scope, a rate limit, a server
 * fault. Carries the problem document's status, stable {@code type} and field.
 */
public class RemoteException extends LociException {
  private static final long serialVersionUID = 1L;
  private final int status;
  private final String type;
  private final transient Optional<String> field;

  /**
   * Creates the exception for one problem response.
   *
   * @param status the HTTP status
   * @param type the problem's stable type name, for example {@code forbidden} (the last segment of
   *     the problem's type URI)
   * @param detail the problem's detail, for people
   * @param field the offending input, when the problem names one
   */
  public RemoteException(int status, String type, String detail, Optional<String> field) {
    super(status + " " + type + ": " + detail);
    this.status = status;
    this.type = Objects.requireNonNull(type, "type");
    this.field = Objects.requireNonNull(field, "field");
  }

  /** The HTTP status. */
  public int status() {
    return status;
  }

  /** The problem's stable type. */
  public String type() {
    return type;
  }

  /** The offending input, when the problem names one. */
  public Optional<String> field() {
    return field;
  }
}
