package dev.loci.ui.internal;

/** A page that cannot be served: rendered as an error page with {@code status} and the message. */
public final class PageProblem extends RuntimeException {
  private final int status;

  /** A problem with HTTP status {@code status} and a message for the person reading the page. */
  public PageProblem(int status, String message) {
    super(message);
    this.status = status;
  }

  /** The HTTP status. */
  public int status() {
    return status;
  }

  static PageProblem forbidden(String message) {
    return new PageProblem(403, message);
  }

  static PageProblem badField(String field, String expected) {
    return new PageProblem(400, field + ": " + expected);
  }
}
