package dev.loci.server.spi;

import java.util.Objects;
import java.util.Optional;

/**
 * A failure that is about HTTP rather than the domain (a missing credential, a body too large, a
 * malformed header), carrying its problem response (RFC 9457). Thrown by the server's checks and by
 * route handlers; the server writes it as {@code application/problem+json}.
 */
public class HttpProblem extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** The prefix of every problem {@code type} URI. */
  public static final String TYPE_PREFIX = "https://loci.dev/problems/";

  private final int status;
  private final String type;
  private final String title;
  private final String field;

  /**
   * Creates a problem.
   *
   * @param status the HTTP status
   * @param type the last part of the type URI, e.g. {@code body-too-large}
   * @param title a short, fixed summary of the type
   * @param detail what happened this time and what was expected
   * @param field the offending input, if one
   */
  public HttpProblem(int status, String type, String title, String detail, Optional<String> field) {
    super(detail);
    this.status = status;
    this.type = Objects.requireNonNull(type, "type");
    this.title = Objects.requireNonNull(title, "title");
    this.field = Objects.requireNonNull(field, "field").orElse(null);
  }

  /** A 400 about {@code field}. */
  public static HttpProblem invalidField(String field, String detail) {
    return new HttpProblem(400, "invalid-field", "Invalid field", detail, Optional.of(field));
  }

  /** The HTTP status. */
  public int status() {
    return status;
  }

  /** The full type URI. */
  public String type() {
    return TYPE_PREFIX + type;
  }

  /** The short summary. */
  public String title() {
    return title;
  }

  /** The detail message. */
  public String detail() {
    return getMessage();
  }

  /** The offending input, if one. */
  public Optional<String> field() {
    return Optional.ofNullable(field);
  }

  /** No stack: a problem is an answer to a caller, not a fault to debug. */
  @Override
  public synchronized Throwable fillInStackTrace() {
    return this;
  }
}
