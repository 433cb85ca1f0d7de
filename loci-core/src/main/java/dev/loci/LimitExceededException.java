package dev.loci;

import java.util.Objects;

/**
 * A request is larger than a configured limit allows (bytes of a document, units or edges it would
 * write): nothing was written. The HTTP server answers 413 for a limit on bytes and 422 for a limit
 * on counts, naming the limit.
 */
public class LimitExceededException extends InvalidRequestException {
  private static final long serialVersionUID = 1L;
  private final String limit;
  private final boolean bytes;

  /**
   * Creates an exception for {@code field}, over the limit named {@code limit}.
   *
   * @param field the offending input, such as {@code documents[0].text}
   * @param limit the limit's name as configured, such as {@code ingest_units_per_document}
   * @param bytes whether the limit counts bytes (413) rather than records (422)
   * @param message what was found and what the limit allows
   */
  public LimitExceededException(String field, String limit, boolean bytes, String message) {
    super(field, message + " (limit " + limit + ")");
    this.limit = Objects.requireNonNull(limit, "limit");
    this.bytes = bytes;
  }

  /** The limit's configured name. */
  public String limit() {
    return limit;
  }

  /** Whether the limit counts bytes. */
  public boolean bytes() {
    return bytes;
  }
}
