package dev.loci.server.internal;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.loci.ConflictException;
import dev.loci.EgressRefusedException;
import dev.loci.InvalidRequestException;
import dev.loci.LimitExceededException;
import dev.loci.NotFoundException;
import dev.loci.StaleVersionException;
import dev.loci.StorageException;
import dev.loci.server.spi.HttpProblem;
import dev.loci.spi.JournalUnavailableException;
import io.javalin.http.HttpResponseException;
import java.util.Optional;
import java.util.UUID;

/**
 * The one place where failures become problem responses (RFC 9457, {@code
 * application/problem+json}). Caller errors keep their message; server faults get a fixed message
 * and an incident id, and their details, stack trace included, go only to the server log.
 */
final class Problems {
  static final String CONTENT_TYPE = "application/problem+json";

  private static final System.Logger LOG = System.getLogger("dev.loci.server");
  private static final ObjectMapper MAPPER = new ObjectMapper();

  private Problems() {}

  /** The problem a failure is answered with; logs server faults. */
  static HttpProblem of(Throwable e) {
    if (e instanceof HttpProblem p) {
      return p;
    }
    if (e instanceof JournalUnavailableException) {
      return new HttpProblem(
          503,
          "journal-unavailable",
          "Journal unavailable",
          "the journal cannot take writes now and nothing of this request was written; retry after"
              + " the Retry-After seconds",
          Optional.empty());
    }
    if (e instanceof EgressRefusedException ere) {
      return new HttpProblem(
          403, "egress-refused", "Egress refused", ere.getMessage(), Optional.empty());
    }
    if (e instanceof LimitExceededException lee) {
      return new HttpProblem(
          lee.bytes() ? 413 : 422,
          "limit-exceeded",
          "Limit exceeded",
          lee.getMessage(),
          Optional.of(lee.field()));
    }
    if (e instanceof InvalidRequestException ire) {
      return new HttpProblem(
          400, "invalid-field", "Invalid field", ire.getMessage(), Optional.of(ire.field()));
    }
    if (e instanceof NotFoundException nfe) {
      return new HttpProblem(
          404, "not-found", "Not found", nfe.getMessage(), Optional.of(nfe.field()));
    }
    if (e instanceof StaleVersionException sve) {
      return new HttpProblem(
          412,
          "precondition-failed",
          "Precondition failed",
          sve.getMessage() + " (send its current ETag in If-Match)",
          Optional.of("If-Match"));
    }
    if (e instanceof ConflictException ce) {
      return new HttpProblem(409, "conflict", "Conflict", ce.getMessage(), Optional.empty());
    }
    if (e instanceof HttpResponseException hre) {
      return fromJavalin(hre.getStatus());
    }
    String incident = UUID.randomUUID().toString();
    LOG.log(System.Logger.Level.ERROR, "incident " + incident + ": request failed", e);
    if (e instanceof StorageException) {
      return new HttpProblem(
          503,
          "storage-unavailable",
          "Storage unavailable",
          "the store cannot serve this request now; the operator can find incident "
              + incident
              + " in the server log",
          Optional.empty());
    }
    return new HttpProblem(
        500,
        "internal",
        "Internal error",
        "the server failed; the operator can find incident " + incident + " in the server log",
        Optional.empty());
  }

  /** The problem for a status Javalin or Jetty produced without one of ours. */
  static HttpProblem fromJavalin(int status) {
    return switch (status) {
      case 404 ->
          new HttpProblem(
              404, "not-found", "Not found", "no route matches this path", Optional.empty());
      case 405 ->
          new HttpProblem(
              405,
              "method-not-allowed",
              "Method not allowed",
              "this path does not take this method",
              Optional.empty());
      case 413 ->
          new HttpProblem(
              413,
              "body-too-large",
              "Body too large",
              "the request is too large",
              Optional.empty());
      default ->
          status >= 500
              ? new HttpProblem(
                  status, "internal", "Internal error", "the server failed", Optional.empty())
              : new HttpProblem(
                  status,
                  "bad-request",
                  "Bad request",
                  "the request was refused",
                  Optional.empty());
    };
  }

  /** The JSON body of a problem. */
  static String json(HttpProblem p) {
    ObjectNode node = MAPPER.createObjectNode();
    node.put("type", p.type());
    node.put("title", p.title());
    node.put("status", p.status());
    node.put("detail", p.detail());
    p.field().ifPresent(f -> node.put("field", f));
    return node.toString();
  }
}
