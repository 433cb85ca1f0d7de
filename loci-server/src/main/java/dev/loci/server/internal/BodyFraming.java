package dev.loci.server.internal;

import dev.loci.server.spi.HttpProblem;
import java.io.IOException;
import java.io.InputStream;
import java.util.Optional;
import java.util.concurrent.TimeoutException;
import org.eclipse.jetty.http.BadMessageException;

/**
 * What a request body that cannot be read means for its client: a body shorter than its {@code
 * Content-Length}, broken chunked framing or a connection closed mid-body is 400; a body that
 * stopped arriving ({@code limits.body_idle_ms}) or arrives slower than {@code
 * limits.body_min_bytes_per_second} is 408. Never a 500: the client caused it.
 */
final class BodyFraming {
  private BodyFraming() {}

  /** Reads one byte, turning a framing failure into its problem. */
  static int read(InputStream in, long declared) {
    try {
      return in.read();
    } catch (IOException | BadMessageException e) {
      throw problem(e, declared);
    }
  }

  /** Reads into {@code buf}, turning a framing failure into its problem. */
  static int read(InputStream in, byte[] buf, int off, int len, long declared) {
    try {
      return in.read(buf, off, len);
    } catch (IOException | BadMessageException e) {
      throw problem(e, declared);
    }
  }

  /**
   * The problem for a body read that failed with {@code e}.
   *
   * @param declared the request's {@code Content-Length}, -1 if it sent none
   */
  static HttpProblem problem(Exception e, long declared) {
    if (e instanceof HttpProblem p) {
      return p;
    }
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof HttpProblem p) {
        return p;
      }
      if (t instanceof TimeoutException) {
        return timeout("no byte of the body arrived within limits.body_idle_ms");
      }
      if (t instanceof BadMessageException bme && bme.getCode() == 408) {
        return timeout(
            "the body arrived slower than limits.body_min_bytes_per_second ("
                + bme.getReason()
                + ")");
      }
    }
    return new HttpProblem(
        400,
        "incomplete-body",
        "Incomplete body",
        "body: the request ended before its body did"
            + (declared >= 0 ? " (Content-Length " + declared + ")" : "")
            + ", or its chunked framing is malformed",
        Optional.of("body"));
  }

  private static HttpProblem timeout(String detail) {
    return new HttpProblem(
        408, "body-timeout", "Body timeout", "body: " + detail, Optional.of("body"));
  }
}
